"""tasks and notifications

Revision ID: 0037_tasks_notifications
Revises: 0036_proposals

New tables only: ``tasks`` (work on a frozen set of keys in one language), ``task_keys``,
``task_assignees``, ``notification_rules`` (a person's choice per project and kind of event)
and ``notifications`` (the messages). No existing row changes.
"""

import sqlalchemy as sa
from alembic import op

revision = "0037_tasks_notifications"
down_revision = "0036_proposals"
branch_labels = None
depends_on = None

UNREAD = "read_at IS NULL"
UNSENT = "sent_at IS NULL AND channel IN ('email', 'daily', 'weekly')"


def upgrade():
    op.create_table(
        "tasks",
        sa.Column("id", sa.String(36), primary_key=True),
        sa.Column("project_id", sa.String(36), sa.ForeignKey("projects.id", ondelete="CASCADE"), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("language_code", sa.String(35), nullable=False),
        sa.Column("title", sa.String(200), nullable=False),
        sa.Column("description", sa.Text(), nullable=False),
        sa.Column("due_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("state", sa.String(16), nullable=False),
        sa.Column("key_count", sa.Integer(), nullable=False),
        sa.Column("created_by_id", sa.String(36), nullable=True),
        sa.Column("created_by_name", sa.String(128), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("closed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("reminded", sa.String(16), nullable=True),
        sa.ForeignKeyConstraint(
            ["project_id", "language_code"],
            ["project_languages.project_id", "project_languages.code"],
            name="fk_tasks_language",
            ondelete="CASCADE",
            onupdate="CASCADE",
        ),
    )
    op.create_index("ix_tasks_project_state", "tasks", ["project_id", "state"])
    op.create_table(
        "task_keys",
        sa.Column("task_id", sa.String(36), sa.ForeignKey("tasks.id", ondelete="CASCADE"), primary_key=True),
        sa.Column(
            "translation_id",
            sa.String(36),
            sa.ForeignKey("translations.id", ondelete="CASCADE"),
            primary_key=True,
        ),
    )
    op.create_index("ix_task_keys_translation", "task_keys", ["translation_id"])
    op.create_table(
        "task_assignees",
        sa.Column("task_id", sa.String(36), sa.ForeignKey("tasks.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("user_id", sa.String(36), sa.ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    )
    op.create_index("ix_task_assignees_user_id", "task_assignees", ["user_id"])
    op.create_table(
        "notification_rules",
        sa.Column("user_id", sa.String(36), sa.ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
        sa.Column(
            "project_id", sa.String(36), sa.ForeignKey("projects.id", ondelete="CASCADE"), primary_key=True
        ),
        sa.Column("kind", sa.String(32), primary_key=True),
        sa.Column("channel", sa.String(16), nullable=False),
    )
    op.create_table(
        "notifications",
        sa.Column("id", sa.String(36), primary_key=True),
        sa.Column("user_id", sa.String(36), sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
        sa.Column("project_id", sa.String(36), sa.ForeignKey("projects.id", ondelete="CASCADE"), nullable=False),
        sa.Column("event_id", sa.String(36), nullable=False),
        sa.Column("kind", sa.String(32), nullable=False),
        sa.Column("title", sa.Text(), nullable=False),
        sa.Column("link", sa.Text(), nullable=False),
        sa.Column("count", sa.Integer(), nullable=False),
        sa.Column("channel", sa.String(16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("read_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("sent_at", sa.DateTime(timezone=True), nullable=True),
        sa.UniqueConstraint("user_id", "event_id", name="uq_notifications_event"),
    )
    op.create_index(
        "ix_notifications_unread",
        "notifications",
        ["user_id"],
        sqlite_where=sa.text(UNREAD),
        postgresql_where=sa.text(UNREAD),
    )
    op.create_index("ix_notifications_user", "notifications", ["user_id", "created_at"])
    op.create_index(
        "ix_notifications_unsent",
        "notifications",
        ["channel", "user_id"],
        sqlite_where=sa.text(UNSENT),
        postgresql_where=sa.text(UNSENT),
    )


def downgrade():
    op.drop_table("notifications")
    op.drop_table("notification_rules")
    op.drop_table("task_assignees")
    op.drop_table("task_keys")
    op.drop_table("tasks")
