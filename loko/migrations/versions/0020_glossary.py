"""organization glossaries

Revision ID: 0020_glossary
Revises: 0016_checks_review

An organization's glossary: terms in a language (part of speech, note, case sensitivity, a
forbidden flag), their translations per language (allowed or forbidden), and one row per
organization whose revision grows with every change. New tables only: no row changes.
"""
from alembic import op
import sqlalchemy as sa


revision = '0020_glossary'
down_revision = '0016_checks_review'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('glossaries',
    sa.Column('organization_id', sa.String(length=36), nullable=False),
    sa.Column('revision', sa.Integer(), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['organization_id'], ['organizations.id'], name=op.f('fk_glossaries_organization_id_organizations'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('organization_id', name=op.f('pk_glossaries'))
    )
    op.create_table('glossary_terms',
    sa.Column('id', sa.String(length=36), nullable=False),
    sa.Column('organization_id', sa.String(length=36), nullable=False),
    sa.Column('language', sa.String(length=35), nullable=False),
    sa.Column('term', sa.String(length=200), nullable=False),
    sa.Column('part_of_speech', sa.String(length=16), nullable=True),
    sa.Column('note', sa.Text(), nullable=False),
    sa.Column('case_sensitive', sa.Boolean(), nullable=False),
    sa.Column('forbidden', sa.Boolean(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.CheckConstraint("part_of_speech IS NULL OR part_of_speech IN ('noun', 'verb', 'adjective', 'adverb', 'properNoun', 'other')", name=op.f('ck_glossary_terms_part_of_speech')),
    sa.ForeignKeyConstraint(['organization_id'], ['organizations.id'], name=op.f('fk_glossary_terms_organization_id_organizations'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_glossary_terms')),
    sa.UniqueConstraint('organization_id', 'language', 'term', name='uq_glossary_terms_term')
    )
    with op.batch_alter_table('glossary_terms', schema=None) as batch_op:
        batch_op.create_index('ix_glossary_terms_listing', ['organization_id', 'term'], unique=False)
    op.create_table('glossary_translations',
    sa.Column('id', sa.String(length=36), nullable=False),
    sa.Column('term_id', sa.String(length=36), nullable=False),
    sa.Column('language', sa.String(length=35), nullable=False),
    sa.Column('text', sa.String(length=200), nullable=False),
    sa.Column('forbidden', sa.Boolean(), nullable=False),
    sa.Column('position', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['term_id'], ['glossary_terms.id'], name=op.f('fk_glossary_translations_term_id_glossary_terms'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_glossary_translations')),
    sa.UniqueConstraint('term_id', 'language', 'text', name='uq_glossary_translations_text')
    )
    with op.batch_alter_table('glossary_translations', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_glossary_translations_term_id'), ['term_id'], unique=False)


def downgrade():
    with op.batch_alter_table('glossary_translations', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_glossary_translations_term_id'))
    op.drop_table('glossary_translations')
    with op.batch_alter_table('glossary_terms', schema=None) as batch_op:
        batch_op.drop_index('ix_glossary_terms_listing')
    op.drop_table('glossary_terms')
    op.drop_table('glossaries')
