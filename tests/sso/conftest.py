"""The sign-in tests' provider (one per run) and an app that trusts it under several names:
``local`` (accounts created for example.test), ``invite`` (invitation required),
``team`` (new accounts join a default organization), ``trusting`` (its e-mails count as
verified, and signing out of Loko signs out there too), and the two clients whose ID
tokens are wrong: ``wrongaud`` (another audience) and ``expired``."""

import pytest

from loko.auth import service as auth_service
from tests.factories import cheap_password_hasher
from tests.pages.conftest import PageClient, page_as  # noqa: F401 (a fixture)
from tests.sso.provider import missing, provider_entry, running_provider

SITE = "http://localhost"
NAMES = ("local", "invite", "team", "wrongaud", "expired", "trusting")


def callback(name: str) -> str:
    return f"{SITE}/auth/oidc/{name}/callback"


@pytest.fixture(scope="session")
def oidc_issuer():
    reason = missing()
    if reason:
        pytest.skip(reason)
    with running_provider([callback(name) for name in NAMES]) as issuer:
        yield issuer


@pytest.fixture
def team_organization_id():
    """The id the ``team`` provider names as its default organization (a test creates it)."""
    return "00000000-0000-7000-8000-00000000beef"


@pytest.fixture
def config_overrides(oidc_issuer, team_organization_id):
    return {
        "LOKO_OIDC_PROVIDERS": [
            provider_entry(oidc_issuer, "local", label="Local ID", allowed_domains=["example.test"]),
            provider_entry(oidc_issuer, "invite", invitation_required=True, allowed_domains=["example.test"]),
            provider_entry(
                oidc_issuer,
                "team",
                allowed_domains=["example.test"],
                default_organization=team_organization_id,
                default_role="admin",
            ),
            provider_entry(oidc_issuer, "wrongaud", "loko-wrong-audience", allowed_domains=["example.test"]),
            provider_entry(oidc_issuer, "expired", "loko-expired", allowed_domains=["example.test"]),
            provider_entry(
                oidc_issuer,
                "trusting",
                allowed_domains=["example.test"],
                trust_email=True,
                sign_out_at_provider=True,
            ),
        ]
    }


@pytest.fixture(autouse=True)
def fast_password_hashing(monkeypatch):
    monkeypatch.setattr(auth_service, "_hasher", cheap_password_hasher())


@pytest.fixture
def browser(app) -> PageClient:
    return PageClient(app, {})
