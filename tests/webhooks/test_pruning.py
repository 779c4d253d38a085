"""The delivery log is pruned daily: attempts older than ``LOKO_WEBHOOK_DELIVERY_DAYS`` are
deleted, the newer ones kept; 0 keeps them all."""

from datetime import timedelta

import pytest
from sqlalchemy import select, update

from loko.database import unit_of_work, utcnow
from loko.extensions import db
from loko.jobs import service as jobs
from loko.jobs.models import SUCCEEDED, Job
from loko.jobs.registry import SCHEDULES
from loko.jobs.worker import Worker
from loko.webhooks.models import WebhookDelivery
from tests.translation_factories import project_api
from tests.webhooks.conftest import run_jobs
from tests.webhooks.test_delivery import add_hook, deliveries

PRUNE = "webhook-deliveries-prune"


def logged_deliveries(app, receiver, days_ago: tuple[int, ...]) -> tuple:
    """An endpoint with one delivery per item of ``days_ago``, each logged that long ago."""
    api = project_api(app)
    api.add_language("en")
    with receiver(200) as endpoint:
        hook_id, _secret = add_hook(api, endpoint.url)
        for number in range(len(days_ago)):
            api.create(f"key{number}", {"en": "Value"})
            run_jobs(app)
    logged = [delivery["id"] for delivery in reversed(deliveries(api, hook_id))]
    with app.app_context(), unit_of_work():
        for delivery_id, days in zip(logged, days_ago, strict=True):
            db.session.execute(
                update(WebhookDelivery)
                .where(WebhookDelivery.id == delivery_id)
                .values(created_at=utcnow() - timedelta(days=days))
            )
    return api, hook_id, logged


def run_prune(app) -> dict:
    with app.app_context():
        jobs.ensure_scheduled(SCHEDULES[PRUNE])
        assert Worker(app).run_one()
        (pruning,) = db.session.scalars(select(Job).where(Job.kind == PRUNE, Job.state == SUCCEEDED))
        return jobs.describe(pruning)["result"]


@pytest.fixture
def config_overrides(request):
    return {"LOKO_REPOHOST_ALLOW_PRIVATE": True, **getattr(request, "param", {})}


def test_the_delivery_log_is_pruned_daily(app):
    assert SCHEDULES[PRUNE].every == timedelta(days=1)


@pytest.mark.parametrize("config_overrides", [{"LOKO_WEBHOOK_DELIVERY_DAYS": 10}], indirect=True)
def test_deliveries_older_than_the_retention_are_deleted(app, receiver):
    api, hook_id, (_old, _older, recent) = logged_deliveries(app, receiver, days_ago=(11, 40, 9))

    assert run_prune(app) == {"deleted": 2, "retentionDays": 10}
    assert [delivery["id"] for delivery in deliveries(api, hook_id)] == [recent]


def test_the_default_retention_is_thirty_days(app, receiver):
    api, hook_id, (_old, recent) = logged_deliveries(app, receiver, days_ago=(31, 29))

    assert run_prune(app) == {"deleted": 1, "retentionDays": 30}
    assert [delivery["id"] for delivery in deliveries(api, hook_id)] == [recent]


@pytest.mark.parametrize("config_overrides", [{"LOKO_WEBHOOK_DELIVERY_DAYS": 0}], indirect=True)
def test_a_retention_of_zero_keeps_every_delivery(app, receiver):
    api, hook_id, _logged = logged_deliveries(app, receiver, days_ago=(400,))

    assert run_prune(app) == {"deleted": 0, "retentionDays": 0}
    assert len(deliveries(api, hook_id)) == 1
