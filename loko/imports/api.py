"""POST /api/projects/{id}/import: one translation file, or a ZIP of several, as the raw
body or a multipart upload; the options as query parameters or form fields."""

from flask import Blueprint, request

from loko.auth.identity import current_actor
from loko.errors import BadRequest
from loko.http import allow_body_up_to, load_args
from loko.imports.schemas import ImportForm, ImportQuery, ImportResult
from loko.imports.service import ImportOptions, enqueue_import, import_files
from loko.jobs.schemas import JobEnvelope
from loko.openapi import documented

imports_api = Blueprint("imports_api", __name__)

IMPORT_DESCRIPTION = (
    "Send the file as the raw body (with `fileName`, `language` and, unless its name tells, "
    "`format`), as a multipart upload in the field `file`, or several files as one ZIP placed "
    "by `pathTemplate`. One transaction: every file is parsed and checked before anything is "
    "written, and any refusal (unknown or undetectable format, a file that does not parse, with "
    "its line; a key over 256 characters or with control characters, a value over 8,192, a file "
    "name over 256, a language code that is not BCP 47, a NUL character in a value, comment or "
    "context, a `language` a CSV file has no column for, a ZIP member outside the archive or "
    "unpacking to over 200 times its size, XML with a DTD or entities, more than 100,000 "
    "entries) is a 400 that writes nothing. The body may be up to LOKO_MAX_IMPORT_MB (32 MiB). "
    "A multipart form field stands for the query parameter of its name. With a session cookie the "
    "body must be `Content-Type: application/json` (a JSON file as the raw body; the cross-site "
    "write guard answers 415 otherwise); an API key sends any of the types below. "
    "A dry run needs read access; a real import needs canEditTranslations. With `async=true` the "
    "import runs as a background job: 202 with the job at once, its result the same answer. A "
    "caller limited to some languages gets its 403 (naming the languages, or for keys it would "
    "create) before anything is queued."
)


@imports_api.post("/projects/<uuid:project_id>/import")
@documented(
    "Import translation files (dry run: the same diff, nothing written)",
    tags=("import",),
    query=ImportQuery,
    body={
        "required": True,
        "content": {
            "application/octet-stream": {"schema": {"type": "string", "format": "binary"}},
            "application/zip": {"schema": {"type": "string", "format": "binary"}},
            "multipart/form-data": {"schema": ImportForm},
        },
    },
    responses={200: ImportResult, 202: JobEnvelope},
    errors=(400, 401, 403, 404, 413),
    description=IMPORT_DESCRIPTION,
)
def import_translations(project_id):
    allow_body_up_to("LOKO_MAX_IMPORT_MB")
    arguments = request.args.copy()
    if request.mimetype == "multipart/form-data":
        upload = request.files.get("file")
        if upload is None:
            raise BadRequest("file: a multipart import sends the file in the field `file`.")
        for name in request.form:
            # A form field stands for the query parameter of its name.
            arguments.setlist(name, request.form.getlist(name))
        if "fileName" not in arguments and upload.filename:
            arguments["fileName"] = upload.filename.replace("\\", "/").rsplit("/", 1)[-1]
        data = upload.read()
    else:
        data = request.get_data(cache=False)
    if not data:
        raise BadRequest("file: the upload is empty.")
    query = load_args(ImportQuery, arguments)
    options = ImportOptions(
        format=query.get("format"),
        language=query.get("language"),
        file_name=query.get("fileName"),
        path_template=query.get("pathTemplate"),
        mode=query["mode"],
        removed_keys=query["removedKeys"],
        dry_run=query["dryRun"],
        tag=query.get("tag"),
    )
    if query["run_async"]:
        return JobEnvelope().dump(
            {"job": enqueue_import(current_actor(), str(project_id), data, options)}
        ), 202
    return ImportResult().dump(import_files(current_actor(), str(project_id), data, options))
