"""The quality tools through the official MCP SDK client: an agent's writes wait for a
review, list_issues reads what the checks found, mark_reviewed asks for a review and
cannot approve one."""

import types

import pytest

from loko.checks import Issue, registry
from tests.mcp.test_sdk_clients import connect, rest, run

pytestmark = pytest.mark.slow


def _shouting(target):
    if target.language != target.source_language and target.value.isupper():
        return [Issue("shouting", f"{target.value} is in capitals.")]
    return []


@pytest.fixture(params=["legacy", "modern"])
def era(request):
    return request.param


@pytest.fixture(autouse=True)
def shouting(monkeypatch):
    monkeypatch.setitem(
        registry.CHECKS, "shouting", types.SimpleNamespace(CODE="shouting", TITLE="Capitals", check=_shouting)
    )


def test_an_agents_values_wait_for_a_review_and_their_issues_are_listed(app, live_server, mcp_world, era):
    async def exercise():
        async with connect(era, live_server, mcp_world.keys["write_key"]) as client:
            upsert = await client.call_tool(
                "upsert_translations",
                {
                    "fileName": "common",
                    "language": "de",
                    "translations": [{"key": "farewell", "value": "TSCHÜSS"}],
                },
            )
            assert not upsert.is_error, upsert.content
            issues = await client.call_tool("list_issues", {"language": "de"})
            asked = await client.call_tool(
                "mark_reviewed",
                {"fileName": "common", "keys": ["greeting"], "languages": ["de"], "state": "needs-review"},
            )
            approved = await client.call_tool(
                "mark_reviewed",
                {"fileName": "common", "keys": ["farewell"], "languages": ["de"], "state": "reviewed"},
            )
            return issues, asked, approved

    issues, asked, approved = run(exercise)

    assert not issues.is_error, issues.content
    found = issues.structured_content
    assert [(row["key"], row["check"], row["state"]) for row in found["issues"]] == [
        ("farewell", "shouting", "needs-review")
    ]
    assert "TSCHÜSS is in capitals." in issues.content[0].text
    assert asked.structured_content == {"updated": 1}
    assert approved.is_error
    assert "session" in approved.content[0].text
    checks = rest(app, mcp_world, "/checks")
    assert checks["needsReview"] == [{"language": "de", "values": 2}]
