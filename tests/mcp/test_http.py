"""/api/mcp at the HTTP level: authentication, origin, methods, JSON-RPC errors of both
protocol eras, legacy sessions and concurrent clients on a real server."""

import json
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

import pytest
import requests
from sqlalchemy import update

from loko.database import unit_of_work, utcnow
from loko.extensions import db
from loko.mcp.models import McpSession
from tests.mcp.conftest import (
    HANDSHAKE,
    MODERN,
    initialize_message,
    modern_headers,
    modern_message,
    session_count,
    tool_call,
)


@pytest.fixture
def post(client, mcp_world):
    """POST a JSON-RPC message (or raw bytes) with a caller's key and extra headers."""

    def send(message, key="write_key", headers=None, raw=None):
        return client.post(
            "/api/mcp",
            data=raw if raw is not None else json.dumps(message),
            headers=mcp_world.headers(key, **{"Content-Type": "application/json", **(headers or {})}),
        )

    return send


@pytest.fixture
def call(post):
    """Call a tool over the 2026-07-28 wire; returns the JSON-RPC result."""

    def tool(name, arguments, key="write_key"):
        message, headers = tool_call(name, arguments)
        response = post(message, key, headers)
        assert response.status_code == 200, response.json
        return response.json["result"]

    return tool


@pytest.fixture
def open_session(post):
    def initialize(key="write_key"):
        response = post(initialize_message(), key)
        assert response.status_code == 200, response.json
        return response.headers["Mcp-Session-Id"]

    return initialize


def legacy(session_id, **extra):
    return {"Mcp-Session-Id": session_id, "MCP-Protocol-Version": HANDSHAKE, **extra}


def export(client, world):
    return client.get(f"/api/projects/{world.project_id}/translations", headers=world.headers()).json


def test_post_without_key_is_401_with_bearer_challenge(client, mcp_world):
    message, headers = tool_call("list_files", {})
    response = client.post("/api/mcp", json=message, headers=headers)
    assert response.status_code == 401
    assert response.headers["WWW-Authenticate"].startswith("Bearer")
    assert "API key" in response.json["error"]


@pytest.mark.parametrize("key", ["unknown_key", "revoked_key"])
def test_unknown_or_revoked_key_is_401(post, key):
    message, headers = tool_call("list_files", {})
    response = post(message, key, headers)
    assert response.status_code == 401
    assert response.headers["WWW-Authenticate"].startswith("Bearer")


def test_signed_in_session_is_not_accepted(client, mcp_world):
    client.set_cookie("sb-access-token", mcp_world.owner_cookie)
    message, headers = tool_call("list_files", {})
    response = client.post("/api/mcp", json=message, headers=headers)
    assert response.status_code == 401
    assert "signed-in session" in response.json["error"]


def test_foreign_origin_is_403(post):
    message, headers = tool_call("list_files", {})
    response = post(message, headers={**headers, "Origin": "https://evil.example"})
    assert response.status_code == 403
    assert "error" in response.json


def test_same_origin_is_allowed(post):
    message, headers = tool_call("list_files", {})
    assert post(message, headers={**headers, "Origin": "http://localhost"}).status_code == 200


def test_get_is_405_with_allow(client, mcp_world):
    response = client.get("/api/mcp", headers=mcp_world.headers())
    assert response.status_code == 405
    assert set(response.headers["Allow"].replace(" ", "").split(",")) == {"POST", "DELETE"}
    assert "error" in response.json


def test_accept_without_json_is_406(post):
    message, headers = tool_call("list_files", {})
    assert post(message, headers={**headers, "Accept": "text/event-stream"}).status_code == 406


def test_read_key_write_is_a_tool_error_and_writes_nothing(client, mcp_world, call):
    before = export(client, mcp_world)
    results = [
        call(
            "upsert_translations",
            {"fileName": "common", "language": "de", "translations": [{"key": "x", "value": "y"}]},
            "read_key",
        ),
        call("create_translation", {"key": "new", "fileName": "common", "values": {"en": "New"}}, "read_key"),
    ]
    greeting = call("get_translation", {"key": "greeting", "fileName": "common"}, "read_key")[
        "structuredContent"
    ]
    results.append(call("delete_translation", {"id": greeting["id"]}, "read_key"))
    assert all(result["isError"] for result in results)
    assert all("canEditTranslations" in result["content"][0]["text"] for result in results)
    assert export(client, mcp_world) == before


def test_other_projects_key_sees_nothing_of_this_project(client, mcp_world, call):
    greeting = call("get_translation", {"key": "greeting", "fileName": "common"})["structuredContent"]
    context = call("get_project_context", {}, "other_project_key")["structuredContent"]
    assert context["project"]["id"] == mcp_world.other_project_id
    assert context["counts"]["keys"] == 0
    assert (
        call("search_translations", {"query": "Hallo"}, "other_project_key")["structuredContent"]["results"]
        == []
    )
    assert call("list_files", {}, "other_project_key")["structuredContent"]["files"] == []
    missing = call("get_translation", {"key": "greeting", "fileName": "common"}, "other_project_key")
    assert missing["isError"]
    deleted = call("delete_translation", {"id": greeting["id"]}, "other_project_key")
    assert deleted["isError"]
    assert "greeting" in export(client, mcp_world)["en"]["common"]


def test_validation_error_is_a_tool_error_naming_the_field(client, mcp_world, call):
    before = export(client, mcp_world)
    result = call(
        "upsert_translations",
        {"fileName": "../common", "language": "not a code", "translations": [{"key": "a", "value": "b"}]},
    )
    assert result["isError"]
    assert "language" in result["content"][0]["text"]
    assert "fileName" in result["content"][0]["text"]
    duplicate = call(
        "upsert_translations",
        {"fileName": "common", "language": "de", "translations": [{"key": "a", "value": "b"}] * 2},
    )
    assert duplicate["isError"] and "translations" in duplicate["content"][0]["text"]
    assert export(client, mcp_world) == before


def test_nul_characters_are_a_tool_error(client, mcp_world, call):
    before = export(client, mcp_world)
    translations = [{"key": "farewell", "value": "Tsch\u0000ss"}]
    result = call(
        "upsert_translations", {"fileName": "common", "language": "de", "translations": translations}
    )
    assert result["isError"] and "NUL" in result["content"][0]["text"]
    assert call("search_translations", {"query": "a\u0000"})["isError"]
    assert export(client, mcp_world) == before


def test_unknown_method_is_32601_with_404(post):
    response = post(modern_message("prompts/list"), headers=modern_headers("prompts/list"))
    assert response.status_code == 404
    assert response.json["error"]["code"] == -32601


def test_unknown_method_in_a_legacy_session_is_32601(post, open_session):
    session = open_session()
    response = post({"jsonrpc": "2.0", "id": 5, "method": "nope"}, headers=legacy(session))
    assert response.status_code == 200
    assert response.json == {
        "jsonrpc": "2.0",
        "id": 5,
        "error": {"code": -32601, "message": "Method not found", "data": "nope"},
    }


def test_ping_is_a_legacy_method_only(post, open_session):
    session = open_session()
    assert post({"jsonrpc": "2.0", "id": 1, "method": "ping"}, headers=legacy(session)).json["result"] == {}
    assert post(modern_message("ping"), headers=modern_headers("ping")).json["error"]["code"] == -32601


def test_unknown_tool_is_32602(post):
    message, headers = tool_call("no_such_tool", {})
    response = post(message, headers=headers)
    assert response.status_code == 400
    assert response.json["error"] == {"code": -32602, "message": "Unknown tool: no_such_tool"}


def test_tools_call_without_name_is_32602(post):
    response = post(modern_message("tools/call", {"arguments": {}}), headers=modern_headers("tools/call"))
    assert response.status_code == 400
    assert response.json["error"]["code"] == -32602


def test_invalid_params_in_a_legacy_session_are_32602(post, open_session):
    session = open_session()
    message = {"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"name": 42}}
    response = post(message, headers=legacy(session))
    assert response.status_code == 200
    assert response.json["error"]["code"] == -32602
    assert "name" in response.json["error"]["message"]


def test_missing_envelope_is_32602(post):
    message = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}
    response = post(message, headers=modern_headers("tools/list"))
    assert response.status_code == 400
    assert response.json["error"]["code"] == -32602


def test_wrong_protocol_version_is_32022(post):
    response = post(
        modern_message("tools/list", version="2099-01-01"),
        headers=modern_headers("tools/list", version="2099-01-01"),
    )
    assert response.status_code == 400
    assert response.json["id"] == 1
    assert response.json["error"]["code"] == -32022
    assert response.json["error"]["data"] == {"supported": [MODERN], "requested": "2099-01-01"}


@pytest.mark.parametrize(
    "headers",
    [
        {"Mcp-Method": "tools/call", "Mcp-Name": "list_files"},
        {"MCP-Protocol-Version": MODERN, "Mcp-Method": "tools/list", "Mcp-Name": "list_files"},
        {"MCP-Protocol-Version": MODERN, "Mcp-Method": "tools/call", "Mcp-Name": "list_languages"},
        {"MCP-Protocol-Version": MODERN, "Mcp-Method": "tools/call"},
    ],
    ids=["no-version-header", "method-differs", "name-differs", "no-name-header"],
)
def test_headers_that_disagree_with_the_body_are_32020(post, headers):
    message, _ = tool_call("list_files", {})
    response = post(message, headers=headers)
    assert response.status_code == 400
    assert response.json["error"]["code"] == -32020


def test_base64_name_header_is_decoded(post):
    message, headers = tool_call("list_files", {})
    headers["Mcp-Name"] = "=?base64?bGlzdF9maWxlcw==?="
    assert post(message, headers=headers).status_code == 200


@pytest.mark.parametrize(
    ("raw", "code"),
    [
        (b"{not json", -32700),
        (b"[]", -32600),
        (b'[{"jsonrpc": "2.0", "id": 1, "method": "ping"}]', -32600),
        (b'"x"', -32600),
    ],
    ids=["parse-error", "empty-batch", "batch", "not-an-object"],
)
def test_unreadable_bodies_are_rejected(post, raw, code):
    response = post(None, raw=raw)
    assert response.status_code == 400
    assert response.json["id"] is None
    assert response.json["error"]["code"] == code


def test_discover_describes_the_server(post):
    response = post(modern_message("server/discover"), headers=modern_headers("server/discover"))
    result = response.json["result"]
    assert response.status_code == 200
    assert result["supportedVersions"] == [MODERN]
    assert result["capabilities"]["tools"] == {"listChanged": False}
    assert result["resultType"] == "complete"
    assert result["_meta"]["io.modelcontextprotocol/serverInfo"]["name"] == "loko"
    assert "Mcp-Session-Id" not in response.headers


def test_notifications_are_accepted_with_202(post, open_session):
    modern = post(
        {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {}},
        headers={"MCP-Protocol-Version": MODERN},
    )
    assert (modern.status_code, modern.data) == (202, b"")
    session = open_session()
    initialized = post({"jsonrpc": "2.0", "method": "notifications/initialized"}, headers=legacy(session))
    assert (initialized.status_code, initialized.data) == (202, b"")


def test_initialize_opens_a_session_bound_to_the_key(app, post):
    response = post(initialize_message(version="2025-06-18"))
    assert response.status_code == 200
    assert response.json["result"]["protocolVersion"] == "2025-06-18"
    assert response.json["result"]["serverInfo"]["name"] == "loko"
    token = response.headers["Mcp-Session-Id"]
    with app.app_context():
        stored = db.session.query(McpSession).one()
        assert stored.id != token and len(stored.id) == 64
        assert stored.protocol_version == "2025-06-18"


def test_initialize_with_an_unknown_version_offers_the_latest(post):
    response = post(initialize_message(version="1999-01-01"))
    assert response.json["result"]["protocolVersion"] == HANDSHAKE


def test_legacy_request_without_session_is_400(post):
    response = post({"jsonrpc": "2.0", "id": 3, "method": "tools/list"})
    assert response.status_code == 400
    assert response.json["error"]["code"] == -32600
    assert "Mcp-Session-Id" in response.json["error"]["message"]


def test_legacy_session_serves_tools(post, open_session):
    session = open_session()
    listing = post({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}, headers=legacy(session))
    assert listing.status_code == 200
    assert listing.headers["Mcp-Session-Id"] == session
    assert "resultType" not in listing.json["result"]
    called = post(
        {
            "jsonrpc": "2.0",
            "id": 3,
            "method": "tools/call",
            "params": {"name": "list_languages", "arguments": {}},
        },
        headers=legacy(session),
    )
    assert [row["code"] for row in called.json["result"]["structuredContent"]["languages"]] == [
        "de",
        "en",
        "fr",
    ]


def test_delete_ends_a_legacy_session(app, client, mcp_world, post, open_session):
    session = open_session()
    response = client.delete("/api/mcp", headers=mcp_world.headers(**legacy(session)))
    assert (response.status_code, response.data) == (204, b"")
    again = post({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}, headers=legacy(session))
    assert again.status_code == 404
    assert client.delete("/api/mcp", headers=mcp_world.headers(**legacy(session))).status_code == 404
    assert session_count(app) == 0


def test_delete_without_session_header_is_400(client, mcp_world):
    response = client.delete("/api/mcp", headers=mcp_world.headers())
    assert response.status_code == 400
    assert "Mcp-Session-Id" in response.json["error"]


def test_session_of_one_key_is_unknown_to_another(client, mcp_world, post, open_session):
    session = open_session("write_key")
    foreign = post({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}, "read_key", legacy(session))
    assert foreign.status_code == 404
    assert (
        client.delete("/api/mcp", headers=mcp_world.headers("spare_key", **legacy(session))).status_code
        == 404
    )
    own = post({"jsonrpc": "2.0", "id": 3, "method": "tools/list"}, "write_key", legacy(session))
    assert own.status_code == 200


def test_session_id_is_no_credential(client, mcp_world, open_session):
    session = open_session()
    response = client.post(
        "/api/mcp",
        json={"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
        headers={"Mcp-Session-Id": session, "MCP-Protocol-Version": HANDSHAKE},
    )
    assert response.status_code == 401


def test_expired_session_is_404(app, post, open_session):
    session = open_session()
    with app.app_context(), unit_of_work():
        db.session.execute(update(McpSession).values(expires_at=utcnow() - timedelta(seconds=1)))
    response = post({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}, headers=legacy(session))
    assert response.status_code == 404


def test_openapi_documents_the_endpoint(client):
    paths = client.get("/api/openapi.json").json["paths"]
    operations = paths["/api/mcp"]
    # GET offers no stream (405): the document lists only what is served.
    assert set(operations) == {"post", "delete"}
    assert set(operations["post"]["responses"]) >= {"200", "202", "400", "401", "403", "404"}
    assert set(operations["delete"]["responses"]) >= {"204", "400", "401", "404"}


def test_openapi_documents_the_session_header_that_ending_a_session_needs(client):
    delete = client.get("/api/openapi.json").json["paths"]["/api/mcp"]["delete"]
    (header,) = (parameter for parameter in delete["parameters"] if parameter["in"] == "header")
    assert (header["name"], header["required"]) == ("Mcp-Session-Id", True)


@pytest.mark.slow
def test_twenty_concurrent_clients_succeed(live_server, mcp_world):
    """Twenty clients at once, half of each era, each writing its own key and reading it back."""

    def client_run(number: int) -> list[int]:
        statuses = []
        with requests.Session() as http:
            http.headers.update(mcp_world.headers())
            key = f"concurrent.{number}"
            upsert = (
                "upsert_translations",
                {"fileName": "load", "language": "de", "translations": [{"key": key, "value": str(number)}]},
            )
            read = ("get_translation", {"key": key, "fileName": "load"})
            if number % 2:
                opened = http.post(live_server, json=initialize_message())
                statuses.append(opened.status_code)
                session = legacy(opened.headers["Mcp-Session-Id"])
                for request_id, (name, arguments) in enumerate((upsert, read), start=2):
                    message = {
                        "jsonrpc": "2.0",
                        "id": request_id,
                        "method": "tools/call",
                        "params": {"name": name, "arguments": arguments},
                    }
                    answer = http.post(live_server, json=message, headers=session)
                    statuses.append(answer.status_code)
                    assert not answer.json()["result"]["isError"], answer.json()
                statuses.append(http.delete(live_server, headers=session).status_code)
            else:
                for request_id, (name, arguments) in enumerate((upsert, read), start=2):
                    message, headers = tool_call(name, arguments, request_id)
                    answer = http.post(live_server, json=message, headers=headers)
                    statuses.append(answer.status_code)
                    assert not answer.json()["result"]["isError"], answer.json()
            assert answer.json()["result"]["structuredContent"]["values"] == {"de": str(number)}
        return statuses

    with ThreadPoolExecutor(max_workers=20) as pool:
        results = list(pool.map(client_run, range(20)))

    assert all(status in (200, 204) for statuses in results for status in statuses)
    assert len(results) == 20


def test_get_translation_returns_the_key_details(client, mcp_world, call):
    plain = call("get_translation", {"key": "farewell", "fileName": "common"})["structuredContent"]
    assert (plain["comment"], plain["context"], plain["maxLength"]) == (None, None, None)
    response = client.patch(
        f"/api/projects/{mcp_world.project_id}/translations/details",
        json={"key": "greeting", "fileName": "common", "comment": "On the home page", "maxLength": 12},
        headers={"Authorization": f"Bearer {mcp_world.keys['write_key']}"},
    )
    assert response.status_code == 200, response.json
    result = call("get_translation", {"key": "greeting", "fileName": "common"})
    greeting = result["structuredContent"]
    assert (greeting["comment"], greeting["context"], greeting["maxLength"]) == ("On the home page", None, 12)
    assert "Comment: 'On the home page'" in result["content"][0]["text"]
    assert "Max length: 12" in result["content"][0]["text"]
