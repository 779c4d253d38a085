from sqlalchemy import ForeignKey, ForeignKeyConstraint, Index, String, Text, text

from loko.database import UTCDateTime, id_column, utcnow
from loko.extensions import db

MAX_BODY = 5000


class Comment(db.Model):
    """One comment on a key: about the whole key (``language_code`` empty) or one of its
    languages. Open until ``resolved_at`` is set. It stays with the key in the trash and
    goes with it when the key is purged (or its language deleted)."""

    __tablename__ = "comments"
    __table_args__ = (
        ForeignKeyConstraint(
            ["project_id", "language_code"],
            ["project_languages.project_id", "project_languages.code"],
            name="fk_comments_language",
            ondelete="CASCADE",
            onupdate="CASCADE",
        ),
        # A key's thread, oldest first.
        Index("ix_comments_translation", "translation_id", "created_at"),
        # The open comments of a page of keys, counted in one statement.
        Index(
            "ix_comments_open",
            "translation_id",
            sqlite_where=text("resolved_at IS NULL"),
            postgresql_where=text("resolved_at IS NULL"),
        ),
    )

    id = id_column()
    project_id = db.Column(String(36), ForeignKey("projects.id", ondelete="CASCADE"), nullable=False)
    translation_id = db.Column(String(36), ForeignKey("translations.id", ondelete="CASCADE"), nullable=False)
    language_code = db.Column(String(35), nullable=True)
    # Who wrote it: a user or an API key (type, id and the name it had then).
    author_type = db.Column(String(16), nullable=False)
    author_id = db.Column(String(36), nullable=True)
    author_name = db.Column(String(128), nullable=False)
    body = db.Column(Text, nullable=False)
    created_at = db.Column(UTCDateTime, nullable=False, default=utcnow)
    edited_at = db.Column(UTCDateTime, nullable=True)
    resolved_at = db.Column(UTCDateTime, nullable=True)
    resolved_by_type = db.Column(String(16), nullable=True)
    resolved_by_id = db.Column(String(36), nullable=True)
    resolved_by_name = db.Column(String(128), nullable=True)
