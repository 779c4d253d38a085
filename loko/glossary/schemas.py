"""What the glossary endpoints take and answer."""

from marshmallow import ValidationError, fields, validate, validates_schema

from loko.fields import ApiSchema, LanguageCode, no_control_characters, no_surrounding_spaces
from loko.glossary.models import MAX_NOTE, MAX_TERM, MAX_TRANSLATIONS, PARTS_OF_SPEECH

FORMATS = ("csv", "tbx")
IMPORT_MODES = ("merge", "replace")
MAX_OFFSET = 1_000_000
MAX_MATCH_TEXTS = 200
MAX_MATCH_TEXT = 8192


def term_text(description: str, **kwargs):
    return fields.String(
        validate=[
            validate.Length(min=1, max=MAX_TERM, error="must be 1 to 200 characters."),
            no_control_characters,
            no_surrounding_spaces,
        ],
        metadata={"description": description},
        **kwargs,
    )


def note_field(**kwargs):
    return fields.String(
        validate=validate.Length(max=MAX_NOTE, error="must be at most 1,000 characters."),
        metadata={"description": "A note for translators, at most 1,000 characters."},
        **kwargs,
    )


def part_of_speech(**kwargs):
    return fields.String(
        allow_none=True,
        validate=validate.OneOf(PARTS_OF_SPEECH),
        metadata={"description": f"One of {', '.join(PARTS_OF_SPEECH)}, or null."},
        **kwargs,
    )


class GlossaryTranslationIn(ApiSchema):
    language = LanguageCode(required=True)
    text = term_text("The translation, 1 to 200 characters.", required=True)
    forbidden = fields.Boolean(
        load_default=False,
        metadata={
            "description": "true: a translation that must not be used (at most one allowed per language)."
        },
    )


def translations_field(**kwargs):
    return fields.List(
        fields.Nested(GlossaryTranslationIn),
        validate=validate.Length(max=MAX_TRANSLATIONS, error="at most 50 translations."),
        metadata={"description": "The term's translations; on a change, the whole list."},
        **kwargs,
    )


class GlossaryTermCreate(ApiSchema):
    language = LanguageCode(
        required=True,
        metadata={"description": "The term's language: projects with it as source language use it."},
    )
    term = term_text("The term, 1 to 200 characters.", required=True)
    partOfSpeech = part_of_speech(load_default=None)
    note = note_field(load_default="")
    caseSensitive = fields.Boolean(load_default=False)
    forbidden = fields.Boolean(
        load_default=False, metadata={"description": "true: the term must not be used in source texts."}
    )
    translations = translations_field(load_default=list)


class GlossaryTermPatch(ApiSchema):
    BODY_REQUIRED = True

    language = LanguageCode()
    term = term_text("The term, 1 to 200 characters.")
    partOfSpeech = part_of_speech()
    note = note_field()
    caseSensitive = fields.Boolean()
    forbidden = fields.Boolean()
    translations = translations_field()

    class Meta(ApiSchema.Meta):
        json_schema = {"minProperties": 1}

    @validates_schema
    def some_change(self, data, **_kwargs):
        if not data:
            raise ValidationError("Give at least one field to change.", field_name="term")


class GlossaryTranslationOut(ApiSchema):
    language = fields.String(required=True)
    text = fields.String(required=True)
    forbidden = fields.Boolean(required=True)


class GlossaryTermOut(ApiSchema):
    id = fields.String(required=True)
    language = fields.String(required=True)
    term = fields.String(required=True)
    partOfSpeech = fields.String(required=True, allow_none=True)
    note = fields.String(required=True)
    caseSensitive = fields.Boolean(required=True)
    forbidden = fields.Boolean(required=True)
    translations = fields.List(fields.Nested(GlossaryTranslationOut), required=True)
    createdAt = fields.DateTime(required=True)
    updatedAt = fields.DateTime(required=True)


class GlossaryTermEnvelope(ApiSchema):
    term = fields.Nested(GlossaryTermOut, required=True)


class GlossaryTermsQuery(ApiSchema):
    q = fields.String(
        validate=[validate.Length(min=1, max=MAX_TERM), no_control_characters],
        metadata={"description": "Only terms whose text or a translation contains this (any case)."},
    )
    language = LanguageCode(metadata={"description": "Only terms in this language."})
    limit = fields.Integer(load_default=100, validate=validate.Range(min=1, max=1000))
    offset = fields.Integer(load_default=0, validate=validate.Range(min=0, max=MAX_OFFSET))


class GlossaryTermList(ApiSchema):
    terms = fields.List(fields.Nested(GlossaryTermOut), required=True)
    total = fields.Integer(required=True, metadata={"description": "Terms matching the filter."})
    limit = fields.Integer(required=True)
    offset = fields.Integer(required=True)


class GlossaryExportQuery(ApiSchema):
    format = fields.String(load_default="csv", validate=validate.OneOf(FORMATS))
    sourceLanguage = LanguageCode(
        metadata={"description": "TBX: the document's language (default: the most used term language)."}
    )


class GlossaryImportIn(ApiSchema):
    format = fields.String(required=True, validate=validate.OneOf(FORMATS))
    content = fields.String(
        required=True,
        validate=validate.Length(min=1, error="must not be empty."),
        metadata={"description": "The file's text (UTF-8)."},
    )
    mode = fields.String(
        load_default="merge",
        validate=validate.OneOf(IMPORT_MODES),
        metadata={
            "description": "merge: add and change terms; replace: also delete the terms the file lacks."
        },
    )
    dryRun = fields.Boolean(load_default=False)
    sourceLanguage = LanguageCode(
        metadata={"description": "TBX: the language whose terms are the glossary's terms in each entry."}
    )


class GlossaryImportResultOut(ApiSchema):
    dryRun = fields.Boolean(required=True)
    created = fields.Integer(required=True)
    updated = fields.Integer(required=True)
    unchanged = fields.Integer(required=True)
    deleted = fields.Integer(required=True)


class GlossaryMatchesQuery(ApiSchema):
    text = fields.List(
        fields.String(validate=validate.Length(max=MAX_MATCH_TEXT)),
        required=True,
        validate=validate.Length(min=1, max=MAX_MATCH_TEXTS),
        metadata={"description": "Source texts (repeat the parameter for several, at most 200)."},
    )
    language = LanguageCode(metadata={"description": "The target language whose translations are wanted."})

    def load(self, data, *args, **kwargs):
        if isinstance(data, dict) and isinstance(data.get("text"), str):
            data = {**data, "text": [data["text"]]}
        return super().load(data, *args, **kwargs)


class GlossaryMatchOut(ApiSchema):
    termId = fields.String(required=True)
    term = fields.String(required=True)
    partOfSpeech = fields.String(required=True, allow_none=True)
    note = fields.String(required=True)
    caseSensitive = fields.Boolean(required=True)
    forbidden = fields.Boolean(required=True, metadata={"description": "The term itself is forbidden."})
    translation = fields.String(
        required=True, allow_none=True, metadata={"description": "The expected translation in `language`."}
    )
    forbiddenTranslations = fields.List(fields.String(), required=True)


class GlossaryTextMatches(ApiSchema):
    text = fields.String(required=True)
    terms = fields.List(fields.Nested(GlossaryMatchOut), required=True)


class GlossaryMatchesOut(ApiSchema):
    matches = fields.List(
        fields.Nested(GlossaryTextMatches), required=True, metadata={"description": "One per text, in order."}
    )


class GlossarySearchArguments(ApiSchema):
    """The MCP tool ``search_glossary``."""

    query = fields.String(
        required=True,
        validate=[validate.Length(min=1, max=MAX_TERM), no_control_characters],
        metadata={"description": "Text to look for in the terms and their translations (any case)."},
    )
    language = LanguageCode(metadata={"description": "Only the translations in this language."})
    limit = fields.Integer(load_default=20, validate=validate.Range(min=1, max=100))


class GlossarySearchOut(ApiSchema):
    terms = fields.List(fields.Nested(GlossaryTermOut), required=True)
