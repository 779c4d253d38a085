from sqlalchemy import ForeignKey, Index, String, Text

from loko.database import UTCDateTime, id_column, utcnow
from loko.extensions import db


class Release(db.Model):
    """A name for a moment of a project's history (``v1.2``): its export by that name is the
    project as it was then, and stays so. An optional string freeze (``freeze_from`` up to
    ``freeze_until``, either open) keeps the source texts for the project's admins meanwhile."""

    __tablename__ = "releases"
    __table_args__ = (Index("uq_releases_project_name", "project_id", "name", unique=True),)

    id = id_column()
    project_id = db.Column(String(36), ForeignKey("projects.id", ondelete="CASCADE"), nullable=False)
    name = db.Column(String(64), nullable=False)
    description = db.Column(Text, nullable=False, default="")
    # The moment the release names, and the operation it was named by (if any).
    at = db.Column(UTCDateTime, nullable=False)
    operation_id = db.Column(String(36), nullable=True)
    # The project's latest history entry at that moment: part of its exports' ETag.
    entry_id = db.Column(db.Integer, nullable=False, default=0)
    freeze_from = db.Column(UTCDateTime, nullable=True)
    freeze_until = db.Column(UTCDateTime, nullable=True)
    # The tag of the repository the release was made from, when a pushed tag made it.
    tag = db.Column(String(256), nullable=True)
    created_at = db.Column(UTCDateTime, nullable=False, default=utcnow)
    created_by_type = db.Column(String(16), nullable=False)
    created_by_id = db.Column(String(36), nullable=True)
    created_by_name = db.Column(String(128), nullable=True)
