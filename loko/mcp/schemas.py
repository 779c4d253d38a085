"""Tool arguments and tool results: marshmallow schemas that validate and dump, and the
JSON Schemas (``inputSchema`` / ``outputSchema``) generated from them, so the schema a
client sees is the one that runs."""

from functools import cache

from apispec import APISpec
from apispec.ext.marshmallow import OpenAPIConverter
from marshmallow import fields, validate

from loko.comments.schemas import STATUSES, comment_body
from loko.fields import MAX_TAGS, ApiSchema, FileName, LanguageCode, TagName, TranslationKey
from loko.formats.registry import FORMAT_NAMES
from loko.imports.schemas import ImportResult
from loko.imports.service import MODES, REMOVED_KEYS
from loko.quality.schemas import REASON_DESCRIPTION, ReviewQueueQuery
from loko.releases.schemas import ReleaseCreate, ReleaseEnvelope, release_name
from loko.tasks.schemas import TaskCreate, TaskCreated, TaskEnvelope
from loko.translations.models import NEEDS_REVIEW, OPERATION_KINDS, VALUE_STATES
from loko.translations.queries import DEFAULT_PAGE, MAX_PAGE
from loko.translations.schemas import BulkUpsert, HistoryEntryOut, TranslationOut, UndoRequest


def _cursor():
    return fields.String(
        validate=validate.Length(min=1, max=2048),
        metadata={"description": "`next_cursor` of the previous page; omit for the first page."},
    )


def _limit():
    return fields.Integer(
        load_default=DEFAULT_PAGE,
        validate=validate.Range(min=1, max=MAX_PAGE),
        metadata={"description": f"Page size, 1-{MAX_PAGE} (default {DEFAULT_PAGE})."},
    )


def _values():
    return fields.Dict(
        keys=fields.String(), values=fields.String(), required=True, metadata={"description": "code -> value"}
    )


def _described(field, description: str):
    field.metadata = {**field.metadata, "description": description}
    return field


class NoArguments(ApiSchema):
    pass


class SearchArguments(ApiSchema):
    query = fields.String(
        required=True,
        validate=validate.Length(min=1, max=256),
        metadata={"description": "Text to find in keys and values, case-insensitive."},
    )
    language = _described(LanguageCode(), "Only match values in this language (keys still match).")
    fileName = _described(FileName(), "Only this file.")
    limit = _limit()
    cursor = _cursor()


class MissingArguments(ApiSchema):
    language = _described(LanguageCode(required=True), "Language to find missing values for, e.g. 'de'.")
    fileName = _described(FileName(), "Only this file.")
    source_language = _described(
        LanguageCode(), "Language whose text is returned as `source` (default: the project's)."
    )
    limit = _limit()
    cursor = _cursor()


class TranslationRef(ApiSchema):
    key = TranslationKey(required=True)
    fileName = FileName(required=True)


class ListCommentsArguments(TranslationRef):
    language = _described(LanguageCode(), "Only the comments about this language.")
    status = fields.String(
        load_default="open",
        validate=validate.OneOf(STATUSES),
        metadata={"description": "open (the default), resolved or all."},
    )


class AddCommentArguments(TranslationRef):
    body = comment_body(required=True)
    language = _described(
        LanguageCode(), "The language the comment is about (one of the project's); omit for the whole key."
    )


class UpsertArguments(BulkUpsert):
    """The REST bulk-upsert body without ``operation``, with ``language`` for ``languageCode``."""

    class Meta(BulkUpsert.Meta):
        exclude = ("operation",)

    languageCode = _described(
        LanguageCode(required=True, data_key="language"), "Language of the values, e.g. 'de'."
    )


class LanguageOut(ApiSchema):
    code = fields.String(required=True)
    name = fields.String(required=True)
    emoji = fields.String(required=True)
    translated = fields.Integer(required=True, metadata={"description": "Active keys with a value."})
    total = fields.Integer(required=True, metadata={"description": "Active keys."})
    progress = fields.Float(required=True, metadata={"description": "Percent translated, one decimal."})


class LanguageContextOut(LanguageOut):
    inherited = fields.Integer(
        required=True, metadata={"description": "Keys without an own value that inherit one via the link."}
    )
    missing = fields.Integer(required=True, metadata={"description": "Keys with no value at all."})


class FileOut(ApiSchema):
    fileName = fields.String(required=True)
    languages = fields.List(fields.String(), required=True)
    keys = fields.Integer(required=True, metadata={"description": "Active keys in the file."})


class FilesOut(ApiSchema):
    files = fields.List(fields.Nested(FileOut), required=True)


class LanguagesOut(ApiSchema):
    languages = fields.List(fields.Nested(LanguageOut), required=True)


class ProjectOut(ApiSchema):
    id = fields.String(required=True)
    name = fields.String(required=True)
    description = fields.String(required=True)
    emoji = fields.String(required=True)


class LinkOut(ApiSchema):
    project_id = fields.String(required=True)
    project_name = fields.String(required=True)
    source_language = fields.String(
        required=True, metadata={"description": "Language of the linked project."}
    )
    target_language = fields.String(required=True, metadata={"description": "Language of this project."})
    inherited_values = fields.Integer(
        required=True,
        metadata={
            "description": "Values of the linked project that appear under the target language, "
            "including keys this project does not have; its own values win."
        },
    )


class CountsOut(ApiSchema):
    keys = fields.Integer(required=True)
    files = fields.Integer(required=True)
    languages = fields.Integer(required=True)
    values = fields.Integer(required=True)
    trashed = fields.Integer(required=True)


class PermissionsOut(ApiSchema):
    canViewTranslations = fields.Boolean(required=True)
    canEditTranslations = fields.Boolean(required=True)


class ContextOut(ApiSchema):
    project = fields.Nested(ProjectOut, required=True)
    source_language = fields.String(required=True, allow_none=True)
    source_language_rule = fields.String(required=True)
    languages = fields.List(fields.Nested(LanguageContextOut), required=True)
    files = fields.List(fields.Nested(FileOut), required=True)
    link = fields.Nested(LinkOut, required=True, allow_none=True)
    counts = fields.Nested(CountsOut, required=True)
    permissions = fields.Nested(PermissionsOut, required=True)


class SearchResultOut(ApiSchema):
    id = fields.String(required=True)
    key = fields.String(required=True)
    fileName = fields.String(required=True)
    values = _values()
    matched = fields.List(
        fields.String(),
        required=True,
        metadata={"description": "'key' and/or the language codes that matched."},
    )


class SearchOut(ApiSchema):
    query = fields.String(required=True)
    results = fields.List(fields.Nested(SearchResultOut), required=True)
    next_cursor = fields.String(required=True, allow_none=True)


class MissingOut(ApiSchema):
    id = fields.String(required=True)
    key = fields.String(required=True)
    fileName = fields.String(required=True)
    source = fields.String(
        required=True, allow_none=True, metadata={"description": "Text in the source language."}
    )
    context = _values()
    comment = fields.String(
        required=True, allow_none=True, metadata={"description": "The key's note for translators."}
    )
    maxLength = fields.Integer(
        required=True,
        allow_none=True,
        metadata={"description": "The longest the translation may be, in characters."},
    )


class MissingPageOut(ApiSchema):
    language = fields.String(required=True)
    source_language = fields.String(required=True, allow_none=True)
    total = fields.Integer(required=True, metadata={"description": "Missing keys over all pages."})
    missing = fields.List(fields.Nested(MissingOut), required=True)
    next_cursor = fields.String(required=True, allow_none=True)


class ValueStateOut(ApiSchema):
    state = fields.String(required=True, metadata={"description": "translated, reviewed or needs-review."})
    reason = fields.String(required=True, allow_none=True, metadata={"description": REASON_DESCRIPTION})


class KeyRegionOut(ApiSchema):
    x = fields.Integer(required=True)
    y = fields.Integer(required=True)
    width = fields.Integer(required=True)
    height = fields.Integer(required=True)
    state = fields.String(
        required=True, metadata={"description": "confirmed, or proposed (not yet checked)."}
    )


class KeyScreenshotOut(ApiSchema):
    id = fields.String(required=True)
    name = fields.String(required=True)
    width = fields.Integer(required=True)
    height = fields.Integer(required=True)
    url = fields.String(
        required=True,
        metadata={"description": "The image, on this server (GET with this API key as Bearer)."},
    )
    previewUrl = fields.String(
        required=True, metadata={"description": "A WebP preview, at most 1600 pixels."}
    )
    regions = fields.List(
        fields.Nested(KeyRegionOut),
        required=True,
        metadata={"description": "Where the key is shown on it, in the image's pixels."},
    )


class TranslationDetailOut(TranslationOut):
    comment = fields.String(
        required=True, allow_none=True, metadata={"description": "The key's note for translators."}
    )
    context = fields.String(
        required=True,
        allow_none=True,
        metadata={"description": "What tells this key apart from another with the same text."},
    )
    maxLength = fields.Integer(
        required=True,
        allow_none=True,
        metadata={"description": "The longest a value may be, in characters: keep translations within it."},
    )
    inherited = fields.Dict(
        keys=fields.String(),
        values=fields.String(),
        required=True,
        metadata={"description": "Value inherited from the linked project, where this one has none."},
    )
    states = fields.Dict(
        keys=fields.String(),
        values=fields.Nested(ValueStateOut),
        required=True,
        metadata={"description": "code -> the value's review state, and why it waits for a review."},
    )
    screenshots = fields.List(
        fields.Nested(KeyScreenshotOut),
        required=True,
        metadata={"description": "The screenshots that show the key (newest first, up to 12)."},
    )
    history = fields.List(fields.Nested(HistoryEntryOut), required=True)


class UpsertOut(ApiSchema):
    fileName = fields.String(required=True)
    language = fields.String(required=True)
    created = fields.Integer(required=True)
    updated = fields.Integer(required=True)
    unchanged = fields.Integer(required=True)


class IssuesArguments(ApiSchema):
    check = _described(fields.String(validate=validate.Length(min=1, max=32)), "Only this check's issues.")
    language = _described(LanguageCode(), "Only this language's values.")
    fileName = _described(FileName(), "Only this file.")
    limit = fields.Integer(load_default=50, validate=validate.Range(min=1, max=500))
    offset = fields.Integer(
        load_default=0,
        validate=validate.Range(min=0, max=2**31 - 1),
        metadata={"description": "Issues to skip: the number already seen."},
    )


class ReviewQueueArguments(ReviewQueueQuery):
    state = _described(
        fields.String(load_default=NEEDS_REVIEW, validate=validate.OneOf(VALUE_STATES)),
        "Only values in this state: needs-review (the default) is the review queue.",
    )
    limit = fields.Integer(load_default=50, validate=validate.Range(min=1, max=500))


class TrashedOut(ApiSchema):
    id = fields.String(required=True)
    trashed = fields.Boolean(required=True)


@cache
def _converter() -> OpenAPIConverter:
    spec = APISpec(title="loko-mcp", version="1", openapi_version="3.1.0")
    return OpenAPIConverter(openapi_version="3.1.0", schema_name_resolver=lambda _schema: None, spec=spec)


ANNOTATIONS = ("description", "title", "default", "examples")


def _portable(node):
    """Spell the JSON Schema the way most tool clients read it: ``examples`` for OpenAPI's
    ``example``, and ``anyOf`` branches of one type each for a nullable value."""
    if isinstance(node, list):
        return [_portable(item) for item in node]
    if not isinstance(node, dict):
        return node
    out = {key: _portable(value) for key, value in node.items() if key != "example"}
    if "example" in node:
        out["examples"] = [node["example"]]
    kinds = out.get("type")
    if isinstance(kinds, list) and "null" in kinds and len(kinds) > 1:
        annotations = {key: out.pop(key) for key in ANNOTATIONS if key in out}
        out.pop("type")
        branches = [{"type": kind, **out} for kind in kinds if kind != "null"]
        out = {**annotations, "anyOf": [*branches, {"type": "null"}]}
    return out


@cache
def json_schema(schema: type[ApiSchema]) -> dict:
    document = _portable(_converter().schema2jsonschema(schema()))
    document.setdefault("properties", {})
    return document


class ImportArguments(ApiSchema):
    fileName = _described(FileName(required=True), "The file's name in Loko, e.g. 'common'.")
    format = fields.String(
        required=True,
        validate=validate.OneOf(FORMAT_NAMES),
        metadata={"description": "The file's format: " + ", ".join(FORMAT_NAMES) + "."},
    )
    language = _described(
        LanguageCode(), "The file's language (not needed for csv, which holds every language)."
    )
    content = fields.String(
        required=True,
        validate=validate.Length(min=1, max=4 * 1024 * 1024),
        metadata={"description": "The file's text."},
    )
    mode = fields.String(load_default="upsert", validate=validate.OneOf(MODES))
    removedKeys = fields.String(load_default="keep", validate=validate.OneOf(REMOVED_KEYS))
    dryRun = fields.Boolean(
        load_default=True, metadata={"description": "Only answer the diff (default); false writes it."}
    )


class ExportArguments(ApiSchema):
    fileName = _described(FileName(required=True), "The file's name in Loko.")
    format = fields.String(
        required=True,
        validate=validate.OneOf(FORMAT_NAMES),
        metadata={"description": "One of " + ", ".join(FORMAT_NAMES) + "."},
    )
    language = _described(LanguageCode(), "The language (not needed for csv).")
    asOf = fields.String(
        validate=validate.Length(min=1, max=64),
        metadata={
            "description": "The file as it was then: an ISO-8601 instant with its offset, or an "
            "operation id (from list_operations)."
        },
    )
    release = fields.String(
        validate=validate.Length(min=1, max=64),
        metadata={"description": "The file as it was at this release (from list_releases)."},
    )
    tag = TagName(metadata={"description": "Only keys with this tag."})
    tags = fields.List(
        TagName(),
        validate=validate.Length(max=MAX_TAGS),
        metadata={"description": "Only keys with every one of these tags."},
    )
    excludeTags = fields.List(
        TagName(),
        validate=validate.Length(max=MAX_TAGS),
        metadata={"description": "Only keys with none of these tags."},
    )


class ReleaseArguments(ApiSchema):
    name = release_name(required=True)


class ReleaseCreateArguments(ReleaseCreate):
    pass


class CompareArguments(ApiSchema):
    name = release_name(required=True, metadata={"description": "The release to compare from."})
    with_ = release_name(
        data_key="with",
        attribute="with",
        metadata={"description": "The release to compare with; the project now when left out."},
    )


class ReleaseOutEnvelope(ReleaseEnvelope):
    pass


class TaskCreateArguments(TaskCreate):
    pass


class TaskRef(ApiSchema):
    taskId = fields.String(
        required=True,
        validate=validate.Length(min=1, max=36),
        metadata={"description": "The task's id (list_tasks shows it)."},
    )


class TaskCreatedOut(TaskCreated):
    pass


class TaskOutEnvelope(TaskEnvelope):
    pass


class ImportOut(ImportResult):
    pass


class ExportOut(ApiSchema):
    fileName = fields.String(required=True)
    format = fields.String(required=True)
    content = fields.String(required=True, metadata={"description": "The file's text."})


class OperationsArguments(ApiSchema):
    kind = fields.String(
        validate=validate.OneOf(OPERATION_KINDS),
        metadata={"description": "Only this kind: " + ", ".join(OPERATION_KINDS) + "."},
    )
    undoable = fields.Boolean(
        metadata={"description": "Only those that can (true) or cannot (false) be undone."}
    )
    limit = fields.Integer(load_default=20, validate=validate.Range(min=1, max=100))


class UndoArguments(UndoRequest):
    dryRun = fields.Boolean(
        load_default=True,
        metadata={"description": "Only answer what the undo would do (default); false writes it."},
    )


class ProposeArguments(TranslationRef):
    language = _described(LanguageCode(required=True), "One of the project's languages.")
    text = fields.String(
        required=True,
        validate=validate.Length(min=1, max=8192),
        metadata={"description": "The proposed text, 1 to 8,192 characters."},
    )


class ProposalRef(ApiSchema):
    proposalId = fields.String(required=True, validate=validate.Length(equal=36))


class VoteArguments(ProposalRef):
    value = fields.Integer(required=True, validate=validate.OneOf((1, -1, 0)))


class AcceptArguments(ProposalRef):
    text = fields.String(
        validate=validate.Length(max=8192), metadata={"description": "An edit of the text to write instead."}
    )


class RejectArguments(ProposalRef):
    reason = fields.String(validate=validate.Length(max=1000))
