"""The audit log's query and answer."""

import re
from datetime import UTC, datetime, time, timedelta

from marshmallow import fields, validate

from loko.audit.models import ACTOR_TYPES, KINDS, TARGET_TYPES
from loko.fields import ApiSchema, no_control_characters

MAX_POSITION = 2**31 - 1
MAX_MOMENT = 40
MOMENT_FORMATS = [{"format": "date"}, {"format": "date-time"}]
DAY = re.compile(r"^\d{4}-\d{2}-\d{2}$")


class DayOrMoment(fields.String):
    """A day (``2026-03-01``: from its start, or with ``end`` until its end) or a moment (ISO
    8601; UTC when it has no offset), loaded as an aware UTC datetime."""

    default_error_messages = {"invalid_moment": "Not a day (YYYY-MM-DD) or an ISO 8601 date and time."}

    def __init__(self, *, end: bool = False, **kwargs):
        super().__init__(**kwargs)
        self.end = end

    def _deserialize(self, value, attr, data, **kwargs):
        text = super()._deserialize(value, attr, data, **kwargs).strip()
        if len(text) > MAX_MOMENT:
            raise self.make_error("invalid_moment")
        try:
            if DAY.match(text):
                moment = datetime.combine(datetime.strptime(text, "%Y-%m-%d").date(), time(), UTC)
                return _shifted(moment, timedelta(days=1) if self.end else timedelta())
            moment = datetime.fromisoformat(FRACTION.sub(_micro, text.upper()))
        except ValueError:
            raise self.make_error("invalid_moment") from None
        if moment.tzinfo is None:
            return moment.replace(tzinfo=UTC)
        return _shifted(moment.replace(tzinfo=UTC), -moment.utcoffset())


FRACTION = re.compile(r"\.(\d+)")


def _micro(match) -> str:
    """A fraction of a second to the microsecond Python keeps (RFC 3339 allows more digits)."""
    return "." + match.group(1)[:6].ljust(6, "0")


def _shifted(moment: datetime, by: timedelta) -> datetime:
    """``moment + by``, or the calendar's first or last moment beyond it."""
    try:
        return moment + by
    except OverflowError:
        return datetime.max.replace(tzinfo=UTC) if by > timedelta() else datetime.min.replace(tzinfo=UTC)


class AuditQuery(ApiSchema):
    kind = fields.String(
        validate=validate.OneOf(KINDS),
        metadata={
            "description": "Events of this kind (the action's area: `glossary.term_created` is a "
            "`glossary` event). Sign-ins (`auth`) are listed only when a filter asks for them."
        },
    )
    action = fields.String(
        validate=[validate.Length(min=1, max=64), no_control_characters],
        metadata={"description": "Events whose action starts with this (`organization.` or `auth.sign_in`)."},
    )
    actor = fields.String(
        validate=[validate.Length(min=1, max=36), no_control_characters],
        metadata={"description": "Events done by this user or API key (its id)."},
    )
    targetType = fields.String(validate=validate.OneOf(TARGET_TYPES))
    from_ = DayOrMoment(
        data_key="from",
        attribute="from",
        metadata={
            "description": "Events at or after this day's start or moment (UTC when no offset).",
            "anyOf": MOMENT_FORMATS,
        },
    )
    to = DayOrMoment(
        end=True,
        metadata={
            "description": "Events before this moment, or up to the end of this day.",
            "anyOf": MOMENT_FORMATS,
        },
    )
    limit = fields.Integer(load_default=50, validate=validate.Range(min=1, max=200))
    cursor = fields.Integer(
        validate=validate.Range(min=1, max=MAX_POSITION),
        metadata={"description": "`next_cursor` of the previous page."},
    )


class AuditActorOut(ApiSchema):
    type = fields.String(required=True, metadata={"enum": list(ACTOR_TYPES)})
    id = fields.String(required=True, allow_none=True)
    name = fields.String(required=True, allow_none=True)


class AuditTargetOut(ApiSchema):
    type = fields.String(required=True, metadata={"enum": list(TARGET_TYPES)})
    id = fields.String(required=True, allow_none=True)
    label = fields.String(required=True, allow_none=True)


class AuditEventOut(ApiSchema):
    id = fields.Integer(required=True)
    action = fields.String(required=True, metadata={"description": "`area.verb`, e.g. `api_key.created`."})
    actor = fields.Nested(AuditActorOut, required=True)
    target = fields.Nested(AuditTargetOut, required=True, allow_none=True)
    ipAddress = fields.String(required=True, allow_none=True)
    details = fields.Dict(required=True, metadata={"description": "A few facts; never a secret."})
    createdAt = fields.DateTime(required=True)


class AuditPage(ApiSchema):
    events = fields.List(fields.Nested(AuditEventOut), required=True)
    next_cursor = fields.String(required=True, allow_none=True)
