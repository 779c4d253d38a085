"""LOKO_PASSWORD_SIGNIN=0: only the identity providers sign people in; every password
entry point refuses with 403 saying so."""

import pytest

from loko.auth.service import PASSWORD_SIGNIN_OFF
from tests.pages.conftest import alert_of
from tests.sso.provider import provider_entry

PASSWORD = "correct horse battery"


@pytest.fixture
def config_overrides(oidc_issuer):
    return {
        "LOKO_PASSWORD_SIGNIN": "0",
        "LOKO_OIDC_PROVIDERS": [provider_entry(oidc_issuer, "local", label="Local ID")],
    }


def test_the_sign_in_page_shows_only_the_providers(browser):
    page = browser.get("/login").get_data(as_text=True)
    assert 'name="password"' not in page
    assert "Sign in with Local ID" in page
    assert "Create an account" not in page


def test_password_sign_in_through_the_api_is_refused(client, world):
    response = client.post("/api/auth/login", json={"email": "owner@example.test", "password": PASSWORD})
    assert response.status_code == 403
    assert response.get_json() == {"error": PASSWORD_SIGNIN_OFF}


def test_password_sign_in_through_the_page_is_refused(browser):
    response = browser.submit("/login", {"email": "ada@example.test", "password": PASSWORD})
    assert response.status_code == 403
    assert alert_of(response) == PASSWORD_SIGNIN_OFF


def test_password_sign_up_through_the_api_is_refused(client):
    response = client.post("/api/auth/signup", json={"email": "ada@example.test", "password": PASSWORD})
    assert response.status_code == 403
    assert response.get_json() == {"error": PASSWORD_SIGNIN_OFF}


def test_the_sign_up_page_offers_no_form(browser):
    assert 'name="password"' not in browser.get("/signup").get_data(as_text=True)


def test_password_sign_up_with_an_invitation_is_refused(client):
    response = client.post(
        "/api/invitations/signup",
        json={"token": "x" * 43, "email": "ada@example.test", "password": PASSWORD},
    )
    assert response.status_code == 403
    assert response.get_json() == {"error": PASSWORD_SIGNIN_OFF}


def test_sessions_still_work(as_caller):
    assert as_caller("viewer").get("/api/auth/me").status_code == 200
