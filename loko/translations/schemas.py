from datetime import UTC

from marshmallow import ValidationError, fields, validate, validates_schema

from loko.fields import (
    MAX_BULK_ITEMS,
    MAX_VALUE,
    ApiSchema,
    CommaList,
    FileName,
    LanguageCode,
    LanguageMap,
    TagList,
    TagName,
    TranslationKey,
    TranslationValue,
    WholeNumber,
    is_plain_file_name,
    is_plain_key,
    is_plain_key_value,
    no_control_characters,
    plain_language_code,
)
from loko.formats.registry import FORMAT_NAMES
from loko.http import schema_instance
from loko.translations.models import HISTORY_ACTIONS, OPERATION_KINDS

BULK_OPERATIONS = ("bulk-upsert", "bulk-delete")
TRANSLATION_ID = [validate.Length(min=1, max=64), no_control_characters]
# Positions beyond this are past any row (history ids are 32-bit integers) and would
# overflow the database's integer parameters.
MAX_POSITION = 2**31 - 1


class TranslationCreate(ApiSchema):
    key = TranslationKey(required=True)
    fileName = FileName(required=True)
    values = LanguageMap(values=TranslationValue(), required=True)


class ValueUpdate(ApiSchema):
    value = TranslationValue(required=True)
    expected = fields.String(
        allow_none=True,
        validate=validate.Length(max=MAX_VALUE),
        metadata={
            "description": "Optional precondition: the value this update was made from. Absent: no "
            "check. null: the language must have no value of its own yet. A string: the stored "
            "value must equal it. If any language's stored value differs, the answer is 409 with "
            "`details.conflicts` and no language is written. Values inherited from a linked "
            "project do not count as stored values."
        },
    )
    uneditedSuggestion = fields.String(
        allow_none=True,
        validate=validate.OneOf(("machine", "memory")),
        metadata={
            "description": "Optional: the value is a machine translation (`machine`) or a "
            "translation memory match (`memory`) saved as it was suggested. Written (created or "
            "changed), it waits for a review: state `needs-review`, reason `machine-unedited` or "
            "`memory-unedited`, set in the same transaction as the value. An unchanged value "
            "keeps its state. Absent or null: the value takes the state of any other write."
        },
    )


class TranslationPatch(ApiSchema):
    key = TranslationKey(required=True)
    fileName = FileName(required=True)
    updates = LanguageMap(
        values=fields.Nested(ValueUpdate),
        required=True,
        validate=validate.Length(min=1, error="Give at least one language."),
    )


UPDATE_FIELDS = ({"value"}, {"value", "expected"})


def plain_patch(data) -> dict | None:
    """What ``TranslationPatch`` loads from ``data`` when it is the common body (a key, a file
    name and each language's value, maybe with an expected value) and the schema accepts it
    as it is, checked without marshmallow, whose load costs more than a small write's SQL;
    None for anything else, which the schema then loads (or refuses with its messages)."""
    if type(data) is not dict or len(data) != 3:
        return None
    key, file_name, updates = data.get("key"), data.get("fileName"), data.get("updates")
    if not is_plain_key(key) or not is_plain_file_name(file_name) or type(updates) is not dict or not updates:
        return None
    loaded = {}
    for code, item in updates.items():
        canonical = plain_language_code(code)
        if (
            canonical is None
            or canonical in loaded
            or type(item) is not dict
            or item.keys() not in UPDATE_FIELDS
        ):
            return None
        value, expected = item["value"], item.get("expected")
        if type(value) is not str or len(value) > MAX_VALUE:
            return None
        if (
            "expected" in item
            and expected is not None
            and (type(expected) is not str or len(expected) > MAX_VALUE)
        ):
            return None
        loaded[canonical] = dict(item)
    return {"key": key, "fileName": file_name, "updates": loaded}


def load_patch(data) -> dict:
    """A PATCH body as ``TranslationPatch`` loads it (``plain_patch`` first)."""
    return plain_patch(data) or schema_instance(TranslationPatch).load(data)


KEY_NOTE = [validate.Length(max=MAX_VALUE)]
COMMENT_DESCRIPTION = "A note for translators (a Lokalise description, a PO translator comment)."
CONTEXT_DESCRIPTION = "What tells this key apart from another with the same text (gettext's msgctxt)."
MAX_LENGTH_DESCRIPTION = "The longest value the key's place in the product holds, in characters."


class KeyDetailsChange(ApiSchema):
    """A key's details; the fields not given stay as they are, null or "" clears one."""

    comment = fields.String(allow_none=True, validate=KEY_NOTE, metadata={"description": COMMENT_DESCRIPTION})
    context = fields.String(allow_none=True, validate=KEY_NOTE, metadata={"description": CONTEXT_DESCRIPTION})
    maxLength = WholeNumber(
        allow_none=True,
        validate=validate.Range(min=1, max=MAX_VALUE),
        metadata={"description": MAX_LENGTH_DESCRIPTION + " 1 to 8192; null removes it."},
    )

    class Meta(ApiSchema.Meta):
        json_schema = {
            "anyOf": [{"required": ["comment"]}, {"required": ["context"]}, {"required": ["maxLength"]}]
        }

    @validates_schema
    def some_detail(self, data, **_kwargs):
        if not any(name in data for name in ("comment", "context", "maxLength")):
            raise ValidationError("Give comment, context or maxLength.", field_name="comment")


class KeyDetailsPatch(KeyDetailsChange):
    """The key (by key and file) and the details to change."""

    key = TranslationKey(required=True)
    fileName = FileName(required=True)


class KeyValue(ApiSchema):
    key = TranslationKey(required=True)
    value = TranslationValue(required=True)


class KeyValueList(fields.List):
    """``[{key, value}]``, loaded as ``List(Nested(KeyValue))`` would load it. Items that
    pass the quick check are taken as they are (10,000 in milliseconds, not a quarter of
    a second); otherwise the nested schema loads the list and words the errors."""

    def __init__(self, **kwargs):
        super().__init__(fields.Nested(KeyValue), **kwargs)

    def _deserialize(self, value, attr, data, **kwargs):
        if type(value) is list and all(map(is_plain_key_value, value)):
            return value
        return super()._deserialize(value, attr, data, **kwargs)


def _no_duplicates(keys: list[str], field: str) -> None:
    seen, duplicates = set(), set()
    for key in keys:
        (duplicates if key in seen else seen).add(key)
    if duplicates:
        sample = ", ".join(repr(k) for k in sorted(duplicates)[:5])
        raise ValidationError(f"Duplicate keys in one request: {sample}.", field)


class BulkUpsert(ApiSchema):
    operation = fields.String(required=True, validate=validate.Equal("bulk-upsert"))
    fileName = FileName(required=True)
    languageCode = LanguageCode(required=True)
    translations = KeyValueList(
        required=True,
        validate=validate.Length(max=MAX_BULK_ITEMS),
        metadata={"description": "At most 10,000 items; each key at most once."},
    )

    @validates_schema
    def unique_keys(self, data, **_kwargs):
        _no_duplicates([item["key"] for item in data.get("translations", [])], "translations")


class BulkDelete(ApiSchema):
    operation = fields.String(required=True, validate=validate.Equal("bulk-delete"))
    fileName = FileName(required=True)
    keys = fields.List(
        TranslationKey(),
        required=True,
        validate=validate.Length(max=MAX_BULK_ITEMS),
        metadata={"description": "At most 10,000 keys, each at most once.", "uniqueItems": True},
    )
    permanent = fields.Boolean(load_default=False)

    @validates_schema
    def unique_keys(self, data, **_kwargs):
        _no_duplicates(data.get("keys", []), "keys")


BULK_SCHEMAS = {"bulk-upsert": BulkUpsert, "bulk-delete": BulkDelete}


def load_bulk_operation(body: dict) -> dict:
    """Pick the schema named by ``operation``; unknown operations name the allowed ones."""
    operation = body.get("operation")
    schema = BULK_SCHEMAS.get(operation) if isinstance(operation, str) else None
    if schema is None:
        raise ValidationError({"operation": [f"Must be one of: {', '.join(BULK_OPERATIONS)}."]})
    return schema_instance(schema).load(body)


class TranslationDelete(ApiSchema):
    id = fields.String(required=True, validate=TRANSLATION_ID)
    permanent = fields.Boolean(load_default=False)


class TranslationId(ApiSchema):
    id = fields.String(required=True, validate=TRANSLATION_ID)


class TranslationOut(ApiSchema):
    id = fields.String(required=True)
    key = fields.String(required=True)
    fileName = fields.String(required=True)
    values = fields.Dict(keys=fields.String(), values=fields.String(), required=True)
    created_at = fields.DateTime(required=True)
    updated_at = fields.DateTime(required=True)
    deleted_at = fields.DateTime(required=True, allow_none=True)
    comment = fields.String(metadata={"description": COMMENT_DESCRIPTION + " Present only when set."})
    context = fields.String(metadata={"description": CONTEXT_DESCRIPTION + " Present only when set."})
    maxLength = fields.Integer(metadata={"description": MAX_LENGTH_DESCRIPTION + " Present only when set."})


class TranslationEnvelope(ApiSchema):
    translation = fields.Nested(TranslationOut, required=True)


class PatchResult(ApiSchema):
    id = fields.String(required=True, metadata={"description": "The translation's id."})
    id_file = fields.String(required=True, metadata={"description": "The file translation record's id."})
    updated = fields.Boolean(
        required=True, metadata={"description": "False when the stored value already equalled the new one."}
    )


class PatchResults(ApiSchema):
    results = fields.Dict(
        keys=fields.String(),
        values=fields.Nested(PatchResult),
        required=True,
        metadata={"description": "One entry per language code of `updates`."},
    )


class ValueConflict(ApiSchema):
    expected = fields.String(required=True, allow_none=True, metadata={"description": "As sent."})
    current = fields.String(
        required=True, allow_none=True, metadata={"description": "The stored value; null when there is none."}
    )


class PatchConflictDetails(ApiSchema):
    conflicts = fields.Dict(
        keys=fields.String(),
        values=fields.Nested(ValueConflict),
        required=True,
        metadata={"description": "One entry per language whose precondition failed."},
    )


class PatchConflict(ApiSchema):
    error = fields.String(required=True)
    details = fields.Nested(PatchConflictDetails, required=True)


class BulkUpsertResult(ApiSchema):
    created = fields.Integer(required=True, metadata={"description": "Values that did not exist before."})
    updated = fields.Integer(required=True)
    unchanged = fields.Integer(required=True)


class BulkDeleteResult(ApiSchema):
    deleted = fields.Integer(required=True)


class TrashQuery(ApiSchema):
    limit = fields.Integer(load_default=100, validate=validate.Range(min=1, max=1000))
    offset = fields.Integer(load_default=0, validate=validate.Range(min=0, max=MAX_POSITION))
    fileName = FileName()
    q = fields.String(
        validate=[validate.Length(min=1, max=256), no_control_characters],
        metadata={"description": "Substring of the key (case-insensitive)."},
    )


class TrashList(ApiSchema):
    translations = fields.List(fields.Nested(TranslationOut), required=True)
    total = fields.Integer(required=True)


class RestoredData(ApiSchema):
    translation = fields.Nested(TranslationOut, required=True)


class RestoreOut(ApiSchema):
    success = fields.Boolean(required=True)
    data = fields.Nested(RestoredData, required=True)


class KeysQuery(ApiSchema):
    fileName = FileName()


class KeysOut(ApiSchema):
    keys = fields.List(fields.String(), required=True)


class HistoryQuery(ApiSchema):
    translationId = fields.String(validate=TRANSLATION_ID)
    key = TranslationKey()
    fileName = FileName()
    language = LanguageCode()
    action = fields.String(validate=validate.OneOf(HISTORY_ACTIONS))
    operationId = fields.String(
        validate=TRANSLATION_ID, metadata={"description": "Only the entries written by this operation."}
    )
    limit = fields.Integer(load_default=50, validate=validate.Range(min=1, max=500))
    cursor = fields.Integer(
        validate=validate.Range(min=1, max=MAX_POSITION),
        metadata={"description": "`next_cursor` of the previous page."},
    )


class ActorOut(ApiSchema):
    type = fields.String(required=True, metadata={"description": "user or api_key"})
    id = fields.String(required=True, allow_none=True)
    name = fields.String(required=True, allow_none=True)


class HistoryEntryOut(ApiSchema):
    id = fields.Integer(required=True)
    translation_id = fields.String(required=True)
    key = fields.String(required=True)
    fileName = fields.String(required=True)
    language = fields.String(required=True, allow_none=True)
    action = fields.String(required=True)
    old_value = fields.String(required=True, allow_none=True)
    new_value = fields.String(required=True, allow_none=True)
    actor = fields.Nested(ActorOut, required=True)
    created_at = fields.DateTime(required=True)


class HistoryPage(ApiSchema):
    history = fields.List(fields.Nested(HistoryEntryOut), required=True)
    next_cursor = fields.String(required=True, allow_none=True)


class ExportQuerySchema(ApiSchema):
    format = fields.String(
        load_default="json",
        validate=validate.OneOf(FORMAT_NAMES),
        metadata={"description": "Any format of the registry; see the import endpoint for what each keeps."},
    )
    zip = fields.Boolean(load_default=False)
    language = CommaList(
        LanguageCode(),
        metadata={"description": "Only these languages: repeat the parameter or comma-separate codes."},
    )
    fileName = CommaList(
        FileName(),
        strip=False,
        metadata={
            "description": "Only these files: repeat the parameter or comma-separate names, each "
            "as written (a name holding a comma cannot be selected here)."
        },
    )
    state = fields.String(
        validate=validate.OneOf(("reviewed",)),
        metadata={
            "description": "reviewed: only reviewed values; a value not reviewed is left out as "
            "missing (a linked project's value fills it, as for any missing value)."
        },
    )
    inherit = fields.Boolean(
        load_default=True, metadata={"description": "Include values inherited from the linked project."}
    )
    sourceLanguage = LanguageCode(
        required=False,
    )
    asOf = fields.String(
        validate=validate.Length(min=1, max=64),
        metadata={
            "description": "The project as it was then, from its history: an ISO-8601 instant with "
            "its offset (2026-01-31T12:00:00Z), or an operation's id (the state right after it). "
            "Keys that existed then, values as they were, keys in the trash then left out. Not "
            "in the future, nor before the project existed; not with state=reviewed."
        },
    )
    release = fields.String(
        validate=validate.Length(min=1, max=64),
        metadata={"description": "The project as it was at this release's moment (its name, e.g. v1.2)."},
    )
    tag = TagName(metadata={"description": "Only keys with this tag (as `tags` with one tag)."})
    tags = TagList(
        "Only keys with every one of these tags: repeat the parameter or comma-separate tags. A "
        "key only the linked project has carries no tag here, so it is left out."
    )
    excludeTags = TagList("Only keys with none of these tags.")
    stale = fields.String(
        validate=validate.OneOf(["ok"]),
        metadata={
            "description": "`ok`: an older body (with its own ETag) is acceptable while a newer "
            "one is being built, as `Cache-Control: max-stale` says; for clients that cannot "
            "set headers."
        },
    )


ACTOR_TYPES = ("user", "api_key", "system")
UNDO_RANGE = ("actorType", "actorId", "since", "until", "fileName", "language")


class UndoRequest(ApiSchema):
    """What to undo: one operation, or the entries that match every filter given."""

    BODY_REQUIRED = True

    class Meta(ApiSchema.Meta):
        # An operation, or a range of changes chosen by at least one filter, never both; and
        # skipChanged and includeChanged not both true.
        json_schema = {
            "oneOf": [
                {"required": ["operationId"]},
                {"anyOf": [{"required": [name]} for name in UNDO_RANGE]},
            ],
            "not": {
                "required": ["skipChanged", "includeChanged"],
                "properties": {"skipChanged": {"const": True}, "includeChanged": {"const": True}},
            },
        }

    operationId = fields.String(
        validate=TRANSLATION_ID,
        metadata={
            "description": "An operation's id (an import, a bulk upsert or delete, a file or "
            "language delete, an undo)."
        },
    )
    actorType = fields.String(validate=validate.OneOf(ACTOR_TYPES))
    actorId = fields.String(validate=TRANSLATION_ID)
    since = fields.AwareDateTime(
        default_timezone=UTC,
        metadata={"description": "Entries written at or after this time (ISO 8601; UTC if no offset)."},
    )
    until = fields.AwareDateTime(
        default_timezone=UTC, metadata={"description": "Entries written before this time."}
    )
    fileName = FileName()
    language = LanguageCode()
    dryRun = fields.Boolean(
        load_default=False, metadata={"description": "Answer what the undo would do, writing nothing."}
    )
    skipChanged = fields.Boolean(
        load_default=False,
        metadata={
            "description": "Undo the rest when some changes were changed again since, and keep "
            "those later changes (by default the undo is refused, 409, with the list)."
        },
    )
    includeChanged = fields.Boolean(
        load_default=False,
        metadata={
            "description": "Undo the values changed or reviewed since too: each goes back all the "
            "same, and one reviewed since waits for a review again (its review was of the text "
            "the undo removes). What cannot go back (a key deleted for good, a key or language "
            "gone since) is still a conflict. Not with skipChanged."
        },
    )

    @validates_schema
    def _one_selection(self, data, **kwargs):
        ranged = [name for name in UNDO_RANGE if name in data]
        if "operationId" in data and ranged:
            raise ValidationError(f"Give operationId or {ranged[0]}, not both.", "operationId")
        if "operationId" not in data and not ranged:
            raise ValidationError(
                "Name an operation, or choose the changes by actorType/actorId, since, until, fileName "
                "or language.",
                "operationId",
            )
        if "since" in data and "until" in data and data["since"] >= data["until"]:
            raise ValidationError("Must be later than since.", "until")


class UndoChange(ApiSchema):
    fileName = fields.String(required=True)
    key = fields.String(required=True)
    language = fields.String(required=True, allow_none=True)
    action = fields.String(required=True, metadata={"description": "created, updated, deleted, restored"})
    old_value = fields.String(required=True, allow_none=True)
    new_value = fields.String(required=True, allow_none=True)


class UndoConflictItem(ApiSchema):
    fileName = fields.String(required=True)
    key = fields.String(required=True)
    language = fields.String(required=True, allow_none=True)
    reason = fields.String(
        required=True,
        metadata={
            "description": "changed since, reviewed since, sent back for review since (a reviewer "
            "changed the value's review state after the change), restored since, moved to the "
            "trash since, deleted for good (since), key exists again, language deleted for good "
            "since"
        },
    )
    expected = fields.String(
        required=True, allow_none=True, metadata={"description": "The value the change left."}
    )
    current = fields.String(required=True, allow_none=True, metadata={"description": "The value now."})
    by = fields.String(
        required=True,
        allow_none=True,
        metadata={"description": "Who reviewed it since (for the review reasons), else null."},
    )
    at = fields.String(
        required=True,
        allow_none=True,
        metadata={"description": "When it was reviewed since (ISO 8601), else null."},
    )


class UndoSummary(ApiSchema):
    created = fields.Integer(required=True)
    updated = fields.Integer(required=True)
    deleted = fields.Integer(required=True)
    restored = fields.Integer(required=True)
    trashed = fields.Integer(required=True)
    languages = fields.List(fields.String(), required=True)
    conflicts = fields.Integer(required=True)
    included = fields.Integer(
        required=True, metadata={"description": "Values changed or reviewed since, undone as asked."}
    )


class UndoResult(ApiSchema):
    dryRun = fields.Boolean(required=True)
    undone = fields.String(required=True, allow_none=True, metadata={"description": "The operation undone."})
    operationId = fields.String(
        required=True,
        allow_none=True,
        metadata={"description": "The undo's own operation (undo it to redo)."},
    )
    summary = fields.Nested(UndoSummary, required=True)
    changes = fields.List(
        fields.Nested(UndoChange), required=True, metadata={"description": "At most 1,000."}
    )
    conflicts = fields.List(fields.Nested(UndoConflictItem), required=True)
    included = fields.List(
        fields.Nested(UndoConflictItem),
        required=True,
        metadata={
            "description": "With includeChanged: the values changed or reviewed since that go back too."
        },
    )
    truncated = fields.Boolean(required=True)


class OperationsQuery(ApiSchema):
    kind = fields.String(validate=validate.OneOf(OPERATION_KINDS))
    undoable = fields.Boolean()
    limit = fields.Integer(load_default=50, validate=validate.Range(min=1, max=500))
    offset = fields.Integer(load_default=0, validate=validate.Range(min=0, max=MAX_POSITION))


class OperationOut(ApiSchema):
    id = fields.String(required=True)
    kind = fields.String(required=True, metadata={"description": ", ".join(OPERATION_KINDS)})
    details = fields.Dict(
        required=True,
        metadata={"description": "What it changed: counts, and for a delete the file, language and records."},
    )
    permanent = fields.Boolean(required=True)
    actor = fields.Nested(ActorOut, required=True)
    created_at = fields.DateTime(required=True)
    undone_at = fields.DateTime(required=True, allow_none=True)
    undone_by = fields.String(required=True, allow_none=True)
    expires_at = fields.DateTime(
        required=True, allow_none=True, metadata={"description": "When what it removed is deleted for good."}
    )
    undoable = fields.Boolean(required=True)


class OperationsPage(ApiSchema):
    operations = fields.List(fields.Nested(OperationOut), required=True)
    total = fields.Integer(required=True)


class OperationEnvelope(ApiSchema):
    operation = fields.Nested(OperationOut, required=True)
