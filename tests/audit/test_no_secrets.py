"""Nothing secret is ever written to the audit log: after sign-ins, a failed one, invitations,
API keys, a provider's key, a webhook's secret and the address's query, no stored row holds
any of the secrets the test used."""

from loko.audit.service import safe_url, scrubbed
from tests.audit.helpers import every_stored_text, recorded
from tests.factories import PASSWORD

WRONG_PASSWORD = "wrong-password-never-kept"
PROVIDER_KEY = "deepl-secret-4d1c9e77:fx"
NEW_PROVIDER_KEY = "deepl-secret-second-8a2b"
HOOK_QUERY_TOKEN = "hook-query-token-51f0"


def test_no_secret_reaches_the_log(app, client, as_caller, world):
    owner = as_caller("org_owner")
    secrets = [PASSWORD, WRONG_PASSWORD, PROVIDER_KEY, NEW_PROVIDER_KEY, HOOK_QUERY_TOKEN]
    client.post("/api/auth/login", json={"email": "owner@example.test", "password": PASSWORD})
    client.post("/api/auth/login", json={"email": "owner@example.test", "password": WRONG_PASSWORD})
    invitation = owner.post(f"/api/organizations/{world.organization_id}/invitations", json={}).json
    secrets += [invitation["token"], invitation["url"]]
    key = owner.post(f"/api/projects/{world.project_id}/keys", json={"name": "deploy"}).json
    secrets.append(key["key"])
    owner.delete(f"/api/projects/{world.project_id}/keys/{key['apiKey']['id']}")
    providers = f"/api/organizations/{world.organization_id}/machine-providers"
    provider = owner.post(providers, json={"kind": "deepl", "apiKey": PROVIDER_KEY}).json["provider"]
    owner.patch(f"{providers}/{provider['id']}", json={"apiKey": NEW_PROVIDER_KEY})
    hook = owner.post(
        f"/api/projects/{world.project_id}/webhooks",
        json={"url": f"https://hooks.example.test/in?token={HOOK_QUERY_TOKEN}", "events": ["key.created"]},
    ).json
    secrets.append(hook["secret"])
    for cookie in (world.credentials[name]["cookie"] for name in ("org_owner", "editor")):
        secrets.append(cookie)
    as_caller("editor").post("/api/auth/logout")

    assert len(recorded(app, world.organization_id)) >= 9
    stored = every_stored_text(app)
    leaked = [secret for secret in secrets if secret in stored]
    assert leaked == []


def test_details_lose_every_entry_named_after_a_secret():
    details = {
        "password": "p",
        "apiKey": "k",
        "api_key": "k",
        "token": "t",
        "webhookSecret": "s",
        "key_hash": "h",
        "nested": {"accessToken": "t", "role": "admin"},
        "role": "member",
    }
    assert scrubbed(details) == {"nested": {"role": "admin"}, "role": "member"}


def test_addresses_lose_their_user_password_query_and_fragment():
    assert safe_url("https://bot:pw@git.example.test:8443/api/v4?private_token=x#a") == (
        "https://git.example.test:8443/api/v4"
    )
