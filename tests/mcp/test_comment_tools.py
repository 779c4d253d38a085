"""The list_comments and add_comment tools through the official MCP SDK client: an agent
asks the team about a key and reads the thread, through the same service and permissions as
the REST API."""

import pytest

from tests.mcp.test_sdk_clients import connect, rest, run

pytestmark = pytest.mark.slow
GREETING = {"key": "greeting", "fileName": "common"}


def tools(live_server, key, *calls):
    """The results of ``calls`` (name, arguments), made in order by one SDK client."""

    async def exercise():
        async with connect("modern", live_server, key) as client:
            return [await client.call_tool(name, arguments) for name, arguments in calls]

    return run(exercise)


def test_an_agent_comments_on_a_language_and_reads_the_thread(app, live_server, mcp_world):
    added, listed = tools(
        live_server,
        mcp_world.keys["write_key"],
        ("add_comment", {**GREETING, "body": "Formal or informal address?", "language": "de"}),
        ("list_comments", GREETING),
    )
    assert not added.is_error, added.content
    comment = added.structured_content["comment"]
    assert (comment["language"], comment["resolved"]) == ("de", False)
    assert comment["author"] == {"type": "api_key", "id": mcp_world.key_ids["write_key"], "name": "write_key"}
    assert listed.structured_content["comments"] == [comment]
    assert "Formal or informal address?" in listed.content[0].text
    thread = rest(app, mcp_world, f"/translations/{comment['translationId']}/comments", "read_key")
    assert [item["id"] for item in thread["comments"]] == [comment["id"]]


def test_resolved_comments_are_listed_only_when_asked_for(app, live_server, mcp_world):
    (added,) = tools(live_server, mcp_world.keys["write_key"], ("add_comment", {**GREETING, "body": "Done?"}))
    comment = added.structured_content["comment"]
    thread = f"/api/projects/{mcp_world.project_id}/translations/{comment['translationId']}/comments"
    url = f"{thread}/{comment['id']}"
    resolved = app.test_client().patch(url, json={"resolved": True}, headers=mcp_world.headers())
    assert resolved.status_code == 200, resolved.json
    open_only, everything = tools(
        live_server,
        mcp_world.keys["read_key"],
        ("list_comments", GREETING),
        ("list_comments", {**GREETING, "status": "all"}),
    )
    assert open_only.structured_content["comments"] == []
    assert [item["id"] for item in everything.structured_content["comments"]] == [comment["id"]]


def test_a_read_key_reads_but_cannot_comment(live_server, mcp_world):
    (refused,) = tools(live_server, mcp_world.keys["read_key"], ("add_comment", {**GREETING, "body": "Hi"}))
    assert refused.is_error
    assert "canEditTranslations" in refused.content[0].text


@pytest.mark.parametrize(
    ("arguments", "named"),
    [
        ({"key": "nope", "fileName": "common", "body": "Hi"}, "key"),
        ({**GREETING, "body": "Hi", "language": "ja"}, "language"),
        ({**GREETING, "body": "x" * 5001}, "body"),
        ({**GREETING, "body": " "}, "body"),
    ],
)
def test_a_refused_comment_is_a_tool_error_naming_the_argument(live_server, mcp_world, arguments, named):
    (refused,) = tools(live_server, mcp_world.keys["write_key"], ("add_comment", arguments))
    assert refused.is_error
    assert f"{named}:" in refused.content[0].text
