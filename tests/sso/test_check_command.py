"""``loko sso check``: discovery, keys and a dry sign-in URL, against the real provider."""

import pytest
from sqlalchemy import func, select

from loko import create_app
from loko.extensions import db
from loko.sso.models import PendingSignIn
from tests.conftest import _test_config
from tests.sso.provider import free_port, provider_entry


def test_check_reports_discovery_keys_and_a_dry_sign_in_url(runner, oidc_issuer):
    result = runner.invoke(args=["sso", "check", "local", "--site", "https://loko.example.com"])
    assert result.exit_code == 0, result.output
    assert f"local: issuer {oidc_issuer}" in result.output
    assert "discovery: ok" in result.output
    assert "keys: 1 (" in result.output
    assert "redirect URI to register: https://loko.example.com/auth/oidc/local/callback" in result.output
    assert f"dry sign-in URL: {oidc_issuer}/auth?" in result.output


def test_check_stores_no_pending_sign_in(runner, app):
    runner.invoke(args=["sso", "check", "local"])
    with app.app_context():
        assert db.session.execute(select(func.count()).select_from(PendingSignIn)).scalar_one() == 0


def test_check_without_a_name_checks_every_provider(runner):
    result = runner.invoke(args=["sso", "check"])
    assert result.exit_code == 0, result.output
    assert [line.split(":")[0] for line in result.output.splitlines() if not line.startswith(" ")] == [
        "local",
        "invite",
        "team",
        "wrongaud",
        "expired",
        "trusting",
    ]


def test_check_of_an_unknown_provider_fails_naming_the_configured_ones(runner):
    result = runner.invoke(args=["sso", "check", "nobody"])
    assert result.exit_code != 0
    assert "No identity provider is named 'nobody' (configured: local, invite" in result.output


@pytest.mark.parametrize(
    "config_overrides",
    [{"LOKO_OIDC_PROVIDERS": [provider_entry(f"http://127.0.0.1:{free_port()}", "gone")]}],
    ids=["unreachable"],
)
def test_check_of_an_unreachable_provider_fails(runner):
    result = runner.invoke(args=["sso", "check", "gone"])
    assert result.exit_code == 1
    assert "FAILED: gone cannot be reached" in result.output


def test_check_refuses_a_plain_http_loopback_issuer_unless_allowed(database_url, oidc_issuer):
    entry = provider_entry(oidc_issuer, "strict")
    del entry["allow_private"]
    app = create_app(_test_config(database_url, LOKO_OIDC_PROVIDERS=[entry]))
    result = app.test_cli_runner().invoke(args=["sso", "check", "strict"])
    app_engine_dispose(app)
    assert result.exit_code == 1
    assert "the URL must use https, not http" in result.output


def app_engine_dispose(app):
    with app.app_context():
        db.engine.dispose()


@pytest.mark.parametrize("config_overrides", [{"LOKO_OIDC_PROVIDERS": []}], ids=["none"])
def test_check_without_providers_fails(runner):
    result = runner.invoke(args=["sso", "check"])
    assert result.exit_code != 0
    assert "No identity provider is configured" in result.output
