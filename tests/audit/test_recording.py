"""Each audited action records one event in its organization, with who did it, to what, and a
few details; a refused action records nothing."""

import pytest

from loko.auth.models import User
from loko.auth.service import user_actor
from loko.extensions import db
from loko.organizations import service as organizations
from tests.audit.helpers import only, recorded
from tests.factories import PASSWORD, add_org_member, make_org, make_user, user_id

ORGS = "/api/organizations"


def owner_actor(world):
    owner = world.users["org_owner"]
    return ("user", user_id(owner), "owner@example.test")


# --- signing in and out -------------------------------------------------------------------------


def test_a_sign_in_is_recorded_in_each_organization_of_the_user(app, client, world):
    with app.app_context():
        second = make_org(db.session.get(User, user_id(world.users["org_owner"])), "Second")
        second_id = second.id
    response = client.post("/api/auth/login", json={"email": "owner@example.test", "password": PASSWORD})
    assert response.status_code == 200
    for organization_id in (world.organization_id, second_id):
        event = only(app, organization_id, "auth.sign_in")
        assert event["actor"] == owner_actor(world)
        assert event["target"] == ("user", user_id(world.users["org_owner"]), "owner@example.test")
        assert event["ip"] == "127.0.0.1"


def test_a_wrong_password_is_recorded_as_a_failure_without_an_actor(app, client, world):
    response = client.post("/api/auth/login", json={"email": "Owner@example.test", "password": "wrong one"})
    assert response.status_code == 401
    event = only(app, world.organization_id, "auth.sign_in_failed")
    assert event["actor"] == ("anonymous", None, None)
    assert event["target"] == ("user", user_id(world.users["org_owner"]), "owner@example.test")
    assert recorded(app, world.organization_id, "auth.sign_in") == []


def test_a_failure_for_an_unknown_email_is_recorded_nowhere(app, client, world):
    response = client.post("/api/auth/login", json={"email": "nobody@example.test", "password": "x" * 12})
    assert response.status_code == 401
    assert recorded(app) == []


def test_a_sign_out_is_recorded(app, as_caller, world):
    assert as_caller("editor").post("/api/auth/logout").status_code == 200
    event = only(app, world.organization_id, "auth.sign_out")
    assert event["actor"] == ("user", user_id(world.users["editor"]), "editor@example.test")


# --- members, roles, invitations ----------------------------------------------------------------


def test_adding_a_member_is_recorded_with_the_role(app, as_caller, world):
    with app.app_context():
        newcomer = user_id(make_user("new@example.test"))
    response = as_caller("org_owner").post(
        f"{ORGS}/{world.organization_id}/members", json={"email": "new@example.test", "role": "admin"}
    )
    assert response.status_code == 201
    event = only(app, world.organization_id, "organization.member_added")
    assert event["actor"] == owner_actor(world)
    assert event["target"] == ("user", newcomer, "new@example.test")
    assert event["details"] == {"role": "admin"}


def test_a_role_change_is_recorded_from_and_to(app, as_caller, world):
    viewer = user_id(world.users["viewer"])
    response = as_caller("org_admin").put(
        f"{ORGS}/{world.organization_id}/members/{viewer}", json={"role": "admin"}
    )
    assert response.status_code == 200
    event = only(app, world.organization_id, "organization.member_role_changed")
    assert event["actor"] == ("user", user_id(world.users["org_admin"]), "org_admin@example.test")
    assert event["target"] == ("user", viewer, "viewer@example.test")
    assert event["details"] == {"from": "member", "to": "admin"}


def test_removing_a_member_is_recorded(app, as_caller, world):
    editor = user_id(world.users["editor"])
    assert (
        as_caller("org_owner").delete(f"{ORGS}/{world.organization_id}/members/{editor}").status_code == 200
    )
    event = only(app, world.organization_id, "organization.member_removed")
    assert event["target"] == ("user", editor, "editor@example.test")
    assert event["details"] == {"role": "member"}


def test_a_refused_change_records_nothing(app, as_caller, world):
    owner = user_id(world.users["org_owner"])
    response = as_caller("org_admin").delete(f"{ORGS}/{world.organization_id}/members/{owner}")
    assert response.status_code == 403
    assert recorded(app, world.organization_id) == []


def test_an_invitation_created_accepted_and_another_revoked_are_recorded(app, client, as_caller, world):
    base = f"{ORGS}/{world.organization_id}/invitations"
    created = as_caller("org_owner").post(base, json={"role": "member"}).json
    revoked = as_caller("org_owner").post(base, json={"role": "admin"}).json["invitation"]
    assert as_caller("org_owner").delete(f"{base}/{revoked['id']}").status_code == 200
    signed_up = client.post(
        "/api/invitations/signup",
        json={"token": created["token"], "email": "joiner@example.test", "password": PASSWORD},
    )
    assert signed_up.status_code == 201

    made = recorded(app, world.organization_id, "invitation.created")
    assert [event["details"]["role"] for event in made] == ["member", "admin"]
    assert made[0]["target"] == ("invitation", created["invitation"]["id"], "Invitation as member")
    assert only(app, world.organization_id, "invitation.revoked")["target"][1] == revoked["id"]
    accepted = only(app, world.organization_id, "invitation.accepted")
    joiner = signed_up.json["user"]["id"]
    assert accepted["actor"] == ("user", joiner, "joiner@example.test")
    assert accepted["details"] == {"role": "member", "user": {"id": joiner, "email": "joiner@example.test"}}


def test_an_invitation_accepted_by_a_signed_in_user_is_recorded(app, world):
    with app.app_context():
        owner = db.session.get(User, user_id(world.users["org_owner"]))
        token, _ = organizations.create_invitation(user_actor(owner), world.organization_id)
        guest = make_user("guest@example.test")
        organizations.accept_invitation(user_actor(guest), token)
        guest_id = guest.id
    assert only(app, world.organization_id, "invitation.accepted")["actor"] == (
        "user",
        guest_id,
        "guest@example.test",
    )


def test_renaming_the_organization_is_recorded(app, as_caller, world):
    assert (
        as_caller("org_owner").put(f"{ORGS}/{world.organization_id}", json={"name": "Acme Corp"}).status_code
        == 200
    )
    event = only(app, world.organization_id, "organization.renamed")
    assert event["target"] == ("organization", world.organization_id, "Acme Corp")
    assert event["details"] == {"from": "Acme", "to": "Acme Corp"}


# --- projects -----------------------------------------------------------------------------------


def test_creating_and_deleting_a_project_are_recorded(app, as_caller, world):
    created = as_caller("org_admin").post(
        "/api/projects", json={"name": "Mobile", "organization_id": world.organization_id}
    )
    project_id = created.json["project"]["id"]
    assert as_caller("org_owner").delete(f"/api/projects/{project_id}").status_code == 200
    made = only(app, world.organization_id, "project.created")
    gone = only(app, world.organization_id, "project.deleted")
    assert made["target"] == gone["target"] == ("project", project_id, "Mobile")
    assert gone["actor"] == owner_actor(world)


def test_a_settings_change_is_recorded_with_what_changed(app, as_caller, world):
    response = as_caller("project_admin").put(
        f"/api/projects/{world.project_id}",
        json={"name": "Web app 2", "desc": "", "checks": {"double-space": "off"}},
    )
    assert response.status_code == 200
    event = only(app, world.organization_id, "project.settings_changed")
    assert event["actor"][2] == "project_admin@example.test"
    assert event["target"] == ("project", world.project_id, "Web app")
    assert event["details"] == {
        "project": {"id": world.project_id, "name": "Web app"},
        "changes": {"name": {"from": "Web app", "to": "Web app 2"}},
        "checks": {"double-space": "off"},
    }


def test_linking_and_unlinking_a_project_are_recorded(app, as_caller, world):
    from tests.factories import add_languages, project_in

    with app.app_context():
        add_languages(world.project_id, "en")
        base = project_in(world.organization_id, languages=("en",), name="Base")
    owner = as_caller("org_owner")
    link = {"linked_project_id": base, "linked_language_code": "en", "linked_language_target_code": "en"}
    assert owner.put(f"/api/projects/{world.project_id}", json=link).status_code == 200
    unlink = dict.fromkeys(link)
    assert owner.put(f"/api/projects/{world.project_id}", json=unlink).status_code == 200
    linked = only(app, world.organization_id, "project.linked")
    assert linked["details"]["to"] == link
    assert only(app, world.organization_id, "project.unlinked")["details"]["from"] == link
    assert recorded(app, world.organization_id, "project.settings_changed") == []


def test_a_project_role_given_and_removed_is_recorded(app, as_caller, world):
    viewer = user_id(world.users["viewer"])
    path = f"/api/projects/{world.project_id}/members/{viewer}"
    assert as_caller("org_owner").put(path, json={"role": "editor"}).status_code == 200
    assert as_caller("org_owner").put(path, json={"role": None}).status_code == 200
    changes = recorded(app, world.organization_id, "project.member_role_changed")
    assert [event["details"]["from"] for event in changes] == ["viewer", "editor"]
    assert [event["details"]["to"] for event in changes] == ["editor", None]
    assert changes[0]["target"] == ("user", viewer, "viewer@example.test")
    assert changes[0]["details"]["project"] == {"id": world.project_id, "name": "Web app"}


# --- keys, providers, webhooks ------------------------------------------------------------------


def test_an_api_key_created_and_revoked_are_recorded(app, as_caller, world):
    base = f"/api/projects/{world.project_id}/keys"
    created = as_caller("org_owner").post(base, json={"name": "deploy", "scope": "read"}).json
    key_id = created["apiKey"]["id"]
    assert as_caller("org_owner").delete(f"{base}/{key_id}").status_code == 200
    made = only(app, world.organization_id, "api_key.created")
    revoked = only(app, world.organization_id, "api_key.revoked")
    assert made["target"] == revoked["target"] == ("api_key", key_id, "deploy")
    assert made["details"] == {
        "project": {"id": world.project_id, "name": "Web app"},
        "scope": "read",
        "prefix": created["key"][:12],
    }


def test_machine_providers_created_changed_and_deleted_are_recorded(app, as_caller, world):
    base = f"{ORGS}/{world.organization_id}/machine-providers"
    owner = as_caller("org_owner")
    created = owner.post(base, json={"kind": "deepl", "name": "DeepL", "apiKey": "deepl-key-secret-1234:fx"})
    assert created.status_code == 201, created.json
    provider_id = created.json["provider"]["id"]
    assert (
        owner.patch(
            f"{base}/{provider_id}", json={"enabled": False, "apiKey": "another-secret-5678"}
        ).status_code
        == 200
    )
    assert owner.delete(f"{base}/{provider_id}").status_code == 200
    made = only(app, world.organization_id, "machine_provider.created")
    changed = only(app, world.organization_id, "machine_provider.updated")
    only(app, world.organization_id, "machine_provider.deleted")
    assert made["target"] == ("machine_provider", provider_id, "DeepL")
    assert made["details"] == {
        "kind": "deepl",
        "baseUrl": None,
        "model": None,
        "enabled": True,
        "hasKey": True,
    }
    assert changed["details"]["fields"] == ["apiKey", "enabled"]
    assert changed["details"]["enabled"] is False


def test_webhooks_created_changed_and_deleted_are_recorded_without_credentials(app, as_caller, world):
    base = f"/api/projects/{world.project_id}/webhooks"
    owner = as_caller("org_owner")
    hook = {"url": "https://hooks.example.test/loko?token=abc#part", "events": ["key.created"]}
    created = owner.post(base, json=hook)
    assert created.status_code == 201, created.json
    hook_id = created.json["webhook"]["id"]
    assert owner.patch(f"{base}/{hook_id}", json={"enabled": False}).status_code == 200
    assert owner.delete(f"{base}/{hook_id}").status_code == 200
    made = only(app, world.organization_id, "webhook.created")
    assert made["target"] == ("webhook", hook_id, "https://hooks.example.test/loko")
    assert made["details"]["url"] == "https://hooks.example.test/loko"
    assert made["details"]["events"] == ["key.created"]
    assert only(app, world.organization_id, "webhook.updated")["details"]["fields"] == ["enabled"]
    only(app, world.organization_id, "webhook.deleted")


# --- the actors ---------------------------------------------------------------------------------


@pytest.mark.parametrize("caller", ["org_owner", "org_admin"])
def test_the_actor_is_whoever_acted(app, as_caller, world, caller):
    as_caller(caller).put(f"{ORGS}/{world.organization_id}", json={"name": "Renamed"})
    assert only(app, world.organization_id, "organization.renamed")["actor"][1] == user_id(
        world.users[caller]
    )


def test_an_event_belongs_to_its_organization_only(app, as_caller, world):
    with app.app_context():
        other = make_org(make_user("solo@example.test"), "Solo")
        add_org_member(other, db.session.get(User, user_id(world.users["org_owner"])), "owner")
        other_id = other.id
    as_caller("org_owner").put(f"{ORGS}/{other_id}", json={"name": "Solo 2"})
    assert recorded(app, world.organization_id) == []
    assert len(recorded(app, other_id)) == 1
