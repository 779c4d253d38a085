"""MCP's memory readers (``search_memory``, ``suggest_translations``) through the official SDK
client: a project's key finds nothing of a project of its organization that does not share
its values, and finds it once that project is shared."""

import pytest

from loko.extensions import db
from loko.memory import service
from tests.mcp.test_sdk_clients import connect, run
from tests.memory.test_scope import B_GERMAN, B_NAME, B_SOURCE, Scoped

pytestmark = pytest.mark.slow


@pytest.fixture
def scoped(app):
    with app.app_context():
        world = Scoped()
        service.refresh_index()
        db.session.remove()
    return world


def called(url: str, key: str, tool: str, arguments: dict):
    async def call():
        async with connect("modern", url, key) as client:
            return await client.call_tool(tool, arguments)

    result = run(call)
    assert not result.is_error, result.content[0].text
    return result


def search_memory(url, world, caller):
    return called(
        url, world.credentials[caller]["bearer"], "search_memory", {"text": B_SOURCE, "language": "de"}
    )


def suggest(url, world, caller):
    return called(
        url,
        world.credentials[caller]["bearer"],
        "suggest_translations",
        {"fileName": "app", "key": "export", "language": "de"},
    )


def shows_b(result) -> bool:
    return B_GERMAN in result.content[0].text or B_NAME in str(result.structured_content)


@pytest.mark.parametrize("caller", ["read_key", "write_key"])
def test_search_memory_shows_nothing_of_an_unshared_project(live_server, scoped, caller):
    assert not shows_b(search_memory(live_server, scoped, caller))


def test_suggest_translations_shows_nothing_of_an_unshared_project(live_server, scoped):
    assert not shows_b(suggest(live_server, scoped, "write_key"))


def test_search_memory_shows_a_shared_project(app, live_server, scoped):
    with app.app_context():
        scoped.share_b()
    result = search_memory(live_server, scoped, "read_key")
    assert [m["text"] for m in result.structured_content["matches"]] == [B_GERMAN]


def test_suggest_translations_shows_a_shared_project(app, live_server, scoped):
    with app.app_context():
        scoped.share_b()
    result = suggest(live_server, scoped, "write_key")
    memory = [item for item in result.structured_content["suggestions"] if item["source"] == "memory"]
    assert [(item["text"], item["project"]) for item in memory] == [(B_GERMAN, B_NAME)]
