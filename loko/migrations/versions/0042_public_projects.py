"""projects: public projects and the people blocked from proposing in them

Revision ID: 0042_public_projects
Revises: 0041_repohost_tags

``projects`` gains ``public`` (false for every project, its server default): a signed-in
person who is not a member of a public project reads its source texts, current values and
proposals and proposes in it (``loko.auth.policy``). ``proposal_blocks`` holds one row per
project and person an admin has blocked from proposing there. Every existing row keeps its
columns as they were.
"""

import sqlalchemy as sa
from alembic import op

revision = "0042_public_projects"
down_revision = "0041_repohost_tags"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("projects", schema=None) as batch_op:
        batch_op.add_column(sa.Column("public", sa.Boolean(), server_default=sa.false(), nullable=False))
    op.create_table(
        "proposal_blocks",
        sa.Column("project_id", sa.String(length=36), nullable=False),
        sa.Column("user_id", sa.String(length=36), nullable=False),
        sa.Column("blocked_by_id", sa.String(length=36), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["project_id"],
            ["projects.id"],
            name=op.f("fk_proposal_blocks_project_id_projects"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_proposal_blocks_user_id_users"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["blocked_by_id"],
            ["users.id"],
            name=op.f("fk_proposal_blocks_blocked_by_id_users"),
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("project_id", "user_id", name=op.f("pk_proposal_blocks")),
    )


def downgrade():
    op.drop_table("proposal_blocks")
    with op.batch_alter_table("projects", schema=None) as batch_op:
        batch_op.drop_column("public")
