"""Translation memory's requests and answers."""

import base64
import binascii

from marshmallow import ValidationError, fields, validate

from loko.fields import ApiSchema, LanguageCode
from loko.memory.service import DEFAULT_LIMIT, DEFAULT_MIN_SCORE, MAX_LIMIT, MAX_TEXT


class MemoryQuery(ApiSchema):
    text = fields.String(
        required=True,
        validate=validate.Length(min=1, max=MAX_TEXT),
        metadata={"description": "The source-language text to find translations of."},
    )
    language = LanguageCode(required=True, metadata={"description": "The target language."})
    limit = fields.Integer(
        load_default=DEFAULT_LIMIT,
        validate=validate.Range(1, MAX_LIMIT),
        metadata={"description": "At most this many matches."},
    )
    minScore = fields.Integer(
        load_default=DEFAULT_MIN_SCORE,
        validate=validate.Range(1, 100),
        metadata={"description": "The lowest score (0-100) answered; 100 asks for exact matches only."},
    )


class Base64File(fields.String):
    """A file's bytes as base64 text."""

    def _deserialize(self, value, attr, data, **kwargs):
        text = super()._deserialize(value, attr, data, **kwargs)
        try:
            return base64.b64decode(text, validate=True)
        except (binascii.Error, ValueError):
            raise ValidationError("not base64.") from None


class MemoryImport(ApiSchema):
    file = Base64File(
        required=True,
        validate=validate.Length(min=1),
        metadata={"description": "The TMX file, base64-encoded.", "format": "byte"},
    )


class MemoryMatchOut(ApiSchema):
    text = fields.String(required=True, metadata={"description": "The translation."})
    source = fields.String(required=True, metadata={"description": "The source text it translates."})
    score = fields.Integer(
        required=True,
        metadata={
            "description": "How alike the two source texts are, 0-100 (100: the same, placeholders aside)."
        },
    )
    origin = fields.String(required=True, metadata={"enum": ["project", "tmx"]})
    projectId = fields.String(allow_none=True, required=True)
    projectName = fields.String(allow_none=True, required=True)
    file = fields.String(allow_none=True, required=True)
    key = fields.String(allow_none=True, required=True)
    updatedAt = fields.DateTime(
        required=True, metadata={"description": "When the translation was written (imported, for TMX)."}
    )
    adapted = fields.Boolean(
        required=True,
        metadata={
            "description": "The match's source differs from the text only in its placeholders, and "
            "`text` has the text's placeholders in their place (mapped one to one by position and kind)."
        },
    )
    placeholdersDiffer = fields.Boolean(
        required=True,
        metadata={
            "description": "The placeholders of the match's source cannot be mapped one to one onto the "
            "text's: `text` is the stored translation as it is, its score at most 99, and "
            "pre-translation never writes it."
        },
    )


class MemoryAnswer(ApiSchema):
    sourceLanguage = fields.String(required=True)
    language = fields.String(required=True)
    matches = fields.List(fields.Nested(MemoryMatchOut), required=True)
