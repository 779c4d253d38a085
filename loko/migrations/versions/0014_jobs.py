"""background jobs kept in the database

Revision ID: 0014_jobs
Revises: 0012_natural_key_order

One row per job: the handler's name, its JSON payload, its state (queued, running,
succeeded, failed, cancelled), attempts, when it may run next, progress, result or error,
and the worker holding it with that worker's last heartbeat. A partial unique index keeps
at most one queued job per coalescing key.
"""
from alembic import op
import sqlalchemy as sa


revision = '0014_jobs'
down_revision = '0012_natural_key_order'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('jobs',
    sa.Column('id', sa.String(length=36), nullable=False),
    sa.Column('kind', sa.String(length=64), nullable=False),
    sa.Column('project_id', sa.String(length=36), nullable=True),
    sa.Column('payload', sa.Text(), nullable=False),
    sa.Column('state', sa.String(length=16), nullable=False),
    sa.Column('attempts', sa.Integer(), nullable=False),
    sa.Column('max_attempts', sa.Integer(), nullable=False),
    sa.Column('run_after', sa.DateTime(timezone=True), nullable=False),
    sa.Column('progress_done', sa.Integer(), nullable=False),
    sa.Column('progress_total', sa.Integer(), nullable=True),
    sa.Column('result', sa.Text(), nullable=True),
    sa.Column('error', sa.Text(), nullable=True),
    sa.Column('coalesce_key', sa.String(length=200), nullable=True),
    sa.Column('claimed_by', sa.String(length=64), nullable=True),
    sa.Column('heartbeat_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('started_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('finished_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['project_id'], ['projects.id'], name=op.f('fk_jobs_project_id_projects'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_jobs'))
    )
    with op.batch_alter_table('jobs', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_jobs_project_id'), ['project_id'], unique=False)
        batch_op.create_index('ix_jobs_runnable', ['state', 'run_after'], unique=False)
        batch_op.create_index(
            'uq_jobs_queued_coalesce_key',
            ['coalesce_key'],
            unique=True,
            sqlite_where=sa.text("state = 'queued' AND coalesce_key IS NOT NULL"),
            postgresql_where=sa.text("state = 'queued' AND coalesce_key IS NOT NULL"),
        )


def downgrade():
    with op.batch_alter_table('jobs', schema=None) as batch_op:
        batch_op.drop_index('uq_jobs_queued_coalesce_key')
        batch_op.drop_index('ix_jobs_runnable')
        batch_op.drop_index(batch_op.f('ix_jobs_project_id'))

    op.drop_table('jobs')
