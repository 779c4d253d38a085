from sqlalchemy import ForeignKey, Index, Integer, String, Text

from loko.database import UTCDateTime, utcnow
from loko.extensions import db

ACTOR_TYPES = ("user", "api_key", "system", "anonymous")
TARGET_TYPES = (
    "user",
    "organization",
    "invitation",
    "project",
    "api_key",
    "repository",
    "machine_provider",
    "webhook",
    "glossary_term",
    "language",
    "file",
)
# What the log filters by: an action's area, the part of its name before the dot.
KINDS = (
    "auth",
    "organization",
    "invitation",
    "project",
    "api_key",
    "repository",
    "machine_provider",
    "webhook",
    "export",
    "glossary",
    "import",
    "pretranslation",
    "undo",
    "language",
    "file",
)
# Listed only when a filter asks for them: one a day per member would bury the rest.
KINDS_APART = ("auth",)


class AuditEvent(db.Model):
    """Something done in an organization: by whom (kept as it was: a user or key deleted since
    stays named), to what, and a few details that never hold a secret. The id grows with each
    event, so it orders the log and pages it."""

    __tablename__ = "audit_events"
    __table_args__ = (
        Index("ix_audit_events_organization", "organization_id", "id"),
        Index("ix_audit_events_organization_created", "organization_id", "created_at"),
        Index("ix_audit_events_organization_action", "organization_id", "action", "id"),
        Index("ix_audit_events_organization_actor", "organization_id", "actor_id", "id"),
        Index("ix_audit_events_organization_target", "organization_id", "target_type", "id"),
        Index("ix_audit_events_created", "created_at"),
    )

    id = db.Column(Integer, primary_key=True, autoincrement=True)
    organization_id = db.Column(
        String(36), ForeignKey("organizations.id", ondelete="CASCADE"), nullable=False
    )
    created_at = db.Column(UTCDateTime, nullable=False, default=utcnow)
    action = db.Column(String(64), nullable=False)
    actor_type = db.Column(String(16), nullable=False)
    actor_id = db.Column(String(36), nullable=True)
    actor_name = db.Column(String(320), nullable=True)
    target_type = db.Column(String(32), nullable=True)
    target_id = db.Column(String(64), nullable=True)
    target_label = db.Column(String(320), nullable=True)
    ip_address = db.Column(String(45), nullable=True)
    details = db.Column(Text, nullable=False, default="{}")  # a JSON object
