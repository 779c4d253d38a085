"""Import: the options (query parameters or multipart form fields) and the answer."""

from marshmallow import fields, validate

from loko.fields import ApiSchema, FileName, LanguageCode, TagName
from loko.formats.registry import FORMAT_NAMES
from loko.imports.service import MODES, REMOVED_KEYS


class ImportQuery(ApiSchema):
    format = fields.String(
        validate=validate.OneOf(FORMAT_NAMES),
        metadata={"description": "The files' format; detected from the file name when left out."},
    )
    language = LanguageCode()
    fileName = FileName()
    pathTemplate = fields.String(
        validate=validate.Length(min=1, max=512),
        metadata={
            "description": "For a ZIP: where each member's language and file name are, e.g. "
            "`locales/{language}/{fileName}.json`. The language may be written {language} "
            "(`pt-BR`, in any casing, `pt_BR` too), {locale} (`pt_BR`) or {android} (`pt-rBR`, "
            "`b+sr+Latn`); each is read as the canonical code. Default `{language}/{fileName}`, "
            "`{fileName}` for CSV (the export's layout)."
        },
    )
    mode = fields.String(
        load_default="upsert",
        validate=validate.OneOf(MODES),
        metadata={
            "description": "`upsert` creates and updates; `only-new` only adds what is missing and lists "
            "differing values as conflicts; `replace-file` makes each imported file what was uploaded "
            "(its other keys go to the trash)."
        },
    )
    removedKeys = fields.String(
        load_default="keep",
        validate=validate.OneOf(REMOVED_KEYS),
        metadata={
            "description": "`trash` moves to the trash an imported file's keys that the upload lacks and "
            "that have a value in one of the uploaded languages (a key none of them has translated could "
            "not have been in those files, so it is kept)."
        },
    )
    dryRun = fields.Boolean(
        load_default=False, metadata={"description": "Answer the same diff without writing anything."}
    )
    tag = TagName(
        metadata={
            "description": "A tag given to every key the upload names, created or already there "
            "(needs canManageKeys); `tagged` in the answer counts the keys that lacked it."
        }
    )
    run_async = fields.Boolean(
        data_key="async",
        load_default=False,
        metadata={
            "description": "Run the import as a background job: 202 with `{job}` at once; GET "
            "/api/projects/{id}/jobs/{job} tells its state, and its `result` is this endpoint's answer."
        },
    )


class ImportForm(ImportQuery):
    """The multipart form of an import: the file and the options as form fields."""

    file = fields.Raw(required=True, metadata={"type": "string", "format": "binary"})


class ValueChange(ApiSchema):
    fileName = fields.String(required=True)
    key = fields.String(required=True)
    language = fields.String(allow_none=True, required=True)
    value = fields.String(allow_none=True)
    old = fields.String()
    new = fields.String()
    current = fields.String()
    incoming = fields.String()


class TrashedKey(ApiSchema):
    fileName = fields.String(required=True)
    key = fields.String(required=True)


class Notes(ApiSchema):
    comment = fields.String(allow_none=True, required=True)
    context = fields.String(allow_none=True, required=True)
    details = fields.Dict(
        allow_none=True,
        required=True,
        metadata={"description": "What a format keeps beyond the value (PO flags, ARB placeholders, ...)."},
    )


class NotesChange(ApiSchema):
    fileName = fields.String(required=True)
    key = fields.String(required=True)
    old = fields.Nested(Notes, required=True)
    new = fields.Nested(Notes, required=True)


class ImportedFile(ApiSchema):
    fileName = fields.String(required=True)
    language = fields.String(required=True)
    format = fields.String(required=True)
    entries = fields.Integer(required=True)


class ImportSummary(ApiSchema):
    created = fields.Integer(required=True)
    updated = fields.Integer(required=True)
    unchanged = fields.Integer(required=True)
    trashed = fields.Integer(required=True)
    removed = fields.Integer(required=True)
    conflicts = fields.Integer(required=True)
    notes = fields.Integer(required=True)
    protected = fields.Integer(
        metadata={"description": "Reviewed values left as they are (see `protected`); absent when none."}
    )


class RefusedIssue(ApiSchema):
    key = fields.String(required=True)
    fileName = fields.String(required=True)
    language = fields.String(required=True)
    check = fields.String(required=True)
    message = fields.String(required=True)


class ImportChecks(ApiSchema):
    refused = fields.List(
        fields.Nested(RefusedIssue),
        required=True,
        metadata={"description": "Issues of checks set to refuse: the import itself would be refused (400)."},
    )
    warnings = fields.Integer(required=True, metadata={"description": "Issues of checks set to warn."})


class ImportResult(ApiSchema):
    dryRun = fields.Boolean(required=True)
    checks = fields.Nested(
        ImportChecks,
        metadata={"description": "On a dry run: what the checks find in the values it would write."},
    )
    operationId = fields.String(
        allow_none=True,
        metadata={
            "description": "The import as one operation, to undo as a whole (POST history/revert); null on "
            "a dry run or when nothing changed."
        },
    )
    summary = fields.Nested(ImportSummary, required=True)
    tagged = fields.Integer(
        metadata={"description": "With `tag`: the keys that got it (those that had it count none)."}
    )
    files = fields.List(fields.Nested(ImportedFile), required=True)
    created = fields.List(
        fields.Nested(ValueChange),
        required=True,
        metadata={"description": "New values: `value` (null for a key without one)."},
    )
    updated = fields.List(
        fields.Nested(ValueChange), required=True, metadata={"description": "Changed values: `old`, `new`."}
    )
    trashed = fields.List(
        fields.Nested(TrashedKey),
        required=True,
        metadata={
            "description": "Keys moved to the trash (every language): a key the upload lacks goes there "
            "(`replace-file`, or `removedKeys=trash`) only when the upload holds the source language's file "
            "or every language of the file."
        },
    )
    removed = fields.List(
        fields.Nested(ValueChange),
        required=True,
        metadata={
            "description": "Values removed (`old`): when the upload holds neither the source language's "
            "file nor every language of it, a key it lacks loses only the uploaded languages' values."
        },
    )
    conflicts = fields.List(
        fields.Nested(ValueChange),
        required=True,
        metadata={"description": "Values left as they are (`only-new`): `current`, `incoming`."},
    )
    notes = fields.List(
        fields.Nested(NotesChange),
        required=True,
        metadata={
            "description": "Keys whose comment, context or format details change (`old`, `new`). They "
            "belong to the key: an import of several languages takes them from the source language's file "
            "(the project's setting), and another language's file sets them only on a key that has none."
            " No history entry is written for them."
        },
    )
    protected = fields.List(
        fields.Nested(ValueChange),
        metadata={
            "description": "Reviewed values left as they are (`current`, `incoming`; `incoming` absent "
            "for a removal): the project protects reviewed values and the caller may not review, so "
            "these change only through proposals (POST /api/projects/{id}/proposals). Absent when none."
        },
    )
    unchanged = fields.Integer(required=True)
    truncated = fields.Boolean(
        required=True,
        metadata={"description": "True when a list was cut at 1,000 changes (the counts are complete)."},
    )
