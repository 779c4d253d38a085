"""translations, values, file records and history

Revision ID: 0002_translations
Revises: 0001_foundation


"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0002_translations'
down_revision = '0001_foundation'
branch_labels = None
depends_on = None


def upgrade():

    op.create_table('translation_history',
    sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
    sa.Column('project_id', sa.String(length=36), nullable=False),
    sa.Column('translation_id', sa.String(length=36), nullable=False),
    sa.Column('key', sa.String(length=256), nullable=False),
    sa.Column('file_name', sa.String(length=256), nullable=False),
    sa.Column('language', sa.String(length=35), nullable=True),
    sa.Column('action', sa.String(length=16), nullable=False),
    sa.Column('old_value', sa.Text(), nullable=True),
    sa.Column('new_value', sa.Text(), nullable=True),
    sa.Column('actor_type', sa.String(length=16), nullable=False),
    sa.Column('actor_id', sa.String(length=36), nullable=True),
    sa.Column('actor_name', sa.String(length=128), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['project_id'], ['projects.id'], name=op.f('fk_translation_history_project_id_projects'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_translation_history'))
    )
    with op.batch_alter_table('translation_history', schema=None) as batch_op:
        batch_op.create_index('ix_translation_history_project', ['project_id', 'id'], unique=False)
        batch_op.create_index('ix_translation_history_translation', ['translation_id', 'id'], unique=False)

    op.create_table('translations',
    sa.Column('id', sa.String(length=36), nullable=False),
    sa.Column('project_id', sa.String(length=36), nullable=False),
    sa.Column('file_name', sa.String(length=256), nullable=False),
    sa.Column('key', sa.String(length=256), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('deleted_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['project_id'], ['projects.id'], name=op.f('fk_translations_project_id_projects'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_translations'))
    )
    with op.batch_alter_table('translations', schema=None) as batch_op:
        batch_op.create_index('ix_translations_trash', ['project_id', 'deleted_at'], unique=False)
        batch_op.create_index('uq_translations_active_key', ['project_id', 'file_name', 'key'], unique=True, sqlite_where=sa.text('deleted_at IS NULL'), postgresql_where=sa.text('deleted_at IS NULL'))

    op.create_table('file_records',
    sa.Column('id', sa.String(length=36), nullable=False),
    sa.Column('project_id', sa.String(length=36), nullable=False),
    sa.Column('file_name', sa.String(length=256), nullable=False),
    sa.Column('language_code', sa.String(length=35), nullable=False),
    sa.ForeignKeyConstraint(['project_id', 'language_code'], ['project_languages.project_id', 'project_languages.code'], name='fk_file_records_language', onupdate='CASCADE', ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['project_id'], ['projects.id'], name=op.f('fk_file_records_project_id_projects'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_file_records')),
    sa.UniqueConstraint('project_id', 'file_name', 'language_code', name='uq_file_records_file_language')
    )
    op.create_table('translation_values',
    sa.Column('translation_id', sa.String(length=36), nullable=False),
    sa.Column('language_code', sa.String(length=35), nullable=False),
    sa.Column('project_id', sa.String(length=36), nullable=False),
    sa.Column('value', sa.Text(), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['project_id', 'language_code'], ['project_languages.project_id', 'project_languages.code'], name='fk_translation_values_language', onupdate='CASCADE', ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['translation_id'], ['translations.id'], name=op.f('fk_translation_values_translation_id_translations'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('translation_id', 'language_code', name=op.f('pk_translation_values'))
    )
    with op.batch_alter_table('translation_values', schema=None) as batch_op:
        batch_op.create_index('ix_translation_values_project_language', ['project_id', 'language_code'], unique=False)

    with op.batch_alter_table('projects', schema=None) as batch_op:
        batch_op.add_column(sa.Column('data_updated_at', sa.DateTime(timezone=True), nullable=False, server_default=sa.text('CURRENT_TIMESTAMP')))




def downgrade():

    with op.batch_alter_table('projects', schema=None) as batch_op:
        batch_op.drop_column('data_updated_at')

    with op.batch_alter_table('translation_values', schema=None) as batch_op:
        batch_op.drop_index('ix_translation_values_project_language')

    op.drop_table('translation_values')
    op.drop_table('file_records')
    with op.batch_alter_table('translations', schema=None) as batch_op:
        batch_op.drop_index('uq_translations_active_key', sqlite_where=sa.text('deleted_at IS NULL'), postgresql_where=sa.text('deleted_at IS NULL'))
        batch_op.drop_index('ix_translations_trash')

    op.drop_table('translations')
    with op.batch_alter_table('translation_history', schema=None) as batch_op:
        batch_op.drop_index('ix_translation_history_translation')
        batch_op.drop_index('ix_translation_history_project')

    op.drop_table('translation_history')

