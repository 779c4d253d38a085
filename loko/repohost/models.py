from sqlalchemy import ForeignKey, Integer, String, Text

from loko.database import UTCDateTime, id_column, utcnow
from loko.extensions import db


class RepoHost(db.Model):
    """A project's repository: where its files go and come from. The token and the webhook
    secret are stored encrypted (``loko.secrets``), never in clear. ``running``
    names the push or sync under way (one at a time per project, across processes), since
    ``run_started_at``."""

    __tablename__ = "repohosts"

    project_id = db.Column(String(36), ForeignKey("projects.id", ondelete="CASCADE"), primary_key=True)
    provider = db.Column(String(16), nullable=False)
    repository = db.Column(String(256), nullable=False)
    branch = db.Column(String(256), nullable=False)
    path = db.Column(String(512), nullable=False)
    format = db.Column(String(32), nullable=False)
    api_url = db.Column(String(512), nullable=True)
    # The keys the repository holds: every tag of ``tags``, none of ``exclude_tags`` (JSON).
    tags = db.Column(Text, nullable=False, default="[]", server_default="[]")
    exclude_tags = db.Column(Text, nullable=False, default="[]", server_default="[]")
    token_encrypted = db.Column(Text, nullable=False)
    webhook_secret_encrypted = db.Column(Text, nullable=False)
    configured_by = db.Column(String(36), nullable=True)
    running = db.Column(String(16), nullable=True)
    run_started_at = db.Column(UTCDateTime, nullable=True)
    created_at = db.Column(UTCDateTime, nullable=False, default=utcnow)
    updated_at = db.Column(UTCDateTime, nullable=False, default=utcnow)


class RepoHostRun(db.Model):
    """One push, sync or connection check and how it ended, for the project's page."""

    __tablename__ = "repohost_runs"

    id = id_column()
    project_id = db.Column(
        String(36), ForeignKey("projects.id", ondelete="CASCADE"), nullable=False, index=True
    )
    kind = db.Column(String(16), nullable=False)  # push, sync, webhook-sync, check
    dry_run = db.Column(Integer, nullable=False, default=0)
    status = db.Column(String(16), nullable=False)  # ok, failed
    summary = db.Column(Text, nullable=False, default="")
    result = db.Column(Text, nullable=True)  # JSON
    actor_name = db.Column(String(128), nullable=True)
    started_at = db.Column(UTCDateTime, nullable=False, default=utcnow)
    finished_at = db.Column(UTCDateTime, nullable=False, default=utcnow)
