"""The OpenAPI 3.1 document, generated with apispec from the views' own marshmallow schemas,
and a self-hosted Swagger UI page (no CDN)."""

import copy
import re

from flask import Blueprint, current_app, render_template_string, request, send_from_directory
from marshmallow import Schema, fields

from loko import fields as loko_fields
from loko import loko_version
from loko.http import MAX_REQUEST_HEAD, UNSAFE_METHODS
from loko.languages.codes import known_code_pattern

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
    410: "Gone: the invitation link was used, has expired or was revoked.",
    413: "Request body larger than 4 MiB (an import: LOKO_MAX_IMPORT_MB).",
    415: "Cookie-authenticated writes must send Content-Type: application/json.",
    429: "Rate limited.",
    431: f"The request line and header fields together are larger than {MAX_REQUEST_HEAD // 1024} KiB "
    "(a long query string): refused before anything is read.",
    502: "The repository host refused or failed; the error names its answer.",
}


_CONTROL = r"\x00-\x1f\x7f"
# loko.http refuses NUL anywhere in a request: PostgreSQL text cannot store it.
NO_NUL = r"^[^\x00]*$"


def file_name_pattern(also_excluded: str = "") -> str:
    """valid_file_name as a pattern: segments joined by '/', none empty, '.' or '..', no
    backslash or control character (nor any of ``also_excluded``)."""
    excluded = rf"\\{_CONTROL}{also_excluded}"
    segment = (
        rf"(?:[^./{excluded}][^/{excluded}]*"
        rf"|\.[^./{excluded}][^/{excluded}]*"
        rf"|\.\.[^/{excluded}]+)"
    )
    return rf"^{segment}(?:/{segment})*$"


# Loko's validator functions, stated as the JSON Schema keywords they enforce, so that the
# document carries every rule a client can check before sending.
VALIDATOR_KEYWORDS = {
    loko_fields.no_control_characters: {"pattern": rf"^[^{_CONTROL}]*$"},
    loko_fields.valid_file_name: {"pattern": file_name_pattern()},
    loko_fields.valid_language_code: {
        "pattern": loko_fields.LANGUAGE_CODE.pattern,
        "maxLength": loko_fields.MAX_LANGUAGE_CODE,
    },
}
# An item of a comma-separated query parameter cannot hold a comma.
LIST_ITEM_KEYWORDS = {loko_fields.valid_file_name: {"pattern": file_name_pattern(also_excluded=",")}}


# Every character ``str.strip()`` removes, as a regular expression's class.
_SPACES = "".join(f"\\u{code:04x}" for code in range(0x10000) if chr(code).isspace())


def no_surrounding_spaces_pattern(control_characters_too: bool) -> str:
    """``no_surrounding_spaces`` as a pattern (with ``no_control_characters`` when the field
    has both: one pattern per field): neither end is a space, nor anything between is a
    control character when both rules hold."""
    if control_characters_too:
        edge, middle = rf"[^{_CONTROL}{_SPACES}]", rf"[^{_CONTROL}]*"
    else:
        edge, middle = rf"[^{_SPACES}]", r"[\s\S]*"
    return rf"^(?:{edge}(?:{middle}{edge})?)?$"


def validator_keywords(_converter, field, **_kwargs) -> dict:
    """apispec attribute function: the keywords of the field's Loko validators."""
    keywords = {}
    for validator in field.validators:
        keywords.update(VALIDATOR_KEYWORDS.get(validator, {}))
    if loko_fields.no_surrounding_spaces in field.validators:
        keywords["pattern"] = no_surrounding_spaces_pattern(
            loko_fields.no_control_characters in field.validators
        )
    return keywords


LANGUAGE_CODE_REF = "#/components/schemas/LanguageCode"


def language_code_schema() -> dict:
    """The LanguageCode component: the codes of the IANA language subtag registry, in their
    canonical form, as one pattern stated once (some 9 KB) and referred to by every field."""
    return {
        "type": "string",
        "pattern": known_code_pattern(),
        "maxLength": loko_fields.MAX_LANGUAGE_CODE,
        "description": "A language code the IANA language subtag registry knows, in its canonical "
        "form: a language, then maybe a script, a region and a variant ('de', 'pt-BR', "
        "'zh-Hant-TW', 'es-419', 'de-CH-1996'). The API also reads other casings and '_' for '-' "
        "('pt_br') and answers the canonical form; this pattern states the form to send, so that "
        "two keys of one map are never one language.",
        "example": "de",
    }


def language_code_keywords(_converter, field, ret, **_kwargs) -> dict:
    """apispec attribute function: a language code the registry must know is the LanguageCode
    component (or null, when the field allows it). A code that may name a language stored
    before codes were checked (``existing``) keeps the code's shape only."""
    if not isinstance(field, loko_fields.CanonicalLanguageCode) or field.existing:
        return {}
    for keyword in ("type", "pattern", "maxLength", "example"):
        ret.pop(keyword, None)
    if field.allow_none:
        return {"anyOf": [{"$ref": LANGUAGE_CODE_REF}, {"type": "null"}]}
    return {"$ref": LANGUAGE_CODE_REF}


def mapping_keywords(converter, field, ret, **_kwargs) -> dict:
    """apispec attribute function: a Dict's Length counts its keys, and its key field's
    rules bound the key names."""
    if not isinstance(field, fields.Dict):
        return {}
    keywords = {}
    for length, count in (("minLength", "minProperties"), ("maxLength", "maxProperties")):
        if length in ret:
            keywords[count] = ret.pop(length)
    if field.key_field is not None:
        names = converter.field2property(field.key_field)
        rules = {k: v for k, v in names.items() if k in ("pattern", "minLength", "maxLength", "enum", "$ref")}
        if rules:
            keywords["propertyNames"] = {"type": "string", **rules}
    return keywords


def comma_list_keywords(converter, field, **_kwargs) -> dict:
    """apispec attribute function: a CommaList is documented as a repeated parameter, one
    item per occurrence."""
    if not isinstance(field, loko_fields.CommaList):
        return {}
    items = converter.field2property(field.inner)
    for validator in field.inner.validators:
        items.update(LIST_ITEM_KEYWORDS.get(validator, {}))
    return {"type": "array", "items": items}


def marshmallow_plugin():
    """apispec's marshmallow plugin whose converter adds a schema's ``Meta.json_schema``
    (rules over several fields, which no field can state) to its JSON Schema. apispec is
    loaded here: by the first request for the document, not by the app's start."""
    from apispec.ext.marshmallow import MarshmallowPlugin, OpenAPIConverter

    class LokoConverter(OpenAPIConverter):
        def schema2jsonschema(self, schema):
            jsonschema = super().schema2jsonschema(schema)
            jsonschema.update(copy.deepcopy(getattr(getattr(schema, "Meta", None), "json_schema", {})))
            return jsonschema

    class LokoMarshmallowPlugin(MarshmallowPlugin):
        Converter = LokoConverter

    return LokoMarshmallowPlugin()


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
    headers: tuple[dict, ...] = (),
):
    """Attach OpenAPI metadata to a view; the document is assembled from it at startup.
    ``headers`` are header parameter objects (``{"name": ..., "schema": ...}``)."""

    def decorate(view):
        view.openapi = {
            "summary": summary,
            "tags": tags,
            "auth": auth,
            "body": body,
            "query": query,
            "headers": headers,
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
    from apispec import APISpec

    plugin = marshmallow_plugin()
    spec = APISpec(
        title="Loko",
        version=loko_version(),
        # 3.1: full JSON Schema, so that key names (propertyNames), fields that go together
        # (dependentRequired) and null can be stated.
        openapi_version="3.1.0",
        plugins=[plugin],
        info={
            "description": "Self-hosted translation management. Every error body is "
            '`{"error": "...", "details": ...}`. Send JSON bodies with '
            "`Content-Type: application/json`. No string may contain NUL (U+0000)."
        },
    )
    for attribute_function in (
        validator_keywords,
        language_code_keywords,
        mapping_keywords,
        comma_list_keywords,
    ):
        plugin.converter.add_attribute_function(attribute_function)
    spec.components.security_scheme(
        "apiKey", {"type": "http", "scheme": "bearer", "description": "Project API key (loko_...)."}
    )
    spec.components.security_scheme(
        "sessionCookie", {"type": "apiKey", "in": "cookie", "name": "sb-access-token"}
    )
    spec.components.schema("Error", schema=ErrorOut)
    spec.components.schema("LanguageCode", language_code_schema())
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
    document = copy.deepcopy(spec.to_dict())
    refuse_nul_in_requests(document)
    return document


def refuse_nul_in_requests(document: dict) -> None:
    """Give every string of a request (body, query, header) that no pattern or enum bounds
    yet the pattern excluding NUL, which loko.http refuses anywhere in a request."""
    schemas = document["components"]["schemas"]
    visited = set()

    def visit(node):
        if isinstance(node, list):
            for item in node:
                visit(item)
            return
        if not isinstance(node, dict):
            return
        if "$ref" in node:
            name = node["$ref"].rsplit("/", 1)[-1]
            if name not in visited:
                visited.add(name)
                visit(schemas[name])
            return
        types = node.get("type")
        is_string = types == "string" or (isinstance(types, list) and "string" in types)
        if is_string and not {"pattern", "enum", "format"} & node.keys():
            node["pattern"] = NO_NUL
        visit(list(node.get("properties", {}).values()))
        visit([node.get(key) for key in ("items", "additionalProperties", "propertyNames", "not")])
        visit([node.get(key, []) for key in ("allOf", "anyOf", "oneOf")])

    for operations in document["paths"].values():
        for operation in operations.values():
            visit([parameter.get("schema") for parameter in operation.get("parameters", [])])
            visit(
                [
                    media.get("schema")
                    for media in operation.get("requestBody", {}).get("content", {}).values()
                ]
            )


def _operation(meta: dict, path_parameters: list[dict], method: str) -> dict:
    operation = {
        "summary": meta["summary"],
        "tags": list(meta["tags"]),
        "parameters": [*path_parameters, *({"in": "header", **header} for header in meta["headers"])],
        "responses": {},
    }
    if meta["description"]:
        operation["description"] = meta["description"]
    operation["security"] = [AUTH_SCHEMES[name] for name in meta["auth"]] or []
    if meta["query"] is not None:
        operation["parameters"].append({"in": "query", "schema": meta["query"]})
    if isinstance(meta["body"], dict) and "content" in meta["body"]:
        operation["requestBody"] = meta["body"]  # a whole request body object (files, forms)
    elif meta["body"] is not None:
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
    # Any request can exceed the server's limit on its line and headers.
    statuses = {*meta["errors"], 431}
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
    if getattr(schema, "BODY_REQUIRED", False):  # a rule across fields needs one of them
        return True
    return any(field.required for field in schema.fields.values())


@openapi_api.get("/openapi.json")
def openapi_document():
    document = current_app.extensions.get("loko_openapi")
    if document is None:
        document = build_spec(current_app)
        current_app.extensions["loko_openapi"] = document
    # Under a mount prefix (Loko embedded in another app) the paths start after it.
    return {**document, "servers": [{"url": request.script_root or "/"}]}


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
    from swagger_ui_bundle import swagger_ui_path

    return send_from_directory(swagger_ui_path, filename)
