from sqlalchemy import ForeignKey, Index, Integer, String, Text, text

from loko.database import UTCDateTime, id_column, utcnow
from loko.extensions import db

QUEUED = "queued"
RUNNING = "running"
SUCCEEDED = "succeeded"
FAILED = "failed"  # after the last attempt: the dead letter
CANCELLED = "cancelled"
STATES = (QUEUED, RUNNING, SUCCEEDED, FAILED, CANCELLED)
FINISHED = (SUCCEEDED, FAILED, CANCELLED)


class Job(db.Model):
    """One unit of background work: the handler's name (``kind``), its JSON payload, and
    where it stands. A running job belongs to the worker named in ``claimed_by`` while that
    worker's ``heartbeat_at`` is recent; one whose worker went silent is claimed again.
    At most one queued job has a given ``coalesce_key``."""

    __tablename__ = "jobs"
    __table_args__ = (
        Index("ix_jobs_runnable", "state", "run_after"),
        Index(
            "uq_jobs_queued_coalesce_key",
            "coalesce_key",
            unique=True,
            sqlite_where=text("state = 'queued' AND coalesce_key IS NOT NULL"),
            postgresql_where=text("state = 'queued' AND coalesce_key IS NOT NULL"),
        ),
    )

    id = id_column()
    kind = db.Column(String(64), nullable=False)
    project_id = db.Column(
        String(36), ForeignKey("projects.id", ondelete="CASCADE"), nullable=True, index=True
    )
    payload = db.Column(Text, nullable=False, default="{}")  # JSON
    state = db.Column(String(16), nullable=False, default=QUEUED)
    attempts = db.Column(Integer, nullable=False, default=0)
    max_attempts = db.Column(Integer, nullable=False, default=5)
    run_after = db.Column(UTCDateTime, nullable=False, default=utcnow)
    progress_done = db.Column(Integer, nullable=False, default=0)
    progress_total = db.Column(Integer, nullable=True)
    result = db.Column(Text, nullable=True)  # JSON
    error = db.Column(Text, nullable=True)
    coalesce_key = db.Column(String(200), nullable=True)
    claimed_by = db.Column(String(64), nullable=True)
    heartbeat_at = db.Column(UTCDateTime, nullable=True)
    created_at = db.Column(UTCDateTime, nullable=False, default=utcnow)
    started_at = db.Column(UTCDateTime, nullable=True)
    finished_at = db.Column(UTCDateTime, nullable=True)
