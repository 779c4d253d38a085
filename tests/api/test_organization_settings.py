"""Renaming (PUT /api/organizations/{id}) and deleting (DELETE /api/organizations/{id}) an
organization, for every kind of caller."""

import uuid

import pytest

from loko.extensions import db
from loko.organizations.models import Organization, OrganizationMember
from loko.projects.models import Project
from tests.factories import make_org, make_project, make_user

MEMBERS = ("viewer", "editor", "project_admin")
KEYS = ("read_key", "write_key", "other_project_key")
BAD_CREDENTIALS = ("anonymous", "unknown_key", "revoked_key")


def org_path(world):
    return f"/api/organizations/{world.organization_id}"


def name_of(app, world):
    with app.app_context():
        organization = db.session.get(Organization, world.organization_id)
        return None if organization is None else organization.name


def projects_of(app, organization_id) -> list[str]:
    with app.app_context():
        return [p.id for p in db.session.query(Project).filter_by(organization_id=organization_id)]


# --- rename ------------------------------------------------------------------------------------


@pytest.mark.parametrize("caller", ["org_owner", "org_admin"])
def test_an_owner_or_admin_renames_the_organization(app, as_caller, world, caller):
    response = as_caller(caller).put(org_path(world), json={"name": "Acme Corp"})
    assert response.status_code == 200
    organization = response.json["organization"]
    assert set(organization) == {"id", "name", "role", "created_at"}
    assert (organization["id"], organization["name"]) == (world.organization_id, "Acme Corp")
    assert organization["role"] == ("owner" if caller == "org_owner" else "admin")
    assert name_of(app, world) == "Acme Corp"


@pytest.mark.parametrize("caller", MEMBERS)
def test_a_member_cannot_rename_the_organization(app, as_caller, world, caller):
    response = as_caller(caller).put(org_path(world), json={"name": "Mine now"})
    assert response.status_code == 403
    assert "owner or admin" in response.json["error"]
    assert name_of(app, world) == "Acme"


def test_an_outsider_cannot_see_the_organization_to_rename_it(app, as_caller, world):
    assert as_caller("outsider").put(org_path(world), json={"name": "Mine"}).status_code == 404
    assert name_of(app, world) == "Acme"


@pytest.mark.parametrize("caller", KEYS)
def test_an_api_key_cannot_rename_an_organization(app, as_caller, world, caller):
    response = as_caller(caller).put(org_path(world), json={"name": "Key"})
    assert response.status_code == 403
    assert "session" in response.json["error"]
    assert name_of(app, world) == "Acme"


@pytest.mark.parametrize("caller", BAD_CREDENTIALS)
def test_renaming_without_valid_credentials_is_unauthorized(as_caller, world, caller):
    assert as_caller(caller).put(org_path(world), json={"name": "X"}).status_code == 401


def test_renaming_an_unknown_organization_is_not_found(as_caller):
    response = as_caller("org_owner").put(f"/api/organizations/{uuid.uuid4()}", json={"name": "X"})
    assert response.status_code == 404


@pytest.mark.parametrize(
    "body", [{}, {"name": ""}, {"name": "o" * 129}, {"name": "a\nb"}, {"name": None}], ids=str
)
def test_a_bad_name_is_refused_naming_the_field(app, as_caller, world, body):
    response = as_caller("org_owner").put(org_path(world), json=body)
    assert response.status_code == 400
    assert response.json["error"].startswith("name")
    assert name_of(app, world) == "Acme"


def test_renaming_refuses_unknown_fields(as_caller, world):
    response = as_caller("org_owner").put(org_path(world), json={"name": "X", "id": "y"})
    assert response.status_code == 400
    assert "id" in response.json["error"]


# --- delete ------------------------------------------------------------------------------------


def test_an_owner_deletes_the_organization_with_its_projects(app, as_caller, world):
    owner = as_caller("org_owner")
    response = owner.delete(org_path(world))
    assert response.status_code == 200
    assert response.json == {"success": True}
    assert name_of(app, world) is None
    assert projects_of(app, world.organization_id) == []
    with app.app_context():
        assert (
            db.session.query(OrganizationMember).filter_by(organization_id=world.organization_id).count() == 0
        )
    assert owner.get("/api/organizations").json == {"organizations": []}
    assert owner.get(f"/api/projects/{world.project_id}").status_code == 404


def test_deleting_an_organization_stops_its_projects_keys(as_caller, world):
    as_caller("org_owner").delete(org_path(world))
    assert as_caller("write_key").get(f"/api/projects/{world.project_id}/languages").status_code == 401


def test_deleting_an_organization_leaves_other_organizations_alone(app, as_caller, world):
    as_caller("org_owner").delete(org_path(world))
    assert projects_of(app, _other_org(app, world)) == [world.other_project_id]
    assert as_caller("other_project_key").get(f"/api/projects/{world.other_project_id}").status_code == 200


def _other_org(app, world):
    with app.app_context():
        return db.session.get(Project, world.other_project_id).organization_id


def test_deleting_an_organization_unlinks_projects_elsewhere_that_link_to_its_projects(app, as_caller, world):
    with app.app_context():
        outsider_org = make_org(make_user("linker@example.test"), "Linker")
        linking = make_project(outsider_org, name="Variant")
        linking_id = linking.id
        db.session.get(Project, linking_id).linked_project_id = world.project_id
        db.session.commit()
    assert as_caller("org_owner").delete(org_path(world)).status_code == 200
    with app.app_context():
        assert db.session.get(Project, linking_id).linked_project_id is None


@pytest.mark.parametrize("caller", ["org_admin", *MEMBERS])
def test_only_an_owner_deletes_an_organization(app, as_caller, world, caller):
    response = as_caller(caller).delete(org_path(world))
    assert response.status_code == 403
    assert "owner" in response.json["error"]
    assert name_of(app, world) == "Acme"
    assert projects_of(app, world.organization_id) == [world.project_id]


def test_an_outsider_cannot_see_the_organization_to_delete_it(app, as_caller, world):
    assert as_caller("outsider").delete(org_path(world)).status_code == 404
    assert name_of(app, world) == "Acme"


@pytest.mark.parametrize("caller", KEYS)
def test_an_api_key_cannot_delete_an_organization(app, as_caller, world, caller):
    assert as_caller(caller).delete(org_path(world)).status_code == 403
    assert name_of(app, world) == "Acme"


@pytest.mark.parametrize("caller", BAD_CREDENTIALS)
def test_deleting_without_valid_credentials_is_unauthorized(app, as_caller, world, caller):
    assert as_caller(caller).delete(org_path(world)).status_code == 401
    assert name_of(app, world) == "Acme"


def test_deleting_an_unknown_organization_is_not_found(as_caller):
    assert as_caller("org_owner").delete(f"/api/organizations/{uuid.uuid4()}").status_code == 404
