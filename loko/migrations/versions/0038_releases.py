"""releases: named moments of a project's history, and the history's point-in-time index

Revision ID: 0038_releases
Revises: 0037_tasks_notifications

``releases``: a new table (a project's named moments, each with an optional string freeze).
``ix_translation_history_timeline`` (project, time, key, language, id) and
``ix_translation_history_keyed`` (the same for the keys' own entries, without a language):
the indexes the point-in-time reads range over. Nothing else changes: every row stays as it was.
"""

import sqlalchemy as sa
from alembic import op

revision = "0038_releases"
down_revision = "0037_tasks_notifications"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "releases",
        sa.Column("id", sa.String(36), primary_key=True),
        sa.Column(
            "project_id", sa.String(36), sa.ForeignKey("projects.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("description", sa.Text(), nullable=False, server_default=""),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("operation_id", sa.String(36), nullable=True),
        sa.Column("entry_id", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("freeze_from", sa.DateTime(timezone=True), nullable=True),
        sa.Column("freeze_until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("tag", sa.String(256), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("created_by_type", sa.String(16), nullable=False),
        sa.Column("created_by_id", sa.String(36), nullable=True),
        sa.Column("created_by_name", sa.String(128), nullable=True),
    )
    op.create_index("uq_releases_project_name", "releases", ["project_id", "name"], unique=True)
    op.create_index(
        "ix_translation_history_timeline",
        "translation_history",
        ["project_id", "created_at", "translation_id", "language", "id"],
    )
    op.create_index(
        "ix_translation_history_keyed",
        "translation_history",
        ["project_id", "created_at", "translation_id", "action", "id"],
        sqlite_where=sa.text("language IS NULL"),
        postgresql_where=sa.text("language IS NULL"),
    )


def downgrade():
    op.drop_index("ix_translation_history_keyed", table_name="translation_history")
    op.drop_index("ix_translation_history_timeline", table_name="translation_history")
    op.drop_index("uq_releases_project_name", table_name="releases")
    op.drop_table("releases")
