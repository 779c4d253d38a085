"""The workers' schedules: the trash retention purge and the pruning of old jobs, daily."""

from datetime import timedelta

from sqlalchemy import select, update

from loko.database import unit_of_work, utcnow
from loko.extensions import db
from loko.jobs import service
from loko.jobs.models import QUEUED, SUCCEEDED, Job
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
