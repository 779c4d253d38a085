"""LOKO_OIDC_PROVIDERS: what a provider's settings mean, and each mistake named."""

import pytest

from loko.sso.providers import ProviderConfigError, parse_providers

VALID = {"name": "corp", "issuer": "https://id.example.com/realms/corp", "client_id": "loko"}


def test_a_minimal_provider_gets_the_defaults():
    provider = parse_providers([VALID])["corp"]
    assert provider.label == "corp"
    assert provider.scopes == ("openid", "email", "profile")
    assert provider.client_secret is None
    assert provider.default_role == "member"
    assert provider.discovery_url == "https://id.example.com/realms/corp/.well-known/openid-configuration"


def test_providers_are_read_from_json_text():
    assert list(
        parse_providers('[{"name": "corp", "issuer": "https://id.example.com", "client_id": "x"}]')
    ) == ["corp"]


def test_no_setting_means_no_provider():
    assert parse_providers(None) == {}
    assert parse_providers("") == {}


def test_openid_is_always_among_the_scopes():
    assert parse_providers([{**VALID, "scopes": ["email"]}])["corp"].scopes == ("openid", "email")


def test_allowed_domains_are_compared_in_lower_case():
    provider = parse_providers([{**VALID, "allowed_domains": ["Example.COM"]}])["corp"]
    assert provider.may_create_account("ann@example.com")
    assert not provider.may_create_account("ann@example.org")


def test_no_allowed_domain_means_invitations_only():
    assert not parse_providers([VALID])["corp"].may_create_account("ann@example.com")


def test_invitation_required_outweighs_the_allowed_domains():
    provider = parse_providers([{**VALID, "allowed_domains": ["example.com"], "invitation_required": True}])
    assert not provider["corp"].may_create_account("ann@example.com")


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ({**VALID, "name": "Corp"}, r"\[0\]\.name: lower-case"),
        ({**VALID, "issuer": "ftp://id.example.com"}, r"\[0\]\.issuer"),
        ({**VALID, "issuer": "https://id.example.com/?x=1"}, r"\[0\]\.issuer"),
        ({"name": "corp", "issuer": "https://id.example.com"}, r"\[0\]\.client_id: required"),
        ({**VALID, "default_role": "viewer"}, r"\[0\]\.default_role"),
        ({**VALID, "allowed_domains": "example.com"}, r"\[0\]\.allowed_domains"),
        ({**VALID, "scopes": "openid email"}, r"\[0\]\.scopes"),
        ({**VALID, "invitation_required": "yes"}, r"\[0\]\.invitation_required"),
        ({**VALID, "clientid": "x"}, r"\[0\]: unknown field 'clientid'"),
        ({**VALID, "issuer": "https://id.example.com/" + "x" * 255}, r"\[0\]\.issuer: at most 255"),
    ],
)
def test_a_wrong_field_is_named(entry, message):
    with pytest.raises(ProviderConfigError, match=message):
        parse_providers([entry])


def test_a_name_used_twice_is_refused():
    with pytest.raises(ProviderConfigError, match=r"\[1\]\.name: 'corp' is used twice"):
        parse_providers([VALID, VALID])


def test_text_that_is_not_json_is_refused():
    with pytest.raises(ProviderConfigError, match="not valid JSON"):
        parse_providers("[{")


def test_a_wrong_setting_stops_the_app_from_starting(tmp_path):
    from loko import create_app

    settings = {
        "LOKO_DATABASE_URL": f"sqlite:///{tmp_path / 'loko.db'}",
        "LOKO_SECRET_KEY": "test",
        "LOKO_OIDC_PROVIDERS": '[{"name": "corp", "issuer": "https://id.example.com"}]',
    }
    with pytest.raises(ProviderConfigError, match=r"LOKO_OIDC_PROVIDERS\[0\]\.client_id"):
        create_app(settings)
