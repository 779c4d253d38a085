"""A project's webhooks over REST: who may manage them, the secret answered once, changes,
and bad input named by its field."""

import pytest

from tests.factories import CALLERS

# anonymous, unknown_key, revoked_key, other_project_key, read_key, write_key, viewer,
# editor, project_admin, org_admin, org_owner, outsider: a project setting, by session only.
MANAGERS = (401, 401, 401, 403, 403, 403, 403, 403, 200, 200, 200, 404)
HOOK = {"url": "https://hooks.example.test/loko", "events": ["values.changed", "key.created"]}


def _expected(statuses, caller, success):
    status = statuses[CALLERS.index(caller)]
    return success if status == 200 else status


@pytest.fixture
def hook(app, world, as_caller):
    response = as_caller("org_owner").post(f"/api/projects/{world.project_id}/webhooks", json=HOOK)
    assert response.status_code == 201, response.json
    return response.json


@pytest.mark.parametrize("caller", CALLERS)
def test_every_endpoint_answers_each_caller_as_the_policy_says(app, world, as_caller, hook, caller):
    base = f"/api/projects/{world.project_id}/webhooks"
    hook_url = f"{base}/{hook['webhook']['id']}"
    missing = "0190a0a0-0000-7000-8000-000000000000"
    client = as_caller(caller)
    calls = (
        ("get", base, None, 200),
        ("post", base, HOOK, 201),
        ("get", hook_url, None, 200),
        ("patch", hook_url, {"enabled": False}, 200),
        ("get", hook_url + "/deliveries", None, 200),
        # No delivery of that id: whoever may manage webhooks is told so.
        ("post", f"{hook_url}/deliveries/{missing}/redeliver", None, 404),
        ("delete", hook_url, None, 200),
    )
    for method, url, body, success in calls:
        response = getattr(client, method)(url, json=body) if body else getattr(client, method)(url)
        assert response.status_code == _expected(MANAGERS, caller, success), (method, url, response.json)


def test_the_secret_is_answered_once_and_never_again(app, world, as_caller, hook):
    secret = hook["secret"]
    assert secret.startswith("whsec_") and len(secret) > 40
    owner = as_caller("org_owner")
    listed = owner.get(f"/api/projects/{world.project_id}/webhooks")
    one = owner.get(f"/api/projects/{world.project_id}/webhooks/{hook['webhook']['id']}")
    assert secret[6:] not in listed.get_data(as_text=True) + one.get_data(as_text=True)
    assert listed.json["webhooks"] == [one.json["webhook"]]
    assert one.json["webhook"]["events"] == ["values.changed", "key.created"]
    assert one.json["webhook"]["enabled"] is True


def test_a_change_keeps_what_it_does_not_name(app, world, as_caller, hook):
    url = f"/api/projects/{world.project_id}/webhooks/{hook['webhook']['id']}"
    changed = as_caller("project_admin").patch(url, json={"events": ["import.finished"], "enabled": False})
    assert changed.status_code == 200
    assert changed.json["webhook"]["events"] == ["import.finished"]
    assert (changed.json["webhook"]["enabled"], changed.json["webhook"]["url"]) == (False, HOOK["url"])


def test_another_projects_webhook_is_not_found(app, world, as_caller, hook):
    other = f"/api/projects/{world.other_project_id}/webhooks/{hook['webhook']['id']}"
    assert as_caller("outsider").get(other).status_code == 404


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"events": ["values.changed"]}, "url"),
        ({**HOOK, "url": "ftp://hooks.example.test/"}, "url"),
        ({**HOOK, "url": "https://user:pw@hooks.example.test/"}, "url"),
        ({**HOOK, "events": []}, "events"),
        ({**HOOK, "events": ["values.deleted"]}, "events"),
        ({**HOOK, "description": "x" * 501}, "description"),
        ({**HOOK, "enabled": "sometimes"}, "enabled"),
    ],
)
def test_bad_input_is_a_400_naming_the_field(app, world, as_caller, body, field):
    response = as_caller("org_owner").post(f"/api/projects/{world.project_id}/webhooks", json=body)
    assert response.status_code == 400
    assert field in response.json["error"]
