from sqlalchemy import ForeignKey, String, UniqueConstraint

from loko.database import UTCDateTime, id_column, utcnow
from loko.extensions import db


class UserIdentity(db.Model):
    """A user's account at an OpenID provider, known by the provider's issuer and the
    subject (``sub``) it gives the user: the link that signs them in next time."""

    __tablename__ = "user_identities"
    __table_args__ = (UniqueConstraint("issuer", "subject", name="uq_user_identities_issuer_subject"),)

    id = id_column()
    user_id = db.Column(String(36), ForeignKey("users.id", ondelete="CASCADE"), nullable=False, index=True)
    provider = db.Column(String(32), nullable=False)
    issuer = db.Column(String(255), nullable=False)
    subject = db.Column(String(255), nullable=False)
    email = db.Column(String(320), nullable=True)
    created_at = db.Column(UTCDateTime, nullable=False, default=utcnow)
    last_sign_in_at = db.Column(UTCDateTime, nullable=True)


class PendingSignIn(db.Model):
    """A sign-in sent to a provider and not yet back: what its callback must match (the
    ``state``, stored as a hash, and the browser that started it) and what it needs (the
    nonce, the PKCE verifier, where to go next, an invitation). Used once, then deleted;
    one left behind expires after ten minutes."""

    __tablename__ = "sso_pending_sign_ins"

    state_hash = db.Column(String(64), primary_key=True)
    browser_hash = db.Column(String(64), nullable=False)
    provider = db.Column(String(32), nullable=False)
    nonce = db.Column(String(128), nullable=False)
    code_verifier = db.Column(String(128), nullable=False)
    next_path = db.Column(String(2048), nullable=True)
    invitation_token = db.Column(String(128), nullable=True)
    expires_at = db.Column(UTCDateTime, nullable=False, index=True)


class SsoSession(db.Model):
    """A Loko session opened by a provider's sign-in: which provider, so that signing out
    can also end the session there. Goes with its session."""

    __tablename__ = "sso_sessions"

    token_hash = db.Column(
        String(64), ForeignKey("sessions.token_hash", ondelete="CASCADE"), primary_key=True
    )
    provider = db.Column(String(32), nullable=False)
