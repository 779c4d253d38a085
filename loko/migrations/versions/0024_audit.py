"""the audit log of an organization

Revision ID: 0024_audit
Revises: 0022_sso

audit_events holds one row per audited action of an organization (sign-ins and their
failures, members, roles, invitations, API keys, settings, links, repository and provider
configuration, webhooks, full exports by a key), newest by id; removed with its organization.
A new table: no existing row is touched.
"""
from alembic import op
import sqlalchemy as sa


revision = '0024_audit'
down_revision = "0022_sso"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('audit_events',
    sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
    sa.Column('organization_id', sa.String(length=36), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('action', sa.String(length=64), nullable=False),
    sa.Column('actor_type', sa.String(length=16), nullable=False),
    sa.Column('actor_id', sa.String(length=36), nullable=True),
    sa.Column('actor_name', sa.String(length=320), nullable=True),
    sa.Column('target_type', sa.String(length=32), nullable=True),
    sa.Column('target_id', sa.String(length=64), nullable=True),
    sa.Column('target_label', sa.String(length=320), nullable=True),
    sa.Column('ip_address', sa.String(length=45), nullable=True),
    sa.Column('details', sa.Text(), nullable=False),
    sa.ForeignKeyConstraint(['organization_id'], ['organizations.id'], name=op.f('fk_audit_events_organization_id_organizations'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_audit_events'))
    )
    with op.batch_alter_table('audit_events', schema=None) as batch_op:
        batch_op.create_index('ix_audit_events_organization', ['organization_id', 'id'], unique=False)
        batch_op.create_index('ix_audit_events_organization_created', ['organization_id', 'created_at'], unique=False)
        batch_op.create_index('ix_audit_events_organization_action', ['organization_id', 'action', 'id'], unique=False)
        batch_op.create_index('ix_audit_events_organization_actor', ['organization_id', 'actor_id', 'id'], unique=False)
        batch_op.create_index('ix_audit_events_organization_target', ['organization_id', 'target_type', 'id'], unique=False)
        batch_op.create_index('ix_audit_events_created', ['created_at'], unique=False)


def downgrade():
    with op.batch_alter_table('audit_events', schema=None) as batch_op:
        batch_op.drop_index('ix_audit_events_created')
        batch_op.drop_index('ix_audit_events_organization_target')
        batch_op.drop_index('ix_audit_events_organization_actor')
        batch_op.drop_index('ix_audit_events_organization_action')
        batch_op.drop_index('ix_audit_events_organization_created')
        batch_op.drop_index('ix_audit_events_organization')
    op.drop_table('audit_events')
