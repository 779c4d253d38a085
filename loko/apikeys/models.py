from sqlalchemy import CheckConstraint, ForeignKey, String

from loko.database import UTCDateTime, id_column, utcnow
from loko.extensions import db

API_KEY_SCOPES = ("write", "read")


class ApiKey(db.Model):
    """A project-scoped key; only its SHA-256 and its first characters are stored."""

    __tablename__ = "api_keys"
    __table_args__ = (CheckConstraint("scope IN ('write', 'read')", name="scope"),)

    id = id_column()
    project_id = db.Column(
        String(36), ForeignKey("projects.id", ondelete="CASCADE"), nullable=False, index=True
    )
    name = db.Column(String(128), nullable=False)
    prefix = db.Column(String(12), nullable=False)
    key_hash = db.Column(String(64), nullable=False, unique=True)
    scope = db.Column(String(8), nullable=False, default="write")
    created_by = db.Column(String(36), ForeignKey("users.id", ondelete="SET NULL"), nullable=True)
    created_at = db.Column(UTCDateTime, nullable=False, default=utcnow)
    last_used_at = db.Column(UTCDateTime, nullable=True)
    revoked_at = db.Column(UTCDateTime, nullable=True)
