"""Request plumbing for the JSON API: body and query loading, the current actor and
the cross-site write guard. Views use these; services never see a request."""

from functools import cache

import orjson
from flask import current_app, jsonify, request
from marshmallow import Schema
from werkzeug.datastructures import MultiDict

from loko.errors import BODY_LIMIT_ENVIRON, BadRequest, Forbidden, UnsupportedMediaType

UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
# The request line and the header fields together, as waitress (``loko serve``) counts them
# for its ``max_request_header_size``: one limit, given to waitress and checked in-process.
MAX_REQUEST_HEAD = 256 * 1024
HEAD_TOO_LARGE_STATUS = "431 Request Header Fields Too Large"
# Set in a request's environ by a server that has refused heads of MAX_REQUEST_HEAD or more
# itself (``loko serve``): the app need not count them again.
HEAD_COUNTED = "loko.head_counted"


def head_too_large_message() -> str:
    return (
        f"The request line and header fields are larger than {MAX_REQUEST_HEAD // 1024} KiB: "
        "send a shorter query string (fewer or shorter parameters) or smaller headers."
    )


def request_head_size(environ: dict) -> int:
    """The bytes of a request's line and header fields, counted as waitress counts them (a
    WSGI environ's strings hold the bytes as Latin-1 characters)."""
    path = environ.get("RAW_URI") or environ.get("REQUEST_URI") or environ.get("PATH_INFO", "")
    query = environ.get("QUERY_STRING", "")
    # Some servers' (and werkzeug's test client's) raw URI leaves out the query string.
    target = path.split("?", 1)[0] + (f"?{query}" if query else "")
    line = f"{environ.get('REQUEST_METHOD', '')} {target} {environ.get('SERVER_PROTOCOL', '')}"
    size = len(line)
    for name, value in environ.items():
        if name.startswith("HTTP_") or name in ("CONTENT_TYPE", "CONTENT_LENGTH"):
            size += 2 + len(name) - (5 if name.startswith("HTTP_") else 0) + 2 + len(str(value))
    return size


class RequestHeadLimit:
    """WSGI middleware: a request whose line and header fields reach ``MAX_REQUEST_HEAD``
    answers 431 with ``{"error": ...}`` before anything reads it, as ``loko serve`` does
    (loko.serving), so that the app answers alike in-process and served. Behind
    ``loko serve``, whose waitress has counted them with the same limit (``HEAD_COUNTED``),
    it counts nothing."""

    def __init__(self, wsgi_app):
        self.wsgi_app = wsgi_app

    def __call__(self, environ, start_response):
        if environ.get(HEAD_COUNTED) or request_head_size(environ) < MAX_REQUEST_HEAD:
            return self.wsgi_app(environ, start_response)
        body = orjson.dumps({"error": head_too_large_message()})
        start_response(
            HEAD_TOO_LARGE_STATUS,
            [("Content-Type", "application/json"), ("Content-Length", str(len(body)))],
        )
        return [body]


# The settings that allow some requests a larger body than the usual 4 MiB, and how a 413
# names each.
BODY_LIMITS = {
    "LOKO_MAX_IMPORT_MB": "the import limit",
    "LOKO_MAX_SCREENSHOT_UPLOAD_MB": "the screenshot upload limit",
}


def allow_body_up_to(setting: str) -> None:
    """Let this request's body be up to ``setting`` MiB (one of ``BODY_LIMITS``) instead of
    the usual limit; a larger one is refused with a 413 naming that limit. Called before
    the body is read."""
    megabytes = current_app.config[setting]
    request.max_content_length = megabytes * 1024 * 1024
    request.environ[BODY_LIMIT_ENVIRON] = f"{megabytes} MiB, {BODY_LIMITS[setting]} ({setting})"


def json_body() -> dict:
    """The request body as a JSON object; an empty body is ``{}``."""
    return json_object(request.get_data(cache=True))


def json_object(raw: bytes) -> dict:
    """``raw`` as a JSON object (``json_body`` of a body already read)."""
    if not raw.strip():
        return {}
    try:
        data = orjson.loads(raw)
    except orjson.JSONDecodeError as error:
        raise BadRequest(f"Malformed JSON body: {error}") from None
    if not isinstance(data, dict):
        raise BadRequest("The request body must be a JSON object.")
    if b"\\u0000" in raw:
        reject_nul(data)
    return data


def nul_field(value, path: str = "") -> str | None:
    """The dotted path of the first string holding NUL, which PostgreSQL text cannot store
    and a PO file cannot carry ("" for the top level), or None."""
    if isinstance(value, str):
        return path if "\x00" in value else None
    if isinstance(value, dict):
        for key, item in value.items():
            inner = f"{path}.{key}" if path else str(key)
            if "\x00" in str(key):
                return inner.replace("\x00", "\\u0000")
            found = nul_field(item, inner)
            if found is not None:
                return found
    if isinstance(value, list):
        for index, item in enumerate(value):
            found = nul_field(item, f"{path}.{index}" if path else str(index))
            if found is not None:
                return found
    return None


def reject_nul(value) -> None:
    """BadRequest naming the first field whose text holds the NUL character."""
    field = nul_field(value)
    if field is not None:
        raise BadRequest(f"{field or 'body'}: must not contain the NUL character (U+0000).")


@cache
def schema_instance(schema: type[Schema]) -> Schema:
    """One shared instance per schema class: loading keeps no state on the instance, and
    building one costs more than most loads."""
    return schema()


def load_body(schema: type[Schema]) -> dict:
    return schema_instance(schema).load(json_body())


OPERATION_HEADER = "Loko-Operation"


def operation_response(body: dict, operation_id: str | None):
    """A JSON answer that names, in the ``Loko-Operation`` header, the operation that undoes
    the write as a whole (POST /api/projects/{id}/history/revert)."""
    response = jsonify(body)
    if operation_id is not None:
        response.headers[OPERATION_HEADER] = operation_id
    return response


def load_query(schema: type[Schema]) -> dict:
    """Load query parameters; a parameter given several times arrives as a list."""
    return load_args(schema, request.args)


def load_args(schema: type[Schema], args: MultiDict) -> dict:
    """``load_query`` for parsed query parameters (a request's ``args``)."""
    data = {}
    for name in args:
        values = args.getlist(name)
        if any("\x00" in value for value in values):
            raise BadRequest(f"{name}: must not contain the NUL character.")
        data[name] = values if len(values) > 1 else values[0]
    return schema_instance(schema).load(data)


def _same_origin(origin: str) -> bool:
    return origin.rstrip("/") == request.host_url.rstrip("/")


def guard_cross_site_write(authenticated_by_cookie: bool) -> None:
    """Refuse state-changing requests a browser could forge from another site.

    Applies to cookie-authenticated requests and to the sign-in endpoints; a Bearer
    key is never sent by a browser on its own, so key-authenticated calls are exempt.
    """
    if request.method not in UNSAFE_METHODS:
        return
    origin = request.headers.get("Origin")
    if origin and not _same_origin(origin):
        raise Forbidden("Cross-origin requests that change state are not allowed.")
    if request.headers.get("Sec-Fetch-Site") == "cross-site":
        raise Forbidden("Cross-site requests that change state are not allowed.")
    has_body = bool(request.content_length) or "Content-Type" in request.headers
    if authenticated_by_cookie and has_body and request.mimetype != "application/json":
        raise UnsupportedMediaType("Content-Type must be application/json.")
