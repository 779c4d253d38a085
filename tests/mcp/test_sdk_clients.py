"""The official MCP Python SDK client against a real server, in both protocol eras: the
``initialize`` handshake (2025-11-25, with a session) and ``mode="auto"``, which
negotiates the stateless 2026-07-28 revision through ``server/discover``."""

from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager

import anyio
import pytest
from mcp import Client, ClientSession
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

from tests.mcp.conftest import GERMAN_MISSING, HANDSHAKE, MODERN, TOOL_NAMES, session_count

pytestmark = pytest.mark.slow


@asynccontextmanager
async def connect(era: str, url: str, key: str):
    """A connected SDK client of the given era; both answer list_tools() and call_tool()."""
    async with create_mcp_http_client(headers={"Authorization": f"Bearer {key}"}) as http:
        if era == "legacy":
            async with (
                streamable_http_client(url, http_client=http) as (read, write),
                ClientSession(read, write) as session,
            ):
                await session.initialize()
                yield session
        else:
            async with Client(streamable_http_client(url, http_client=http), mode="auto") as client:
                yield client


def run(coroutine_function, *args):
    """Run the client in a thread of its own: a test process that also drives the browser
    tests keeps Playwright's event loop running in the main thread."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(anyio.run, coroutine_function, *args).result()


def rest(app, world, path: str, key: str = "write_key", **kwargs):
    response = app.test_client().get(
        f"/api/projects/{world.project_id}{path}", headers=world.headers(key), **kwargs
    )
    assert response.status_code == 200, response.json
    return response.json


@pytest.fixture(params=["legacy", "modern"])
def era(request):
    return request.param


def test_client_negotiates_its_era(live_server, mcp_world, era):
    async def negotiate():
        async with connect(era, live_server, mcp_world.keys["write_key"]) as client:
            return client.protocol_version, client.server_info.name

    assert run(negotiate) == ({"legacy": HANDSHAKE, "modern": MODERN}[era], "loko")


def test_every_tool_answers_through_the_sdk(app, live_server, mcp_world, era):
    async def exercise():
        results = {}
        async with connect(era, live_server, mcp_world.keys["write_key"]) as client:
            listing = await client.list_tools()
            results["tools"] = {tool.name: tool for tool in listing.tools}
            calls = [
                ("get_project_context", {}),
                ("list_files", {}),
                ("list_languages", {}),
                ("search_translations", {"query": "HALLO"}),
                ("list_missing_translations", {"language": "de"}),
                ("get_translation", {"key": "greeting", "fileName": "common"}),
                (
                    "upsert_translations",
                    {
                        "fileName": "common",
                        "language": "de",
                        "translations": [{"key": "farewell", "value": "Tschüss"}],
                    },
                ),
                (
                    "create_translation",
                    {"key": "checkout", "fileName": "common", "values": {"en": "Checkout"}},
                ),
            ]
            for name, arguments in calls:
                result = await client.call_tool(name, arguments)
                assert not result.is_error, result.content
                assert result.content[0].text
                results[name] = result.structured_content
            created = results["create_translation"]["translation"]["id"]
            deleted = await client.call_tool("delete_translation", {"id": created})
            assert not deleted.is_error, deleted.content
            results["delete_translation"] = deleted.structured_content
        return results

    results = run(exercise)

    assert set(results["tools"]) == TOOL_NAMES
    assert all(
        tool.input_schema["type"] == "object" and tool.output_schema for tool in results["tools"].values()
    )
    context = results["get_project_context"]
    assert context["project"]["name"] == "Web app"
    assert context["source_language"] == "en"
    german = next(row for row in context["languages"] if row["code"] == "de")
    assert (german["translated"], german["total"], german["missing"]) == (2, 5, 3)
    assert {row["fileName"]: row["keys"] for row in results["list_files"]["files"]} == {
        "auth/login": 2,
        "common": 3,
    }
    assert [row["code"] for row in results["list_languages"]["languages"]] == ["de", "en", "fr"]
    assert [(row["key"], row["matched"]) for row in results["search_translations"]["results"]] == [
        ("greeting", ["de"])
    ]
    missing = results["list_missing_translations"]
    assert {(row["fileName"], row["key"]) for row in missing["missing"]} == GERMAN_MISSING
    assert missing["total"] == 3
    assert results["get_translation"]["values"] == {"de": "Hallo", "en": "Hello", "fr": "Bonjour"}
    assert results["upsert_translations"]["created"] == 1
    assert results["delete_translation"]["trashed"] is True

    export = rest(app, mcp_world, "/translations")
    assert export["de"]["common"]["farewell"] == "Tschüss"
    assert "checkout" not in export["en"]["common"]
    trash = rest(app, mcp_world, "/translations/trash")
    assert [row["key"] for row in trash["translations"]] == ["checkout"]
    history = rest(app, mcp_world, "/translations/history")["history"]
    actor = {"type": "api_key", "id": mcp_world.key_ids["write_key"], "name": "write_key"}
    assert {(entry["key"], entry["action"]) for entry in history if entry["actor"] == actor} == {
        ("farewell", "created"),
        ("checkout", "created"),
        ("checkout", "deleted"),
    }
    assert session_count(app) == 0


def test_legacy_client_session_lives_until_the_client_closes(app, live_server, mcp_world):
    async def open_and_count():
        async with connect("legacy", live_server, mcp_world.keys["write_key"]) as session:
            await session.list_tools()
            return session_count(app)

    assert run(open_and_count) == 1
    assert session_count(app) == 0


def test_read_key_reads_but_cannot_write(app, live_server, mcp_world, era):
    async def attempt():
        async with connect(era, live_server, mcp_world.keys["read_key"]) as client:
            context = await client.call_tool("get_project_context", {})
            write = await client.call_tool(
                "upsert_translations",
                {
                    "fileName": "common",
                    "language": "de",
                    "translations": [{"key": "farewell", "value": "Tschüss"}],
                },
            )
            return context, write

    context, write = run(attempt)

    assert not context.is_error
    assert context.structured_content["permissions"]["canEditTranslations"] is False
    assert write.is_error
    assert "canEditTranslations" in write.content[0].text
    assert "farewell" not in rest(app, mcp_world, "/translations")["de"]["common"]


def test_agent_fills_every_missing_german_string(app, live_server, mcp_world):
    """With these tools alone: learn the project, page through what German lacks, translate
    it from the source text and write it back one file at a time."""
    dictionary = {
        "Goodbye": "Auf Wiedersehen",
        "{count} items": "{count} Artikel",
        "Forgot your password?": "Passwort vergessen?",
    }

    async def agent():
        async with connect("modern", live_server, mcp_world.keys["write_key"]) as client:
            context = (await client.call_tool("get_project_context", {})).structured_content
            assert "de" in {row["code"] for row in context["languages"]}
            pending, cursor = [], None
            while True:
                arguments = {"language": "de", "limit": 2, **({"cursor": cursor} if cursor else {})}
                page = (await client.call_tool("list_missing_translations", arguments)).structured_content
                pending += page["missing"]
                cursor = page["next_cursor"]
                if cursor is None:
                    break
            by_file = {}
            for item in pending:
                by_file.setdefault(item["fileName"], []).append(
                    {"key": item["key"], "value": dictionary[item["source"]]}
                )
            for file_name, translations in by_file.items():
                result = await client.call_tool(
                    "upsert_translations",
                    {"fileName": file_name, "language": "de", "translations": translations},
                )
                assert not result.is_error, result.content
            after = await client.call_tool("list_missing_translations", {"language": "de"})
            return pending, after.structured_content

    pending, after = run(agent)

    assert {(item["fileName"], item["key"]) for item in pending} == GERMAN_MISSING
    assert after["total"] == 0
    export = rest(app, mcp_world, "/translations")
    assert export["de"] == {
        "auth/login": {"title": "Anmelden", "password.forgot": "Passwort vergessen?"},
        "common": {"greeting": "Hallo", "farewell": "Auf Wiedersehen", "cart.items": "{count} Artikel"},
    }
    history = rest(
        app, mcp_world, "/translations/history", query_string={"language": "de", "action": "created"}
    )
    by_key = {entry["key"]: entry["actor"] for entry in history["history"]}
    actor = {"type": "api_key", "id": mcp_world.key_ids["write_key"], "name": "write_key"}
    assert {key for key, who in by_key.items() if who == actor} == {key for _file, key in GERMAN_MISSING}
