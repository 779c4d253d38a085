from marshmallow import ValidationError, fields, validate, validates_schema

from loko.fields import (
    CONTROL_CHARACTERS,
    MAX_TAGS,
    MAX_VALUE,
    ApiSchema,
    FileName,
    LanguageCode,
    TagName,
    no_control_characters,
)
from loko.replace.matching import MAX_FIND, MODES
from loko.translations.models import VALUE_STATES

MAX_PAGE = 5000
DEFAULT_PAGE = 1000
MAX_SEARCH = 1000


class ReplaceItem(ApiSchema):
    translationId = fields.String(
        required=True, validate=[validate.Length(min=1, max=64), no_control_characters]
    )
    language = LanguageCode(required=True)
    expected = fields.String(
        required=True,
        validate=validate.Length(max=MAX_VALUE),
        metadata={
            "description": "The value the preview showed as `before`: a value changed since is skipped."
        },
    )


_LANGUAGE = LanguageCode()


def _plain_items(items: list) -> list[dict] | None:
    """``items`` loaded as ``ReplaceItem`` loads them, when each is a plain item that passes
    its rules (checked in one loop, each language code once); None when one does not, for
    ``ReplaceItem`` to name what is wrong."""
    codes: dict[str, str] = {}
    loaded = []
    for item in items:
        if type(item) is not dict or len(item) != 3:
            return None
        translation_id, language, expected = (
            item.get("translationId"),
            item.get("language"),
            item.get("expected"),
        )
        if type(translation_id) is not str or type(language) is not str or type(expected) is not str:
            return None
        if not 1 <= len(translation_id) <= 64 or CONTROL_CHARACTERS.search(translation_id):
            return None
        if len(expected) > MAX_VALUE:
            return None
        code = codes.get(language)
        if code is None:
            try:
                code = codes[language] = _LANGUAGE.deserialize(language)
            except ValidationError:
                return None
        loaded.append({"translationId": translation_id, "language": code, "expected": expected})
    return loaded


class ReplaceItems(fields.List):
    """The apply's items: plain ones (as the editor and any client send them) are checked in
    one loop, a hundred thousand in a tenth of the nested schema's time; any other list goes
    through ``ReplaceItem``, which names what is wrong."""

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, list):
            loaded = _plain_items(value)
            if loaded is not None:
                return loaded
        return super()._deserialize(value, attr, data, **kwargs)


class ReplaceRequest(ApiSchema):
    """A find and replace: the preview (``dryRun``, the default) or the apply of ``items``."""

    class Meta(ApiSchema.Meta):
        # The apply names its items (and takes no page of the preview); a preview names none.
        json_schema = {
            "if": {"required": ["dryRun"], "properties": {"dryRun": {"const": False}}},
            "then": {
                "required": ["items"],
                "not": {"anyOf": [{"required": ["cursor"]}, {"required": ["limit"]}]},
            },
            "else": {"not": {"required": ["items"]}},
        }

    find = fields.String(
        required=True,
        validate=validate.Length(min=1, max=MAX_FIND),
        metadata={"description": "The text (or, in regex mode, the regular expression) to find."},
    )
    replace = fields.String(
        required=True,
        validate=validate.Length(max=MAX_VALUE),
        metadata={
            "description": "What replaces each match; may be empty. In regex mode `\\1` and "
            "`\\g<name>` insert groups; in text mode it is taken as written."
        },
    )
    mode = fields.String(load_default="text", validate=validate.OneOf(MODES))
    matchCase = fields.Boolean(load_default=False)
    wholeWord = fields.Boolean(
        load_default=False,
        metadata={"description": "Only matches with no letter, digit or underscore on either side."},
    )
    languages = fields.List(
        LanguageCode(),
        validate=validate.Length(min=1, max=1000),
        metadata={
            "description": "Languages of the project to search (400 naming one it lacks). By "
            "default every language but the source that the caller may edit (every one for a "
            "caller who edits none), and the source too with includeSource."
        },
    )
    fileName = FileName()
    search = fields.String(
        validate=validate.Length(min=1, max=MAX_SEARCH),
        metadata={"description": "Only keys whose key or a value contains this (as the editor's search)."},
    )
    state = fields.String(
        validate=validate.OneOf(VALUE_STATES), metadata={"description": "Only values in this review state."}
    )
    tags = fields.List(
        TagName(),
        validate=validate.Length(min=1, max=MAX_TAGS),
        metadata={"description": "Only keys with every one of these tags."},
    )
    excludeTags = fields.List(
        TagName(),
        validate=validate.Length(min=1, max=MAX_TAGS),
        metadata={"description": "Only keys with none of these tags."},
    )
    includeSource = fields.Boolean(
        load_default=False, metadata={"description": "Also replace in the source language's values."}
    )
    dryRun = fields.Boolean(
        load_default=True,
        metadata={"description": "true (default): the preview, nothing written; false: apply `items`."},
    )
    cursor = fields.String(
        validate=validate.Length(min=1, max=4000),
        metadata={"description": "A preview's `nextCursor`: the next page of the preview."},
    )
    limit = fields.Integer(
        validate=validate.Range(min=1, max=MAX_PAGE),
        metadata={"description": f"Values listed in a preview page (default {DEFAULT_PAGE:,})."},
    )
    items = ReplaceItems(
        fields.Nested(ReplaceItem),
        validate=validate.Length(min=1),
        metadata={"description": "The changes of the preview to apply (as many as the body holds)."},
    )

    @validates_schema
    def _steps(self, data, **kwargs):
        if data.get("dryRun", True):
            if "items" in data:
                raise ValidationError("only with dryRun: false.", "items")
            return
        if "items" not in data:
            raise ValidationError("the changes to apply are required with dryRun: false.", "items")
        for name in ("cursor", "limit"):
            if name in data:
                raise ValidationError("only for a preview (dryRun: true).", name)
        seen = set()
        for index, item in enumerate(data["items"]):
            pair = (item["translationId"], item["language"])
            if pair in seen:
                raise ValidationError(f"items.{index}: this value is listed twice.", "items")
            seen.add(pair)


class ReplaceValue(ApiSchema):
    translationId = fields.String(required=True)
    key = fields.String(required=True)
    fileName = fields.String(required=True)
    language = fields.String(required=True)


class ReplaceChange(ReplaceValue):
    before = fields.String(required=True)
    after = fields.String(required=True)
    matches = fields.Integer(required=True, metadata={"description": "Matches replaced in the value."})
    protected = fields.Boolean(
        metadata={
            "description": "true: a reviewed value of a project that protects them, which the "
            "caller may not review; the apply skips it (reason protected). Absent otherwise."
        }
    )


class ReplaceRefusal(ReplaceChange):
    check = fields.String(
        required=True,
        allow_none=True,
        metadata={
            "description": "The check it would break (placeholders, icu-syntax, tags, or a check "
            "the project sets to refuse); null for a value's limits."
        },
    )
    reason = fields.String(required=True)


class ReplaceSkipped(ApiSchema):
    translationId = fields.String(required=True)
    key = fields.String(required=True, allow_none=True, metadata={"description": "null when gone."})
    fileName = fields.String(required=True, allow_none=True, metadata={"description": "null when gone."})
    language = fields.String(required=True)
    reason = fields.String(
        required=True,
        metadata={
            "description": "changed (the value is no longer the one expected), gone (no such "
            "active value), unchanged (the replacement no longer changes it) or protected (a "
            "reviewed value of a project that protects them, for a caller who may not review: it "
            "changes through a proposal)."
        },
    )
    current = fields.String(
        required=True, allow_none=True, metadata={"description": "The value now (null when gone)."}
    )


class ReplaceResult(ApiSchema):
    dryRun = fields.Boolean(required=True)
    changes = fields.List(
        fields.Nested(ReplaceChange), metadata={"description": "The preview: every value this page changes."}
    )
    nextCursor = fields.String(
        allow_none=True, metadata={"description": "The preview's next page (null on the last)."}
    )
    applied = fields.Integer(metadata={"description": "The apply: values written."})
    skipped = fields.List(fields.Nested(ReplaceSkipped))
    operationId = fields.String(
        allow_none=True,
        metadata={
            "description": "The apply's operation (undo it as a whole); null when nothing was written."
        },
    )
    refused = fields.List(
        fields.Nested(ReplaceRefusal), required=True, metadata={"description": "Never written."}
    )
    timedOut = fields.List(
        fields.Nested(ReplaceValue),
        required=True,
        metadata={"description": "Values whose matching ran out of its time; left as they are."},
    )
