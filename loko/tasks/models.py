from sqlalchemy import ForeignKey, ForeignKeyConstraint, Index, Integer, String, Text

from loko.database import UTCDateTime, id_column, utcnow
from loko.extensions import db

KINDS = ("translate", "review")
TRANSLATE, REVIEW = KINDS
STATES = ("open", "closed")
OPEN, CLOSED = STATES


class Task(db.Model):
    """Work on a frozen set of keys in one language: translating them (done when every key
    has a value) or reviewing them (done when every value is reviewed). Its assignees may
    do that work on those keys while it is open, whatever their role (``auth.policy``)."""

    __tablename__ = "tasks"
    __table_args__ = (
        ForeignKeyConstraint(
            ["project_id", "language_code"],
            ["project_languages.project_id", "project_languages.code"],
            name="fk_tasks_language",
            ondelete="CASCADE",
            onupdate="CASCADE",
        ),
        Index("ix_tasks_project_state", "project_id", "state"),
    )

    id = id_column()
    project_id = db.Column(String(36), ForeignKey("projects.id", ondelete="CASCADE"), nullable=False)
    kind = db.Column(String(16), nullable=False)
    language_code = db.Column(String(35), nullable=False)
    title = db.Column(String(200), nullable=False)
    description = db.Column(Text, nullable=False, default="")
    due_at = db.Column(UTCDateTime, nullable=True)
    state = db.Column(String(16), nullable=False, default=OPEN)
    key_count = db.Column(Integer, nullable=False, default=0)
    created_by_id = db.Column(String(36), nullable=True)
    created_by_name = db.Column(String(128), nullable=False, default="")
    created_at = db.Column(UTCDateTime, nullable=False, default=utcnow)
    closed_at = db.Column(UTCDateTime, nullable=True)
    # The last reminder sent about the due date ("soon", then "overdue"), so each goes once.
    reminded = db.Column(String(16), nullable=True)


class TaskKey(db.Model):
    """One key of a task, as chosen when the task was made."""

    __tablename__ = "task_keys"
    __table_args__ = (Index("ix_task_keys_translation", "translation_id"),)

    task_id = db.Column(String(36), ForeignKey("tasks.id", ondelete="CASCADE"), primary_key=True)
    translation_id = db.Column(
        String(36), ForeignKey("translations.id", ondelete="CASCADE"), primary_key=True
    )


class TaskAssignee(db.Model):
    __tablename__ = "task_assignees"

    task_id = db.Column(String(36), ForeignKey("tasks.id", ondelete="CASCADE"), primary_key=True)
    user_id = db.Column(String(36), ForeignKey("users.id", ondelete="CASCADE"), primary_key=True, index=True)
