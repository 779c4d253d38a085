"""sessions of MCP clients that use the initialize handshake

Revision ID: 0003_mcp_sessions
Revises: 0002_translations


"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0003_mcp_sessions'
down_revision = '0002_translations'
branch_labels = None
depends_on = None


def upgrade():

    op.create_table('mcp_sessions',
    sa.Column('id', sa.String(length=64), nullable=False),
    sa.Column('api_key_id', sa.String(length=36), nullable=False),
    sa.Column('protocol_version', sa.String(length=32), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('expires_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('last_seen_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['api_key_id'], ['api_keys.id'], name=op.f('fk_mcp_sessions_api_key_id_api_keys'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_mcp_sessions'))
    )
    with op.batch_alter_table('mcp_sessions', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_mcp_sessions_api_key_id'), ['api_key_id'], unique=False)




def downgrade():

    with op.batch_alter_table('mcp_sessions', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_mcp_sessions_api_key_id'))

    op.drop_table('mcp_sessions')

