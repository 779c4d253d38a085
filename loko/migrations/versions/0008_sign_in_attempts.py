"""failed sign-ins counted in the database, shared by every process

Revision ID: 0008_sign_in_attempts
Revises: 0007_repohost

The sign-in limit (ten failures a minute for one address and email) was counted in each
process's memory, so `loko serve --processes N` allowed N times as many. Without a shared
store such as Redis, the database itself keeps the counters: one row per address and email
(by hash), reset in place when its window has ended.
"""
from alembic import op
import sqlalchemy as sa


revision = '0008_sign_in_attempts'
down_revision = '0007_repohost'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('sign_in_attempts',
    sa.Column('key_hash', sa.String(length=64), nullable=False),
    sa.Column('attempts', sa.Integer(), nullable=False),
    sa.Column('window_ends_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('key_hash', name=op.f('pk_sign_in_attempts'))
    )
    with op.batch_alter_table('sign_in_attempts', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_sign_in_attempts_window_ends_at'), ['window_ends_at'], unique=False)


def downgrade():
    with op.batch_alter_table('sign_in_attempts', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_sign_in_attempts_window_ends_at'))

    op.drop_table('sign_in_attempts')
