"""The MCP endpoint: Streamable HTTP at /api/mcp for a project API key."""

import orjson
from flask import Blueprint, current_app, request
from werkzeug.exceptions import MethodNotAllowed

from loko.auth.identity import current_actor
from loko.http import guard_cross_site_write
from loko.openapi import documented

mcp_api = Blueprint("mcp_api", __name__)
TAGS = ("mcp",)
ERROR = {"application/json": {"schema": "Error"}}
REQUEST_ID = {"description": "The request's id (a string or an integer; null when it could not be read)."}
JSONRPC_MESSAGE = {
    "type": "object",
    "description": "One JSON-RPC 2.0 request (with `id`) or notification (without). Batches are refused.",
    "required": ["jsonrpc", "method"],
    "properties": {
        "jsonrpc": {"type": "string", "enum": ["2.0"]},
        "id": {"oneOf": [{"type": "integer"}, {"type": "string"}]},
        "method": {"type": "string", "example": "tools/call"},
        "params": {"type": "object", "additionalProperties": True},
    },
}
JSONRPC_RESULT = {
    "type": "object",
    "required": ["jsonrpc", "id", "result"],
    "properties": {
        "jsonrpc": {"type": "string", "enum": ["2.0"]},
        "id": REQUEST_ID,
        "result": {"type": "object"},
    },
}
JSONRPC_ERROR = {
    "type": "object",
    "required": ["jsonrpc", "id", "error"],
    "properties": {
        "jsonrpc": {"type": "string", "enum": ["2.0"]},
        "id": REQUEST_ID,
        "error": {
            "type": "object",
            "required": ["code", "message"],
            "properties": {"code": {"type": "integer"}, "message": {"type": "string"}, "data": {}},
        },
    },
}
SESSION_ID_DESCRIPTION = "Session opened by `initialize` (handshake revisions); send it on later messages."
SESSION_ID = {"Mcp-Session-Id": {"description": SESSION_ID_DESCRIPTION, "schema": {"type": "string"}}}
POST_DESCRIPTION = (
    "MCP Streamable HTTP. Every POST carries one JSON-RPC message and gets one "
    "`application/json` answer, never an event stream. Protocol revision 2026-07-28 is stateless: "
    "each request carries `params._meta` with the protocol version and client capabilities, "
    "mirrored in the `MCP-Protocol-Version`, `Mcp-Method` and `Mcp-Name` headers; start with "
    "`server/discover`. Older clients (up to 2025-11-25) send `initialize`, get an "
    "`Mcp-Session-Id` header and send it back on every later message; a session belongs to "
    "the API key that opened it and ends with DELETE or after 24 hours idle. Methods: "
    "`server/discover`, `initialize`, `ping`, `tools/list`, `tools/call` and notifications. "
    "Only a project API key is accepted; a foreign `Origin` is refused. GET is answered 405: "
    "this server offers no server-to-client stream."
)


@mcp_api.after_request
def challenge(response):
    if response.status_code == 401:
        response.headers["WWW-Authenticate"] = 'Bearer realm="loko"'
    return response


def _response(reply):
    body = orjson.dumps(reply.body) if reply.body is not None else b""
    response = current_app.response_class(body, status=reply.status, headers=reply.headers)
    if reply.body is None:
        del response.headers["Content-Type"]
    else:
        response.mimetype = "application/json"
    return response


@mcp_api.post("/mcp")
@documented(
    "MCP: send one JSON-RPC message",
    tags=TAGS,
    auth=("key",),
    body=JSONRPC_MESSAGE,
    responses={
        200: {
            "description": "The JSON-RPC response. In the handshake revisions a method's JSON-RPC "
            "error also comes with 200.",
            "headers": SESSION_ID,
            "content": {"application/json": {"schema": {"oneOf": [JSONRPC_RESULT, JSONRPC_ERROR]}}},
        },
        202: {"description": "A notification (or a client's response) was accepted; no body."},
        400: {
            "description": "JSON-RPC error: parse error, invalid message or batch, invalid params, "
            "headers that disagree with the body, an unsupported protocol version (-32022) or a "
            "missing Mcp-Session-Id.",
            "content": {"application/json": {"schema": JSONRPC_ERROR}},
        },
        404: {
            "description": "JSON-RPC error: unknown method (revision 2026-07-28), or an unknown, "
            "expired or foreign Mcp-Session-Id.",
            "content": {"application/json": {"schema": JSONRPC_ERROR}},
        },
        406: {"description": "The Accept header excludes application/json.", "content": ERROR},
    },
    errors=(401, 403, 415),
    description=POST_DESCRIPTION,
    headers=(
        {
            "name": "Mcp-Session-Id",
            "required": False,
            "description": SESSION_ID_DESCRIPTION + " Not with `initialize` or revision 2026-07-28.",
            "schema": {"type": "string"},
        },
    ),
)
def mcp_message():
    guard_cross_site_write(authenticated_by_cookie=False)
    from loko.mcp import protocol  # MCP's types (pydantic) load on the first MCP request

    actor = protocol.require_api_key(current_actor())
    return _response(protocol.handle_post(actor, request.headers, request.get_data()))


# Not in the OpenAPI document, which lists only what is served: every answer comes with its
# POST. The route exists so that a client probing for a stream gets 405 with Allow.
@mcp_api.get("/mcp")
def mcp_stream():
    raise MethodNotAllowed(valid_methods=["POST", "DELETE"])


@mcp_api.delete("/mcp")
@documented(
    "MCP: end a session",
    tags=TAGS,
    auth=("key",),
    responses={204: {"description": "The session has ended."}},
    errors=(400, 401, 403, 404),
    description="Ends the session named by the `Mcp-Session-Id` header (opened by `initialize`). "
    "400 without the header; 404 for a session that is unknown, expired or opened by another key.",
    headers=(
        {
            "name": "Mcp-Session-Id",
            "required": True,
            "description": "The session to end.",
            "schema": {"type": "string", "minLength": 1},
        },
    ),
)
def mcp_end_session():
    guard_cross_site_write(authenticated_by_cookie=False)
    from loko.mcp import protocol

    actor = protocol.require_api_key(current_actor())
    return _response(protocol.end_session(actor, request.headers))
