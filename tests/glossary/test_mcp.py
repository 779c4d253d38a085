"""The MCP tool ``search_glossary``: the project's organization glossary searched through the
same service, by a read key too, never another organization's."""

from loko.auth.actors import ApiKeyActor
from loko.mcp.tools import call_tool
from tests.glossary.conftest import add_term


def key_actor(world, name="read_key", scope="read", project_id=None):
    return ApiKeyActor(
        id=world.key_ids[name], project_id=project_id or world.project_id, scope=scope, name=name
    )


def test_the_tool_finds_terms_by_their_text_or_translation(app, world, as_caller):
    add_term(as_caller, world, translations=(("de", "Datei", False), ("fr", "fichier", False)), note="A doc")
    add_term(as_caller, world, "folder", (("de", "Ordner", False),))
    with app.app_context():
        by_term = call_tool(key_actor(world), "search_glossary", {"query": "FIL", "language": "de"})
        by_translation = call_tool(key_actor(world), "search_glossary", {"query": "ordn"})
    assert not by_term.is_error
    [term] = by_term.structured_content["terms"]
    assert term["translations"] == [{"language": "de", "text": "Datei", "forbidden": False}]
    assert "de: 'Datei'" in by_term.content[0].text
    assert [t["term"] for t in by_translation.structured_content["terms"]] == ["folder"]


def test_another_organizations_glossary_is_not_searched(app, world, as_caller):
    add_term(as_caller, world)
    with app.app_context():
        result = call_tool(
            key_actor(world, "other_project_key", "write", world.other_project_id),
            "search_glossary",
            {"query": "file"},
        )
    assert result.structured_content["terms"] == []
