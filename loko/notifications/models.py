from sqlalchemy import ForeignKey, Index, Integer, String, Text, UniqueConstraint, text

from loko.database import UTCDateTime, id_column, utcnow
from loko.extensions import db

# What a person is told about, and how: in the app (the bell), by e-mail at once, in a daily
# or weekly digest, or not at all.
KINDS = ("keys.new", "task.assigned", "task.due", "comment", "mention", "job.finished")
KEYS_NEW, TASK_ASSIGNED, TASK_DUE, COMMENT, MENTION, JOB_FINISHED = KINDS
CHANNELS = ("app", "email", "daily", "weekly", "off")
APP, EMAIL, DAILY, WEEKLY, OFF = CHANNELS
EMAIL_CHANNELS = (EMAIL, DAILY, WEEKLY)
# Quiet by default: everything in the bell, nothing by e-mail until chosen.
DEFAULT_CHANNEL = APP


class NotificationRule(db.Model):
    """A person's choice for one kind of event in one project (absent: ``DEFAULT_CHANNEL``)."""

    __tablename__ = "notification_rules"

    user_id = db.Column(String(36), ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    project_id = db.Column(String(36), ForeignKey("projects.id", ondelete="CASCADE"), primary_key=True)
    kind = db.Column(String(32), primary_key=True)
    channel = db.Column(String(16), nullable=False)


class Notification(db.Model):
    """One message to one person about one event (``event_id``: one per event and person,
    however many of their rules it matched). ``channel`` is how it goes out; ``sent_at``
    when its e-mail (or the digest holding it) was sent."""

    __tablename__ = "notifications"
    __table_args__ = (
        UniqueConstraint("user_id", "event_id", name="uq_notifications_event"),
        Index(
            "ix_notifications_unread",
            "user_id",
            sqlite_where=text("read_at IS NULL"),
            postgresql_where=text("read_at IS NULL"),
        ),
        Index("ix_notifications_user", "user_id", "created_at"),
        Index(
            "ix_notifications_unsent",
            "channel",
            "user_id",
            sqlite_where=text("sent_at IS NULL AND channel IN ('email', 'daily', 'weekly')"),
            postgresql_where=text("sent_at IS NULL AND channel IN ('email', 'daily', 'weekly')"),
        ),
    )

    id = id_column()
    user_id = db.Column(String(36), ForeignKey("users.id", ondelete="CASCADE"), nullable=False)
    project_id = db.Column(String(36), ForeignKey("projects.id", ondelete="CASCADE"), nullable=False)
    event_id = db.Column(String(36), nullable=False)
    kind = db.Column(String(32), nullable=False)
    title = db.Column(Text, nullable=False)
    link = db.Column(Text, nullable=False, default="")
    # How many things it is about (100 new keys of one import: one message, count 100).
    count = db.Column(Integer, nullable=False, default=1)
    channel = db.Column(String(16), nullable=False)
    created_at = db.Column(UTCDateTime, nullable=False, default=utcnow)
    read_at = db.Column(UTCDateTime, nullable=True)
    sent_at = db.Column(UTCDateTime, nullable=True)
