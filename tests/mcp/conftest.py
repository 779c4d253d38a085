"""MCP fixtures: a seeded project, a real waitress server on 127.0.0.1, and helpers that
build JSON-RPC messages of either protocol era."""

import threading
from dataclasses import dataclass

import orjson
import pytest
import waitress
from waitress import wasyncore

from loko.auth.service import user_actor
from loko.extensions import db
from loko.mcp.models import McpSession
from loko.translations.service import bulk_upsert
from tests.factories import build_world

MODERN = "2026-07-28"
HANDSHAKE = "2025-11-25"
PROTOCOL_VERSION_KEY = "io.modelcontextprotocol/protocolVersion"
CAPABILITIES_KEY = "io.modelcontextprotocol/clientCapabilities"
TOOL_NAMES = {
    "get_project_context",
    "list_files",
    "list_languages",
    "search_translations",
    "list_missing_translations",
    "get_translation",
    "upsert_translations",
    "create_translation",
    "delete_translation",
    "list_issues",
    "list_review_queue",
    "mark_reviewed",
    "import_file",
    "export_file",
    "list_operations",
    "undo_changes",
    "list_releases",
    "create_release",
    "delete_release",
    "compare_releases",
    "list_comments",
    "add_comment",
    "suggest_translations",
    "search_glossary",
    "pretranslate",
    "search_memory",
    "find_and_replace",
    "list_tasks",
    "create_task",
    "close_task",
    "reopen_task",
    "list_proposals",
    "propose_translation",
    "vote_proposal",
    "accept_proposal",
    "reject_proposal",
    "list_tags",
    "tag_keys",
}
SEED = [
    (
        "common",
        "en",
        [
            {"key": "greeting", "value": "Hello"},
            {"key": "farewell", "value": "Goodbye"},
            {"key": "cart.items", "value": "{count} items"},
        ],
    ),
    ("common", "de", [{"key": "greeting", "value": "Hallo"}]),
    ("common", "fr", [{"key": "greeting", "value": "Bonjour"}, {"key": "farewell", "value": "Au revoir"}]),
    (
        "auth/login",
        "en",
        [{"key": "title", "value": "Sign in"}, {"key": "password.forgot", "value": "Forgot your password?"}],
    ),
    ("auth/login", "de", [{"key": "title", "value": "Anmelden"}]),
]
GERMAN_MISSING = {("auth/login", "password.forgot"), ("common", "cart.items"), ("common", "farewell")}


@dataclass
class McpWorld:
    """The seeded project, its keys (full key strings) and their ids."""

    project_id: str
    other_project_id: str
    keys: dict
    key_ids: dict
    owner_cookie: str

    def headers(self, key: str = "write_key", **extra) -> dict:
        return {
            "Authorization": f"Bearer {self.keys[key]}",
            "Accept": "application/json, text/event-stream",
            **extra,
        }


@pytest.fixture
def mcp_world(app) -> McpWorld:
    with app.app_context():
        world = build_world()
        owner = user_actor(world.users["org_owner"])
        for file_name, language, items in SEED:
            bulk_upsert(owner, world.project_id, file_name, language, items)
        return McpWorld(
            project_id=world.project_id,
            other_project_id=world.other_project_id,
            keys={name: value["bearer"] for name, value in world.credentials.items() if "bearer" in value},
            key_ids=dict(world.key_ids),
            owner_cookie=world.credentials["org_owner"]["cookie"],
        )


@pytest.fixture
def live_server(app):
    """The app served by waitress on a free port of 127.0.0.1; yields the MCP endpoint URL."""
    server = waitress.create_server(app, host="127.0.0.1", port=0, threads=8)
    thread = threading.Thread(target=server.run, name="waitress", daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.effective_port}/api/mcp"
    # Closing the sockets from the loop's own thread lets run() return cleanly.
    server.trigger.pull_trigger(lambda: wasyncore.close_all(server._map))
    thread.join(timeout=10)
    server.task_dispatcher.shutdown()
    assert not thread.is_alive()


def modern_message(method: str, params: dict | None = None, request_id=1, version: str = MODERN) -> dict:
    meta = {PROTOCOL_VERSION_KEY: version, CAPABILITIES_KEY: {}}
    return {"jsonrpc": "2.0", "id": request_id, "method": method, "params": {**(params or {}), "_meta": meta}}


def modern_headers(method: str, name: str | None = None, version: str = MODERN) -> dict:
    headers = {"MCP-Protocol-Version": version, "Mcp-Method": method}
    if name is not None:
        headers["Mcp-Name"] = name
    return headers


def tool_call(name: str, arguments: dict, request_id=1) -> tuple[dict, dict]:
    """A 2026-07-28 tools/call message and its headers."""
    return (
        modern_message("tools/call", {"name": name, "arguments": arguments}, request_id),
        modern_headers("tools/call", name),
    )


def posted_tool_call(client, name: str, arguments: dict) -> dict:
    """The result of a tools/call of ``name`` posted by a test ``client`` (sending its
    caller's credentials), without a session."""
    message, headers = tool_call(name, arguments)
    response = client.post(
        "/api/mcp",
        data=orjson.dumps(message),
        headers={
            "Content-Type": "application/json",
            "Accept": "application/json, text/event-stream",
            **headers,
        },
    )
    assert response.status_code == 200, response.json
    return response.json["result"]


def initialize_message(request_id=1, version: str = HANDSHAKE) -> dict:
    return {
        "jsonrpc": "2.0",
        "id": request_id,
        "method": "initialize",
        "params": {
            "protocolVersion": version,
            "capabilities": {},
            "clientInfo": {"name": "test", "version": "1"},
        },
    }


def session_count(app) -> int:
    with app.app_context():
        return db.session.query(McpSession).count()
