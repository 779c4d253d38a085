from sqlalchemy import ForeignKey, LargeBinary, String, Text

from loko.database import UTCDateTime, id_column, utcnow
from loko.extensions import db


class PendingImport(db.Model):
    """An upload whose dry run a user has seen and may still confirm: the file itself and
    the options it was checked with, for one user in one project, kept for an hour."""

    __tablename__ = "pending_imports"

    id = id_column()
    project_id = db.Column(
        String(36), ForeignKey("projects.id", ondelete="CASCADE"), nullable=False, index=True
    )
    user_id = db.Column(String(36), ForeignKey("users.id", ondelete="CASCADE"), nullable=False, index=True)
    created_at = db.Column(UTCDateTime, nullable=False, default=utcnow)
    options = db.Column(Text, nullable=False)
    data = db.Column(LargeBinary, nullable=False)
