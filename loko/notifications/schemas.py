"""What the notification endpoints take and answer."""

from marshmallow import fields, validate

from loko.fields import ApiSchema
from loko.notifications.models import CHANNELS, KINDS


class NotificationsQuery(ApiSchema):
    unread = fields.Boolean(load_default=False, metadata={"description": "Only the unread ones."})


class NotificationOut(ApiSchema):
    id = fields.String()
    projectId = fields.String()
    projectName = fields.String(allow_none=True)
    kind = fields.String()
    title = fields.String()
    link = fields.String()
    count = fields.Integer()
    createdAt = fields.DateTime()
    read = fields.Boolean()


class NotificationList(ApiSchema):
    notifications = fields.List(fields.Nested(NotificationOut))
    unread = fields.Integer()


class UnreadOut(ApiSchema):
    unread = fields.Integer()


class MarkRead(ApiSchema):
    ids = fields.List(
        fields.String(validate=validate.Length(min=1, max=36)),
        validate=validate.Length(max=500),
        metadata={"description": "The messages to mark read; left out: all of them."},
    )


class MarkedOut(ApiSchema):
    marked = fields.Integer()


class NotificationSettingsIn(ApiSchema):
    BODY_REQUIRED = True

    rules = fields.Dict(
        keys=fields.String(validate=validate.OneOf(KINDS)),
        values=fields.String(validate=validate.OneOf(CHANNELS)),
        required=True,
        metadata={"description": "A channel per kind of event."},
    )


class NotificationSettingsOut(ApiSchema):
    emailAvailable = fields.Boolean()
    rules = fields.Dict(keys=fields.String(), values=fields.String())


class UnsubscribeOut(ApiSchema):
    projectName = fields.String()
    kind = fields.String()
    channel = fields.String()
