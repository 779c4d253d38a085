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
