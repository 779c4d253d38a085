"""The glossary in machine translation: the suggestions list the terms found in the key's
source text, and LLM providers are told of those terms only, never the whole glossary."""

import pytest

from tests.glossary.conftest import add_term, create_key
from tests.machine.conftest import stand_in
from tests.machine.standins import API_KEY
from tests.repohost.loopback import refuse_beyond_loopback


@pytest.fixture
def config_overrides():
    return {"LOKO_OUTBOUND_ALLOW_PRIVATE": True}


@pytest.fixture(autouse=True)
def loopback_only(monkeypatch):
    refuse_beyond_loopback(monkeypatch)


@pytest.fixture
def model(app, world, as_caller, bilingual):
    add_term(as_caller, world, translations=(("de", "Datei", False), ("de", "Akte", True)), note="A document")
    add_term(as_caller, world, "folder", (("de", "Ordner", False),))
    create_key(bilingual, world, "save", {"en": "Save the file"})
    with stand_in("openai") as running:
        response = as_caller("org_owner").post(
            f"/api/organizations/{world.organization_id}/machine-providers",
            json={"kind": "openai", "baseUrl": running.url, "apiKey": API_KEY, "model": "llama3.1"},
        )
        assert response.status_code == 201, response.json
        yield running


def suggest(as_caller, world):
    response = as_caller("editor").get(
        f"/api/projects/{world.project_id}/suggestions",
        query_string={"fileName": "common", "key": "save", "language": "de"},
    )
    assert response.status_code == 200, response.json
    return response.json["suggestions"]


def test_the_suggestions_hold_the_terms_found_in_the_source(app, world, as_caller, model):
    items = [item for item in suggest(as_caller, world) if item["source"] == "glossary"]
    assert items == [
        {
            "source": "glossary",
            "term": "file",
            "translation": "Datei",
            "forbidden": False,
            "note": "A document",
        },
        {
            "source": "glossary",
            "term": "file",
            "translation": "Akte",
            "forbidden": True,
            "note": "A document",
        },
    ]


def test_the_language_model_is_told_of_the_terms_in_the_source_only(app, world, as_caller, model):
    suggest(as_caller, world)
    sent = " ".join(message["content"] for message in model.calls[0]["body"]["messages"])
    assert "Glossary: translate 'file' as 'Datei', never as 'Akte'." in sent
    assert "folder" not in sent and "Ordner" not in sent


def test_the_mcp_tool_lists_the_glossary_suggestions(app, world, as_caller, model):
    from loko.auth.actors import ApiKeyActor
    from loko.mcp.tools import call_tool

    actor = ApiKeyActor(
        id=world.key_ids["write_key"], name="write_key", project_id=world.project_id, scope="write"
    )
    with app.test_request_context():
        result = call_tool(
            actor, "suggest_translations", {"fileName": "common", "key": "save", "language": "de"}
        )
    assert not result.is_error, result
    text = result.content[0].text
    assert "- glossary: for 'file' use 'Datei'" in text
    assert "- glossary: for 'file' never use 'Akte'" in text
