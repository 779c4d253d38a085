"""The OpenAPI 3 document, generated with apispec from the views' own marshmallow schemas,
and a self-hosted Swagger UI page (no CDN)."""

import re

from apispec import APISpec
from apispec.ext.marshmallow import MarshmallowPlugin
from flask import Blueprint, current_app, render_template_string, send_from_directory
from marshmallow import Schema, fields
from swagger_ui_bundle import swagger_ui_path

from loko import fields as loko_fields
from loko import loko_version
from loko.http import UNSAFE_METHODS

openapi_api = Blueprint("openapi_api", __name__)

AUTH_SCHEMES = {
    "session": {"sessionCookie": []},
    "key": {"apiKey": []},
}
ERROR_STATUSES = {
    400: "Validation error; nothing was written.",
    401: "Missing, unknown, revoked or expired credentials.",
    403: "Not allowed (another project's key, a key where a session is required, "
    "a missing permission or a cross-origin write).",
    404: "Not found, or not visible to the caller.",
    409: "Conflicts with the current state.",
    413: "Request body larger than 4 MiB.",
    415: "Cookie-authenticated writes must send Content-Type: application/json.",
    429: "Rate limited.",
}


_CONTROL = r"\x00-\x1f\x7f"
_PATH_SEGMENT = (
    rf"(?:[^./\\{_CONTROL}][^/\\{_CONTROL}]*"
    rf"|\.[^./\\{_CONTROL}][^/\\{_CONTROL}]*"
    rf"|\.\.[^/\\{_CONTROL}]+)"
)
# Loko's validator functions, stated as the JSON Schema keywords they enforce, so that the
# document carries every rule a client can check before sending.
VALIDATOR_KEYWORDS = {
    loko_fields.no_control_characters: {"pattern": rf"^[^{_CONTROL}]*$"},
    loko_fields.valid_file_name: {"pattern": rf"^{_PATH_SEGMENT}(?:/{_PATH_SEGMENT})*$"},
    loko_fields.valid_language_code: {
        "pattern": loko_fields.LANGUAGE_CODE.pattern,
        "maxLength": loko_fields.MAX_LANGUAGE_CODE,
    },
}


def validator_keywords(_converter, field, **_kwargs) -> dict:
    """apispec attribute function: the keywords of the field's Loko validators."""
    keywords = {}
    for validator in field.validators:
        keywords.update(VALIDATOR_KEYWORDS.get(validator, {}))
    return keywords


class ErrorOut(Schema):
    error = fields.String(required=True, metadata={"description": "Human-readable message."})
    details = fields.Raw(metadata={"description": "Per-field validation messages, when any."})


def documented(
    summary: str,
    *,
    tags: tuple[str, ...] = (),
    auth: tuple[str, ...] = ("session", "key"),
    body: type[Schema] | Schema | None = None,
    query: type[Schema] | Schema | None = None,
    responses: dict | None = None,
    errors: tuple[int, ...] = (400, 401, 403, 404),
    description: str | None = None,
):
    """Attach OpenAPI metadata to a view; the document is assembled from it at startup."""

    def decorate(view):
        view.openapi = {
            "summary": summary,
            "tags": tags,
            "auth": auth,
            "body": body,
            "query": query,
            "responses": responses or {200: None},
            "errors": errors,
            "description": description or (view.__doc__ or "").strip() or None,
        }
        return view

    return decorate


def _path_template(rule) -> tuple[str, list[dict]]:
    parameters = []

    def replace(match):
        converter, name = match.group(1), match.group(2)
        schema = {"type": "string"}
        if converter == "uuid":
            schema["format"] = "uuid"
        parameters.append({"name": name, "in": "path", "required": True, "schema": schema})
        return "{" + name + "}"

    path = re.sub(r"<(?:(\w+)(?:\([^)]*\))?:)?(\w+)>", replace, rule.rule)
    return path, parameters


def build_spec(app) -> dict:
    marshmallow_plugin = MarshmallowPlugin()
    spec = APISpec(
        title="Loko",
        version=loko_version(),
        openapi_version="3.0.3",
        plugins=[marshmallow_plugin],
        info={
            "description": "Self-hosted translation management. Every error body is "
            '`{"error": "...", "details": ...}`. Send JSON bodies with '
            "`Content-Type: application/json`. No string may contain NUL (U+0000)."
        },
    )
    marshmallow_plugin.converter.add_attribute_function(validator_keywords)
    spec.components.security_scheme(
        "apiKey", {"type": "http", "scheme": "bearer", "description": "Project API key (loko_...)."}
    )
    spec.components.security_scheme(
        "sessionCookie", {"type": "apiKey", "in": "cookie", "name": "sb-access-token"}
    )
    spec.components.schema("Error", schema=ErrorOut)
    for rule in sorted(app.url_map.iter_rules(), key=lambda r: r.rule):
        view = app.view_functions.get(rule.endpoint)
        meta = getattr(view, "openapi", None)
        if meta is None:
            continue
        path, parameters = _path_template(rule)
        operations = {}
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            operations[method.lower()] = _operation(meta, parameters, method)
        spec.path(path=path, operations=operations)
    return spec.to_dict()


def _operation(meta: dict, path_parameters: list[dict], method: str) -> dict:
    operation = {
        "summary": meta["summary"],
        "tags": list(meta["tags"]),
        "parameters": list(path_parameters),
        "responses": {},
    }
    if meta["description"]:
        operation["description"] = meta["description"]
    operation["security"] = [AUTH_SCHEMES[name] for name in meta["auth"]] or []
    if meta["query"] is not None:
        operation["parameters"].append({"in": "query", "schema": meta["query"]})
    if meta["body"] is not None:
        operation["requestBody"] = {
            "required": _body_required(meta["body"]),
            "content": {"application/json": {"schema": meta["body"]}},
        }
    for status, schema in meta["responses"].items():
        if isinstance(schema, dict) and "description" in schema:
            operation["responses"][str(status)] = schema
        elif schema is None:
            operation["responses"][str(status)] = {"description": "Success."}
        else:
            operation["responses"][str(status)] = {
                "description": "Success.",
                "content": {"application/json": {"schema": schema}},
            }
    statuses = set(meta["errors"])
    if meta["body"] is not None:
        statuses.update((400, 413))
    if meta["query"] is not None:
        statuses.add(400)
    if method in UNSAFE_METHODS:
        # The cross-site write guard (loko.http) answers any write sent without a Bearer key.
        statuses.update((403, 415))
    for status in sorted(statuses):
        # A response the view documents itself (e.g. a JSON-RPC error) wins.
        operation["responses"].setdefault(
            str(status),
            {"description": ERROR_STATUSES[status], "content": {"application/json": {"schema": "Error"}}},
        )
    return operation


def _body_required(body) -> bool:
    """An empty body is read as ``{}``, so a body whose schema requires no field may be left out."""
    if isinstance(body, dict):
        return True
    schema = body() if isinstance(body, type) else body
    return any(field.required for field in schema.fields.values())


@openapi_api.get("/openapi.json")
def openapi_document():
    document = current_app.extensions.get("loko_openapi")
    if document is None:
        document = build_spec(current_app)
        current_app.extensions["loko_openapi"] = document
    return document


DOCS_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Loko API</title>
<link rel="stylesheet" href="{{ url_for('openapi_api.docs_asset', filename='swagger-ui.css') }}">
</head><body><div id="swagger-ui"></div>
<script src="{{ url_for('openapi_api.docs_asset', filename='swagger-ui-bundle.js') }}"></script>
<script src="{{ url_for('openapi_api.docs_asset', filename='loko-docs.js') }}"
        data-spec="{{ url_for('openapi_api.openapi_document') }}"></script>
</body></html>"""

DOCS_SCRIPT = """(function () {
  var script = document.currentScript;
  window.ui = SwaggerUIBundle({url: script.dataset.spec, dom_id: "#swagger-ui"});
})();"""


@openapi_api.get("/docs")
def docs_page():
    return render_template_string(DOCS_PAGE)


@openapi_api.get("/docs/assets/<path:filename>")
def docs_asset(filename):
    if filename == "loko-docs.js":
        return current_app.response_class(DOCS_SCRIPT, mimetype="text/javascript")
    return send_from_directory(swagger_ui_path, filename)
