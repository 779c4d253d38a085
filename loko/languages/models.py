from sqlalchemy import ForeignKey, String

from loko.extensions import db


class ProjectLanguage(db.Model):
    """A language of a project. Values and file records reference it by (project, code),
    so renaming or deleting the code cascades to them in the database."""

    __tablename__ = "project_languages"

    project_id = db.Column(String(36), ForeignKey("projects.id", ondelete="CASCADE"), primary_key=True)
    code = db.Column(String(35), primary_key=True)
    name = db.Column(String(128), nullable=False)
    emoji = db.Column(String(32), nullable=False, default="")
