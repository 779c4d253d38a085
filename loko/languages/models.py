from sqlalchemy import ForeignKey, Integer, String

from loko.extensions import db


class ProjectLanguage(db.Model):
    """A language of a project. Values and file records reference it by (project, code),
    so renaming or deleting the code cascades to them in the database."""

    __tablename__ = "project_languages"

    project_id = db.Column(String(36), ForeignKey("projects.id", ondelete="CASCADE"), primary_key=True)
    code = db.Column(String(35), primary_key=True)
    name = db.Column(String(128), nullable=False)
    emoji = db.Column(String(32), nullable=False, default="")
    # How values in the language change for whoever may not review (``loko.auth.policy``):
    # ``direct`` (written as they are), ``propose`` (only proposed) or ``votes`` (proposed, and
    # accepted once ``auto_accept_votes`` net votes are for one).
    proposal_mode = db.Column(String(16), nullable=False, default="direct", server_default="direct")
    auto_accept_votes = db.Column(Integer, nullable=True)
