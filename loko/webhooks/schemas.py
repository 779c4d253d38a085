"""A webhook endpoint, its deliveries, and what the endpoints answer."""

from marshmallow import fields, validate

from loko.events import KINDS
from loko.fields import HTTP_URL_PATTERN, ApiSchema, no_control_characters


def _url(**kwargs):
    return fields.String(
        validate=[validate.Length(max=2048), validate.Regexp(HTTP_URL_PATTERN)],
        metadata={
            "description": "Where the events are POSTed. Must be https and resolve to public "
            "addresses only, unless LOKO_OUTBOUND_ALLOW_PRIVATE is set (then http and private "
            "addresses are allowed too); a refused address is a failed delivery."
        },
        **kwargs,
    )


def _events(**kwargs):
    return fields.List(
        fields.String(validate=validate.OneOf(KINDS)),
        validate=validate.Length(min=1, max=len(KINDS)),
        metadata={"description": "The events the endpoint wants; at least one."},
        **kwargs,
    )


DESCRIPTION = [validate.Length(max=500), no_control_characters]


class WebhookIn(ApiSchema):
    url = _url(required=True)
    description = fields.String(load_default="", validate=DESCRIPTION)
    events = _events(required=True)
    enabled = fields.Boolean(load_default=True)


class WebhookPatch(ApiSchema):
    url = _url()
    description = fields.String(validate=DESCRIPTION)
    events = _events()
    enabled = fields.Boolean()


class WebhookEndpointOut(ApiSchema):
    id = fields.String(required=True)
    url = fields.String(required=True)
    description = fields.String(required=True)
    events = fields.List(fields.String(metadata={"enum": list(KINDS)}), required=True)
    enabled = fields.Boolean(required=True)
    createdAt = fields.DateTime(required=True)
    updatedAt = fields.DateTime(required=True)


class WebhookEnvelope(ApiSchema):
    webhook = fields.Nested(WebhookEndpointOut, required=True)


class WebhookCreated(ApiSchema):
    webhook = fields.Nested(WebhookEndpointOut, required=True)
    secret = fields.String(
        required=True,
        metadata={
            "description": "The signing secret (`whsec_` and base64), answered this once only: "
            "verify each delivery's `webhook-signature` with it."
        },
    )


class WebhookList(ApiSchema):
    webhooks = fields.List(fields.Nested(WebhookEndpointOut), required=True)


class DeliveryOut(ApiSchema):
    id = fields.String(required=True)
    messageId = fields.String(required=True, metadata={"description": "The `webhook-id` header."})
    eventType = fields.String(required=True, metadata={"enum": list(KINDS)})
    attempt = fields.Integer(required=True)
    succeeded = fields.Boolean(required=True)
    statusCode = fields.Integer(allow_none=True, required=True)
    durationMs = fields.Integer(required=True)
    error = fields.String(allow_none=True, required=True)
    responseSnippet = fields.String(allow_none=True, required=True)
    createdAt = fields.DateTime(required=True)


class DeliveryList(ApiSchema):
    deliveries = fields.List(fields.Nested(DeliveryOut), required=True)


class RedeliveryOut(ApiSchema):
    jobId = fields.String(required=True, metadata={"description": "The delivery job queued."})
    messageId = fields.String(required=True)
