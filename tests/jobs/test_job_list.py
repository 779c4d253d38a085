"""A project's job list by kind: webhook deliveries are apart (listed only when asked for),
so that imports and pre-translations stay in view; a finished job still says who started it
and what it was asked, and nothing else of its payload."""

import orjson
import pytest

from loko.database import unit_of_work
from loko.extensions import db
from loko.jobs import service
from loko.jobs.models import Job


@pytest.fixture
def mixed(app, world) -> dict:
    """A delivery, an import and another delivery, in that order."""
    with app.app_context(), unit_of_work():
        return {
            name: service.enqueue(kind, project_id=world.project_id).id
            for name, kind in (
                ("delivery", "webhook-delivery"),
                ("import", "import"),
                ("later_delivery", "webhook-delivery"),
            )
        }


def listed(client, world, **query) -> list[str]:
    response = client.get(f"/api/projects/{world.project_id}/jobs", query_string=query)
    assert response.status_code == 200, response.json
    return [job["kind"] for job in response.json["jobs"]]


def test_webhook_deliveries_are_left_out_of_the_default_list(as_caller, world, mixed):
    assert listed(as_caller("viewer"), world) == ["import"]


def test_the_kind_filter_lists_that_kind_only(as_caller, world, mixed):
    assert listed(as_caller("viewer"), world, kind="webhook-delivery") == ["webhook-delivery"] * 2


def test_the_jobs_page_filters_by_kind(as_caller, world, mixed):
    client = as_caller("viewer")
    default = client.get(f"/projects/{world.project_id}/jobs").get_data(as_text=True)
    assert f'id="job-{mixed["import"]}"' in default
    assert f'id="job-{mixed["delivery"]}"' not in default
    chosen = client.get(f"/projects/{world.project_id}/jobs", query_string={"kind": "webhook-delivery"})
    html = chosen.get_data(as_text=True)
    assert f'id="job-{mixed["delivery"]}"' in html
    assert f'id="job-{mixed["import"]}"' not in html
    assert '<option value="webhook-delivery" selected>Webhook delivery</option>' in html


def test_a_cancelled_job_keeps_who_started_it_and_what_it_was_asked_only(app, as_caller, world):
    payload = {
        "actor": {"type": "user", "id": "u1", "email": "ada@example.test", "name": "Ada"},
        "about": {"languages": ["de"]},
        "data": "a large upload",
    }
    with app.app_context(), unit_of_work():
        job_id = service.enqueue("import", payload, project_id=world.project_id).id
    with app.app_context():
        job = service.cancel(world.project_id, job_id)
        kept = orjson.loads(db.session.get(Job, job_id).payload)
    assert (job["startedBy"], job["about"]) == (
        {"type": "user", "name": "ada@example.test"},
        {"languages": ["de"]},
    )
    assert "data" not in kept and "actor" not in kept
