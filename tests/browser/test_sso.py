"""Signing in with an OpenID provider in Chromium: a real provider (oidc-provider) and a real
``loko serve`` on the loopback. First sign-in creates the account, sign-out ends the Loko
session, and a wrong audience, an expired ID token and a replayed answer each leave the
browser on the sign-in page, told why, with no session."""

import json
import re

import pytest

from tests.browser.conftest import Problems, _free_port, check_accessibility, running_loko
from tests.sso.provider import missing, provider_entry, running_provider

NAMES = {"local": "loko", "wrongaud": "loko-wrong-audience", "expired": "loko-expired", "roundtrip": "loko"}
LABELS = {
    "local": "Local ID",
    "wrongaud": "Other app ID",
    "expired": "Stale ID",
    "roundtrip": "Round-trip ID",
}

pytestmark = [
    pytest.mark.skipif(missing() is not None, reason=missing() or ""),
    pytest.mark.xdist_group("test_sso"),
]


@pytest.fixture(scope="module")
def sso_server(tmp_path_factory):
    """Loko with four providers at one real OpenID provider: one that works, one that also
    signs out there, one whose ID tokens name another audience, one whose ID tokens have
    expired."""
    port = _free_port()
    site = f"http://127.0.0.1:{port}"
    with running_provider([f"{site}/auth/oidc/{name}/callback" for name in NAMES]) as issuer:
        providers = [
            provider_entry(
                issuer,
                name,
                client_id,
                label=LABELS[name],
                allowed_domains=["example.test"],
                sign_out_at_provider=name == "roundtrip",
            )
            for name, client_id in NAMES.items()
        ]
        settings = {"LOKO_OIDC_PROVIDERS": json.dumps(providers)}
        with running_loko(tmp_path_factory.mktemp("sso-server"), port, **settings) as url:
            yield url


@pytest.fixture
def sso_page(browser, sso_server):
    problems = Problems()
    context = browser.new_context(base_url=sso_server, viewport={"width": 1280, "height": 800})
    context.set_default_timeout(10_000)
    page = context.new_page()
    problems.watch(page)
    yield page
    context.close()
    assert problems.items == []


def sign_in_with(page, provider: str, login: str) -> None:
    """From Loko's sign-in page to the provider's login form and back."""
    page.goto("/login")
    page.get_by_role("link", name=f"Sign in with {LABELS[provider]}").click()
    page.locator('input[name="login"]').fill(login)
    page.locator('input[name="password"]').fill("any password")
    page.get_by_role("button", name="Sign-in").click()


def sign_out(page, name: str) -> None:
    page.locator("summary", has_text=name).click()
    page.get_by_role("button", name="Sign out").click()
    page.wait_for_url(re.compile(r"/login"))


def session_cookie(page):
    return [cookie for cookie in page.context.cookies() if cookie["name"] == "sb-access-token"]


def test_the_sign_in_page_offers_each_provider(sso_page):
    sso_page.goto("/login")
    for label in LABELS.values():
        assert sso_page.get_by_role("link", name=f"Sign in with {label}").is_visible()
    check_accessibility(sso_page, "sso-sign-in")


def test_first_sign_in_creates_the_account_and_sign_out_ends_the_session(sso_page):
    sign_in_with(sso_page, "local", "nora@example.test")
    sso_page.wait_for_url(re.compile(r"/orgs/"))
    assert sso_page.get_by_role("status").inner_text() == "Signed in with Local ID."
    sso_page.goto("/account")
    assert sso_page.locator("dd", has_text="nora@example.test").is_visible()
    check_accessibility(sso_page)
    sign_out(sso_page, "nora")
    assert session_cookie(sso_page) == []
    sso_page.goto("/account")
    assert "/login" in sso_page.url


def test_a_wrong_audience_is_refused_on_the_sign_in_page(sso_page):
    sign_in_with(sso_page, "wrongaud", "olga@example.test")
    alert = sso_page.get_by_role("alert")
    assert "wrong audience" in alert.inner_text()
    assert session_cookie(sso_page) == []
    check_accessibility(sso_page, "sso-wrong-audience")


def test_an_expired_id_token_is_refused_on_the_sign_in_page(sso_page):
    sign_in_with(sso_page, "expired", "paul@example.test")
    assert "ID token has expired" in sso_page.get_by_role("alert").inner_text()
    assert session_cookie(sso_page) == []


def test_a_replayed_answer_is_refused_on_the_sign_in_page(sso_page):
    answers = []
    sso_page.on(
        "request", lambda request: answers.append(request.url) if "/callback?" in request.url else None
    )
    sign_in_with(sso_page, "local", "quinn@example.test")
    sso_page.wait_for_url(re.compile(r"/orgs/"))
    sign_out(sso_page, "quinn")
    sso_page.goto(answers[0])
    assert "already used" in sso_page.get_by_role("alert").inner_text()
    assert session_cookie(sso_page) == []


def test_signing_out_can_end_the_session_at_the_provider_too(sso_page):
    sign_in_with(sso_page, "roundtrip", "rita@example.test")
    sso_page.wait_for_url(re.compile(r"/orgs/"))
    sso_page.locator("summary", has_text="rita").click()
    sso_page.get_by_role("button", name="Sign out").click()
    sso_page.get_by_role("button", name="Yes, sign me out").click()  # the provider's page
    sso_page.wait_for_url(re.compile(r"/login"))
    assert session_cookie(sso_page) == []
    sign_in_with(sso_page, "roundtrip", "rita@example.test")
    sso_page.wait_for_url(re.compile(r"/orgs/"))
