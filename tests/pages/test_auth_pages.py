"""Sign-up, sign-in and sign-out pages: the same rules as the auth API, shown as pages."""

import re

import pytest

from loko.auth import service
from tests.factories import cheap_password_hasher
from tests.pages.conftest import PageClient, alert_of, notice_of

PASSWORD = "correct horse battery"
signup_closed = pytest.mark.parametrize("config_overrides", [{"LOKO_ALLOW_SIGNUP": False}], ids=["closed"])


@pytest.fixture(autouse=True)
def fast_password_hashing(monkeypatch):
    monkeypatch.setattr(service, "_hasher", cheap_password_hasher())


@pytest.fixture
def browser(app) -> PageClient:
    return PageClient(app, {})


def sign_up(browser, email="ada@example.test", password=PASSWORD, **extra):
    return browser.submit("/signup", {"email": email, "password": password, **extra})


def sign_in(browser, email="ada@example.test", password=PASSWORD, **extra):
    return browser.submit("/login", {"email": email, "password": password, **extra})


def test_start_page_of_a_new_installation_leads_to_sign_up(browser):
    response = browser.get("/")
    assert response.status_code == 302
    assert response.location == "/signup"


def test_start_page_leads_to_sign_in_once_someone_has_an_account(browser, app):
    sign_up(browser)
    response = PageClient(app, {}).get("/")
    assert response.location == "/login"


def test_sign_up_signs_in_and_opens_the_new_organization(browser):
    response = sign_up(browser, name="Ada")
    assert response.status_code == 303
    assert browser.client.get_cookie("sb-access-token") is not None
    organization = browser.get(browser.get("/").location)
    assert organization.status_code == 200
    assert "Ada&#39;s organization" in organization.get_data(as_text=True)


def test_sign_up_with_a_short_password_names_the_field_and_creates_nothing(browser, app):
    response = sign_up(browser, password="short")
    assert response.status_code == 400
    assert alert_of(response).startswith("password:")
    assert PageClient(app, {}).get("/").location == "/signup"


def test_sign_up_keeps_what_was_typed_after_an_error(browser):
    response = sign_up(browser, email="ada@example.test", password="short", name="Ada L")
    assert 'value="ada@example.test"' in response.get_data(as_text=True)
    assert 'value="Ada L"' in response.get_data(as_text=True)


def test_sign_up_with_a_taken_email_is_a_conflict(browser, app):
    sign_up(browser)
    response = sign_up(PageClient(app, {}))
    assert response.status_code == 409
    assert "already exists" in alert_of(response)


@signup_closed
def test_closed_sign_up_page_says_so_once_someone_has_an_account(browser, app):
    sign_up(browser)
    page = PageClient(app, {}).get("/signup")
    assert "Sign-up is closed" in page.get_data(as_text=True)
    assert 'name="password"' not in page.get_data(as_text=True)


@signup_closed
def test_closed_sign_up_refuses_a_posted_form(browser, app):
    sign_up(browser)
    response = sign_up(PageClient(app, {}), email="grace@example.test")
    assert response.status_code == 403


def test_sign_in_sets_the_session_cookie(browser, app):
    sign_up(browser)
    other = PageClient(app, {})
    response = sign_in(other)
    assert response.status_code == 303
    assert other.client.get_cookie("sb-access-token") is not None


def test_sign_in_with_a_wrong_password_shows_one_message(browser, app):
    sign_up(browser)
    wrong_password = sign_in(PageClient(app, {}), password="wrong password")
    unknown_email = sign_in(PageClient(app, {}), email="nobody@example.test")
    assert wrong_password.status_code == unknown_email.status_code == 401
    assert alert_of(wrong_password) == alert_of(unknown_email) == "Invalid email or password."


def test_sign_in_returns_to_the_page_asked_for(browser, app):
    sign_up(browser)
    response = sign_in(PageClient(app, {}), next="/account")
    assert response.location == "/account"


@pytest.mark.parametrize("target", ["https://evil.example/", "//evil.example/x", "/\\evil.example"])
def test_sign_in_never_sends_the_browser_to_another_site(browser, app, target):
    sign_up(browser)
    response = sign_in(PageClient(app, {}), next=target)
    assert response.location == "/"


def test_sign_in_page_failures_are_rate_limited_with_the_api(browser, app):
    sign_up(browser)
    stranger = PageClient(app, {})
    for _ in range(5):
        stranger.post("/api/auth/login", json={"email": "ada@example.test", "password": "wrong password"})
    statuses = [sign_in(stranger, password="wrong password").status_code for _ in range(6)]
    assert statuses == [401] * 5 + [429]


def test_rate_limited_sign_in_page_is_an_html_page(browser, app):
    sign_up(browser)
    stranger = PageClient(app, {})
    for _ in range(10):
        sign_in(stranger, password="wrong password")
    response = sign_in(stranger)
    assert response.status_code == 429
    assert response.mimetype == "text/html"


def test_signed_in_visitor_of_the_sign_in_page_goes_to_their_projects(browser):
    sign_up(browser)
    assert browser.get("/login").status_code == 302


def test_sign_out_ends_the_session_server_side(browser, app):
    sign_up(browser)
    token = browser.client.get_cookie("sb-access-token").value
    response = browser.submit("/logout")
    assert response.location == "/login"
    assert notice_of(browser) == "Signed out."
    stale = PageClient(app, {"cookie": token})
    assert stale.get("/account").status_code == 302


def test_sign_out_without_the_csrf_token_is_refused(browser):
    sign_up(browser)
    response = browser.post("/logout")
    assert response.status_code == 403
    assert browser.get("/account").status_code == 200


def test_account_page_lists_the_organizations_with_roles(page_as):
    response = page_as("org_admin").get("/account")
    text = response.get_data(as_text=True)
    assert response.status_code == 200
    assert re.search(r"Acme</a></td>\s*<td>admin</td>", text)


def test_account_page_creates_an_organization(page_as):
    browser = page_as("viewer")
    response = browser.submit("/account", {"name": "Side project"})
    assert response.status_code == 303
    assert "Side project" in browser.get(response.location).get_data(as_text=True)


def test_account_page_refuses_an_empty_organization_name(page_as):
    response = page_as("viewer").submit("/account", {"name": ""})
    assert response.status_code == 400
    assert alert_of(response).startswith("name:")


@pytest.mark.parametrize("target", ["/\t/evil.example", "/\n/evil.example", "/\x7f/x", "/\\\\evil.example"])
def test_sign_in_ignores_a_next_path_with_control_characters(browser, app, target):
    sign_up(browser)
    response = sign_in(PageClient(app, {}), next=target)
    assert response.status_code == 303
    assert response.location == "/"


def test_a_signed_in_visit_with_a_crafted_next_stays_on_the_site(browser):
    sign_up(browser)
    response = browser.get("/login?next=/%09/evil.example")
    assert response.location == "/"


def test_a_form_posted_after_the_session_ended_offers_to_sign_in_again(browser):
    sign_up(browser)
    browser.client.set_cookie("sb-access-token", "expired-or-unknown")
    response = browser.submit("/account", {"name": "Side project"})
    assert response.status_code == 401
    assert 'href="/login?next=/account"' in response.get_data(as_text=True)
