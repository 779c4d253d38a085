"""a project's code repository and the runs of its push and sync

Revision ID: 0007_repohost
Revises: 0006_pending_imports
"""
from alembic import op
import sqlalchemy as sa



revision = '0007_repohost'
down_revision = '0006_pending_imports'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'repohosts',
        sa.Column('project_id', sa.String(length=36), nullable=False),
        sa.Column('provider', sa.String(length=16), nullable=False),
        sa.Column('repository', sa.String(length=256), nullable=False),
        sa.Column('branch', sa.String(length=256), nullable=False),
        sa.Column('path', sa.String(length=512), nullable=False),
        sa.Column('format', sa.String(length=32), nullable=False),
        sa.Column('api_url', sa.String(length=512), nullable=True),
        sa.Column('token_encrypted', sa.Text(), nullable=False),
        sa.Column('webhook_secret_encrypted', sa.Text(), nullable=False),
        sa.Column('configured_by', sa.String(length=36), nullable=True),
        sa.Column('running', sa.String(length=16), nullable=True),
        sa.Column('run_started_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(['project_id'], ['projects.id'], name=op.f('fk_repohosts_project_id_projects'), ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('project_id', name=op.f('pk_repohosts')),
    )
    op.create_table(
        'repohost_runs',
        sa.Column('id', sa.String(length=36), nullable=False),
        sa.Column('project_id', sa.String(length=36), nullable=False),
        sa.Column('kind', sa.String(length=16), nullable=False),
        sa.Column('dry_run', sa.Integer(), nullable=False),
        sa.Column('status', sa.String(length=16), nullable=False),
        sa.Column('summary', sa.Text(), nullable=False),
        sa.Column('result', sa.Text(), nullable=True),
        sa.Column('actor_name', sa.String(length=128), nullable=True),
        sa.Column('started_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('finished_at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(['project_id'], ['projects.id'], name=op.f('fk_repohost_runs_project_id_projects'), ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_repohost_runs')),
    )
    with op.batch_alter_table('repohost_runs', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_repohost_runs_project_id'), ['project_id'], unique=False)


def downgrade():
    with op.batch_alter_table('repohost_runs', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_repohost_runs_project_id'))
    op.drop_table('repohost_runs')
    op.drop_table('repohosts')
