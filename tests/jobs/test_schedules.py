"""The workers' schedules: the trash retention purge and the pruning of old jobs, daily,
after ``LOKO_JOB_RETENTION_DAYS``."""

from datetime import timedelta

import pytest
from sqlalchemy import select, update

from loko.database import unit_of_work, utcnow
from loko.extensions import db
from loko.jobs import service
from loko.jobs.models import CANCELLED, FAILED, QUEUED, RUNNING, SUCCEEDED, Job
from loko.jobs.registry import SCHEDULES
from loko.jobs.worker import Worker


def test_the_trash_purge_is_scheduled_daily_and_runs(app):
    schedule = SCHEDULES["purge-trash"]
    assert schedule.every.days == 1
    with app.app_context():
        service.ensure_scheduled(schedule)
        assert Worker(app).run_one()
        service.ensure_scheduled(schedule)
        jobs = {job.state: job for job in db.session.scalars(select(Job).where(Job.kind == "purge-trash"))}
        assert set(jobs) == {SUCCEEDED, QUEUED}
        assert service.describe(jobs[SUCCEEDED])["result"] == {"purged": 0, "retentionDays": 30}
        assert jobs[QUEUED].run_after == jobs[SUCCEEDED].run_after + schedule.every
        assert not Worker(app).run_one()  # the next one is due tomorrow


def test_jobs_finished_long_ago_are_pruned_daily(app):
    schedule = SCHEDULES["jobs-prune"]
    assert schedule.every.days == 1
    with app.app_context():
        with unit_of_work():
            old = service.enqueue("test-echo")
            recent = service.enqueue("test-echo")
            waiting = service.enqueue("test-echo")
        with unit_of_work():
            db.session.execute(
                update(Job)
                .where(Job.id.in_([old.id, recent.id]))
                .values(state=SUCCEEDED, finished_at=utcnow() - timedelta(days=2))
            )
            db.session.execute(
                update(Job).where(Job.id == old.id).values(finished_at=utcnow() - timedelta(days=31))
            )
        service.ensure_scheduled(schedule)
        assert Worker(app).run_one()
        remaining = set(db.session.scalars(select(Job.id).where(Job.kind == "test-echo")))
        assert remaining == {recent.id, waiting.id}


def _ended(job_id: str, state: str, days_ago: float) -> None:
    with unit_of_work():
        db.session.execute(
            update(Job)
            .where(Job.id == job_id)
            .values(state=state, finished_at=utcnow() - timedelta(days=days_ago))
        )


def _run_prune(app) -> dict:
    service.ensure_scheduled(SCHEDULES["jobs-prune"])
    assert Worker(app).run_one()
    (pruning,) = db.session.scalars(select(Job).where(Job.kind == "jobs-prune", Job.state == SUCCEEDED))
    return service.describe(pruning)["result"]


@pytest.mark.parametrize("config_overrides", [{"LOKO_JOB_RETENTION_DAYS": 7}])
def test_finished_jobs_are_kept_job_retention_days_and_unfinished_ones_always(app, config_overrides):
    with app.app_context():
        with unit_of_work():
            ids = {name: service.enqueue("test-echo").id for name in ("ok", "failed", "cancelled", "recent")}
            queued = service.enqueue("test-echo", run_after=utcnow() - timedelta(days=60))
            running = service.enqueue("test-echo")
        for name, state in (("ok", SUCCEEDED), ("failed", FAILED), ("cancelled", CANCELLED)):
            _ended(ids[name], state, days_ago=8)
        _ended(ids["recent"], SUCCEEDED, days_ago=6)
        with unit_of_work():
            db.session.execute(
                update(Job)
                .where(Job.id.in_([queued.id, running.id]))
                .values(created_at=utcnow() - timedelta(days=60))
            )
            db.session.execute(
                update(Job)
                .where(Job.id == running.id)
                .values(state=RUNNING, started_at=utcnow() - timedelta(days=59), heartbeat_at=utcnow())
            )

        assert _run_prune(app) == {"deleted": 3, "retentionDays": 7}
        remaining = set(db.session.scalars(select(Job.id).where(Job.kind == "test-echo")))
        assert remaining == {ids["recent"], queued.id, running.id}


@pytest.mark.parametrize("config_overrides", [{"LOKO_JOB_RETENTION_DAYS": 0}])
def test_no_job_is_pruned_with_a_job_retention_of_zero(app, config_overrides):
    with app.app_context():
        with unit_of_work():
            old = service.enqueue("test-echo").id
        _ended(old, SUCCEEDED, days_ago=400)

        assert _run_prune(app) == {"deleted": 0, "retentionDays": 0}
        assert db.session.get(Job, old) is not None
