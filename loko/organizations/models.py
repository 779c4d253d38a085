from sqlalchemy import CheckConstraint, ForeignKey, String

from loko.database import UTCDateTime, id_column, utcnow
from loko.extensions import db

ORGANIZATION_ROLES = ("owner", "admin", "member")


class Organization(db.Model):
    __tablename__ = "organizations"

    id = id_column()
    name = db.Column(String(128), nullable=False)
    created_at = db.Column(UTCDateTime, nullable=False, default=utcnow)


class OrganizationMember(db.Model):
    __tablename__ = "organization_members"
    __table_args__ = (CheckConstraint("role IN ('owner', 'admin', 'member')", name="role"),)

    organization_id = db.Column(
        String(36), ForeignKey("organizations.id", ondelete="CASCADE"), primary_key=True
    )
    user_id = db.Column(String(36), ForeignKey("users.id", ondelete="CASCADE"), primary_key=True, index=True)
    role = db.Column(String(16), nullable=False)
    created_at = db.Column(UTCDateTime, nullable=False, default=utcnow)


INVITATION_DAYS_DEFAULT = 7
INVITATION_DAYS_MAX = 30
INVITATION_NOTE_MAX = 200


class Invitation(db.Model):
    """A single-use link that lets whoever opens it join an organization with ``role``; only
    the SHA-256 of its token is stored. Pending while not accepted, revoked or expired. Its
    optional ``note`` (whom it is for) tells pending links apart."""

    __tablename__ = "organization_invitations"
    __table_args__ = (CheckConstraint("role IN ('owner', 'admin', 'member')", name="role"),)

    id = id_column()
    organization_id = db.Column(
        String(36), ForeignKey("organizations.id", ondelete="CASCADE"), nullable=False, index=True
    )
    role = db.Column(String(16), nullable=False)
    token_hash = db.Column(String(64), nullable=False, unique=True)
    created_by = db.Column(String(36), ForeignKey("users.id", ondelete="SET NULL"), nullable=True)
    created_at = db.Column(UTCDateTime, nullable=False, default=utcnow)
    expires_at = db.Column(UTCDateTime, nullable=False)
    accepted_at = db.Column(UTCDateTime, nullable=True)
    accepted_by = db.Column(String(36), ForeignKey("users.id", ondelete="SET NULL"), nullable=True)
    revoked_at = db.Column(UTCDateTime, nullable=True)
    note = db.Column(String(INVITATION_NOTE_MAX), nullable=True)
