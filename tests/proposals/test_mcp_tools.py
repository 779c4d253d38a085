"""The proposal tools of the MCP server (which takes API keys): a write key proposes and
lists, a read key lists only; votes and decisions, a person's, are refused to keys."""

import pytest

from loko.auth.actors import ApiKeyActor
from loko.mcp.tools import call_tool

GREETING = {"key": "greeting", "fileName": "common"}


@pytest.fixture
def keys(key, world):
    def actor(name):
        scope = "read" if name == "read_key" else "write"
        return ApiKeyActor(id=world.key_ids[name], name=name, project_id=world.project_id, scope=scope)

    return actor


def test_a_write_key_proposes_and_lists(app, keys):
    with app.app_context():
        made = call_tool(
            keys("write_key"), "propose_translation", {**GREETING, "language": "de", "text": "Hallo"}
        )
        assert not made.is_error, made.content
        assert made.structured_content["proposal"]["author"]["name"] == "write_key"
        listed = call_tool(keys("read_key"), "list_proposals", {})
        assert [item["text"] for item in listed.structured_content["proposals"]] == ["Hallo"]
        assert "Hallo" in listed.content[0].text


def test_a_read_key_does_not_propose(app, keys):
    with app.app_context():
        refused = call_tool(
            keys("read_key"), "propose_translation", {**GREETING, "language": "de", "text": "Hallo"}
        )
    assert refused.is_error and "Forbidden" in refused.content[0].text


@pytest.mark.parametrize(
    ("tool", "extra"), [("vote_proposal", {"value": 1}), ("accept_proposal", {}), ("reject_proposal", {})]
)
def test_votes_and_decisions_are_refused_to_keys(app, keys, proposal, tool, extra):
    made = proposal("contributor")
    with app.app_context():
        refused = call_tool(keys("write_key"), tool, {"proposalId": made["id"], **extra})
    assert refused.is_error and "Forbidden" in refused.content[0].text
