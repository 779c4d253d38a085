"""MCP over Streamable HTTP: one JSON-RPC message per POST, answered with one JSON body.

Two protocol eras are served side by side, routed as the reference SDK routes them:

- 2026-07-28 (stateless): every request carries ``params._meta`` with its protocol version
  and client capabilities, mirrored in the ``MCP-Protocol-Version``, ``Mcp-Method`` and
  ``Mcp-Name`` headers. ``server/discover`` advertises the server; there is no session.
  JSON-RPC errors use the revision's HTTP statuses (400, and 404 for an unknown method).
- up to 2025-11-25 (handshake): ``initialize`` opens a session whose id comes back in
  ``Mcp-Session-Id`` and is sent on every later message. JSON-RPC errors of a method
  travel with 200, as the response of an established exchange.

A message goes to the 2026-07-28 path when its ``MCP-Protocol-Version`` header names a
revision outside the handshake era or its ``_meta`` carries a protocol version.
Batches are not part of either revision and are refused.
"""

import base64
import binascii
import re
from dataclasses import dataclass, field

import orjson
from mcp_types import (
    CLIENT_CAPABILITIES_META_KEY,
    HEADER_MISMATCH,
    INVALID_PARAMS,
    INVALID_REQUEST,
    METHOD_NOT_FOUND,
    PARSE_ERROR,
    PROTOCOL_VERSION_META_KEY,
    SERVER_INFO_META_KEY,
    UNSUPPORTED_PROTOCOL_VERSION,
    DiscoverResult,
    EmptyResult,
    ErrorData,
    Implementation,
    InitializeResult,
    JSONRPCError,
    JSONRPCNotification,
    JSONRPCRequest,
    JSONRPCResponse,
    ListToolsResult,
    ServerCapabilities,
    ToolsCapability,
    UnsupportedProtocolVersionErrorData,
    jsonrpc_message_adapter,
)
from mcp_types.methods import parse_client_request, serialize_server_result
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS, LATEST_HANDSHAKE_VERSION, MODERN_PROTOCOL_VERSIONS
from pydantic import ValidationError

from loko import loko_version
from loko.auth.actors import ApiKeyActor, UserActor
from loko.errors import BadRequest, LokoError, NotFound, Unauthorized
from loko.mcp import sessions, tools

VERSION_HEADER = "MCP-Protocol-Version"
METHOD_HEADER = "Mcp-Method"
NAME_HEADER = "Mcp-Name"
SESSION_HEADER = "Mcp-Session-Id"
NAME_BEARING_METHODS = {"tools/call": "name", "prompts/get": "name", "resources/read": "uri"}
ERROR_STATUS = {
    PARSE_ERROR: 400,
    INVALID_REQUEST: 400,
    INVALID_PARAMS: 400,
    HEADER_MISMATCH: 400,
    UNSUPPORTED_PROTOCOL_VERSION: 400,
    METHOD_NOT_FOUND: 404,
}
INSTRUCTIONS = (
    "Tools for one Loko translation project: the project of the API key in use. Start with "
    "get_project_context; find gaps with list_missing_translations and fill them with "
    "upsert_translations (one language of one file per call). Every write is recorded in the "
    "project's history under this key's name."
)
_BASE64_SENTINEL = re.compile(r"^=\?base64\?(?P<payload>.*)\?=$")


class NotAcceptable(LokoError):
    status = 406


class RpcError(Exception):
    def __init__(self, code: int, message: str, data=None):
        super().__init__(message)
        self.code, self.message, self.data = code, message, data


@dataclass
class Reply:
    """What to send back: an HTTP status, a JSON body (or none) and headers."""

    status: int
    body: dict | None = None
    headers: dict[str, str] = field(default_factory=dict)


def require_api_key(actor) -> ApiKeyActor:
    """MCP speaks for a project through one of its API keys; Unauthorized otherwise."""
    if isinstance(actor, ApiKeyActor):
        return actor
    if isinstance(actor, UserActor):
        raise Unauthorized(
            "MCP does not accept a signed-in session: send a project API key as "
            "'Authorization: Bearer loko_...'."
        )
    raise Unauthorized("MCP needs a project API key: send 'Authorization: Bearer loko_...'.")


def accepts_json(accept: str | None) -> bool:
    """A missing Accept header accepts anything."""
    if not accept:
        return True
    types = {part.split(";")[0].strip().lower() for part in accept.split(",")}
    return bool(types & {"application/json", "application/*", "*/*"})


def server_info() -> Implementation:
    return Implementation(name="loko", title="Loko", version=loko_version())


def _capabilities() -> ServerCapabilities:
    return ServerCapabilities(tools=ToolsCapability(list_changed=False))


def _error(request_id, error: RpcError, status: int) -> Reply:
    body = JSONRPCError(
        jsonrpc="2.0", id=request_id, error=ErrorData(code=error.code, message=error.message, data=error.data)
    ).model_dump(mode="json", by_alias=True, exclude_none=True)
    body["id"] = request_id
    return Reply(status, body)


def _result(request_id, result: dict, headers: dict | None = None) -> Reply:
    body = JSONRPCResponse(jsonrpc="2.0", id=request_id, result=result).model_dump(
        mode="json", by_alias=True, exclude_none=True
    )
    return Reply(200, body, headers or {})


def _invalid_params(error: ValidationError) -> RpcError:
    problems = "; ".join(
        f"{'.'.join(str(part) for part in problem['loc']) or 'params'}: {problem['msg']}"
        for problem in error.errors(include_url=False)[:5]
    )
    return RpcError(INVALID_PARAMS, f"Invalid params: {problems}")


def handle_post(actor: ApiKeyActor, headers, raw: bytes) -> Reply:
    """Answer one POSTed JSON-RPC message. NotAcceptable when the client accepts no JSON."""
    if not accepts_json(headers.get("Accept")):
        raise NotAcceptable("This server answers with application/json: accept it.")
    try:
        message = orjson.loads(raw)
    except orjson.JSONDecodeError:
        return _error(None, RpcError(PARSE_ERROR, "Parse error: the body is not valid JSON."), 400)
    if isinstance(message, list):
        return _error(
            None,
            RpcError(INVALID_REQUEST, "Batches are not supported: send one JSON-RPC message per POST."),
            400,
        )
    if not isinstance(message, dict):
        return _error(None, RpcError(INVALID_REQUEST, "The body must be one JSON-RPC message object."), 400)
    if _is_stateless(headers, message):
        return _stateless(actor, headers, message)
    return _handshake_era(actor, headers, message)


def end_session(actor: ApiKeyActor, headers) -> Reply:
    """DELETE: end the session named by Mcp-Session-Id; BadRequest without the header,
    NotFound for a session that is unknown, expired or another key's."""
    token = headers.get(SESSION_HEADER)
    if not token:
        raise BadRequest(f"Send the {SESSION_HEADER} header of the session to end.")
    sessions.end_session(actor, token)
    return Reply(204)


def _is_stateless(headers, message: dict) -> bool:
    requested = headers.get(VERSION_HEADER)
    if requested is not None and requested not in HANDSHAKE_PROTOCOL_VERSIONS:
        return True
    params = message.get("params")
    meta = params.get("_meta") if isinstance(params, dict) else None
    return isinstance(meta, dict) and PROTOCOL_VERSION_META_KEY in meta


def _unsupported(requested) -> RpcError:
    data = UnsupportedProtocolVersionErrorData(supported=list(MODERN_PROTOCOL_VERSIONS), requested=requested)
    return RpcError(
        UNSUPPORTED_PROTOCOL_VERSION, "Unsupported protocol version", data.model_dump(mode="json")
    )


def _stateless(actor: ApiKeyActor, headers, message: dict) -> Reply:
    if "id" not in message:
        try:
            JSONRPCNotification.model_validate(message)
        except ValidationError:
            return _error(None, RpcError(INVALID_REQUEST, "Not a JSON-RPC notification."), 400)
        requested = headers.get(VERSION_HEADER, "")
        if requested not in MODERN_PROTOCOL_VERSIONS:
            return _error(None, _unsupported(requested), 400)
        return Reply(202)
    try:
        request = JSONRPCRequest.model_validate(message)
    except ValidationError:
        return _error(
            None,
            RpcError(INVALID_REQUEST, "The body must be a single JSON-RPC request or notification."),
            400,
        )
    try:
        version = _check_envelope(headers, message)
        result = _dispatch(actor, request, version)
    except RpcError as error:
        return _error(request.id, error, ERROR_STATUS.get(error.code, 200))
    meta = result.get("_meta") or {}
    result["_meta"] = {**meta, SERVER_INFO_META_KEY: server_info().model_dump(mode="json", exclude_none=True)}
    return _result(request.id, result)


def _decode_header(value: str | None) -> str | None:
    match = _BASE64_SENTINEL.fullmatch(value) if value is not None else None
    if match is None:
        return value
    try:
        decoded = base64.b64decode(match["payload"], validate=True)
        return decoded.decode() if base64.b64encode(decoded).decode() == match["payload"] else None
    except (binascii.Error, UnicodeDecodeError):
        return None


def _check_envelope(headers, message: dict) -> str:
    """The request's protocol version, once its envelope and headers agree and it is
    served (the 2026-07-28 validation ladder, first failure wins)."""
    params = message.get("params")
    meta = params.get("_meta") if isinstance(params, dict) else None
    if not isinstance(meta, dict):
        raise RpcError(
            INVALID_PARAMS,
            f"params._meta must be an object carrying {PROTOCOL_VERSION_META_KEY!r} and "
            f"{CLIENT_CAPABILITIES_META_KEY!r}",
        )
    missing = [key for key in (PROTOCOL_VERSION_META_KEY, CLIENT_CAPABILITIES_META_KEY) if key not in meta]
    if missing:
        raise RpcError(INVALID_PARAMS, f"params._meta is missing the required key(s): {', '.join(missing)}")
    requested = meta[PROTOCOL_VERSION_META_KEY]
    header = headers.get(VERSION_HEADER)
    if header is None or header != requested:
        raise RpcError(
            HEADER_MISMATCH, f"{VERSION_HEADER} header does not match params._meta's protocol version"
        )
    method = message.get("method")
    if headers.get(METHOD_HEADER) != method:
        raise RpcError(HEADER_MISMATCH, f"{METHOD_HEADER} header does not match the request's method")
    name_key = NAME_BEARING_METHODS.get(method)
    named = params.get(name_key) if name_key else None
    if named is not None and _decode_header(headers.get(NAME_HEADER)) != named:
        raise RpcError(HEADER_MISMATCH, f"{NAME_HEADER} header does not match the request's {name_key!r}")
    if not isinstance(requested, str):
        raise RpcError(INVALID_PARAMS, "The protocol version in params._meta must be a string")
    if requested not in MODERN_PROTOCOL_VERSIONS:
        raise _unsupported(requested)
    return requested


def _handshake_era(actor: ApiKeyActor, headers, message: dict) -> Reply:
    try:
        parsed = jsonrpc_message_adapter.validate_python(message)
    except ValidationError:
        return _error(None, RpcError(INVALID_REQUEST, "Not a JSON-RPC message."), 400)
    request = parsed if isinstance(parsed, JSONRPCRequest) else None
    request_id = request.id if request is not None else None
    if request is not None and request.method == "initialize":
        return _initialize(actor, request)
    token = headers.get(SESSION_HEADER)
    if not token:
        return _error(
            request_id,
            RpcError(
                INVALID_REQUEST,
                f"Missing {SESSION_HEADER} header: send initialize first, or use protocol revision "
                f"{MODERN_PROTOCOL_VERSIONS[-1]}, which needs no session.",
            ),
            400,
        )
    try:
        session = sessions.resume_session(actor, token)
    except NotFound as error:
        return _error(request_id, RpcError(INVALID_REQUEST, error.message), 404)
    session_header = {SESSION_HEADER: token}
    if request is None:
        return Reply(202, headers=session_header)
    try:
        result = _dispatch(actor, request, session.protocol_version)
    except RpcError as error:
        reply = _error(request.id, error, 200)
        reply.headers.update(session_header)
        return reply
    return _result(request.id, result, session_header)


def _initialize(actor: ApiKeyActor, request: JSONRPCRequest) -> Reply:
    try:
        params = parse_client_request("initialize", LATEST_HANDSHAKE_VERSION, request.params).params
    except ValidationError as error:
        return _error(request.id, _invalid_params(error), 200)
    requested = params.protocol_version
    version = requested if requested in HANDSHAKE_PROTOCOL_VERSIONS else LATEST_HANDSHAKE_VERSION
    result = InitializeResult(
        protocol_version=version,
        capabilities=_capabilities(),
        server_info=server_info(),
        instructions=INSTRUCTIONS,
    )
    body = serialize_server_result(
        "initialize", version, result.model_dump(by_alias=True, mode="json", exclude_none=True)
    )
    token = sessions.open_session(actor, version)
    return _result(request.id, body, {SESSION_HEADER: token})


def _discover(_actor, _request, _version):
    return DiscoverResult(
        supported_versions=list(MODERN_PROTOCOL_VERSIONS),
        capabilities=_capabilities(),
        instructions=INSTRUCTIONS,
        ttl_ms=0,
        cache_scope="private",
    )


def _ping(_actor, _request, _version):
    return EmptyResult()


def _list_tools(_actor, _request, _version):
    return ListToolsResult(tools=tools.listing(), ttl_ms=0, cache_scope="private")


def _call_tool(actor, request, _version):
    try:
        return tools.call_tool(actor, request.params.name, request.params.arguments)
    except tools.UnknownTool:
        raise RpcError(INVALID_PARAMS, f"Unknown tool: {request.params.name}") from None


HANDLERS = {
    "server/discover": _discover,
    "ping": _ping,
    "tools/list": _list_tools,
    "tools/call": _call_tool,
}


def _dispatch(actor: ApiKeyActor, request: JSONRPCRequest, version: str) -> dict:
    """Run a method at ``version`` and return its result in that revision's shape."""
    handler = HANDLERS.get(request.method)
    if handler is None:
        raise RpcError(METHOD_NOT_FOUND, "Method not found", request.method)
    try:
        typed = parse_client_request(request.method, version, request.params)
    except KeyError:
        raise RpcError(
            METHOD_NOT_FOUND, f"Method not found at protocol version {version}", request.method
        ) from None
    except ValidationError as error:
        raise _invalid_params(error) from None
    result = handler(actor, typed, version)
    return serialize_server_result(
        request.method, version, result.model_dump(by_alias=True, mode="json", exclude_none=True)
    )
