import json

from marshmallow import fields, validate

from loko.apikeys.models import API_KEY_SCOPES
from loko.auth.schemas import UserBriefOut
from loko.fields import ApiSchema, LanguageLimit, no_control_characters

EXPIRES_AT = (
    "When the key stops working (ISO 8601 with a time zone, in the future); left out or null: "
    "never. An expired key answers 401 saying so."
)
LANGUAGES_OUT = "The languages a write key's writes are limited to; null: every language."


class ApiKeyCreate(ApiSchema):
    class Meta(ApiSchema.Meta):
        # Only a write key is limited to languages (a read key writes none).
        json_schema = {
            "not": {
                "required": ["scope", "languages"],
                "properties": {
                    "scope": {"not": {"const": "write"}},
                    "languages": {"type": "array", "minItems": 1},
                },
            }
        }

    name = fields.String(required=True, validate=[validate.Length(min=1, max=128), no_control_characters])
    scope = fields.String(validate=validate.OneOf(API_KEY_SCOPES), load_default="write")
    expiresAt = fields.AwareDateTime(
        data_key="expiresAt",
        attribute="expires_at",
        allow_none=True,
        load_default=None,
        metadata={"description": EXPIRES_AT},
    )
    languages = LanguageLimit(
        load_default=None,
        metadata={
            "description": "For a write key: the languages whose values it may write, each a "
            "language of the project; null or empty: every language. A limited key creates, "
            "renames and deletes no keys.",
            "example": ["de", "fr"],
        },
    )


def _limit(record) -> list[str] | None:
    return None if record.languages is None else sorted(json.loads(record.languages))


class ApiKeyOut(ApiSchema):
    id = fields.String(required=True)
    name = fields.String(required=True)
    prefix = fields.String(required=True, metadata={"description": "First 12 characters of the key."})
    scope = fields.String(required=True)
    created_at = fields.DateTime(required=True)
    expiresAt = fields.DateTime(attribute="expires_at", allow_none=True, metadata={"description": EXPIRES_AT})
    languages = fields.Function(_limit, allow_none=True, metadata={"description": LANGUAGES_OUT})


class ApiKeyCreated(ApiSchema):
    key = fields.String(required=True, metadata={"description": "The full key; shown only once."})
    apiKey = fields.Nested(ApiKeyOut, required=True)


class ApiKeyListItem(ApiSchema):
    id = fields.String(attribute="key.id", required=True)
    name = fields.String(attribute="key.name", required=True)
    prefix = fields.String(attribute="key.prefix", required=True)
    scope = fields.String(attribute="key.scope", required=True)
    created_at = fields.DateTime(attribute="key.created_at", required=True)
    last_used_at = fields.DateTime(
        attribute="key.last_used_at",
        allow_none=True,
        metadata={"description": "The last noted use (noted at most once a minute)."},
    )
    lastUsedFrom = fields.String(
        attribute="key.last_used_from",
        allow_none=True,
        metadata={"description": "The client address of the last noted use."},
    )
    expiresAt = fields.DateTime(
        attribute="key.expires_at", allow_none=True, metadata={"description": EXPIRES_AT}
    )
    expired = fields.Boolean(required=True, metadata={"description": "Whether the key has expired."})
    languages = fields.List(fields.String(), allow_none=True, metadata={"description": LANGUAGES_OUT})
    created_by = fields.Nested(UserBriefOut, attribute="creator", allow_none=True)


class ApiKeyList(ApiSchema):
    keys = fields.List(fields.Nested(ApiKeyListItem), required=True)
