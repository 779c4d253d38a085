from marshmallow import fields, validate

from loko.fields import MAX_BULK_ITEMS, ApiSchema, FileName, LanguageCode, TranslationKey
from loko.quality.review import REVIEW_STATES
from loko.translations.models import REVIEW_REASONS, VALUE_STATES

MAX_OFFSET = 2**31 - 1


class ReviewRequest(ApiSchema):
    fileName = FileName(required=True)
    keys = fields.List(
        TranslationKey(),
        required=True,
        validate=validate.Length(min=1, max=MAX_BULK_ITEMS),
        metadata={"description": "At most 10,000 keys of the file; unknown keys are ignored."},
    )
    languages = fields.List(
        LanguageCode(),
        required=True,
        validate=validate.Length(min=1, max=1000),
        metadata={"description": "Languages of the project (400 naming one it does not have)."},
    )
    state = fields.String(
        required=True,
        validate=validate.OneOf(REVIEW_STATES),
        metadata={"description": "reviewed, or needs-review to ask for a review again."},
    )


class ReviewResult(ApiSchema):
    updated = fields.Integer(required=True, metadata={"description": "Values whose state changed."})


class ChecksQuery(ApiSchema):
    check = fields.String(
        validate=validate.Length(min=1, max=32), metadata={"description": "A check's code."}
    )
    language = LanguageCode()
    fileName = FileName()
    limit = fields.Integer(load_default=100, validate=validate.Range(min=1, max=1000))
    offset = fields.Integer(load_default=0, validate=validate.Range(min=0, max=MAX_OFFSET))


REASON_DESCRIPTION = (
    "Why the value waits for a review: source-changed (its source value changed since), agent "
    "(written through the MCP server), pre-translated, machine-unedited or memory-unedited (a "
    "machine translation or a memory match saved as suggested), requested (a person asked for "
    "a review) or undone (an undo took it back from a reviewed text). null in the other states, "
    "and for values sent to review before reasons were recorded."
)


class IssueCount(ApiSchema):
    language = fields.String(required=True)
    check = fields.String(required=True)
    issues = fields.Integer(required=True, metadata={"description": "Values with issues of this check."})


class NeedsReviewCount(ApiSchema):
    language = fields.String(required=True)
    values = fields.Integer(required=True)


class IssueOut(ApiSchema):
    key = fields.String(required=True)
    fileName = fields.String(required=True)
    language = fields.String(required=True)
    check = fields.String(required=True)
    message = fields.String(required=True)
    fix = fields.String(
        required=True, allow_none=True, metadata={"description": "The corrected value, when one is certain."}
    )
    value = fields.String(required=True)
    state = fields.String(required=True, metadata={"description": "translated, reviewed or needs-review."})
    reason = fields.String(required=True, allow_none=True, metadata={"description": REASON_DESCRIPTION})


class ChecksPage(ApiSchema):
    levels = fields.Dict(
        keys=fields.String(),
        values=fields.String(),
        required=True,
        metadata={"description": "Each check's level in this project: off, warn or refuse."},
    )
    counts = fields.List(fields.Nested(IssueCount), required=True)
    needsReview = fields.List(fields.Nested(NeedsReviewCount), required=True)
    total = fields.Integer(required=True, metadata={"description": "Issues matching the filters."})
    issues = fields.List(fields.Nested(IssueOut), required=True)


class ReviewQueueQuery(ApiSchema):
    state = fields.String(
        validate=validate.OneOf(VALUE_STATES),
        metadata={"description": "Only values in this state: needs-review lists a reviewer's queue."},
    )
    reason = fields.String(
        validate=validate.OneOf(REVIEW_REASONS),
        metadata={"description": "Only values waiting for a review for this reason."},
    )
    check = fields.String(
        validate=validate.Length(min=1, max=32),
        metadata={"description": "Only values with an open issue of this check (a check's code)."},
    )
    language = LanguageCode()
    fileName = FileName()
    limit = fields.Integer(load_default=100, validate=validate.Range(min=1, max=1000))
    offset = fields.Integer(load_default=0, validate=validate.Range(min=0, max=MAX_OFFSET))


class QueuedValue(ApiSchema):
    translationId = fields.String(required=True)
    key = fields.String(required=True)
    fileName = fields.String(required=True)
    language = fields.String(required=True)
    value = fields.String(required=True)
    state = fields.String(required=True, metadata={"description": "translated, reviewed or needs-review."})
    reason = fields.String(required=True, allow_none=True, metadata={"description": REASON_DESCRIPTION})
    checks = fields.List(
        fields.String(),
        required=True,
        metadata={"description": "The checks with an open issue in the value."},
    )
    updatedAt = fields.DateTime(required=True, metadata={"description": "When the value was last written."})


class ReviewQueuePage(ApiSchema):
    total = fields.Integer(required=True, metadata={"description": "Values matching the filters."})
    values = fields.List(fields.Nested(QueuedValue), required=True)
