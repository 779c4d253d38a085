"""The workers' schedules: the trash retention purge is queued daily and runs the purge."""

from sqlalchemy import select

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
