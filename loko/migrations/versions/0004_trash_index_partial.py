"""the trash index covers trashed translations only

Revision ID: 0004_trash_index_partial
Revises: 0003_mcp_sessions

An index over every translation's (project_id, deleted_at) looked, to a planner without
fresh statistics, like the best way to find a file's active keys: it then read every key
of the project for each file. Restricted to trashed rows it serves only the trash, and the
active keys are found through uq_translations_active_key whatever the statistics say.
"""
from alembic import op
import sqlalchemy as sa


revision = '0004_trash_index_partial'
down_revision = '0003_mcp_sessions'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('translations', schema=None) as batch_op:
        batch_op.drop_index('ix_translations_trash')
        batch_op.create_index(
            'ix_translations_trash',
            ['project_id', 'deleted_at'],
            unique=False,
            sqlite_where=sa.text('deleted_at IS NOT NULL'),
            postgresql_where=sa.text('deleted_at IS NOT NULL'),
        )


def downgrade():
    with op.batch_alter_table('translations', schema=None) as batch_op:
        batch_op.drop_index('ix_translations_trash')
        batch_op.create_index('ix_translations_trash', ['project_id', 'deleted_at'], unique=False)
