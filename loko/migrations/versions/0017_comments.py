"""comments on keys

Revision ID: 0017_comments
Revises: 0015_webhooks

Threads of comments on a key: for the whole key (language_code null) or one of its
languages, each open until resolved. A comment goes with its key when the key is purged
and with its language when the language is deleted; the trash keeps it.
"""
from alembic import op
import sqlalchemy as sa


revision = '0017_comments'
down_revision = '0015_webhooks'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('comments',
    sa.Column('id', sa.String(length=36), nullable=False),
    sa.Column('project_id', sa.String(length=36), nullable=False),
    sa.Column('translation_id', sa.String(length=36), nullable=False),
    sa.Column('language_code', sa.String(length=35), nullable=True),
    sa.Column('author_type', sa.String(length=16), nullable=False),
    sa.Column('author_id', sa.String(length=36), nullable=True),
    sa.Column('author_name', sa.String(length=128), nullable=False),
    sa.Column('body', sa.Text(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('edited_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('resolved_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('resolved_by_type', sa.String(length=16), nullable=True),
    sa.Column('resolved_by_id', sa.String(length=36), nullable=True),
    sa.Column('resolved_by_name', sa.String(length=128), nullable=True),
    sa.ForeignKeyConstraint(['project_id'], ['projects.id'], name=op.f('fk_comments_project_id_projects'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['translation_id'], ['translations.id'], name=op.f('fk_comments_translation_id_translations'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['project_id', 'language_code'], ['project_languages.project_id', 'project_languages.code'], name='fk_comments_language', onupdate='CASCADE', ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_comments'))
    )
    with op.batch_alter_table('comments', schema=None) as batch_op:
        batch_op.create_index('ix_comments_translation', ['translation_id', 'created_at'], unique=False)
        batch_op.create_index('ix_comments_open', ['translation_id'], unique=False, sqlite_where=sa.text('resolved_at IS NULL'), postgresql_where=sa.text('resolved_at IS NULL'))


def downgrade():
    with op.batch_alter_table('comments', schema=None) as batch_op:
        batch_op.drop_index('ix_comments_open', sqlite_where=sa.text('resolved_at IS NULL'), postgresql_where=sa.text('resolved_at IS NULL'))
        batch_op.drop_index('ix_comments_translation')
    op.drop_table('comments')
