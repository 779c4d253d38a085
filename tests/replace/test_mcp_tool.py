"""The find_and_replace tool through the official MCP SDK client: an agent previews a
replacement and applies it, through the same service as the REST API; the values it writes
wait for a review as an agent's do."""

import pytest

from tests.mcp.conftest import live_server, mcp_world  # noqa: F401  (fixtures)
from tests.mcp.test_sdk_clients import connect, rest, run

pytestmark = pytest.mark.slow
FIND = {"find": "Hallo", "replace": "Servus", "languages": ["de"]}


def tools(url, key, *calls):
    async def exercise():
        async with connect("modern", url, key) as client:
            results = []
            for name, arguments in calls:
                if callable(arguments):
                    arguments = arguments(results)
                results.append(await client.call_tool(name, arguments))
            return results

    return run(exercise)


def _ticked(results):
    changes = results[0].structured_content["changes"]
    items = [
        {"translationId": c["translationId"], "language": c["language"], "expected": c["before"]}
        for c in changes
    ]
    return {**FIND, "dryRun": False, "items": items}


def test_an_agent_previews_then_applies_a_replacement(app, live_server, mcp_world):  # noqa: F811
    preview, applied = tools(
        live_server,
        mcp_world.keys["write_key"],
        ("find_and_replace", FIND),
        ("find_and_replace", _ticked),
    )
    assert not preview.is_error, preview.content
    assert [(c["key"], c["after"]) for c in preview.structured_content["changes"]] == [("greeting", "Servus")]
    assert not applied.is_error, applied.content
    assert applied.structured_content["applied"] == 1
    assert applied.structured_content["operationId"]
    export = rest(app, mcp_world, "/translations")
    assert export["de"]["common"]["greeting"] == "Servus"
    queue = rest(
        app, mcp_world, "/translations/review", query_string={"state": "needs-review", "language": "de"}
    )
    assert [(v["key"], v["reason"]) for v in queue["values"]] == [("greeting", "agent")]


def test_a_read_key_previews_but_cannot_apply(live_server, mcp_world):  # noqa: F811
    preview, applied = tools(
        live_server,
        mcp_world.keys["read_key"],
        ("find_and_replace", FIND),
        ("find_and_replace", _ticked),
    )
    assert not preview.is_error, preview.content
    assert applied.is_error
    assert "canEditTranslations" in applied.content[0].text
