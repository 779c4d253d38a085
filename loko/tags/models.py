from sqlalchemy import ForeignKey, Index, Integer, String

from loko.database import UTCDateTime, utcnow
from loko.extensions import db
from loko.fields import MAX_TAG

TAG_ACTIONS = ("added", "removed")
ADDED, REMOVED = TAG_ACTIONS


class KeyTag(db.Model):
    """A tag on a key. A tag is its name within its project: it exists while a key carries
    it. It goes with its key when the key is purged (a key in the trash keeps it)."""

    __tablename__ = "key_tags"
    __table_args__ = (
        # A project's keys with a tag, and its tags with their counts.
        Index("ix_key_tags_project_tag", "project_id", "tag", "translation_id"),
    )

    translation_id = db.Column(
        String(36), ForeignKey("translations.id", ondelete="CASCADE"), primary_key=True
    )
    tag = db.Column(String(MAX_TAG), primary_key=True)
    project_id = db.Column(String(36), ForeignKey("projects.id", ondelete="CASCADE"), nullable=False)
    created_at = db.Column(UTCDateTime, nullable=False, default=utcnow)


class TagChange(db.Model):
    """One tag added to or removed from one key, by one operation (a tagging, or its undo):
    what the key's history shows of its tags, and what an undo takes back."""

    __tablename__ = "key_tag_changes"
    __table_args__ = (
        Index("ix_key_tag_changes_operation", "operation_id"),
        Index("ix_key_tag_changes_translation", "translation_id", "id"),
    )

    id = db.Column(Integer, primary_key=True, autoincrement=True)
    project_id = db.Column(String(36), ForeignKey("projects.id", ondelete="CASCADE"), nullable=False)
    operation_id = db.Column(String(36), nullable=False)
    translation_id = db.Column(String(36), nullable=False)
    tag = db.Column(String(MAX_TAG), nullable=False)
    action = db.Column(String(8), nullable=False)
    created_at = db.Column(UTCDateTime, nullable=False, default=utcnow)
