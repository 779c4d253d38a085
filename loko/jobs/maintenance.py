"""The queue's own daily job: finished jobs are kept ``LOKO_JOB_RETENTION_DAYS`` (their
results and errors stay readable that long; 0 keeps them for ever), then deleted. Queued and
running jobs are never deleted."""

from datetime import timedelta

from flask import current_app

from loko.jobs import service
from loko.jobs.registry import handler

PRUNE_JOBS = "jobs-prune"


@handler(PRUNE_JOBS, every=timedelta(days=1))
def prune_finished_jobs(_context, _payload: dict) -> dict:
    days = current_app.config["LOKO_JOB_RETENTION_DAYS"]
    deleted = service.prune_finished(timedelta(days=days)) if days > 0 else 0
    return {"deleted": deleted, "retentionDays": days}
