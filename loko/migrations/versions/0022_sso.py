"""single sign-on with OpenID Connect

Revision ID: 0022_sso
Revises: 0020_glossary

The accounts users hold at OpenID providers, linked by (issuer, subject), the sign-ins
sent to a provider that have not come back yet, and which provider opened a session.
"""
from alembic import op
import sqlalchemy as sa


revision = '0022_sso'
down_revision = "0020_glossary"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('user_identities',
    sa.Column('id', sa.String(length=36), nullable=False),
    sa.Column('user_id', sa.String(length=36), nullable=False),
    sa.Column('provider', sa.String(length=32), nullable=False),
    sa.Column('issuer', sa.String(length=255), nullable=False),
    sa.Column('subject', sa.String(length=255), nullable=False),
    sa.Column('email', sa.String(length=320), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('last_sign_in_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['user_id'], ['users.id'], name=op.f('fk_user_identities_user_id_users'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_user_identities')),
    sa.UniqueConstraint('issuer', 'subject', name='uq_user_identities_issuer_subject')
    )
    with op.batch_alter_table('user_identities', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_user_identities_user_id'), ['user_id'], unique=False)

    op.create_table('sso_pending_sign_ins',
    sa.Column('state_hash', sa.String(length=64), nullable=False),
    sa.Column('browser_hash', sa.String(length=64), nullable=False),
    sa.Column('provider', sa.String(length=32), nullable=False),
    sa.Column('nonce', sa.String(length=128), nullable=False),
    sa.Column('code_verifier', sa.String(length=128), nullable=False),
    sa.Column('next_path', sa.String(length=2048), nullable=True),
    sa.Column('invitation_token', sa.String(length=128), nullable=True),
    sa.Column('expires_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('state_hash', name=op.f('pk_sso_pending_sign_ins'))
    )
    with op.batch_alter_table('sso_pending_sign_ins', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_sso_pending_sign_ins_expires_at'), ['expires_at'], unique=False)


    op.create_table('sso_sessions',
    sa.Column('token_hash', sa.String(length=64), nullable=False),
    sa.Column('provider', sa.String(length=32), nullable=False),
    sa.ForeignKeyConstraint(['token_hash'], ['sessions.token_hash'], name=op.f('fk_sso_sessions_token_hash_sessions'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('token_hash', name=op.f('pk_sso_sessions'))
    )


def downgrade():
    op.drop_table('sso_sessions')
    with op.batch_alter_table('sso_pending_sign_ins', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_sso_pending_sign_ins_expires_at'))
    op.drop_table('sso_pending_sign_ins')
    with op.batch_alter_table('user_identities', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_user_identities_user_id'))
    op.drop_table('user_identities')
