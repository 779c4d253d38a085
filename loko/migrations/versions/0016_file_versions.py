"""a data version per file, for exports of named files

Revision ID: 0016_file_versions
Revises: 0015_webhooks

file_versions holds, per project and file name, the project data version at the file's last
change; projects.shared_version and projects.scoped_version tell whether the project's last
change was confined to named files (see loko.projects.service.bump_data_version). Both new
columns start at 0, which reads as "the last change was shared": every export keeps the
ETag it had. No existing row is rewritten.
"""
from alembic import op
import sqlalchemy as sa


revision = '0016_file_versions'
down_revision = '0018_machine_providers'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('file_versions',
    sa.Column('project_id', sa.String(length=36), nullable=False),
    sa.Column('file_name', sa.String(length=256), nullable=False),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['project_id'], ['projects.id'], name=op.f('fk_file_versions_project_id_projects'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('project_id', 'file_name', name=op.f('pk_file_versions'))
    )
    with op.batch_alter_table('projects', schema=None) as batch_op:
        batch_op.add_column(sa.Column('shared_version', sa.Integer(), server_default='0', nullable=False))
        batch_op.add_column(sa.Column('scoped_version', sa.Integer(), server_default='0', nullable=False))


def downgrade():
    with op.batch_alter_table('projects', schema=None) as batch_op:
        batch_op.drop_column('scoped_version')
        batch_op.drop_column('shared_version')
    op.drop_table('file_versions')
