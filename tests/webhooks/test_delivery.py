"""Events become signed deliveries: one message per event and transaction, posted to each
endpoint that wants it, retried after a failure, logged, and delivered again on request."""

import orjson
import pytest
from standardwebhooks.webhooks import Webhook

from loko.extensions import db
from loko.jobs.models import Job
from loko.webhooks.models import WebhookDelivery
from tests.translation_factories import project_api
from tests.webhooks.conftest import run_jobs


@pytest.fixture
def config_overrides():
    return {"LOKO_REPOHOST_ALLOW_PRIVATE": True}


def add_hook(api, url, events=("values.changed",), **more) -> tuple[str, str]:
    response = api.owner.post(api.url("/webhooks"), json={"url": url, "events": list(events), **more})
    assert response.status_code == 201, response.json
    return response.json["webhook"]["id"], response.json["secret"]


def deliveries(api, hook_id) -> list[dict]:
    response = api.owner.get(api.url(f"/webhooks/{hook_id}/deliveries"))
    assert response.status_code == 200
    return response.json["deliveries"]


def jobs(app) -> list[Job]:
    """The webhooks' jobs (the notifications' own, which the same events bring, left out)."""
    with app.app_context():
        return list(Job.query.filter(~Job.kind.startswith("notifications.")).order_by(Job.created_at).all())


def test_a_delivery_that_fails_twice_is_retried_and_the_third_verifies(app, receiver):
    api = project_api(app)
    api.add_language("en")
    with receiver(500, 503, 200) as endpoint:
        hook_id, secret = add_hook(api, endpoint.url)
        api.create("title", {"en": "Title"})
        assert run_jobs(app) == 3
        requests = endpoint.requests

    assert len(requests) == 3
    assert len({headers["webhook-id"] for headers, _body in requests}) == 1
    headers, body = requests[2]
    message = Webhook(secret).verify(body, headers)
    assert message["type"] == "values.changed"
    assert message["timestamp"].endswith("Z")
    data = message["data"]
    assert (data["projectId"], data["count"], data["truncated"]) == (api.project_id, 1, False)
    assert [(c["key"], c["language"], c["newValue"]) for c in data["changes"]] == [("title", "en", "Title")]

    attempts = deliveries(api, hook_id)
    assert [(d["attempt"], d["statusCode"], d["succeeded"]) for d in attempts] == [
        (3, 200, True),
        (2, 503, False),
        (1, 500, False),
    ]
    assert attempts[1]["responseSnippet"] == '{"ok": false}'
    assert all(d["messageId"] == headers["webhook-id"] for d in attempts)
    assert [job.state for job in jobs(app)] == ["succeeded"]


def test_one_write_is_one_message_per_event_with_its_counts(app, receiver):
    api = project_api(app)
    api.add_language("en")
    with receiver(200) as endpoint:
        add_hook(api, endpoint.url, events=("values.changed", "key.created", "key.trashed"))
        api.upsert("en", {"a": "A", "b": "B", "c": "C"})
        run_jobs(app)
        messages = [orjson.loads(body) for _headers, body in endpoint.requests]

    by_type = {message["type"]: message["data"] for message in messages}
    assert sorted(by_type) == ["key.created", "values.changed"]
    assert by_type["values.changed"]["count"] == 3
    assert sorted(c["key"] for c in by_type["values.changed"]["changes"]) == ["a", "b", "c"]
    assert by_type["key.created"]["count"] == 3
    assert sorted(k["key"] for k in by_type["key.created"]["keys"]) == ["a", "b", "c"]


def test_keys_trashed_and_restored_and_a_finished_import(app, receiver):
    api = project_api(app)
    api.add_language("en")
    translation = api.create("title", {"en": "Title"})
    with receiver(200) as endpoint:
        add_hook(api, endpoint.url, events=("key.trashed", "key.restored", "import.finished"))
        api.trash(translation["id"])
        api.restore(translation["id"])
        imported = api.client.post(
            api.url("/import"),
            data=orjson.dumps({"title": "Title", "body": "Body"}),
            query_string={"fileName": "home", "language": "en", "format": "json"},
            headers={"Content-Type": "application/octet-stream"},
        )
        assert imported.status_code == 200, imported.json
        run_jobs(app)
        messages = [orjson.loads(body) for _headers, body in endpoint.requests]

    assert [message["type"] for message in messages] == ["key.trashed", "key.restored", "import.finished"]
    assert messages[0]["data"]["keys"] == [
        {"translationId": translation["id"], "key": "title", "fileName": "common"}
    ]
    finished = messages[2]["data"]
    assert (finished["operationId"], finished["files"], finished["created"]) == (
        imported.json["operationId"],
        ["home"],
        2,
    )


def test_a_refused_write_and_a_disabled_endpoint_send_nothing(app, receiver):
    api = project_api(app)
    api.add_language("en")
    with receiver(200) as endpoint:
        hook_id, _secret = add_hook(api, endpoint.url)
        assert api.post("/translations", {"key": "", "fileName": "common", "values": {}}).status_code == 400
        assert api.owner.patch(api.url(f"/webhooks/{hook_id}"), json={"enabled": False}).status_code == 200
        api.create("title", {"en": "Title"})
        assert run_jobs(app) == 0
        assert endpoint.requests == []


def test_an_endpoint_disabled_after_its_message_was_queued_is_not_called(app, receiver):
    api = project_api(app)
    api.add_language("en")
    with receiver(200) as endpoint:
        hook_id, _secret = add_hook(api, endpoint.url)
        api.create("title", {"en": "Title"})
        assert api.owner.patch(api.url(f"/webhooks/{hook_id}"), json={"enabled": False}).status_code == 200
        assert run_jobs(app) == 1
        assert endpoint.requests == []

    assert deliveries(api, hook_id) == []
    (job,) = jobs(app)
    assert (job.state, orjson.loads(job.result)) == (
        "succeeded",
        {"skipped": "the webhook was deleted or disabled"},
    )


def test_an_endpoint_deleted_while_its_delivery_is_posted_logs_nothing(app, receiver):
    api = project_api(app)
    api.add_language("en")
    with receiver(200) as endpoint:
        hook_id, _secret = add_hook(api, endpoint.url)
        api.create("title", {"en": "Title"})
        statuses = []

        def delete_the_endpoint():
            statuses.append(api.owner.delete(api.url(f"/webhooks/{hook_id}")).status_code)

        endpoint.on_request = delete_the_endpoint
        assert run_jobs(app) == 1
        assert (len(endpoint.requests), statuses) == (1, [200])

    assert api.owner.get(api.url(f"/webhooks/{hook_id}")).status_code == 404
    (job,) = jobs(app)
    assert (job.state, orjson.loads(job.result)) == (
        "succeeded",
        {"skipped": "the webhook was deleted meanwhile"},
    )
    with app.app_context():
        assert db.session.query(WebhookDelivery).count() == 0


def test_a_message_is_delivered_again_on_request_with_the_same_id(app, receiver):
    api = project_api(app)
    api.add_language("en")
    with receiver(200) as endpoint:
        hook_id, secret = add_hook(api, endpoint.url)
        api.create("title", {"en": "Title"})
        run_jobs(app)
        first = deliveries(api, hook_id)[0]
        again = api.owner.post(api.url(f"/webhooks/{hook_id}/deliveries/{first['id']}/redeliver"))
        assert again.status_code == 202
        assert again.json["messageId"] == first["messageId"]
        assert run_jobs(app) == 1
        (h1, b1), (h2, b2) = endpoint.requests

    assert (h1["webhook-id"], b1) == (h2["webhook-id"], b2)
    assert Webhook(secret).verify(b2, h2)["type"] == "values.changed"
    assert len(deliveries(api, hook_id)) == 2


def test_a_private_address_is_refused_without_a_connection(app, receiver):
    api = project_api(app)
    api.add_language("en")
    with receiver(200) as endpoint:
        hook_id, _secret = add_hook(api, endpoint.url.replace("http://", "https://"))
        app.config["LOKO_REPOHOST_ALLOW_PRIVATE"] = False
        api.create("title", {"en": "Title"})
        assert run_jobs(app) == 1
        assert endpoint.requests == []

    (attempt,) = deliveries(api, hook_id)
    assert (attempt["succeeded"], attempt["statusCode"]) == (False, None)
    assert "private" in attempt["error"]
    (job,) = jobs(app)
    assert (job.state, job.attempts) == ("failed", 1)
