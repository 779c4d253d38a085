"""An organization's machine translation providers over REST, and the suggestions they make
for a project's key: who may do what, the key never answered or logged, placeholders kept,
refused answers reported, private addresses refused unless allowed, no transaction open
during a call."""

import logging

import pytest
from sqlalchemy import select

from loko.auth.actors import ApiKeyActor
from loko.extensions import db
from loko.machine.models import MachineProvider
from loko.machine.providers import base
from loko.mcp.tools import call_tool
from tests.factories import CALLERS
from tests.machine.conftest import stand_in
from tests.machine.standins import API_KEY

# anonymous, unknown_key, revoked_key, other_project_key, read_key, write_key, viewer,
# editor, project_admin, org_admin, org_owner, outsider.
# The providers: an organization setting, for its owners and admins, by session only.
MANAGERS = (401, 401, 401, 403, 403, 403, 403, 403, 403, 200, 200, 404)
# The suggestions: whoever may edit the project's translations.
SUGGESTERS = (401, 401, 401, 403, 403, 200, 403, 200, 200, 200, 200, 404)
MISSING = "0190a0a0-0000-7000-8000-000000000000"


@pytest.fixture
def config_overrides():
    return {"LOKO_OUTBOUND_ALLOW_PRIVATE": True}


@pytest.fixture
def services():
    """The three stand-ins, running together."""
    with stand_in("deepl") as deepl, stand_in("libretranslate") as libre, stand_in("openai") as model:
        yield {"deepl": deepl, "libretranslate": libre, "openai": model}


def settings(service, **overrides) -> dict:
    return {"kind": service.name, "baseUrl": service.url, "apiKey": API_KEY, "model": "llama3.1", **overrides}


def providers_url(world, provider_id: str | None = None) -> str:
    url = f"/api/organizations/{world.organization_id}/machine-providers"
    return f"{url}/{provider_id}" if provider_id else url


def add_provider(as_caller, world, service, **overrides) -> dict:
    response = as_caller("org_owner").post(providers_url(world), json=settings(service, **overrides))
    assert response.status_code == 201, response.json
    return response.json["provider"]


@pytest.fixture
def greeting(app, world, as_caller):
    """The project in English (its source language) and German, with one key to translate."""
    owner = as_caller("org_owner")
    for code in ("en", "de"):
        assert (
            owner.post(f"/api/projects/{world.project_id}/languages", json={"code": code}).status_code == 201
        )
    created = owner.post(
        f"/api/projects/{world.project_id}/translations",
        json={
            "key": "inbox.greeting",
            "fileName": "common",
            "values": {"en": "Hello {name}, you have %d new messages"},
        },
    )
    assert created.status_code == 201, created.json
    noted = owner.patch(
        f"/api/projects/{world.project_id}/translations/details",
        json={"key": "inbox.greeting", "fileName": "common", "comment": "Shown above the inbox"},
    )
    assert noted.status_code == 200, noted.json
    return {"fileName": "common", "key": "inbox.greeting", "language": "de"}


def suggestions(as_caller, world, query, caller="editor"):
    return as_caller(caller).get(f"/api/projects/{world.project_id}/suggestions", query_string=query)


def _expected(statuses, caller, success):
    status = statuses[CALLERS.index(caller)]
    return success if status == 200 else status


@pytest.mark.parametrize("caller", CALLERS)
def test_the_providers_answer_each_caller_as_the_policy_says(app, world, as_caller, caller):
    with stand_in("libretranslate") as libre:
        provider = add_provider(as_caller, world, libre)
        one = providers_url(world, provider["id"])
        calls = (
            ("get", providers_url(world), None, 200),
            ("post", providers_url(world), settings(libre), 201),
            ("patch", one, {"enabled": False}, 200),
            ("post", one + "/test", None, 200),
            ("patch", providers_url(world, MISSING), {"enabled": False}, 404),
            ("delete", one, None, 200),
        )
        client = as_caller(caller)
        for method, url, body, success in calls:
            response = getattr(client, method)(url, json=body) if body else getattr(client, method)(url)
            assert response.status_code == _expected(MANAGERS, caller, success), (method, url, response.json)


@pytest.mark.parametrize("caller", CALLERS)
def test_suggestions_answer_each_caller_as_the_policy_says(app, world, as_caller, greeting, caller):
    with stand_in("deepl") as deepl:
        add_provider(as_caller, world, deepl)
        response = suggestions(as_caller, world, greeting, caller)
    assert response.status_code == _expected(SUGGESTERS, caller, 200), response.json


def test_each_enabled_provider_suggests_with_the_placeholders_kept(app, world, as_caller, services, greeting):
    for service in services.values():
        add_provider(as_caller, world, service)
    answer = suggestions(as_caller, world, greeting).json
    assert answer["errors"] == []
    assert {item["kind"]: item["text"] for item in answer["suggestions"]} == {
        "deepl": "[DE] Hello {name}, you have %d new messages",
        "libretranslate": "[de] Hello {name}, you have %d new messages",
        "openai": "[de] Hello {name}, you have %d new messages",
    }
    assert {item["source"] for item in answer["suggestions"]} == {"machine"}


def test_the_key_comment_file_and_source_language_go_as_context(app, world, as_caller, services, greeting):
    add_provider(as_caller, world, services["deepl"])
    suggestions(as_caller, world, greeting)
    context = services["deepl"].calls[0]["body"]["context"]
    for part in ("inbox.greeting", "common", "Shown above the inbox", "en"):
        assert part in context


def test_the_language_model_gets_the_organization_and_language_instructions(
    app, world, as_caller, services, greeting
):
    add_provider(
        as_caller,
        world,
        services["openai"],
        instruction="Keep it short.",
        languageInstructions={"de": "Use the informal du.", "fr": "Vouvoyez."},
    )
    suggestions(as_caller, world, greeting)
    system = services["openai"].calls[0]["body"]["messages"][0]["content"]
    assert system.endswith("Keep it short.\n\nUse the informal du.")
    assert "Vouvoyez" not in system


def test_an_answer_that_drops_a_placeholder_is_reported_never_suggested(
    app, world, as_caller, services, greeting
):
    add_provider(as_caller, world, services["openai"], name="Local model")
    add_provider(as_caller, world, services["deepl"])
    services["openai"].translator = lambda text, target: "Hallo, du hast neue Nachrichten"
    answer = suggestions(as_caller, world, greeting).json
    assert [item["kind"] for item in answer["suggestions"]] == ["deepl"]
    [error] = answer["errors"]
    assert error["provider"] == "Local model"
    assert error["error"].startswith("refused: the translation lost placeholder(s)")


def test_a_failing_provider_is_reported_beside_the_others(app, world, as_caller, services, greeting):
    add_provider(as_caller, world, services["libretranslate"], apiKey="not-the-key-0000")
    add_provider(as_caller, world, services["deepl"])
    answer = suggestions(as_caller, world, greeting).json
    assert [item["kind"] for item in answer["suggestions"]] == ["deepl"]
    assert "LibreTranslate refused the API key (403)" in answer["errors"][0]["error"]


def test_a_disabled_provider_is_not_asked(app, world, as_caller, services, greeting):
    add_provider(as_caller, world, services["deepl"], enabled=False)
    assert suggestions(as_caller, world, greeting).json == {"suggestions": [], "errors": []}
    assert services["deepl"].calls == []


def test_the_api_key_is_never_answered_and_stored_encrypted(app, world, as_caller, services):
    owner = as_caller("org_owner")
    created = owner.post(providers_url(world), json=settings(services["deepl"]))
    listed = owner.get(providers_url(world))
    patched = owner.patch(providers_url(world, created.json["provider"]["id"]), json={"name": "DeepL Pro"})
    for response in (created, listed, patched):
        assert API_KEY not in response.get_data(as_text=True)
    assert (patched.json["provider"]["hasKey"], patched.json["provider"]["keyLast4"]) == (True, API_KEY[-4:])
    with app.app_context():
        stored = db.session.execute(select(MachineProvider.api_key_encrypted)).scalar_one()
    assert API_KEY not in stored


def test_the_api_key_can_be_removed(app, world, as_caller, services):
    provider = add_provider(as_caller, world, services["libretranslate"])
    patched = as_caller("org_admin").patch(providers_url(world, provider["id"]), json={"apiKey": None})
    assert (patched.json["provider"]["hasKey"], patched.json["provider"]["keyLast4"]) == (False, None)


def test_the_api_key_never_reaches_the_log(app, world, as_caller, services, greeting, caplog):
    services["deepl"].fail_next(403, body={"message": f"key {API_KEY} is blocked"})
    add_provider(as_caller, world, services["deepl"])
    with caplog.at_level(logging.DEBUG):
        answer = suggestions(as_caller, world, greeting).json
    assert "DeepL refused the API key" in answer["errors"][0]["error"]
    assert API_KEY not in caplog.text and API_KEY not in str(answer)
    assert "machine translation by DeepL (deepl) failed" in caplog.text


def test_the_setup_check_translates_hello_name(app, world, as_caller, service):
    provider = add_provider(as_caller, world, service)
    checked = as_caller("org_owner").post(providers_url(world, provider["id"]) + "/test")
    assert checked.json["ok"] is True, checked.json
    assert checked.json["source"] == "Hello {name}"
    assert checked.json["text"].endswith("Hello {name}") and checked.json["error"] is None


def test_the_setup_check_reports_a_wrong_key(app, world, as_caller, service):
    provider = add_provider(as_caller, world, service, apiKey="wrong-key-9999")
    checked = as_caller("org_owner").post(providers_url(world, provider["id"]) + "/test").json
    assert checked["ok"] is False and checked["text"] is None
    assert "refused the API key" in checked["error"] and "wrong-key-9999" not in checked["error"]


def test_a_private_address_is_refused_unless_the_administrator_allows_it(app, world, as_caller, services):
    https = services["deepl"].url.replace("http://", "https://")
    provider = add_provider(as_caller, world, services["deepl"], baseUrl=https)
    app.config["LOKO_OUTBOUND_ALLOW_PRIVATE"] = False
    checked = as_caller("org_owner").post(providers_url(world, provider["id"]) + "/test").json
    assert checked["ok"] is False
    assert "127.0.0.1 resolves to a private" in checked["error"]
    assert "LOKO_OUTBOUND_ALLOW_PRIVATE" in checked["error"]
    assert services["deepl"].calls == []


def test_the_older_setting_name_still_allows_private_addresses(app, world, as_caller, services):
    provider = add_provider(as_caller, world, services["deepl"])
    app.config.update(LOKO_OUTBOUND_ALLOW_PRIVATE=False, LOKO_REPOHOST_ALLOW_PRIVATE=True)
    checked = as_caller("org_owner").post(providers_url(world, provider["id"]) + "/test").json
    assert checked["ok"] is True, checked


def test_no_transaction_is_open_while_a_provider_is_called(
    app, world, as_caller, services, greeting, monkeypatch
):
    seen = []
    send = base.Provider.send

    def watched(self, path, body):
        seen.append(db.session().in_transaction())
        return send(self, path, body)

    monkeypatch.setattr(base.Provider, "send", watched)
    add_provider(as_caller, world, services["deepl"])
    add_provider(as_caller, world, services["openai"])
    suggestions(as_caller, world, greeting)
    assert seen == [False, False]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"kind": "google"}, "kind"),
        ({"kind": "deepl", "baseUrl": "ftp://deepl.example"}, "baseUrl"),
        ({"kind": "openai", "model": ""}, "model"),
        ({"kind": "openai", "languageInstructions": {"de": "x" * 4001}}, "languageInstructions"),
        ({"kind": "deepl", "secret": "x"}, "secret"),
    ],
)
def test_bad_input_is_refused_naming_the_field(app, world, as_caller, body, field):
    response = as_caller("org_owner").post(providers_url(world), json=body)
    assert response.status_code == 400
    assert field in response.json["error"]


def test_the_source_language_is_not_suggested_into(app, world, as_caller, greeting):
    response = suggestions(as_caller, world, {**greeting, "language": "en"})
    assert response.status_code == 409
    assert "source language" in response.json["error"]


def test_a_missing_key_is_not_found(app, world, as_caller, greeting):
    assert suggestions(as_caller, world, {**greeting, "key": "nope"}).status_code == 404


def test_the_mcp_tool_suggests_through_the_same_service(app, world, as_caller, services, greeting):
    add_provider(as_caller, world, services["libretranslate"])
    actor = ApiKeyActor(
        id=world.key_ids["write_key"], name="write_key", project_id=world.project_id, scope="write"
    )
    with app.test_request_context():
        result = call_tool(actor, "suggest_translations", greeting)
    assert not result.is_error, result
    assert (
        result.structured_content["suggestions"][0]["text"] == "[de] Hello {name}, you have %d new messages"
    )


def test_the_mcp_tool_refuses_a_read_key(app, world, greeting):
    actor = ApiKeyActor(
        id=world.key_ids["read_key"], name="read_key", project_id=world.project_id, scope="read"
    )
    with app.test_request_context():
        result = call_tool(actor, "suggest_translations", greeting)
    assert result.is_error
