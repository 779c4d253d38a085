"""machine translation providers of an organization

Revision ID: 0018_machine_providers
Revises: 0015_webhooks

An organization's machine translation services (DeepL, LibreTranslate, an OpenAI-compatible
chat API): kind, name, base URL, model, the API key encrypted and its last four characters,
the LLM instructions (for every language, and per language as JSON), enabled.

The revision follows 0015_webhooks for now; it is chained after the revisions that land
before it when the branches are merged.
"""
from alembic import op
import sqlalchemy as sa


revision = '0018_machine_providers'
down_revision = '0017_comments'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('machine_providers',
    sa.Column('id', sa.String(length=36), nullable=False),
    sa.Column('organization_id', sa.String(length=36), nullable=False),
    sa.Column('kind', sa.String(length=32), nullable=False),
    sa.Column('name', sa.String(length=100), nullable=False),
    sa.Column('base_url', sa.String(length=2048), nullable=True),
    sa.Column('model', sa.String(length=200), nullable=True),
    sa.Column('api_key_encrypted', sa.Text(), nullable=True),
    sa.Column('api_key_last4', sa.String(length=4), nullable=True),
    sa.Column('instruction', sa.Text(), nullable=False),
    sa.Column('language_instructions', sa.Text(), nullable=False),
    sa.Column('enabled', sa.Boolean(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.CheckConstraint("kind IN ('deepl', 'libretranslate', 'openai')", name=op.f('ck_machine_providers_kind')),
    sa.ForeignKeyConstraint(['organization_id'], ['organizations.id'], name=op.f('fk_machine_providers_organization_id_organizations'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_machine_providers'))
    )
    with op.batch_alter_table('machine_providers', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_machine_providers_organization_id'), ['organization_id'], unique=False)


def downgrade():
    with op.batch_alter_table('machine_providers', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_machine_providers_organization_id'))
    op.drop_table('machine_providers')
