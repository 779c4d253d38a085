"""The organization's "Audit log" page: owners and admins read it, filtered by a GET form;
nobody else sees it or a link to it."""

import pytest

from loko.audit import service as audit
from loko.database import unit_of_work
from tests.audit.helpers import only
from tests.factories import PASSWORD
from tests.pages.conftest import SIGNED_OUT, alert_of


def log_page(world):
    return f"/orgs/{world.organization_id}/audit"


def add_events(app, world, *actions):
    with app.app_context(), unit_of_work():
        for action in actions:
            audit.record(
                None, world.organization_id, action, audit.Target("project", world.project_id, "Web app")
            )


@pytest.mark.parametrize("caller", ["org_owner", "org_admin"])
def test_owners_and_admins_read_the_log(app, page_as, world, caller):
    add_events(app, world, "project.created")
    response = page_as(caller).get(log_page(world))
    assert response.status_code == 200
    text = response.get_data(as_text=True)
    assert "<h1>Audit log of Acme</h1>" in text
    assert "<code>project.created</code>" in text
    assert "Not signed in" in text


@pytest.mark.parametrize("caller", ["org_owner", "org_admin"])
def test_the_organization_pages_link_to_the_log(page_as, world, caller):
    browser = page_as(caller)
    for page in (f"/orgs/{world.organization_id}", f"/orgs/{world.organization_id}/settings"):
        assert log_page(world) in browser.get(page).get_data(as_text=True)


@pytest.mark.parametrize("caller", ["viewer", "editor", "project_admin"])
def test_members_neither_see_nor_are_linked_to_the_log(page_as, world, caller):
    browser = page_as(caller)
    assert log_page(world) not in browser.get(f"/orgs/{world.organization_id}").get_data(as_text=True)
    assert browser.get(log_page(world)).status_code == 403


def test_an_outsider_finds_no_log(page_as, world):
    assert page_as("outsider").get(log_page(world)).status_code == 404


@pytest.mark.parametrize("caller", SIGNED_OUT)
def test_the_signed_out_are_sent_to_sign_in(page_as, world, caller):
    assert page_as(caller).get(log_page(world)).location.startswith("/login")


def test_the_form_filters_the_log(app, page_as, world):
    add_events(app, world, "project.created", "api_key.created")
    response = page_as("org_owner").get(
        log_page(world), query_string={"action": "api_key.", "from": "", "to": ""}
    )
    text = response.get_data(as_text=True)
    assert "<code>api_key.created</code>" in text
    assert "project.created" not in text
    assert '<option value="api_key." selected>' in text


def test_a_bad_filter_is_shown_on_the_page_with_every_event(app, page_as, world):
    add_events(app, world, "project.created")
    response = page_as("org_owner").get(log_page(world), query_string={"from": "someday"})
    assert response.status_code == 400
    assert alert_of(response).startswith("from:")
    assert "<code>project.created</code>" in response.get_data(as_text=True)


def test_older_events_are_a_page_further(app, page_as, world):
    add_events(app, world, *(f"project.step{n}" for n in range(51)))
    browser = page_as("org_owner")
    first = browser.get(log_page(world)).get_data(as_text=True)
    assert "project.step0<" not in first
    older = first.split('rel="next"')[0].rsplit('href="', 1)[1].split('"')[0].replace("&amp;", "&")
    assert "<code>project.step0</code>" in browser.get(older).get_data(as_text=True)


def test_a_sign_in_through_the_page_is_recorded(app, page_as, world):
    response = page_as("anonymous").submit("/login", {"email": "editor@example.test", "password": PASSWORD})
    assert response.status_code == 303
    assert only(app, world.organization_id, "auth.sign_in")["actor"][2] == "editor@example.test"
