"""The notifications' pages: the list, the choices per project (e-mail disabled without
SMTP), the bell in the header, and the unsubscribe page that works signed out."""

import pytest

from loko.notifications import service
from tests.factories import user_id
from tests.pages.conftest import MEMBERS, SIGNED_OUT


@pytest.mark.parametrize("caller", SIGNED_OUT)
def test_signed_out_callers_are_sent_to_sign_in(page_as, world, caller):
    for path in ("/notifications", f"/projects/{world.project_id}/notifications"):
        assert page_as(caller).get(path).status_code == 302


@pytest.mark.parametrize("caller", MEMBERS)
def test_members_open_their_list_and_their_choices(page_as, world, caller):
    assert page_as(caller).get("/notifications").status_code == 200
    response = page_as(caller).get(f"/projects/{world.project_id}/notifications")
    assert response.status_code == 200
    assert 'id="bell"' in response.get_data(as_text=True)


def test_an_outsider_has_no_choices_in_the_project(page_as, world):
    assert page_as("outsider").get(f"/projects/{world.project_id}/notifications").status_code == 404


def test_choices_are_saved(page_as, world):
    path = f"/projects/{world.project_id}/notifications"
    assert page_as("editor").submit(path, {"comment": "daily"}).status_code == 303
    assert 'value="daily" selected' in page_as("editor").get(path).get_data(as_text=True)


@pytest.mark.parametrize("config_overrides", [{}], indirect=True)
def test_without_smtp_the_page_says_so_and_disables_email(page_as, world):
    text = page_as("editor").get(f"/projects/{world.project_id}/notifications").get_data(as_text=True)
    assert 'id="no-email"' in text and 'value="email" disabled' in text


def test_the_unsubscribe_page_works_signed_out(app, page_as, world):
    with app.test_request_context():
        token = service.unsubscribe_token(user_id(world.users["editor"]), world.project_id, "comment")
    anonymous = page_as("anonymous")
    assert anonymous.get(f"/notifications/unsubscribe?token={token}").status_code == 200
    response = anonymous.submit("/notifications/unsubscribe", {"token": token})
    assert response.status_code == 200 and "no more e-mails" in response.get_data(as_text=True)
    assert anonymous.submit("/notifications/unsubscribe", {"token": "forged"}).status_code == 404


def test_marking_all_read_from_the_list(app, page_as, world, as_caller):
    from tests.comments.conftest import make_key
    from tests.notifications.conftest import run_jobs

    owner = as_caller("org_owner")
    translation_id = make_key(owner, world.project_id, "greeting")
    url = f"/api/projects/{world.project_id}/translations/{translation_id}/comments"
    owner.post(url, json={"body": "@editor look"})
    run_jobs(app)
    # The new key and the mention.
    assert "2 unread" in page_as("editor").get("/notifications").get_data(as_text=True)
    assert page_as("anonymous").submit("/notifications/read").status_code == 401
    assert page_as("editor").submit("/notifications/read").status_code == 303
    assert "0 unread" in page_as("editor").get("/notifications").get_data(as_text=True)
