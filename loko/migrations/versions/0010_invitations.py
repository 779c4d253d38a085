"""invitation links to an organization

Revision ID: 0010_invitations
Revises: 0009_operations

An owner or admin makes a single-use link that lets a person (with an account or a new
one, even when open sign-up is off) join the organization with a given role. Only the
SHA-256 of the link's token is stored.
"""
from alembic import op
import sqlalchemy as sa


revision = '0010_invitations'
down_revision = '0009_operations'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'organization_invitations',
        sa.Column('id', sa.String(length=36), nullable=False),
        sa.Column('organization_id', sa.String(length=36), nullable=False),
        sa.Column('role', sa.String(length=16), nullable=False),
        sa.Column('token_hash', sa.String(length=64), nullable=False),
        sa.Column('created_by', sa.String(length=36), nullable=True),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('expires_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('accepted_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('accepted_by', sa.String(length=36), nullable=True),
        sa.Column('revoked_at', sa.DateTime(timezone=True), nullable=True),
        sa.CheckConstraint("role IN ('owner', 'admin', 'member')", name=op.f('ck_organization_invitations_role')),
        sa.ForeignKeyConstraint(['organization_id'], ['organizations.id'], name=op.f('fk_organization_invitations_organization_id_organizations'), ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['created_by'], ['users.id'], name=op.f('fk_organization_invitations_created_by_users'), ondelete='SET NULL'),
        sa.ForeignKeyConstraint(['accepted_by'], ['users.id'], name=op.f('fk_organization_invitations_accepted_by_users'), ondelete='SET NULL'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_organization_invitations')),
        sa.UniqueConstraint('token_hash', name=op.f('uq_organization_invitations_token_hash')),
    )
    with op.batch_alter_table('organization_invitations', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_organization_invitations_organization_id'), ['organization_id'], unique=False)


def downgrade():
    with op.batch_alter_table('organization_invitations', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_organization_invitations_organization_id'))
    op.drop_table('organization_invitations')
