"""bulk changes kept as operations that can be undone as a whole

Revision ID: 0009_operations
Revises: 0008_sign_in_attempts

An import, a bulk delete, a file or language delete is one operation: a row that names its
kind, actor and what the history cannot keep (the file records and language a delete
removed), and an ``operation_id`` on each history entry it wrote. A nullable column, so
adding it rewrites no row; existing entries belong to no operation.
"""
from alembic import op
import sqlalchemy as sa


revision = '0009_operations'
down_revision = '0008_sign_in_attempts'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'operations',
        sa.Column('id', sa.String(length=36), nullable=False),
        sa.Column('project_id', sa.String(length=36), nullable=False),
        sa.Column('kind', sa.String(length=32), nullable=False),
        sa.Column('details', sa.Text(), nullable=False),
        sa.Column('permanent', sa.Boolean(), nullable=False),
        sa.Column('actor_type', sa.String(length=16), nullable=False),
        sa.Column('actor_id', sa.String(length=36), nullable=True),
        sa.Column('actor_name', sa.String(length=128), nullable=True),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('undone_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('undone_by', sa.String(length=36), nullable=True),
        sa.Column('expired_at', sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(['project_id'], ['projects.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id'),
    )
    op.create_index('ix_operations_project', 'operations', ['project_id', 'created_at'])
    with op.batch_alter_table('translation_history', schema=None) as batch_op:
        batch_op.add_column(sa.Column('operation_id', sa.String(length=36), nullable=True))
    op.create_index(
        'ix_translation_history_operation',
        'translation_history',
        ['operation_id'],
        sqlite_where=sa.text('operation_id IS NOT NULL'),
        postgresql_where=sa.text('operation_id IS NOT NULL'),
    )


def downgrade():
    op.drop_index('ix_translation_history_operation', table_name='translation_history')
    with op.batch_alter_table('translation_history', schema=None) as batch_op:
        batch_op.drop_column('operation_id')
    op.drop_index('ix_operations_project', table_name='operations')
    op.drop_table('operations')
