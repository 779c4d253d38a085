"""uploads kept between an import's dry run and its confirmation

Revision ID: 0006_pending_imports
Revises: 0005_key_notes

The import page shows what an upload would change before anything is written; the person
then confirms without choosing the file again. The upload and its options wait here, for
one user in one project, until confirmed, cancelled or an hour old.
"""
from alembic import op
import sqlalchemy as sa


revision = '0006_pending_imports'
down_revision = '0005_key_notes'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('pending_imports',
    sa.Column('id', sa.String(length=36), nullable=False),
    sa.Column('project_id', sa.String(length=36), nullable=False),
    sa.Column('user_id', sa.String(length=36), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('options', sa.Text(), nullable=False),
    sa.Column('data', sa.LargeBinary(), nullable=False),
    sa.ForeignKeyConstraint(['project_id'], ['projects.id'], name=op.f('fk_pending_imports_project_id_projects'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['user_id'], ['users.id'], name=op.f('fk_pending_imports_user_id_users'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_pending_imports'))
    )
    with op.batch_alter_table('pending_imports', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_pending_imports_project_id'), ['project_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_pending_imports_user_id'), ['user_id'], unique=False)


def downgrade():
    with op.batch_alter_table('pending_imports', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_pending_imports_user_id'))
        batch_op.drop_index(batch_op.f('ix_pending_imports_project_id'))

    op.drop_table('pending_imports')
