import unicodedata
from urllib.parse import quote

from flask import Blueprint, current_app, request

from loko import collector
from loko.auth.identity import current_actor
from loko.auth.schemas import SuccessOut
from loko.database import CarriedSession
from loko.exports import service as exports
from loko.http import json_body, load_body, load_query, schema_instance
from loko.openapi import documented
from loko.translations import operations, service, undo
from loko.translations.details import update_key_details
from loko.translations.schemas import (
    BulkDelete,
    BulkDeleteResult,
    BulkUpsert,
    BulkUpsertResult,
    ExportQuerySchema,
    HistoryPage,
    HistoryQuery,
    KeyDetailsPatch,
    KeysOut,
    KeysQuery,
    OperationEnvelope,
    OperationsPage,
    OperationsQuery,
    PatchConflict,
    PatchResults,
    RestoreOut,
    TranslationCreate,
    TranslationDelete,
    TranslationEnvelope,
    TranslationId,
    TranslationPatch,
    TrashList,
    TrashQuery,
    UndoRequest,
    UndoResult,
    load_bulk_operation,
    load_patch,
)

translations_api = Blueprint("translations_api", __name__)
TAGS = ("translations",)
BASE = "/projects/<uuid:project_id>/translations"
EXPORT_DESCRIPTION = (
    "JSON: `{language: {fileName: {key: value}}}`. zip=true: one entry per file in a language, "
    "`{language}/{fileName}.json` or `.po`. Any other format without zip returns one file, so "
    "it needs exactly one `fileName` and, unless the format holds every language in one file "
    "(csv), exactly one `language`; otherwise the answer is 400. Values of a linked project "
    "are inherited unless inherit=false. "
    "Send the ETag back in If-None-Match to get 304 while nothing changed.\n\n"
    "Consistency: the body and its ETag come from one snapshot of the data, so one ETag "
    "always names the same bytes, whichever process or database serves it. An export asked "
    "for after the caller's own write has been acknowledged includes that write. Only a "
    "request that says it accepts an older body may be given one, while this server builds "
    "the newer one: `Cache-Control: max-stale=N` (at most N seconds since that build began; "
    "`max-stale` alone, or the query flag `stale=ok` for clients that cannot set headers: "
    "2 seconds); such a body always comes with its own older ETag, never the current one. "
    "Without either, the request waits for (or builds) the current body."
)


@translations_api.get(BASE)
@documented(
    "Export translations (JSON, PO, ZIP)",
    tags=("export",),
    query=ExportQuerySchema,
    responses={
        200: {
            "description": "The export document, a PO catalog or a ZIP archive.",
            "content": {
                "application/json": {"schema": {"type": "object"}},
                "application/zip": {"schema": {"type": "string", "format": "binary"}},
                exports.PO_MIMETYPE: {"schema": {"type": "string"}},
            },
        },
        304: {"description": "Not modified since the ETag sent in If-None-Match."},
    },
    description=EXPORT_DESCRIPTION,
)
def export_translations(project_id):
    arguments = load_query(ExportQuerySchema)
    query = exports.export_query(arguments)
    project, query, etag = exports.authorize(current_actor(), str(project_id), query)
    # If-None-Match compares weakly (RFC 9110 13.1.2): proxies that compress a response
    # hand its ETag back as W/"...".
    if request.if_none_match.contains_weak(etag):
        return _not_modified(etag)
    cache = current_app.extensions["loko_export_cache"]
    max_stale = _max_stale(arguments, cache.stale_seconds)
    export = exports.build_export(project, query, etag, cache, max_stale, actor=current_actor())
    if request.if_none_match.contains_weak(export.etag):
        return _not_modified(export.etag)  # the older body, which this request accepts
    # A streamed body is read in this request's transaction: the snapshot of its ETag.
    body = export.body if isinstance(export.body, bytes) else CarriedSession(export.body)
    response = current_app.response_class(body, content_type=_content_type(export.mimetype))
    if export.filename:
        response.headers["Content-Disposition"] = _content_disposition(export.filename)
    response.set_etag(export.etag)
    return response


def _max_stale(arguments: dict, default: float) -> float | None:
    """How old a body this request accepts, in seconds: ``Cache-Control: max-stale=N``, or
    ``default`` for ``max-stale`` alone or the ``stale=ok`` flag; None: only the current."""
    max_stale = request.cache_control.max_stale
    if isinstance(max_stale, int) and not isinstance(max_stale, bool):
        return max(0.0, float(max_stale))
    if max_stale is True or max_stale == "*" or arguments.get("stale"):
        return default
    return None


def _not_modified(etag: str):
    response = current_app.response_class(status=304)
    response.set_etag(etag)
    return response


def _content_disposition(filename: str) -> str:
    """``attachment`` with a quoted ASCII ``filename``; header values must be Latin-1, so a
    name in another script also goes in ``filename*`` (RFC 6266)."""
    fallback = unicodedata.normalize("NFKD", filename).encode("ascii", "ignore").decode("ascii")
    value = 'attachment; filename="{}"'.format(fallback.replace("\\", "\\\\").replace('"', '\\"'))
    if not filename.isascii():
        value += "; filename*=UTF-8''" + quote(filename, safe="!#$&+-.^_`|~")
    return value


def _content_type(mimetype: str) -> str:
    return mimetype + ("; charset=utf-8" if mimetype.startswith("text/") else "")


@translations_api.post(BASE)
@documented(
    "Create a translation with values per language",
    tags=TAGS,
    body=TranslationCreate,
    responses={201: TranslationEnvelope},
    errors=(400, 401, 403, 404, 409),
)
def create_translation(project_id):
    data = load_body(TranslationCreate)
    translation = service.create_translation(
        current_actor(), str(project_id), data["key"], data["fileName"], data["values"]
    )
    return TranslationEnvelope().dump({"translation": translation}), 201


@translations_api.put(BASE)
@documented(
    "Bulk operations: bulk-upsert or bulk-delete (atomic, at most 10,000 items)",
    tags=TAGS,
    body={"oneOf": [BulkUpsert, BulkDelete]},
    responses={200: {"oneOf": [BulkUpsertResult, BulkDeleteResult]}},
    description="All items or none are written. A key may appear only once in one request "
    "(in `translations` of bulk-upsert, in `keys` of bulk-delete); a repeated key is answered "
    "400. Unknown keys in bulk-delete are ignored and not counted.",
)
@collector.paused()
def bulk_translations(project_id):
    data = load_bulk_operation(json_body())
    actor, project = current_actor(), str(project_id)
    if data["operation"] == "bulk-upsert":
        counts = service.bulk_upsert(
            actor, project, data["fileName"], data["languageCode"], data["translations"]
        )
        return BulkUpsertResult().dump(counts)
    result = service.bulk_delete(actor, project, data["fileName"], data["keys"], data["permanent"])
    return BulkDeleteResult().dump(result)


@translations_api.patch(BASE)
@documented(
    "Set values by key and file in one or more languages (creates what is missing)",
    tags=TAGS,
    body=TranslationPatch,
    responses={
        200: PatchResults,
        409: {
            "description": "A language's `expected` value is not the stored one; nothing was written.",
            "content": {"application/json": {"schema": PatchConflict}},
        },
    },
)
def patch_translation(project_id):
    data = load_patch(json_body())
    updates, expected = service.patch_changes(data["updates"])
    reviews = service.patch_reviews(data["updates"])
    results = service.patch_translation(
        current_actor(), str(project_id), data["key"], data["fileName"], updates, expected, reviews
    )
    return schema_instance(PatchResults).dump({"results": results})


@translations_api.patch(BASE + "/details")
@documented(
    "Edit a key's details: comment, context and maximum length",
    tags=TAGS,
    body=KeyDetailsPatch,
    responses={200: TranslationEnvelope},
    errors=(400, 401, 403, 404),
    description="Requires canEditTranslations. The key is found by `key` and `fileName` among "
    "active translations (404 otherwise; it is not created). Fields left out stay as they are; "
    "null or an empty string removes one. Each change is recorded in the history as an "
    "`updated` entry with `language` null whose old and new values read `comment: ...`, "
    "`context: ...` or `maxLength: ...`. The translation object shows the details it has. "
    "Exports carry them where the format does: comments and context in PO, XLIFF and the other "
    'formats with notes, the maximum length in XLIFF 1.2 (`maxwidth` with `size-unit="char"`).',
)
def patch_key_details(project_id):
    data = load_body(KeyDetailsPatch)
    key, file_name = data.pop("key"), data.pop("fileName")
    translation = update_key_details(current_actor(), str(project_id), data, key=key, file_name=file_name)
    return TranslationEnvelope().dump({"translation": translation})


@translations_api.delete(BASE)
@documented(
    "Move a translation to the trash, or delete it permanently",
    tags=TAGS,
    body=TranslationDelete,
    responses={200: SuccessOut},
    errors=(400, 401, 403, 404, 409),
)
def delete_translation(project_id):
    data = load_body(TranslationDelete)
    service.delete_translation(current_actor(), str(project_id), data["id"], data["permanent"])
    return {"success": True}


@translations_api.get(BASE + "/trash")
@documented(
    "List trashed translations, newest deletion first",
    tags=("trash",),
    query=TrashQuery,
    responses={200: TrashList},
)
def list_trash(project_id):
    query = load_query(TrashQuery)
    translations, total = service.list_trash(
        current_actor(),
        str(project_id),
        query["limit"],
        query["offset"],
        query.get("fileName"),
        query.get("q"),
    )
    return TrashList().dump({"translations": translations, "total": total})


@translations_api.post(BASE + "/trash")
@documented(
    "Restore a translation from the trash (logged in history)",
    tags=("trash",),
    body=TranslationId,
    responses={200: RestoreOut},
    errors=(400, 401, 403, 404, 409),
)
def restore_translation(project_id):
    data = load_body(TranslationId)
    translation = service.restore_translation(current_actor(), str(project_id), data["id"])
    return RestoreOut().dump({"success": True, "data": {"translation": translation}})


@translations_api.delete(BASE + "/trash")
@documented(
    "Permanently delete a trashed translation",
    tags=("trash",),
    body=TranslationId,
    responses={200: SuccessOut},
)
def purge_translation(project_id):
    data = load_body(TranslationId)
    service.purge_translation(current_actor(), str(project_id), data["id"])
    return {"success": True}


@translations_api.get(BASE + "/keys")
@documented(
    "Unique keys of active translations, sorted", tags=TAGS, query=KeysQuery, responses={200: KeysOut}
)
def list_keys(project_id):
    query = load_query(KeysQuery)
    return KeysOut().dump(
        {"keys": service.list_keys(current_actor(), str(project_id), query.get("fileName"))}
    )


@translations_api.get(BASE + "/history")
@documented(
    "Change history, newest first, with cursor pagination",
    tags=("history",),
    query=HistoryQuery,
    responses={200: HistoryPage},
)
def list_history(project_id):
    query = load_query(HistoryQuery)
    limit, cursor = query.pop("limit"), query.pop("cursor", None)
    entries, next_cursor = service.list_history(current_actor(), str(project_id), query, limit, cursor)
    return HistoryPage().dump({"history": entries, "next_cursor": next_cursor})


OPERATIONS = "/projects/<uuid:project_id>/operations"


@translations_api.get(OPERATIONS)
@documented(
    "Bulk changes (imports, bulk upserts and deletes, file and language deletes, undos), newest first",
    tags=("history",),
    query=OperationsQuery,
    responses={200: OperationsPage},
    description="Each can be undone as a whole (POST history/revert with its id) while `undoable`: "
    "not undone yet, not permanent, and for a delete within the trash's retention period.",
)
def list_operations(project_id):
    query = load_query(OperationsQuery)
    kinds = [query["kind"]] if "kind" in query else None
    items, total = operations.list_operations(
        current_actor(), str(project_id), query["limit"], query["offset"], kinds, query.get("undoable")
    )
    return OperationsPage().dump({"operations": items, "total": total})


@translations_api.get(OPERATIONS + "/<operation_id>")
@documented("One bulk change", tags=("history",), responses={200: OperationEnvelope})
def get_operation(project_id, operation_id):
    item = operations.get_operation(current_actor(), str(project_id), operation_id)
    return OperationEnvelope().dump({"operation": item})


@translations_api.post("/projects/<uuid:project_id>/history/revert")
@documented(
    "Undo a bulk change, or every change of an actor and/or time range, as a whole",
    tags=("history",),
    body=UndoRequest,
    responses={200: UndoResult},
    errors=(400, 401, 403, 404, 409),
    description="Each value goes back to what it was before the first selected change, each "
    "translation to its state before (a translation they created goes to the trash). The undo "
    "is an ordinary change recorded in the history, as an operation of its own (undo it to "
    "redo). What was changed again since is a conflict, and so is a value a reviewer marked "
    "reviewed (or sent back for review) after the change: the answer is 409 with "
    "`details.conflicts` (each with `reason`, the value `expected` and `current`, and for a "
    "review `by` and `at`), nothing written, unless `skipChanged` is true (they are left as "
    "they are) or `includeChanged` is true (they go back too; a value reviewed since waits for "
    "a review again). `dryRun` answers what it would do. Undoing a language delete needs "
    "canEditProjects. The body names `operationId` or chooses a range by at least one of "
    "`actorType`, `actorId`, `since`, `until`, `fileName` and `language`, never both (the "
    "schema states it); a range's `until` must be later than its `since` (400 otherwise: JSON "
    "Schema cannot compare two values).",
)
def revert_history(project_id):
    data = load_body(UndoRequest)
    selection = undo.Selection.from_fields(data)
    result = undo.undo_changes(
        current_actor(),
        str(project_id),
        selection,
        data["dryRun"],
        data["skipChanged"],
        data["includeChanged"],
    )
    return UndoResult().dump(result)
