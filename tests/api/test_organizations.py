"""Organizations and their members (decisions section 3)."""

import uuid

import pytest

from tests.factories import user_id


@pytest.fixture
def owner(as_caller):
    return as_caller("org_owner")


def members_path(world):
    return f"/api/organizations/{world.organization_id}/members"


def add(caller, world, email, role="member"):
    return caller.post(members_path(world), json={"email": email, "role": role})


def roles(caller, world) -> dict:
    return {m["user"]["email"]: m["role"] for m in caller.get(members_path(world)).json["members"]}


# --- organizations -----------------------------------------------------------------------


def test_list_organizations_shows_the_users_memberships(owner, world):
    response = owner.get("/api/organizations")
    assert response.status_code == 200
    assert response.json == {
        "organizations": [{"id": world.organization_id, "name": "Acme", "role": "owner"}]
    }


def test_list_organizations_shows_the_role_in_each(as_caller):
    (organization,) = as_caller("org_admin").get("/api/organizations").json["organizations"]
    assert organization["role"] == "admin"


def test_create_organization_makes_the_caller_its_owner(owner):
    response = owner.post("/api/organizations", json={"name": "Beta"})
    assert response.status_code == 201
    organization = response.json["organization"]
    assert set(organization) == {"id", "name", "role", "created_at"}
    assert (organization["name"], organization["role"]) == ("Beta", "owner")
    listed = owner.get("/api/organizations").json["organizations"]
    assert {"id": organization["id"], "name": "Beta", "role": "owner"} in listed


def test_create_organization_requires_a_name(owner):
    response = owner.post("/api/organizations", json={})
    assert response.status_code == 400
    assert "name" in response.json["error"]


def test_create_organization_rejects_an_empty_name(owner):
    assert owner.post("/api/organizations", json={"name": ""}).status_code == 400


def test_create_organization_rejects_a_name_of_129_characters(owner):
    assert owner.post("/api/organizations", json={"name": "o" * 129}).status_code == 400


def test_new_organization_lets_its_owner_create_projects(owner):
    organization = owner.post("/api/organizations", json={"name": "Beta"}).json["organization"]
    response = owner.post("/api/projects", json={"name": "Docs", "organization_id": organization["id"]})
    assert response.status_code == 201


# --- members -----------------------------------------------------------------------------


def test_list_members_shows_users_and_roles(as_caller, world):
    response = as_caller("viewer").get(members_path(world))
    assert response.status_code == 200
    members = response.json["members"]
    assert {
        "user": {"id": user_id(world.users["viewer"]), "email": "viewer@example.test", "name": "viewer"},
        "role": "member",
    } in members
    assert roles(as_caller("viewer"), world) == {
        "editor@example.test": "member",
        "org_admin@example.test": "admin",
        "owner@example.test": "owner",
        "project_admin@example.test": "member",
        "viewer@example.test": "member",
    }


def test_list_members_is_sorted_by_email(owner, world):
    emails = [m["user"]["email"] for m in owner.get(members_path(world)).json["members"]]
    assert emails == sorted(emails)


def test_list_members_of_an_unknown_organization_is_not_found(owner):
    assert owner.get(f"/api/organizations/{uuid.uuid4()}/members").status_code == 404


def test_add_member_answers_201_with_the_member(owner, world):
    response = add(owner, world, "outsider@example.test", "admin")
    assert response.status_code == 201
    assert response.json == {
        "member": {
            "user": {
                "id": user_id(world.users["outsider"]),
                "email": "outsider@example.test",
                "name": "Outsider",
            },
            "role": "admin",
        }
    }
    assert roles(owner, world)["outsider@example.test"] == "admin"


def test_added_member_sees_the_organization(as_caller, owner, world):
    add(owner, world, "outsider@example.test")
    names = {o["name"] for o in as_caller("outsider").get("/api/organizations").json["organizations"]}
    assert names == {"Acme", "Elsewhere"}


def test_add_member_finds_the_email_whatever_its_case(owner, world):
    assert add(owner, world, "Outsider@EXAMPLE.test").status_code == 201


def test_add_member_with_an_unknown_email_is_not_found(owner, world):
    response = add(owner, world, "nobody@example.test")
    assert response.status_code == 404
    assert "email" in response.json["error"]


def test_add_member_twice_conflicts(owner, world):
    response = add(owner, world, "viewer@example.test")
    assert response.status_code == 409
    assert roles(owner, world)["viewer@example.test"] == "member"


def test_add_member_requires_a_known_role(owner, world):
    response = add(owner, world, "outsider@example.test", "superuser")
    assert response.status_code == 400
    assert "role" in response.json["error"]


def test_admin_may_add_an_admin(as_caller, world):
    assert add(as_caller("org_admin"), world, "outsider@example.test", "admin").status_code == 201


def test_admin_cannot_add_an_owner(as_caller, owner, world):
    response = add(as_caller("org_admin"), world, "outsider@example.test", "owner")
    assert response.status_code == 403
    assert "outsider@example.test" not in roles(owner, world)


def test_owner_may_add_another_owner(owner, world):
    assert add(owner, world, "outsider@example.test", "owner").status_code == 201


def test_remove_member_answers_success(owner, world):
    response = owner.delete(f"{members_path(world)}/{user_id(world.users['editor'])}")
    assert response.status_code == 200
    assert response.json == {"success": True}
    assert "editor@example.test" not in roles(owner, world)


def test_removed_member_loses_access_to_the_organizations_projects(as_caller, owner, world):
    owner.delete(f"{members_path(world)}/{user_id(world.users['editor'])}")
    assert as_caller("editor").get(f"/api/projects/{world.project_id}").status_code == 404


def test_removed_member_added_again_has_no_project_role(as_caller, owner, world):
    owner.delete(f"{members_path(world)}/{user_id(world.users['editor'])}")
    add(owner, world, "editor@example.test")
    assert as_caller("editor").get(f"/api/projects/{world.project_id}").status_code == 403


def test_remove_a_non_member_is_not_found(owner, world):
    response = owner.delete(f"{members_path(world)}/{user_id(world.users['outsider'])}")
    assert response.status_code == 404


def test_remove_the_last_owner_conflicts(owner, world):
    response = owner.delete(f"{members_path(world)}/{user_id(world.users['org_owner'])}")
    assert response.status_code == 409
    assert roles(owner, world)["owner@example.test"] == "owner"


def test_remove_an_owner_when_another_remains(owner, world):
    add(owner, world, "outsider@example.test", "owner")
    response = owner.delete(f"{members_path(world)}/{user_id(world.users['org_owner'])}")
    assert response.status_code == 200


def test_admin_cannot_remove_an_owner(as_caller, world):
    response = as_caller("org_admin").delete(f"{members_path(world)}/{user_id(world.users['org_owner'])}")
    assert response.status_code == 403


def test_admin_may_remove_themselves(as_caller, owner, world):
    response = as_caller("org_admin").delete(f"{members_path(world)}/{user_id(world.users['org_admin'])}")
    assert response.status_code == 200
    assert "org_admin@example.test" not in roles(owner, world)


# --- member roles ------------------------------------------------------------------------


def set_role(caller, world, name, role):
    return caller.put(f"{members_path(world)}/{user_id(world.users[name])}", json={"role": role})


def test_change_role_answers_the_member_with_the_new_role(owner, world):
    response = set_role(owner, world, "viewer", "admin")
    assert response.status_code == 200
    assert response.json["member"]["role"] == "admin"
    assert roles(owner, world)["viewer@example.test"] == "admin"


def test_change_role_requires_a_known_role(owner, world):
    response = set_role(owner, world, "viewer", "boss")
    assert response.status_code == 400
    assert response.json["error"].startswith("role:")


def test_change_role_of_a_non_member_is_not_found(owner, world):
    response = owner.put(f"{members_path(world)}/{uuid.uuid4()}", json={"role": "admin"})
    assert response.status_code == 404


def test_admin_cannot_make_an_owner(as_caller, owner, world):
    response = set_role(as_caller("org_admin"), world, "viewer", "owner")
    assert response.status_code == 403
    assert roles(owner, world)["viewer@example.test"] == "member"


def test_admin_cannot_demote_an_owner(as_caller, owner, world):
    response = set_role(as_caller("org_admin"), world, "org_owner", "member")
    assert response.status_code == 403


def test_the_last_owner_cannot_stop_being_an_owner(owner, world):
    response = set_role(owner, world, "org_owner", "admin")
    assert response.status_code == 409
    assert roles(owner, world)["owner@example.test"] == "owner"


def test_an_owner_steps_down_once_another_owner_exists(owner, world):
    set_role(owner, world, "org_admin", "owner")
    assert set_role(owner, world, "org_owner", "admin").status_code == 200


@pytest.mark.parametrize("caller", ["viewer", "editor", "project_admin"])
def test_plain_members_cannot_change_roles(as_caller, world, caller):
    assert set_role(as_caller(caller), world, "viewer", "admin").status_code == 403


@pytest.mark.parametrize("caller", ["write_key", "read_key"])
def test_api_keys_cannot_change_roles(as_caller, world, caller):
    assert set_role(as_caller(caller), world, "viewer", "admin").status_code == 403


def test_outsiders_cannot_see_the_organization_to_change_roles(as_caller, world):
    assert set_role(as_caller("outsider"), world, "viewer", "admin").status_code == 404
