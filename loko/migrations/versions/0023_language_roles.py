"""per-language roles: project members' and API keys' languages; API keys' expiry and last address

Revision ID: 0023_language_roles
Revises: 0019_memory

project_members.languages and api_keys.languages hold the language codes a member's or a
key's writes are limited to, as a JSON list (NULL: every language, which every existing row
keeps). api_keys.expires_at is when a key stops working (NULL: never, for every existing key)
and api_keys.last_used_from the client address of its last noted use. Only columns are
added, all nullable, so no row is rewritten.
"""
from alembic import op
import sqlalchemy as sa


revision = '0023_language_roles'
down_revision = "0019_memory"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('project_members', schema=None) as batch_op:
        batch_op.add_column(sa.Column('languages', sa.Text(), nullable=True))
    with op.batch_alter_table('api_keys', schema=None) as batch_op:
        batch_op.add_column(sa.Column('last_used_from', sa.String(length=64), nullable=True))
        batch_op.add_column(sa.Column('expires_at', sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column('languages', sa.Text(), nullable=True))


def downgrade():
    with op.batch_alter_table('api_keys', schema=None) as batch_op:
        batch_op.drop_column('languages')
        batch_op.drop_column('expires_at')
        batch_op.drop_column('last_used_from')
    with op.batch_alter_table('project_members', schema=None) as batch_op:
        batch_op.drop_column('languages')
