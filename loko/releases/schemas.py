"""What the release endpoints take and answer."""

from datetime import UTC

from marshmallow import fields, validate

from loko.fields import ApiSchema

# A release's name: a letter or digit, then letters, digits, dots, dashes, underscores and
# plus signs (v1.2, 2026-03, release_4, 1.0.0+build.5), at most 64 characters.
NAME_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9._+-]{0,63}$"


def release_name(**kwargs):
    kwargs.setdefault("metadata", {"description": "Unique in the project: v1.2, 2026-03, 1.0.0+build.5."})
    return fields.String(
        validate=validate.Regexp(
            NAME_PATTERN,
            error="a letter or digit, then letters, digits, '.', '-', '_' or '+'; at most 64 characters.",
        ),
        **kwargs,
    )


class ReleaseCreate(ApiSchema):
    name = release_name(required=True)
    asOf = fields.String(
        validate=validate.Length(min=1, max=64),
        metadata={
            "description": "The moment the release names: an ISO-8601 instant with its offset, or "
            "an operation's id (the state right after it); now when left out."
        },
    )
    description = fields.String(validate=validate.Length(max=2000), load_default="")
    freezeFrom = fields.AwareDateTime(
        default_timezone=UTC,
        allow_none=True,
        metadata={"description": "The string freeze begins (source texts change only for admins)."},
    )
    freezeUntil = fields.AwareDateTime(
        default_timezone=UTC,
        allow_none=True,
        metadata={"description": "The string freeze ends (open when left out); from now when only this."},
    )


class ReleaseActor(ApiSchema):
    type = fields.String(required=True)
    id = fields.String(required=True, allow_none=True)
    name = fields.String(required=True, allow_none=True)


class ReleaseOut(ApiSchema):
    id = fields.String(required=True)
    name = fields.String(required=True)
    description = fields.String(required=True)
    at = fields.DateTime(required=True)
    operationId = fields.String(required=True, allow_none=True)
    freezeFrom = fields.DateTime(required=True, allow_none=True)
    freezeUntil = fields.DateTime(required=True, allow_none=True)
    frozen = fields.Boolean(required=True)
    tag = fields.String(required=True, allow_none=True)
    createdAt = fields.DateTime(required=True)
    createdBy = fields.Nested(ReleaseActor, required=True)


class ReleaseEnvelope(ApiSchema):
    release = fields.Nested(ReleaseOut, required=True)


class ReleaseList(ApiSchema):
    releases = fields.List(fields.Nested(ReleaseOut), required=True)


class CompareQuery(ApiSchema):
    with_ = release_name(
        data_key="with",
        attribute="with",
        metadata={"description": "The other release; the project now when left out."},
    )


class ReleaseKey(ApiSchema):
    fileName = fields.String(required=True)
    key = fields.String(required=True)


class ReleaseValueChange(ApiSchema):
    fileName = fields.String(required=True)
    key = fields.String(required=True)
    old = fields.String(required=True, allow_none=True)
    new = fields.String(required=True, allow_none=True)


class ReleaseKeyChanges(ApiSchema):
    added = fields.List(fields.Nested(ReleaseKey), required=True)
    removed = fields.List(fields.Nested(ReleaseKey), required=True)
    addedCount = fields.Integer(required=True)
    removedCount = fields.Integer(required=True)


class ReleaseChangeCounts(ApiSchema):
    added = fields.Integer(required=True)
    removed = fields.Integer(required=True)
    changed = fields.Integer(required=True)


class ReleaseLanguageChanges(ApiSchema):
    added = fields.List(fields.Nested(ReleaseValueChange), required=True)
    removed = fields.List(fields.Nested(ReleaseValueChange), required=True)
    changed = fields.List(fields.Nested(ReleaseValueChange), required=True)
    counts = fields.Nested(ReleaseChangeCounts, required=True)


class ReleaseSide(ApiSchema):
    release = fields.String(required=True, allow_none=True)
    at = fields.DateTime(required=True, allow_none=True)


class ReleaseComparison(ApiSchema):
    from_ = fields.Nested(ReleaseSide, required=True, data_key="from", attribute="from")
    to = fields.Nested(ReleaseSide, required=True)
    keys = fields.Nested(ReleaseKeyChanges, required=True)
    languages = fields.Dict(keys=fields.String(), values=fields.Nested(ReleaseLanguageChanges), required=True)
    truncated = fields.Boolean(required=True)
