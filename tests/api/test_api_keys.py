"""Project API keys: creation, listing, revocation and scopes (service spec "API key",
decisions section 10)."""

import uuid
from datetime import datetime

import pytest

from tests.factories import CallerClient, user_id


@pytest.fixture
def owner(as_caller):
    return as_caller("org_owner")


def keys_path(world):
    return f"/api/projects/{world.project_id}/keys"


def create_key(caller, world, **fields):
    return caller.post(keys_path(world), json={"name": "deploy", **fields})


def listed(caller, world) -> dict:
    return {k["name"]: k for k in caller.get(keys_path(world)).json["keys"]}


# --- create ------------------------------------------------------------------------------


def test_create_key_answers_201_with_the_key_and_its_record(owner, world):
    response = create_key(owner, world)
    assert response.status_code == 201
    assert set(response.json) == {"key", "apiKey"}
    record = response.json["apiKey"]
    assert set(record) == {"id", "name", "prefix", "scope", "created_at", "expiresAt", "languages"}
    assert record["name"] == "deploy"
    uuid.UUID(record["id"])
    datetime.fromisoformat(record["created_at"])


def test_created_key_starts_with_loko(owner, world):
    assert create_key(owner, world).json["key"].startswith("loko_")


def test_created_key_prefix_is_its_first_twelve_characters(owner, world):
    created = create_key(owner, world).json
    assert created["apiKey"]["prefix"] == created["key"][:12]


def test_created_keys_differ(owner, world):
    first = create_key(owner, world, name="one").json["key"]
    second = create_key(owner, world, name="two").json["key"]
    assert first != second


def test_created_key_works_at_once(app, owner, world):
    key = create_key(owner, world).json["key"]
    response = CallerClient(app, {"bearer": key}).get(f"/api/projects/{world.project_id}")
    assert response.status_code == 200


def test_key_scope_defaults_to_write(owner, world):
    assert create_key(owner, world).json["apiKey"]["scope"] == "write"


def test_key_scope_may_be_read(owner, world):
    assert create_key(owner, world, scope="read").json["apiKey"]["scope"] == "read"


def test_key_scope_must_be_read_or_write(owner, world):
    response = create_key(owner, world, scope="admin")
    assert response.status_code == 400
    assert "scope" in response.json["error"]


def test_key_name_may_have_128_characters(owner, world):
    assert create_key(owner, world, name="k" * 128).status_code == 201


def test_key_name_of_129_characters_is_rejected(owner, world):
    response = create_key(owner, world, name="k" * 129)
    assert response.status_code == 400
    assert "name" in response.json["error"]
    assert "k" * 129 not in listed(owner, world)


def test_key_name_is_required(owner, world):
    response = owner.post(keys_path(world), json={})
    assert response.status_code == 400
    assert "name" in response.json["error"]


def test_key_name_must_not_be_empty(owner, world):
    assert create_key(owner, world, name="").status_code == 400


def test_create_key_rejects_unknown_fields(owner, world):
    response = create_key(owner, world, expires="never")
    assert response.status_code == 400
    assert "expires" in response.json["error"]


# --- list --------------------------------------------------------------------------------


def test_list_keys_describes_each_key(owner, world):
    created = create_key(owner, world).json
    response = owner.get(keys_path(world))
    assert response.status_code == 200
    assert set(response.json) == {"keys"}
    item = listed(owner, world)["deploy"]
    assert set(item) == {
        "id",
        "name",
        "prefix",
        "scope",
        "created_at",
        "last_used_at",
        "lastUsedFrom",
        "expiresAt",
        "expired",
        "languages",
        "created_by",
    }
    assert item["id"] == created["apiKey"]["id"]
    assert item["prefix"] == created["key"][:12]
    assert item["scope"] == "write"
    assert item["created_at"] == created["apiKey"]["created_at"]
    assert item["last_used_at"] is None


def test_list_keys_names_the_creator(owner, world):
    create_key(owner, world)
    assert listed(owner, world)["deploy"]["created_by"] == {
        "id": user_id(world.users["org_owner"]),
        "email": "owner@example.test",
        "name": "Owner",
    }


def test_list_keys_has_no_creator_for_keys_made_outside_a_session(owner, world):
    assert listed(owner, world)["write_key"]["created_by"] is None


def test_list_keys_never_contains_a_full_key(owner, world):
    key = create_key(owner, world).json["key"]
    body = owner.get(keys_path(world)).get_data(as_text=True)
    assert key not in body
    assert world.credentials["write_key"]["bearer"] not in body


def test_list_keys_shows_when_a_key_was_last_used(app, owner, world):
    created = create_key(owner, world).json
    CallerClient(app, {"bearer": created["key"]}).get("/api/projects")
    assert listed(owner, world)["deploy"]["last_used_at"] is not None


def test_list_keys_shows_only_this_projects_live_keys(owner, world):
    assert set(listed(owner, world)) == {"write_key", "read_key", "spare_key"}


# --- revoke ------------------------------------------------------------------------------


def test_revoke_key_answers_success(owner, world):
    response = owner.delete(f"{keys_path(world)}/{world.key_ids['spare_key']}")
    assert response.status_code == 200
    assert response.json == {"success": True}


def test_revoked_key_stops_working_at_once(as_caller, owner, world):
    owner.delete(f"{keys_path(world)}/{world.key_ids['spare_key']}")
    response = as_caller("spare_key").get(f"/api/projects/{world.project_id}")
    assert response.status_code == 401


def test_revoked_key_leaves_the_list(owner, world):
    owner.delete(f"{keys_path(world)}/{world.key_ids['spare_key']}")
    assert "spare_key" not in listed(owner, world)


def test_revoke_leaves_other_keys_working(as_caller, owner, world):
    owner.delete(f"{keys_path(world)}/{world.key_ids['spare_key']}")
    assert as_caller("write_key").get(f"/api/projects/{world.project_id}").status_code == 200


def test_revoke_a_revoked_key_is_not_found(owner, world):
    owner.delete(f"{keys_path(world)}/{world.key_ids['spare_key']}")
    assert owner.delete(f"{keys_path(world)}/{world.key_ids['spare_key']}").status_code == 404


def test_revoke_an_unknown_key_is_not_found(owner, world):
    assert owner.delete(f"{keys_path(world)}/{uuid.uuid4()}").status_code == 404


def test_revoke_another_projects_key_through_this_project_is_not_found(as_caller, owner, world):
    response = owner.delete(f"{keys_path(world)}/{world.key_ids['other_project_key']}")
    assert response.status_code == 404
    assert as_caller("other_project_key").get(f"/api/projects/{world.other_project_id}").status_code == 200


# --- what keys may do --------------------------------------------------------------------


@pytest.mark.parametrize("caller", ["read_key", "write_key"])
def test_key_sees_only_its_own_project(as_caller, world, caller):
    response = as_caller(caller).get(f"/api/projects/{world.other_project_id}")
    assert response.status_code == 403


def test_read_key_may_not_edit_translations(as_caller, world):
    project = as_caller("read_key").get(f"/api/projects/{world.project_id}").json["project"]
    assert project["canViewTranslations"] is True
    assert project["canEditTranslations"] is False


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("PUT", "/api/projects/{project}", {"name": "Renamed"}),
        ("DELETE", "/api/projects/{project}", None),
        ("POST", "/api/projects/{project}/keys", {"name": "escalate"}),
        ("GET", "/api/projects/{project}/keys", None),
    ],
    ids=["update-project", "delete-project", "create-key", "list-keys"],
)
def test_read_key_may_not_change_the_project(as_caller, owner, world, method, path, body):
    path = path.format(project=world.project_id)
    response = as_caller("read_key").open(method, path, **({} if body is None else {"json": body}))
    assert response.status_code == 403
    project = owner.get(f"/api/projects/{world.project_id}").json["project"]
    assert project["name"] == "Web app"


def test_key_may_not_create_another_key(as_caller, owner, world):
    response = create_key(as_caller("write_key"), world, name="escalate")
    assert response.status_code == 403
    assert "session" in response.json["error"]
    assert "escalate" not in listed(owner, world)
