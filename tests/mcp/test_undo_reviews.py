"""MCP's undo_changes through the official SDK client: a value a reviewer approved after the
change is listed as reviewed since, by whom, and the undo is refused until the agent keeps
it (skipChanged) or includes it (includeChanged)."""

from datetime import UTC, datetime, timedelta

import pytest

from tests.mcp.test_sdk_clients import connect, run

pytestmark = pytest.mark.slow


@pytest.fixture
def reviewed_since(app, mcp_world):
    """The write key rewrites two German values; the owner then marks one reviewed. The
    undo's selection: the key's changes since."""
    since = datetime.now(UTC) + timedelta(milliseconds=5)
    while datetime.now(UTC) <= since:
        pass
    client = app.test_client()
    written = client.put(
        f"/api/projects/{mcp_world.project_id}/translations",
        json={
            "operation": "bulk-upsert",
            "fileName": "common",
            "languageCode": "de",
            "translations": [{"key": "greeting", "value": "Servus"}, {"key": "farewell", "value": "Tschüss"}],
        },
        headers=mcp_world.headers(),
    )
    assert written.status_code == 200, written.json
    client.set_cookie("sb-access-token", mcp_world.owner_cookie)
    reviewed = client.post(
        f"/api/projects/{mcp_world.project_id}/translations/review",
        json={"fileName": "common", "keys": ["greeting"], "languages": ["de"], "state": "reviewed"},
    )
    assert reviewed.status_code == 200, reviewed.json
    return {"actorType": "api_key", "actorId": mcp_world.key_ids["write_key"], "since": since.isoformat()}


def undo(live_server, mcp_world, arguments):
    async def call():
        async with connect("modern", live_server, mcp_world.keys["write_key"]) as client:
            return await client.call_tool("undo_changes", arguments)

    return run(call)


def test_the_dry_run_lists_the_value_reviewed_since_and_who_reviewed_it(
    live_server, mcp_world, reviewed_since
):
    result = undo(live_server, mcp_world, reviewed_since)
    [conflict] = result.structured_content["conflicts"]
    assert (conflict["key"], conflict["reason"], conflict["by"]) == ("greeting", "reviewed since", "Owner")
    assert "reviewed since by Owner" in result.content[0].text


def test_the_undo_is_refused_until_the_agent_chooses(live_server, mcp_world, reviewed_since):
    result = undo(live_server, mcp_world, {**reviewed_since, "dryRun": False})
    assert result.is_error
    assert "includeChanged" in result.content[0].text


def test_skip_changed_keeps_the_approved_value(app, live_server, mcp_world, reviewed_since):
    result = undo(live_server, mcp_world, {**reviewed_since, "dryRun": False, "skipChanged": True})
    assert not result.is_error, result.content[0].text
    values = (
        app.test_client()
        .get(f"/api/projects/{mcp_world.project_id}/translations", headers=mcp_world.headers())
        .json["de"]["common"]
    )
    assert values["greeting"] == "Servus"
    assert "farewell" not in values
