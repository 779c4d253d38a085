"""issues the checks find, stored per value; review states; the checks' levels; the reviewer role

Revision ID: 0016_checks_review
Revises: 0015_webhooks

value_issues holds one row per value and check that finds something wrong with it, removed
with its value. translation_values.state is the value's review state (existing values become
"translated", the server default, so no row is rewritten by hand); a partial index finds the
values waiting for a review. projects.checks keeps each check's level as JSON (empty: every
check at "warn"). Project members may have the role "reviewer".
"""
from alembic import op
import sqlalchemy as sa


revision = '0016_checks_review'
down_revision = '0016_file_versions'
branch_labels = None
depends_on = None

ROLES = "role IN ('admin', 'reviewer', 'editor', 'viewer')"
OLD_ROLES = "role IN ('admin', 'editor', 'viewer')"


def upgrade():
    with op.batch_alter_table('translation_values', schema=None) as batch_op:
        batch_op.add_column(
            sa.Column('state', sa.String(length=16), server_default='translated', nullable=False)
        )
        batch_op.create_index(
            'ix_translation_values_needs_review',
            ['project_id', 'language_code'],
            unique=False,
            sqlite_where=sa.text("state = 'needs-review'"),
            postgresql_where=sa.text("state = 'needs-review'"),
        )
    with op.batch_alter_table('projects', schema=None) as batch_op:
        batch_op.add_column(sa.Column('checks', sa.Text(), server_default='{}', nullable=False))
    op.create_table('value_issues',
    sa.Column('translation_id', sa.String(length=36), nullable=False),
    sa.Column('language_code', sa.String(length=35), nullable=False),
    sa.Column('check_code', sa.String(length=32), nullable=False),
    sa.Column('project_id', sa.String(length=36), nullable=False),
    sa.Column('message', sa.Text(), nullable=False),
    sa.Column('fix', sa.Text(), nullable=True),
    sa.ForeignKeyConstraint(['translation_id', 'language_code'], ['translation_values.translation_id', 'translation_values.language_code'], name='fk_value_issues_value', onupdate='CASCADE', ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('translation_id', 'language_code', 'check_code', name=op.f('pk_value_issues'))
    )
    with op.batch_alter_table('value_issues', schema=None) as batch_op:
        batch_op.create_index('ix_value_issues_project_check', ['project_id', 'check_code', 'language_code'], unique=False)
        batch_op.create_index('ix_value_issues_project_language', ['project_id', 'language_code', 'check_code'], unique=False)
    with op.batch_alter_table('project_members', schema=None) as batch_op:
        batch_op.drop_constraint(op.f('ck_project_members_role'), type_='check')
        batch_op.create_check_constraint('role', ROLES)


def downgrade():
    op.execute("DELETE FROM project_members WHERE role = 'reviewer'")
    with op.batch_alter_table('project_members', schema=None) as batch_op:
        batch_op.drop_constraint(op.f('ck_project_members_role'), type_='check')
        batch_op.create_check_constraint('role', OLD_ROLES)
    with op.batch_alter_table('value_issues', schema=None) as batch_op:
        batch_op.drop_index('ix_value_issues_project_language')
        batch_op.drop_index('ix_value_issues_project_check')
    op.drop_table('value_issues')
    with op.batch_alter_table('projects', schema=None) as batch_op:
        batch_op.drop_column('checks')
    with op.batch_alter_table('translation_values', schema=None) as batch_op:
        batch_op.drop_index('ix_translation_values_needs_review', sqlite_where=sa.text("state = 'needs-review'"))
        batch_op.drop_column('state')
