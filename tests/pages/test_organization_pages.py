"""The organization's projects page and its members page, for each kind of caller."""

import pytest

from loko.extensions import db
from loko.organizations.models import Organization, OrganizationMember
from tests.factories import add_org_member, make_session, make_user, user_id
from tests.pages.conftest import MEMBERS, SIGNED_OUT, alert_of


def org_page(world):
    return f"/orgs/{world.organization_id}"


def members_page(world):
    return f"/orgs/{world.organization_id}/members"


def role_of(app, world, name):
    with app.app_context():
        member = db.session.get(OrganizationMember, (world.organization_id, user_id(world.users[name])))
        return None if member is None else member.role


@pytest.mark.parametrize("caller", MEMBERS)
def test_organization_page_opens_for_its_members(page_as, world, caller):
    assert page_as(caller).get(org_page(world)).status_code == 200


@pytest.mark.parametrize("caller", SIGNED_OUT)
def test_organization_page_sends_the_signed_out_to_sign_in(page_as, world, caller):
    assert page_as(caller).get(org_page(world)).location.startswith("/login")


def test_organization_page_is_not_found_for_an_outsider(page_as, world):
    assert page_as("outsider").get(org_page(world)).status_code == 404


@pytest.mark.parametrize("caller", ["viewer", "editor", "project_admin"])
def test_project_roles_see_only_their_projects(page_as, world, caller):
    text = page_as(caller).get(org_page(world)).get_data(as_text=True)
    assert "Web app" in text


def test_a_member_without_a_project_role_sees_no_project(app, page_as, world):
    with app.app_context():
        newcomer = make_user("newcomer@example.test", "Newcomer")
        add_org_member(db.session.get(Organization, world.organization_id), newcomer, "member")
        world.credentials["newcomer"] = {"cookie": make_session(newcomer)}
    text = page_as("newcomer").get(org_page(world)).get_data(as_text=True)
    assert "Web app" not in text
    assert "No projects yet" in text


@pytest.mark.parametrize("caller", ["org_owner", "org_admin"])
def test_owners_and_admins_are_offered_a_new_project(page_as, world, caller):
    assert "Create project" in page_as(caller).get(org_page(world)).get_data(as_text=True)


@pytest.mark.parametrize("caller", ["viewer", "editor", "project_admin"])
def test_members_are_not_offered_a_new_project(page_as, world, caller):
    assert "Create project" not in page_as(caller).get(org_page(world)).get_data(as_text=True)


def test_creating_a_project_opens_its_overview(page_as, world):
    browser = page_as("org_admin")
    response = browser.submit(org_page(world), {"name": "Docs", "emoji": "📚", "desc": ""})
    assert response.status_code == 303
    assert response.location.startswith("/projects/")
    assert "Docs" in browser.get(response.location).get_data(as_text=True)


def test_a_project_created_with_a_source_language_starts_with_that_language(page_as, world):
    browser = page_as("org_admin")
    response = browser.submit(org_page(world), {"name": "Docs", "desc": "", "source_language": "pt-BR"})
    assert response.status_code == 303
    project = browser.get("/api" + response.location).json["project"]
    assert project["source_language"] == "pt-BR"


def test_a_project_created_without_a_source_language_has_none_yet(page_as, world):
    browser = page_as("org_admin")
    response = browser.submit(org_page(world), {"name": "Docs", "desc": "", "source_language": ""})
    assert response.status_code == 303
    assert browser.get("/api" + response.location).json["project"]["source_language"] is None


def test_a_malformed_source_language_names_the_field(page_as, world):
    response = page_as("org_owner").submit(org_page(world), {"name": "Docs", "source_language": "english!"})
    assert response.status_code == 400
    assert alert_of(response).startswith("source_language:")


def test_a_members_forged_project_creation_is_refused(page_as, world):
    browser = page_as("editor")
    response = browser.submit(org_page(world), {"name": "Forged"})
    assert response.status_code == 403
    assert "Forged" not in page_as("org_owner").get(org_page(world)).get_data(as_text=True)


def test_a_project_name_over_32_characters_names_the_field(page_as, world):
    response = page_as("org_owner").submit(org_page(world), {"name": "x" * 33})
    assert response.status_code == 400
    assert alert_of(response).startswith("name:")


@pytest.mark.parametrize("caller", MEMBERS)
def test_members_page_lists_everyone(page_as, world, caller):
    text = page_as(caller).get(members_page(world)).get_data(as_text=True)
    assert "viewer@example.test" in text
    assert "owner@example.test" in text


@pytest.mark.parametrize("caller", ["viewer", "editor", "project_admin"])
def test_members_page_offers_no_management_to_plain_members(page_as, world, caller):
    text = page_as(caller).get(members_page(world)).get_data(as_text=True)
    assert "Add member" not in text
    assert "Change role" not in text


def test_members_page_adds_an_existing_user(app, page_as, world):
    browser = page_as("org_admin")
    response = browser.submit(members_page(world), {"email": "outsider@example.test", "role": "member"})
    assert response.status_code == 303
    assert role_of(app, world, "outsider") == "member"


def test_adding_an_unknown_email_says_so(page_as, world):
    response = page_as("org_admin").submit(
        members_page(world), {"email": "nobody@example.test", "role": "member"}
    )
    assert response.status_code == 404
    assert alert_of(response).startswith("email:")


def test_an_admin_cannot_make_an_owner(app, page_as, world):
    response = page_as("org_admin").submit(
        members_page(world), {"action": "role", "user_id": user_id(world.users["viewer"]), "role": "owner"}
    )
    assert response.status_code == 403
    assert role_of(app, world, "viewer") == "member"


def test_an_owner_changes_a_members_role(app, page_as, world):
    response = page_as("org_owner").submit(
        members_page(world), {"action": "role", "user_id": user_id(world.users["viewer"]), "role": "admin"}
    )
    assert response.status_code == 303
    assert role_of(app, world, "viewer") == "admin"


def test_the_last_owner_keeps_the_owner_role(app, page_as, world):
    response = page_as("org_owner").submit(
        members_page(world), {"action": "role", "user_id": user_id(world.users["org_owner"]), "role": "admin"}
    )
    assert response.status_code == 409
    assert role_of(app, world, "org_owner") == "owner"


def test_a_member_is_removed(app, page_as, world):
    response = page_as("org_owner").submit(
        members_page(world), {"action": "remove", "user_id": user_id(world.users["viewer"])}
    )
    assert response.status_code == 303
    assert role_of(app, world, "viewer") is None


def test_a_plain_members_forged_removal_is_refused(app, page_as, world):
    response = page_as("editor").submit(
        members_page(world), {"action": "remove", "user_id": user_id(world.users["viewer"])}
    )
    assert response.status_code == 403
    assert role_of(app, world, "viewer") == "member"


def test_names_with_markup_render_as_text(app, page_as, world):
    page_as("org_owner").submit(org_page(world), {"name": "<b>bold</b>"})
    text = page_as("org_owner").get(org_page(world)).get_data(as_text=True)
    assert "&lt;b&gt;bold&lt;/b&gt;" in text
    assert "<b>bold</b>" not in text


def test_an_admin_is_not_offered_the_owner_role(page_as, world):
    text = page_as("org_admin").get(members_page(world)).get_data(as_text=True)
    assert '<option value="owner"' not in text


def test_an_admin_is_offered_no_change_to_an_owners_membership(page_as, world):
    text = page_as("org_admin").get(members_page(world)).get_data(as_text=True)
    owner_id = user_id(world.users["org_owner"])
    assert f'value="{owner_id}"' not in text
    assert f'value="{user_id(world.users["viewer"])}"' in text


def test_an_owner_is_offered_the_owner_role(page_as, world):
    assert '<option value="owner"' in page_as("org_owner").get(members_page(world)).get_data(as_text=True)
