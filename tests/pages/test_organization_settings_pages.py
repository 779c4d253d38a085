"""The organization's settings page: rename (owner or admin) and delete with a typed
confirmation (owner only), for every kind of caller."""

import pytest

from loko.extensions import db
from loko.organizations.models import Organization
from loko.projects.models import Project
from tests.pages.conftest import SIGNED_OUT, alert_of, notice_of


def settings_page(world):
    return f"/orgs/{world.organization_id}/settings"


def delete_path(world):
    return f"/orgs/{world.organization_id}/delete"


def name_of(app, world):
    with app.app_context():
        organization = db.session.get(Organization, world.organization_id)
        return None if organization is None else organization.name


@pytest.mark.parametrize("caller", ["org_owner", "org_admin"])
def test_the_settings_page_opens_for_owners_and_admins(page_as, world, caller):
    response = page_as(caller).get(settings_page(world))
    assert response.status_code == 200
    text = response.get_data(as_text=True)
    assert "<h1>Settings of Acme</h1>" in text
    assert ("Delete this organization" in text) == (caller == "org_owner")


@pytest.mark.parametrize("caller", ["org_owner", "org_admin"])
def test_the_projects_page_links_owners_and_admins_to_the_settings(page_as, world, caller):
    assert settings_page(world) in page_as(caller).get(f"/orgs/{world.organization_id}").get_data(
        as_text=True
    )


@pytest.mark.parametrize("caller", ["viewer", "editor", "project_admin"])
def test_members_are_neither_linked_to_nor_shown_the_settings(page_as, world, caller):
    browser = page_as(caller)
    assert settings_page(world) not in browser.get(f"/orgs/{world.organization_id}").get_data(as_text=True)
    assert browser.get(settings_page(world)).status_code == 403
    assert browser.submit(settings_page(world), {"name": "Mine"}).status_code == 403
    assert browser.submit(delete_path(world), {"confirm_name": "Acme"}).status_code == 403


def test_an_outsider_finds_no_settings_page(app, page_as, world):
    browser = page_as("outsider")
    assert browser.get(settings_page(world)).status_code == 404
    assert browser.submit(delete_path(world), {"confirm_name": "Acme"}).status_code == 404
    assert name_of(app, world) == "Acme"


@pytest.mark.parametrize("caller", SIGNED_OUT)
def test_the_signed_out_are_sent_to_sign_in(page_as, world, caller):
    assert page_as(caller).get(settings_page(world)).location.startswith("/login")


@pytest.mark.parametrize("caller", ["org_owner", "org_admin"])
def test_renaming_redirects_back_with_a_notice(app, page_as, world, caller):
    browser = page_as(caller)
    response = browser.submit(settings_page(world), {"name": "Acme Corp"})
    assert response.status_code == 303
    assert response.location == settings_page(world)
    assert notice_of(browser) == "Organization renamed."
    assert name_of(app, world) == "Acme Corp"


def test_a_blank_name_is_refused_on_the_page(app, page_as, world):
    response = page_as("org_owner").submit(settings_page(world), {"name": ""})
    assert response.status_code == 400
    assert alert_of(response).startswith("name:")
    assert name_of(app, world) == "Acme"


def test_renaming_needs_the_csrf_token(app, page_as, world):
    assert page_as("org_owner").post(settings_page(world), data={"name": "Forged"}).status_code == 403
    assert name_of(app, world) == "Acme"


def test_an_owner_deletes_the_organization_after_typing_its_name(app, page_as, world):
    browser = page_as("org_owner")
    response = browser.submit(delete_path(world), {"confirm_name": "Acme"})
    assert response.status_code == 303
    assert response.location == "/"
    assert notice_of(browser) == "Organization “Acme” deleted."
    assert name_of(app, world) is None
    with app.app_context():
        assert db.session.get(Project, world.project_id) is None


@pytest.mark.parametrize("typed", ["", "acme", "Acme Inc"])
def test_a_wrong_confirmation_deletes_nothing(app, page_as, world, typed):
    response = page_as("org_owner").submit(delete_path(world), {"confirm_name": typed})
    assert response.status_code == 400
    assert alert_of(response).startswith("confirm_name:")
    assert name_of(app, world) == "Acme"


def test_an_admin_cannot_delete_the_organization_on_the_page(app, page_as, world):
    response = page_as("org_admin").submit(delete_path(world), {"confirm_name": "Acme"})
    assert response.status_code == 403
    assert name_of(app, world) == "Acme"


def test_deleting_needs_the_csrf_token(app, page_as, world):
    assert page_as("org_owner").post(delete_path(world), data={"confirm_name": "Acme"}).status_code == 403
    assert name_of(app, world) == "Acme"
