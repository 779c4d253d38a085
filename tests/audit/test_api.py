"""GET /api/organizations/{id}/audit: for the organization's owners and admins only, newest
first, filtered by action prefix, actor, target type and time, paged by cursor."""

from datetime import timedelta

import pytest
from sqlalchemy import update

from loko.audit import service as audit
from loko.audit.models import AuditEvent
from loko.auth.actors import UserActor
from loko.database import unit_of_work, utcnow
from loko.extensions import db
from loko.projects.models import Project
from tests.factories import user_id


def log_path(world):
    return f"/api/organizations/{world.organization_id}/audit"


def add_events(app, world, *actions, actor=None, target=None) -> None:
    """Record ``actions`` in the world's organization, in that order."""
    with app.app_context(), unit_of_work():
        for action in actions:
            audit.record(actor, world.organization_id, action, target, {"n": action})


def owner(world) -> UserActor:
    return UserActor(id=user_id(world.users["org_owner"]), email="owner@example.test", name="Owner")


# --- who may read it ----------------------------------------------------------------------------


@pytest.mark.parametrize("caller", ["org_owner", "org_admin"])
def test_owners_and_admins_read_the_log(app, as_caller, world, caller):
    add_events(app, world, "organization.renamed")
    response = as_caller(caller).get(log_path(world))
    assert response.status_code == 200
    (event,) = response.json["events"]
    assert set(event) == {"id", "action", "actor", "target", "ipAddress", "details", "createdAt"}
    assert event["action"] == "organization.renamed"
    assert response.json["next_cursor"] is None


@pytest.mark.parametrize("caller", ["viewer", "editor", "project_admin"])
def test_members_may_not_read_the_log(as_caller, world, caller):
    response = as_caller(caller).get(log_path(world))
    assert response.status_code == 403
    assert "owner or admin" in response.json["error"]


@pytest.mark.parametrize("caller", ["read_key", "write_key"])
def test_api_keys_may_not_read_the_log(as_caller, world, caller):
    assert as_caller(caller).get(log_path(world)).status_code == 403


def test_an_outsider_is_told_the_organization_does_not_exist(as_caller, world):
    assert as_caller("outsider").get(log_path(world)).status_code == 404


@pytest.mark.parametrize("caller", ["anonymous", "unknown_key", "revoked_key"])
def test_without_valid_credentials_the_log_is_a_401(as_caller, world, caller):
    assert as_caller(caller).get(log_path(world)).status_code == 401


def test_another_organizations_events_are_not_listed(app, as_caller, world):
    with app.app_context(), unit_of_work():
        other_org = db.session.get(Project, world.other_project_id).organization_id
        audit.record(None, other_org, "auth.sign_in_failed")
    assert as_caller("org_owner").get(log_path(world)).json["events"] == []


# --- order, paging, filters ---------------------------------------------------------------------


def test_events_come_newest_first(app, as_caller, world):
    add_events(app, world, "project.created", "project.deleted")
    actions = [event["action"] for event in as_caller("org_owner").get(log_path(world)).json["events"]]
    assert actions == ["project.deleted", "project.created"]


def test_pages_follow_each_other_by_cursor(app, as_caller, world):
    add_events(app, world, *(f"project.step{n}" for n in range(5)))
    client = as_caller("org_owner")
    first = client.get(log_path(world), query_string={"limit": 2}).json
    second = client.get(log_path(world), query_string={"limit": 2, "cursor": first["next_cursor"]}).json
    third = client.get(log_path(world), query_string={"limit": 2, "cursor": second["next_cursor"]}).json
    pages = [[event["action"] for event in page["events"]] for page in (first, second, third)]
    assert pages == [
        ["project.step4", "project.step3"],
        ["project.step2", "project.step1"],
        ["project.step0"],
    ]
    assert third["next_cursor"] is None


def test_the_action_filter_is_a_prefix(app, as_caller, world):
    add_events(app, world, "auth.sign_in", "auth.sign_in_failed", "api_key.created")
    response = as_caller("org_owner").get(log_path(world), query_string={"action": "auth.sign_in"})
    assert [event["action"] for event in response.json["events"]] == ["auth.sign_in_failed", "auth.sign_in"]


def test_the_action_filter_takes_wildcards_literally(app, as_caller, world):
    add_events(app, world, "auth.sign_in")
    response = as_caller("org_owner").get(log_path(world), query_string={"action": "auth%"})
    assert response.json["events"] == []


def test_the_actor_filter_names_a_user_or_key(app, as_caller, world):
    add_events(app, world, "organization.renamed", actor=owner(world))
    add_events(app, world, "auth.sign_in_failed")
    response = as_caller("org_admin").get(log_path(world), query_string={"actor": owner(world).id})
    (event,) = response.json["events"]
    assert event["actor"] == {"type": "user", "id": owner(world).id, "name": "owner@example.test"}


def test_the_target_type_filter(app, as_caller, world):
    add_events(app, world, "api_key.created", target=audit.Target("api_key", "k1", "ci"))
    add_events(app, world, "project.created", target=audit.Target("project", world.project_id, "Web app"))
    response = as_caller("org_owner").get(log_path(world), query_string={"targetType": "api_key"})
    (event,) = response.json["events"]
    assert event["target"] == {"type": "api_key", "id": "k1", "label": "ci"}


def test_from_and_to_take_days_and_moments(app, as_caller, world):
    add_events(app, world, "project.old", "project.new")
    with app.app_context(), unit_of_work():
        db.session.execute(
            update(AuditEvent)
            .where(AuditEvent.action == "project.old")
            .values(created_at=utcnow() - timedelta(days=3))
        )
    client = as_caller("org_owner")
    today = utcnow().date().isoformat()
    two_days_ago = (utcnow() - timedelta(days=2)).date().isoformat()

    def actions(**query):
        return [event["action"] for event in client.get(log_path(world), query_string=query).json["events"]]

    assert actions(**{"from": today}) == ["project.new"]
    assert actions(to=two_days_ago) == ["project.old"]
    assert actions(**{"from": (utcnow() - timedelta(hours=1)).isoformat()}) == ["project.new"]
    assert actions(to=today) == ["project.new", "project.old"]


@pytest.mark.parametrize("query", [{"to": "9999-12-31"}, {"from": "9999-12-31T23:59:59-01:00"}])
def test_moments_at_the_calendars_end_are_taken(as_caller, world, query):
    assert as_caller("org_owner").get(log_path(world), query_string=query).status_code == 200


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ({"from": "yesterday"}, "from"),
        ({"to": "2026-13-01"}, "to"),
        ({"targetType": "planet"}, "targetType"),
        ({"limit": 0}, "limit"),
        ({"limit": 201}, "limit"),
        ({"cursor": "abc"}, "cursor"),
        ({"action": "a" * 65}, "action"),
        ({"color": "red"}, "color"),
    ],
)
def test_bad_filters_are_a_400_naming_the_field(as_caller, world, query, field):
    response = as_caller("org_owner").get(log_path(world), query_string=query)
    assert response.status_code == 400
    assert field in response.json["error"]


def test_the_endpoint_is_in_the_openapi_document(client):
    document = client.get("/api/openapi.json").json
    operation = document["paths"]["/api/organizations/{organization_id}/audit"]["get"]
    assert {parameter["name"] for parameter in operation["parameters"]} >= {
        "action",
        "actor",
        "targetType",
        "from",
        "to",
        "limit",
        "cursor",
    }
