"""The audit log is pruned daily: events older than ``LOKO_AUDIT_RETENTION_DAYS`` (default
365) are deleted, the newer ones kept; 0 keeps them all."""

from datetime import timedelta

import pytest
from sqlalchemy import select, update

from loko.audit import service as audit
from loko.audit.models import AuditEvent
from loko.database import unit_of_work, utcnow
from loko.extensions import db
from loko.jobs import service as jobs
from loko.jobs.models import SUCCEEDED, Job
from loko.jobs.registry import SCHEDULES
from loko.jobs.worker import Worker
from tests.audit.helpers import recorded

PRUNE = "audit-prune"


def events_aged(app, world, days_ago: tuple[int, ...]) -> None:
    """One event per item of ``days_ago`` (action ``test.<days>``), recorded that long ago."""
    with app.app_context():
        with unit_of_work():
            for days in days_ago:
                audit.record(None, world.organization_id, f"test.{days}")
        with unit_of_work():
            for days in days_ago:
                db.session.execute(
                    update(AuditEvent)
                    .where(AuditEvent.action == f"test.{days}")
                    .values(created_at=utcnow() - timedelta(days=days))
                )


def run_prune(app) -> dict:
    with app.app_context():
        jobs.ensure_scheduled(SCHEDULES[PRUNE])
        assert Worker(app).run_one()
        (pruning,) = db.session.scalars(select(Job).where(Job.kind == PRUNE, Job.state == SUCCEEDED))
        return jobs.describe(pruning)["result"]


def kept(app, world) -> list[str]:
    return [event["action"] for event in recorded(app, world.organization_id)]


def test_the_audit_log_is_pruned_daily(app):
    assert SCHEDULES[PRUNE].every == timedelta(days=1)


def test_the_default_retention_is_a_year(app, world):
    events_aged(app, world, (366, 364))
    assert run_prune(app) == {"deleted": 1, "retentionDays": 365}
    assert kept(app, world) == ["test.364"]


@pytest.mark.parametrize("config_overrides", [{"LOKO_AUDIT_RETENTION_DAYS": 30}])
def test_events_older_than_the_retention_are_deleted(app, world, config_overrides):
    events_aged(app, world, (31, 90, 29))
    assert run_prune(app) == {"deleted": 2, "retentionDays": 30}
    assert kept(app, world) == ["test.29"]


@pytest.mark.parametrize("config_overrides", [{"LOKO_AUDIT_RETENTION_DAYS": 0}])
def test_a_retention_of_zero_keeps_every_event(app, world, config_overrides):
    events_aged(app, world, (4000,))
    assert run_prune(app) == {"deleted": 0, "retentionDays": 0}
    assert kept(app, world) == ["test.4000"]


def test_deleting_an_organization_deletes_its_log(app, as_caller, world):
    events_aged(app, world, (1,))
    assert as_caller("org_owner").delete(f"/api/organizations/{world.organization_id}").status_code == 200
    assert recorded(app) == []
