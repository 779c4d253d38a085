from sqlalchemy import Boolean, CheckConstraint, ForeignKey, String, Text, false

from loko.database import UTCDateTime, id_column, utcnow
from loko.extensions import db

PROJECT_ROLES = ("admin", "reviewer", "editor", "contributor", "viewer")
# The columns of a project's link to another project; they are set together.
LINK_FIELDS = ("linked_project_id", "linked_language_code", "linked_language_target_code")


class Project(db.Model):
    __tablename__ = "projects"

    id = id_column()
    organization_id = db.Column(
        String(36), ForeignKey("organizations.id", ondelete="CASCADE"), nullable=False, index=True
    )
    name = db.Column(String(32), nullable=False)
    desc = db.Column(Text, nullable=False, default="")
    emoji = db.Column(String(32), nullable=False, default="")
    linked_project_id = db.Column(
        String(36), ForeignKey("projects.id", ondelete="SET NULL"), nullable=True, index=True
    )
    linked_language_code = db.Column(String(35), nullable=True)
    linked_language_target_code = db.Column(String(35), nullable=True)
    # The language keys are written in: set with the first language, kept among them.
    source_language = db.Column(String(35), nullable=True)
    # The level of each check (``loko.checks``) as JSON ``{code: "off" | "warn" | "refuse"}``;
    # a check not named is at "warn".
    checks = db.Column(Text, nullable=False, server_default="{}")
    # Whether the project's values are in the organization's shared translation memory, found
    # by every member (a project's values always serve whoever may view the project).
    memory_shared = db.Column(Boolean, nullable=False, default=False, server_default=false())
    data_version = db.Column(db.Integer, nullable=False, default=1)
    # For exports of named files (see ``bump_data_version``): the data version of the last
    # change not confined to named files, as it stood when the last confined one began, and
    # the data version that confined change left. While ``data_version`` is
    # ``scoped_version`` the last change was confined and ``shared_version`` holds; any
    # other bump (any other ``data_version = data_version + 1``) is a shared change.
    shared_version = db.Column(db.Integer, nullable=False, default=0, server_default="0")
    scoped_version = db.Column(db.Integer, nullable=False, default=0, server_default="0")
    # Whether a reviewed value is changed only through a proposal by whoever may not review
    # (``loko.auth.policy``), and never by a pre-translation.
    protect_reviewed = db.Column(Boolean, nullable=False, default=False, server_default=false())
    # Whether a signed-in person who is not a member reads the project's source texts, current
    # values and proposals and proposes in it (``loko.auth.policy``: a public visitor).
    public = db.Column(Boolean, nullable=False, default=False, server_default=false())
    data_updated_at = db.Column(UTCDateTime, nullable=False, default=utcnow)
    created_at = db.Column(UTCDateTime, nullable=False, default=utcnow)


class ProjectMember(db.Model):
    __tablename__ = "project_members"
    __table_args__ = (
        CheckConstraint("role IN ('admin', 'reviewer', 'editor', 'contributor', 'viewer')", name="role"),
    )

    project_id = db.Column(String(36), ForeignKey("projects.id", ondelete="CASCADE"), primary_key=True)
    user_id = db.Column(String(36), ForeignKey("users.id", ondelete="CASCADE"), primary_key=True, index=True)
    role = db.Column(String(16), nullable=False)
    # The languages an editor's or reviewer's writes are limited to, as a JSON list of codes
    # (``loko.auth.policy.stored_languages``); NULL: every language.
    languages = db.Column(Text, nullable=True)


class ProposalBlock(db.Model):
    """A person an admin of the project has blocked from proposing and voting in it (as a
    public visitor)."""

    __tablename__ = "proposal_blocks"

    project_id = db.Column(String(36), ForeignKey("projects.id", ondelete="CASCADE"), primary_key=True)
    user_id = db.Column(String(36), ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    blocked_by_id = db.Column(String(36), ForeignKey("users.id", ondelete="SET NULL"), nullable=True)
    created_at = db.Column(UTCDateTime, nullable=False, default=utcnow)
