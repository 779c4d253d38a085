from sqlalchemy import CheckConstraint, ForeignKey, String, Text

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
    # The last noted use (at most once a minute, ``loko.auth.service.LAST_USED_RESOLUTION``)
    # and the client address it came from.
    last_used_at = db.Column(UTCDateTime, nullable=True)
    last_used_from = db.Column(String(64), nullable=True)
    # After this moment the key answers 401; NULL: it does not expire.
    expires_at = db.Column(UTCDateTime, nullable=True)
    # The languages a write key's writes are limited to, as members' are (JSON list); NULL:
    # every language.
    languages = db.Column(Text, nullable=True)
    revoked_at = db.Column(UTCDateTime, nullable=True)
