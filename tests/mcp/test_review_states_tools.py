"""Review states over MCP, through the official SDK client: get_translation shows each value's
state and why it waits, list_issues shows the states of the values with issues, and
list_review_queue lists the values waiting for a review with their reasons."""

import types

import pytest

from loko.checks import Issue, registry
from tests.mcp.test_sdk_clients import connect, run

pytestmark = pytest.mark.slow

AGENTS_FAREWELL = {
    "fileName": "common",
    "language": "de",
    "translations": [{"key": "farewell", "value": "TSCHÜSS"}],
}


def _shouting(target):
    if target.language != target.source_language and target.value.isupper():
        return [Issue("shouting", f"{target.value} is in capitals.")]
    return []


@pytest.fixture(autouse=True)
def shouting(monkeypatch):
    monkeypatch.setitem(
        registry.CHECKS, "shouting", types.SimpleNamespace(CODE="shouting", TITLE="Capitals", check=_shouting)
    )


def after_an_agents_write(live_server, mcp_world, name: str, arguments: dict, key: str = "write_key"):
    """The write key upserts the German farewell (an agent's write), then ``key`` calls ``name``."""

    async def exercise():
        async with connect("modern", live_server, mcp_world.keys["write_key"]) as client:
            upsert = await client.call_tool("upsert_translations", AGENTS_FAREWELL)
            assert not upsert.is_error, upsert.content
        async with connect("modern", live_server, mcp_world.keys[key]) as client:
            return await client.call_tool(name, arguments)

    result = run(exercise)
    assert not result.is_error, result.content
    return result


def test_get_translation_shows_each_values_state_and_reason(live_server, mcp_world):
    result = after_an_agents_write(
        live_server, mcp_world, "get_translation", {"key": "farewell", "fileName": "common"}
    )
    assert result.structured_content["states"] == {
        "de": {"state": "needs-review", "reason": "agent"},
        "en": {"state": "translated", "reason": None},
        "fr": {"state": "translated", "reason": None},
    }
    text = result.content[0].text
    assert "- de: 'TSCHÜSS', needs-review (agent)" in text
    assert "- en: 'Goodbye', translated" in text


def test_list_issues_shows_the_state_and_reason_of_each_value(live_server, mcp_world):
    result = after_an_agents_write(live_server, mcp_world, "list_issues", {"language": "de"})
    [issue] = result.structured_content["issues"]
    assert (issue["key"], issue["state"], issue["reason"]) == ("farewell", "needs-review", "agent")
    assert "needs-review (agent)" in result.content[0].text


def test_list_review_queue_lists_the_values_waiting_with_their_reasons(live_server, mcp_world):
    result = after_an_agents_write(live_server, mcp_world, "list_review_queue", {})
    answer = result.structured_content
    assert answer["total"] == 1
    [value] = answer["values"]
    assert (value["fileName"], value["key"], value["language"], value["value"]) == (
        "common",
        "farewell",
        "de",
        "TSCHÜSS",
    )
    assert (value["state"], value["reason"], value["checks"]) == ("needs-review", "agent", ["shouting"])
    assert "common farewell [de] needs-review (agent)" in result.content[0].text


def test_list_review_queue_lists_another_state_when_asked(live_server, mcp_world):
    result = after_an_agents_write(
        live_server, mcp_world, "list_review_queue", {"state": "translated", "language": "de"}
    )
    assert [(value["fileName"], value["key"]) for value in result.structured_content["values"]] == [
        ("auth/login", "title"),
        ("common", "greeting"),
    ]


def test_a_read_key_lists_the_review_queue(live_server, mcp_world):
    result = after_an_agents_write(live_server, mcp_world, "list_review_queue", {}, key="read_key")
    assert result.structured_content["total"] == 1
