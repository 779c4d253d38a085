from sqlalchemy import ForeignKey, Integer, String

from loko.database import UTCDateTime, id_column, utcnow
from loko.extensions import db


class User(db.Model):
    __tablename__ = "users"

    id = id_column()
    email = db.Column(String(320), nullable=False, unique=True)
    name = db.Column(String(128), nullable=False)
    password_hash = db.Column(String(255), nullable=False)
    created_at = db.Column(UTCDateTime, nullable=False, default=utcnow)
    # The web app's language the user chose (a shipped locale such as "de" or "pt_BR");
    # null: the browser's Accept-Language decides.
    locale = db.Column(String(35), nullable=True)


class Session(db.Model):
    """A signed-in browser or client; only the SHA-256 of its token is stored."""

    __tablename__ = "sessions"

    id = id_column()
    token_hash = db.Column(String(64), nullable=False, unique=True)
    user_id = db.Column(String(36), ForeignKey("users.id", ondelete="CASCADE"), nullable=False, index=True)
    created_at = db.Column(UTCDateTime, nullable=False, default=utcnow)
    expires_at = db.Column(UTCDateTime, nullable=False)


class SignInAttempt(db.Model):
    """Failed sign-ins of one address and email in the current window, counted here so that
    every ``loko serve`` process shares one limit. ``key_hash`` is the SHA-256 of the
    address and email, which are never stored; a row whose window has ended counts nothing
    and is deleted by the next purge."""

    __tablename__ = "sign_in_attempts"

    key_hash = db.Column(String(64), primary_key=True)
    attempts = db.Column(Integer, nullable=False)
    window_ends_at = db.Column(UTCDateTime, nullable=False, index=True)
