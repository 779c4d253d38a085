"""The queue's own daily job: finished jobs are kept ``FINISHED_KEPT`` (their results and
errors stay readable that long), then deleted."""

from datetime import timedelta

from loko.jobs import service
from loko.jobs.registry import handler

PRUNE_JOBS = "jobs-prune"
FINISHED_KEPT = timedelta(days=30)


@handler(PRUNE_JOBS, every=timedelta(days=1))
def prune_finished_jobs(_context, _payload: dict) -> dict:
    return {"deleted": service.prune_finished(FINISHED_KEPT)}
