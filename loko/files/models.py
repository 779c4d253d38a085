from sqlalchemy import ForeignKey, ForeignKeyConstraint, Integer, String, UniqueConstraint

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


class FileVersion(db.Model):
    """The project data version (``projects.data_version``) at the last change of one file's
    keys or values, in any language: an export of named files is named by these and by the
    project's shared version, so that a write to another file leaves it as it was. A row
    stays when its file goes (a file of that name later starts above it).

    Beside a file's own row, rows named with a backslash (which no file name holds) keep
    the versions of one language of the file: ``wide_version_name(file)`` the last change that may
    touch every language of the file, ``language_version_name(file, code)`` the last change confined
    to its values in one language. A file without its wide row (not written since they
    came, or a name too long for one) reads its own row in its place."""

    __tablename__ = "file_versions"

    project_id = db.Column(String(36), ForeignKey("projects.id", ondelete="CASCADE"), primary_key=True)
    file_name = db.Column(String(256), primary_key=True)
    version = db.Column(Integer, nullable=False)


VERSION_NAME_LENGTH = 256
MARK = "\\"


def wide_version_name(file_name: str) -> str | None:
    """The ``file_versions`` row of a file's changes that may touch every language; None
    when the name would be too long (the file's own row then stands for it)."""
    name = file_name + MARK
    return name if len(name) <= VERSION_NAME_LENGTH else None


def language_version_name(file_name: str, language: str) -> str | None:
    """The ``file_versions`` row of a file's changes confined to one language's values;
    None when the name would be too long (such changes then count as the file's wide ones)."""
    name = f"{file_name}{MARK}{language}"
    return name if len(name) <= VERSION_NAME_LENGTH else None
