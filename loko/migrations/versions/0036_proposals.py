"""proposals: texts proposed for a key and language, their votes; the contributor role; how
each language takes changes; protected reviewed values

Revision ID: 0036_proposals
Revises: 0035_key_tags

``proposals`` holds one row per proposed text (open, accepted, rejected or superseded) and
``proposal_votes`` one row per person and proposal (+1 or -1). ``project_languages`` gains
``proposal_mode`` (``direct``, every row's server default, so each language takes values as
before; ``propose``; ``votes``) and ``auto_accept_votes``; ``projects`` gains
``protect_reviewed`` (false for every project). Project members may have the role
"contributor". Every existing row keeps its columns as they were.
"""

import sqlalchemy as sa
from alembic import op

revision = "0036_proposals"
down_revision = "0035_key_tags"
branch_labels = None
depends_on = None

ROLES = "role IN ('admin', 'reviewer', 'editor', 'contributor', 'viewer')"
OLD_ROLES = "role IN ('admin', 'reviewer', 'editor', 'viewer')"
OPEN = sa.text("state = 'open'")


def upgrade():
    op.create_table(
        "proposals",
        sa.Column("id", sa.String(length=36), nullable=False),
        sa.Column("project_id", sa.String(length=36), nullable=False),
        sa.Column("translation_id", sa.String(length=36), nullable=False),
        sa.Column("language_code", sa.String(length=35), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("text_digest", sa.String(length=64), nullable=False),
        sa.Column("origin", sa.String(length=16), server_default="person", nullable=False),
        sa.Column("author_type", sa.String(length=16), nullable=False),
        sa.Column("author_id", sa.String(length=36), nullable=True),
        sa.Column("author_name", sa.String(length=128), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("state", sa.String(length=16), server_default="open", nullable=False),
        sa.Column("votes", sa.Integer(), server_default="0", nullable=False),
        sa.Column("decided_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("decided_by_type", sa.String(length=16), nullable=True),
        sa.Column("decided_by_id", sa.String(length=36), nullable=True),
        sa.Column("decided_by_name", sa.String(length=128), nullable=True),
        sa.Column("rejection_reason", sa.Text(), nullable=True),
        sa.Column("accepted_text", sa.Text(), nullable=True),
        sa.Column("operation_id", sa.String(length=36), nullable=True),
        sa.CheckConstraint(
            "state IN ('open', 'accepted', 'rejected', 'superseded')", name=op.f("ck_proposals_state")
        ),
        sa.ForeignKeyConstraint(
            ["project_id"], ["projects.id"], name=op.f("fk_proposals_project_id_projects"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["translation_id"],
            ["translations.id"],
            name=op.f("fk_proposals_translation_id_translations"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["project_id", "language_code"],
            ["project_languages.project_id", "project_languages.code"],
            name="fk_proposals_language",
            onupdate="CASCADE",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_proposals")),
    )
    op.create_index(
        "ix_proposals_open_votes",
        "proposals",
        ["project_id", sa.text("votes DESC"), "created_at", "id"],
        sqlite_where=OPEN,
        postgresql_where=OPEN,
    )
    op.create_index(
        "ix_proposals_open_age",
        "proposals",
        ["project_id", "created_at", "id"],
        sqlite_where=OPEN,
        postgresql_where=OPEN,
    )
    op.create_index(
        "uq_proposals_open_text",
        "proposals",
        ["translation_id", "language_code", "text_digest"],
        unique=True,
        sqlite_where=OPEN,
        postgresql_where=OPEN,
    )
    op.create_index("ix_proposals_translation", "proposals", ["translation_id", "language_code", "created_at"])
    op.create_index(
        "ix_proposals_operation",
        "proposals",
        ["operation_id"],
        sqlite_where=sa.text("operation_id IS NOT NULL"),
        postgresql_where=sa.text("operation_id IS NOT NULL"),
    )
    op.create_table(
        "proposal_votes",
        sa.Column("proposal_id", sa.String(length=36), nullable=False),
        sa.Column("user_id", sa.String(length=36), nullable=False),
        sa.Column("value", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("value IN (-1, 1)", name=op.f("ck_proposal_votes_value")),
        sa.ForeignKeyConstraint(
            ["proposal_id"],
            ["proposals.id"],
            name=op.f("fk_proposal_votes_proposal_id_proposals"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_proposal_votes_user_id_users"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("proposal_id", "user_id", name=op.f("pk_proposal_votes")),
    )
    with op.batch_alter_table("project_languages", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("proposal_mode", sa.String(length=16), server_default="direct", nullable=False)
        )
        batch_op.add_column(sa.Column("auto_accept_votes", sa.Integer(), nullable=True))
    with op.batch_alter_table("projects", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("protect_reviewed", sa.Boolean(), server_default=sa.false(), nullable=False)
        )
    with op.batch_alter_table("project_members", schema=None) as batch_op:
        batch_op.drop_constraint(op.f("ck_project_members_role"), type_="check")
        batch_op.create_check_constraint("role", ROLES)


def downgrade():
    op.execute("DELETE FROM project_members WHERE role = 'contributor'")
    with op.batch_alter_table("project_members", schema=None) as batch_op:
        batch_op.drop_constraint(op.f("ck_project_members_role"), type_="check")
        batch_op.create_check_constraint("role", OLD_ROLES)
    with op.batch_alter_table("projects", schema=None) as batch_op:
        batch_op.drop_column("protect_reviewed")
    with op.batch_alter_table("project_languages", schema=None) as batch_op:
        batch_op.drop_column("auto_accept_votes")
        batch_op.drop_column("proposal_mode")
    op.drop_table("proposal_votes")
    op.drop_index("ix_proposals_operation", table_name="proposals")
    op.drop_index("ix_proposals_translation", table_name="proposals")
    op.drop_index("uq_proposals_open_text", table_name="proposals")
    op.drop_index("ix_proposals_open_age", table_name="proposals")
    op.drop_index("ix_proposals_open_votes", table_name="proposals")
    op.drop_table("proposals")
