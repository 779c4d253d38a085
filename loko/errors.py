"""The LokoError family and the one place that turns any error into ``{"error": ...}``."""

import logging
import uuid
from collections.abc import Callable

from flask import current_app, jsonify, request
from marshmallow import ValidationError
from werkzeug.exceptions import HTTPException

log = logging.getLogger("loko")

# Where a request whose body may be larger than the usual limit names that limit
# (``loko.http.allow_body_up_to``), for the 413 to say which limit applied.
BODY_LIMIT_ENVIRON = "loko.body_limit"


def too_large_message() -> str:
    """The 413's message: the limit that applied to this request's body."""
    named = request.environ.get(BODY_LIMIT_ENVIRON)
    if named is None:
        named = f"{current_app.config['MAX_CONTENT_LENGTH'] // (1024 * 1024)} MiB, the body limit"
    return f"Request body is larger than {named}."


class LokoError(Exception):
    status = 500

    def __init__(self, message: str, details=None):
        super().__init__(message)
        self.message = message
        self.details = details


class BadRequest(LokoError):
    status = 400


class Unauthorized(LokoError):
    status = 401


class Forbidden(LokoError):
    status = 403


class NotFound(LokoError):
    status = 404


class Conflict(LokoError):
    status = 409


class PayloadTooLarge(LokoError):
    status = 413


class UnsupportedMediaType(LokoError):
    status = 415


class BadGateway(LokoError):
    """A service Loko called (a repository host) refused or failed; the message says what it
    answered."""

    status = 502


def describe_validation(messages, field="") -> str:
    """Flatten marshmallow's nested messages into one line that names every field."""
    if isinstance(messages, dict):
        parts = []
        for key, inner in messages.items():
            name = field if key == "_schema" else (f"{field}.{key}" if field else str(key))
            parts.append(describe_validation(inner, name))
        return "; ".join(parts)
    if isinstance(messages, list | tuple):
        line = " ".join(m for m in messages if isinstance(m, str))
        if line and field:
            line = f"{field}: {line}"
        nested = [describe_validation(m, field) for m in messages if not isinstance(m, str)]
        return "; ".join(part for part in [line, *nested] if part)
    return f"{field}: {messages}" if field else str(messages)


def _is_api_request() -> bool:
    return request.path == "/api" or request.path.startswith("/api/")


def _json_error(status: int, message: str, details=None, headers=None):
    body = {"error": message}
    if details is not None:
        body["details"] = details
    response = jsonify(body)
    response.status_code = status
    for name, value in (headers or {}).items():
        response.headers[name] = value
    return response


def register_error_handlers(app, render_page: Callable | None = None) -> None:
    """Answer every error as ``{"error": ...}``, except outside ``/api``, where
    ``render_page(status, message)`` shows it (the web app's error page, which ``create_app``
    plugs in: this module knows nothing of pages)."""
    from loko.extensions import db

    def as_page() -> bool:
        return render_page is not None and not _is_api_request()

    @app.errorhandler(LokoError)
    def handle_loko_error(error: LokoError):
        if as_page():
            return render_page(error.status, error.message)
        return _json_error(error.status, error.message, error.details)

    @app.errorhandler(ValidationError)
    def handle_validation_error(error: ValidationError):
        message = describe_validation(error.messages) or "Invalid request."
        if as_page():
            return render_page(400, message)
        return _json_error(400, message, error.messages)

    @app.errorhandler(HTTPException)
    def handle_http_exception(error: HTTPException):
        if as_page():
            if error.code is None or error.code < 400 or request.path.startswith("/static/"):
                return error
            message = too_large_message() if error.code == 413 else error.description or error.name
            return render_page(error.code, message)
        headers = {}
        if error.code == 405 and error.valid_methods:
            headers["Allow"] = ", ".join(error.valid_methods)
        if error.code == 413:
            message = too_large_message()
        elif error.code == 404:
            message = f"No such endpoint: {request.method} {request.path}"
        elif error.code == 405:
            message = f"Method {request.method} is not allowed on {request.path}."
        elif error.code == 429:
            message = f"Too many requests: {error.description}"
        else:
            message = error.description or error.name
        if error.response is not None and error.code == 429:
            headers.update(
                {k: v for k, v in error.response.headers.items() if k.startswith(("Retry", "X-Rate"))}
            )
        return _json_error(error.code or 500, message, headers=headers)

    @app.errorhandler(Exception)
    def handle_unexpected(error: Exception):
        request_id = uuid.uuid4().hex[:12]
        db.session.rollback()
        log.exception("unhandled error (request %s) on %s %s", request_id, request.method, request.path)
        message = f"Internal server error (request {request_id})."
        if as_page():
            try:
                return render_page(500, message)
            except Exception:
                log.exception("error page failed (request %s)", request_id)
                return message, 500, {"Content-Type": "text/plain; charset=utf-8"}
        return _json_error(500, message)
