from marshmallow import fields, validate

from loko.apikeys.models import API_KEY_SCOPES
from loko.auth.schemas import UserBriefOut
from loko.fields import ApiSchema, no_control_characters


class ApiKeyCreate(ApiSchema):
    name = fields.String(required=True, validate=[validate.Length(min=1, max=128), no_control_characters])
    scope = fields.String(validate=validate.OneOf(API_KEY_SCOPES), load_default="write")


class ApiKeyOut(ApiSchema):
    id = fields.String(required=True)
    name = fields.String(required=True)
    prefix = fields.String(required=True, metadata={"description": "First 12 characters of the key."})
    scope = fields.String(required=True)
    created_at = fields.DateTime(required=True)


class ApiKeyCreated(ApiSchema):
    key = fields.String(required=True, metadata={"description": "The full key; shown only once."})
    apiKey = fields.Nested(ApiKeyOut, required=True)


class ApiKeyListItem(ApiSchema):
    id = fields.String(attribute="key.id", required=True)
    name = fields.String(attribute="key.name", required=True)
    prefix = fields.String(attribute="key.prefix", required=True)
    scope = fields.String(attribute="key.scope", required=True)
    created_at = fields.DateTime(attribute="key.created_at", required=True)
    last_used_at = fields.DateTime(attribute="key.last_used_at", allow_none=True)
    created_by = fields.Nested(UserBriefOut, attribute="creator", allow_none=True)


class ApiKeyList(ApiSchema):
    keys = fields.List(fields.Nested(ApiKeyListItem), required=True)
