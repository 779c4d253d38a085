from sqlalchemy import ForeignKey, ForeignKeyConstraint, String, UniqueConstraint

from loko.database import id_column
from loko.extensions import db


class FileRecord(db.Model):
    """A file in one language (the spec's "file translation record")."""

    __tablename__ = "file_records"
    __table_args__ = (
        UniqueConstraint("project_id", "file_name", "language_code", name="uq_file_records_file_language"),
        ForeignKeyConstraint(
            ["project_id", "language_code"],
            ["project_languages.project_id", "project_languages.code"],
            name="fk_file_records_language",
            ondelete="CASCADE",
            onupdate="CASCADE",
        ),
    )

    id = id_column()
    project_id = db.Column(String(36), ForeignKey("projects.id", ondelete="CASCADE"), nullable=False)
    file_name = db.Column(String(256), nullable=False)
    language_code = db.Column(String(35), nullable=False)
