"""The account page's name and password forms, for every kind of caller."""

import pytest

from loko.auth import service
from loko.auth.models import User
from loko.extensions import db
from tests.factories import PASSWORD, CallerClient, cheap_password_hasher, make_session, user_id
from tests.pages.conftest import SIGNED_OUT, alert_of, notice_of

SIGNED_IN = ("viewer", "editor", "project_admin", "org_admin", "org_owner", "outsider")
NEW_PASSWORD = "a brand new secret"


@pytest.fixture(autouse=True)
def fast_password_hashing(monkeypatch):
    monkeypatch.setattr(service, "_hasher", cheap_password_hasher())


def name_of(app, world, caller) -> str:
    with app.app_context():
        return db.session.get(User, user_id(world.users[caller])).name


def signs_in(app, email, password) -> bool:
    response = app.test_client().post("/api/auth/login", json={"email": email, "password": password})
    return response.status_code == 200


@pytest.mark.parametrize("caller", SIGNED_IN)
def test_the_account_page_offers_the_name_and_password_forms(page_as, caller):
    text = page_as(caller).get("/account").get_data(as_text=True)
    assert 'action="/account/profile"' in text
    assert 'action="/account/password"' in text
    assert text.count('name="csrf_token"') >= 3


@pytest.mark.parametrize("caller", SIGNED_IN)
def test_a_user_renames_themself_and_is_redirected(app, page_as, world, caller):
    browser = page_as(caller)
    response = browser.submit("/account/profile", {"name": "Ada Lovelace"})
    assert response.status_code == 303
    assert response.location == "/account"
    assert notice_of(browser) == "Your name was changed."
    assert name_of(app, world, caller) == "Ada Lovelace"
    assert "Ada Lovelace" in browser.get("/account").get_data(as_text=True)


def test_a_blank_name_is_refused_on_the_page(app, page_as, world):
    response = page_as("editor").submit("/account/profile", {"name": ""})
    assert response.status_code == 400
    assert alert_of(response).startswith("name:")
    assert name_of(app, world, "editor") == "editor"


@pytest.mark.parametrize("path", ["/account/profile", "/account/password"])
@pytest.mark.parametrize("caller", SIGNED_OUT)
def test_the_signed_out_cannot_post_the_account_forms(page_as, caller, path):
    response = page_as(caller).submit(
        path, {"name": "X", "current_password": PASSWORD, "new_password": NEW_PASSWORD}
    )
    assert response.status_code in (401, 403)


@pytest.mark.parametrize("path", ["/account/profile", "/account/password"])
def test_the_account_forms_need_the_csrf_token(app, page_as, world, path):
    response = page_as("editor").post(
        path, data={"name": "Forged", "current_password": PASSWORD, "new_password": NEW_PASSWORD}
    )
    assert response.status_code == 403
    assert name_of(app, world, "editor") == "editor"
    assert signs_in(app, "editor@example.test", PASSWORD)


@pytest.mark.parametrize("caller", SIGNED_IN)
def test_a_user_changes_their_password_on_the_page(app, page_as, caller):
    browser = page_as(caller)
    response = browser.submit(
        "/account/password", {"current_password": PASSWORD, "new_password": NEW_PASSWORD}
    )
    assert response.status_code == 303
    assert response.location == "/account"
    assert notice_of(browser).startswith("Your password was changed")
    email = "owner@example.test" if caller == "org_owner" else f"{caller}@example.test"
    assert signs_in(app, email, NEW_PASSWORD)
    assert browser.get("/account").status_code == 200


def test_a_password_change_on_the_page_signs_out_other_browsers(app, page_as, world):
    with app.app_context():
        other = make_session(db.session.get(User, user_id(world.users["editor"])))
    page_as("editor").submit(
        "/account/password", {"current_password": PASSWORD, "new_password": NEW_PASSWORD}
    )
    assert CallerClient(app, {"cookie": other}).get("/account").status_code == 302


def test_a_wrong_current_password_is_refused_on_the_page(app, page_as):
    response = page_as("editor").submit(
        "/account/password", {"current_password": "wrong password", "new_password": NEW_PASSWORD}
    )
    assert response.status_code == 403
    assert alert_of(response).startswith("current_password:")
    assert signs_in(app, "editor@example.test", PASSWORD)
    assert NEW_PASSWORD not in response.get_data(as_text=True)


def test_a_short_new_password_is_refused_on_the_page(app, page_as):
    response = page_as("editor").submit(
        "/account/password", {"current_password": PASSWORD, "new_password": "short"}
    )
    assert response.status_code == 400
    assert alert_of(response).startswith("new_password:")
    assert signs_in(app, "editor@example.test", PASSWORD)


def test_refused_password_changes_on_the_page_are_limited(app, page_as):
    browser = page_as("editor")
    for _ in range(10):
        browser.submit("/account/password", {"current_password": "wrong guess", "new_password": NEW_PASSWORD})
    response = browser.submit(
        "/account/password", {"current_password": PASSWORD, "new_password": NEW_PASSWORD}
    )
    assert response.status_code == 429
    assert signs_in(app, "editor@example.test", PASSWORD)
