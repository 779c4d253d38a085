from sqlalchemy import ForeignKey, String

from loko.database import UTCDateTime, id_column, utcnow
from loko.extensions import db


class User(db.Model):
    __tablename__ = "users"

    id = id_column()
    email = db.Column(String(320), nullable=False, unique=True)
    name = db.Column(String(128), nullable=False)
    password_hash = db.Column(String(255), nullable=False)
    created_at = db.Column(UTCDateTime, nullable=False, default=utcnow)


class Session(db.Model):
    """A signed-in browser or client; only the SHA-256 of its token is stored."""

    __tablename__ = "sessions"

    id = id_column()
    token_hash = db.Column(String(64), nullable=False, unique=True)
    user_id = db.Column(String(36), ForeignKey("users.id", ondelete="CASCADE"), nullable=False, index=True)
    created_at = db.Column(UTCDateTime, nullable=False, default=utcnow)
    expires_at = db.Column(UTCDateTime, nullable=False)
