"""``job.finished``: a project's job that ends (succeeded, failed to the dead letter, or
cancelled) is told to the endpoints that want it, signed like every event, with its summary
and never its payload; a webhook delivery job ending tells nothing."""

import orjson
import pytest
from standardwebhooks.webhooks import Webhook

from loko.database import unit_of_work
from loko.jobs import service as jobs
from loko.jobs.registry import HANDLERS
from tests.translation_factories import project_api
from tests.webhooks.conftest import run_jobs
from tests.webhooks.test_delivery import add_hook

FILE = orjson.dumps({"title": "Title", "body": "Body"})


@pytest.fixture
def config_overrides():
    return {"LOKO_REPOHOST_ALLOW_PRIVATE": True}


def import_as_job(api) -> str:
    response = api.client.post(
        api.url("/import"),
        data=FILE,
        query_string={"fileName": "home", "language": "en", "format": "json", "async": "true"},
        headers={"Content-Type": "application/octet-stream"},
    )
    assert response.status_code == 202, response.json
    return response.json["job"]["id"]


def verified(secret: str, requests) -> list[dict]:
    """Each request's message, its signature checked."""
    return [Webhook(secret).verify(body, headers) for headers, body in requests]


def test_a_finished_import_job_is_delivered_signed_with_its_summary(app, receiver):
    api = project_api(app)
    api.add_language("en")
    with receiver(200) as endpoint:
        _hook_id, secret = add_hook(api, endpoint.url, events=("job.finished",))
        job_id = import_as_job(api)
        assert run_jobs(app) == 2  # the import, then the delivery of its job.finished
        (message,) = verified(secret, endpoint.requests)

    assert message["type"] == "job.finished"
    data = message["data"]
    assert (data["projectId"], data["jobId"], data["kind"], data["state"]) == (
        api.project_id,
        job_id,
        "import",
        "succeeded",
    )
    assert (data["attempts"], data["maxAttempts"], data["error"]) == (1, 3, None)
    assert data["createdAt"].endswith("Z") and data["finishedAt"] >= data["startedAt"]
    assert data["durationMs"] >= 0
    result = data["result"]
    assert result["summary"]["created"] == 2 and result["operationId"]
    assert "created" not in result and "files" not in result  # the lists, with the values, stay home
    assert "payload" not in data


def test_a_cancelled_job_is_delivered_as_cancelled(app, receiver):
    api = project_api(app)
    api.add_language("en")
    with receiver(200) as endpoint:
        _hook_id, secret = add_hook(api, endpoint.url, events=("job.finished",))
        job_id = import_as_job(api)
        assert api.client.post(api.url(f"/jobs/{job_id}/cancel")).status_code == 200
        assert run_jobs(app) == 1  # the delivery alone: the import never runs
        (message,) = verified(secret, endpoint.requests)

    data = message["data"]
    assert (data["jobId"], data["state"], data["attempts"]) == (job_id, "cancelled", 0)
    assert (data["startedAt"], data["durationMs"], data["result"]) == (None, None, None)


def test_a_dead_lettered_job_is_delivered_once_as_failed_with_its_error(app, receiver, monkeypatch):
    def broken(_context, _payload):
        raise RuntimeError("the disk is full")

    monkeypatch.setitem(HANDLERS, "test-broken", broken)
    api = project_api(app)
    with receiver(200) as endpoint:
        _hook_id, secret = add_hook(api, endpoint.url, events=("job.finished",))
        with app.app_context(), unit_of_work():
            job_id = jobs.enqueue("test-broken", project_id=api.project_id, max_attempts=2).id
        assert run_jobs(app) == 3  # two attempts, then one delivery
        (message,) = verified(secret, endpoint.requests)

    data = message["data"]
    assert (data["jobId"], data["kind"], data["state"]) == (job_id, "test-broken", "failed")
    assert data["attempts"] == 2
    assert data["error"] == "RuntimeError: the disk is full"


@pytest.mark.parametrize("status", [200, 500])
def test_a_delivery_job_ending_raises_no_job_finished(app, receiver, status):
    api = project_api(app)
    api.add_language("en")
    with receiver(status) as endpoint:
        add_hook(api, endpoint.url, events=("values.changed", "job.finished"))
        api.create("title", {"en": "Title"})
        run_jobs(app)
        types = [orjson.loads(body)["type"] for _headers, body in endpoint.requests]

    assert types == ["values.changed"] * (1 if status == 200 else 5)


def test_an_endpoint_not_subscribed_hears_nothing_of_jobs(app, receiver):
    api = project_api(app)
    api.add_language("en")
    with receiver(200) as endpoint:
        add_hook(api, endpoint.url, events=("values.changed",))
        import_as_job(api)
        run_jobs(app)
        types = [orjson.loads(body)["type"] for _headers, body in endpoint.requests]

    assert types == ["values.changed"]
