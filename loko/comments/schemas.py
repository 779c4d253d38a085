"""What the comment endpoints take and answer."""

from marshmallow import ValidationError, fields, validate, validates_schema

from loko.comments.models import MAX_BODY
from loko.fields import ApiSchema, LanguageCode

STATUSES = ("open", "resolved", "all")
# Some character that is not a space, and no NUL (which no request may carry).
NOT_BLANK = r"^[^\x00]*[^\x00\s][^\x00]*$"


def comment_body(description="The comment's text: 1 to 5,000 characters, not only spaces.", **kwargs):
    return fields.String(
        validate=[
            validate.Length(min=1, max=MAX_BODY, error="must be 1 to 5,000 characters."),
            validate.Regexp(NOT_BLANK, error="must not be blank."),
        ],
        metadata={"description": description},
        **kwargs,
    )


class CommentCreate(ApiSchema):
    body = comment_body(required=True)
    language = LanguageCode(
        allow_none=True,
        load_default=None,
        metadata={
            "description": "The language the comment is about, one of the project's; "
            "left out or null for the whole key."
        },
    )


class CommentPatch(ApiSchema):
    """Resolve or reopen a comment, or change its text (its author only)."""

    BODY_REQUIRED = True  # one of the fields, so never an empty body

    resolved = fields.Boolean(metadata={"description": "true resolves the comment, false reopens it."})
    body = comment_body("The new text, 1 to 5,000 characters (the comment's author only).")

    class Meta(ApiSchema.Meta):
        json_schema = {"anyOf": [{"required": ["resolved"]}, {"required": ["body"]}]}

    @validates_schema
    def some_change(self, data, **_kwargs):
        if "resolved" not in data and "body" not in data:
            raise ValidationError("Give resolved or body.", field_name="resolved")


class CommentsQuery(ApiSchema):
    language = LanguageCode(metadata={"description": "Only the comments about this language."})
    status = fields.String(
        load_default="all",
        validate=validate.OneOf(STATUSES),
        metadata={"description": "open, resolved or all (the default)."},
    )


class CommentActorOut(ApiSchema):
    type = fields.String(required=True, metadata={"description": "user or api_key"})
    id = fields.String(required=True, allow_none=True)
    name = fields.String(required=True)


class CommentOut(ApiSchema):
    id = fields.String(required=True)
    translationId = fields.String(required=True)
    language = fields.String(
        required=True, allow_none=True, metadata={"description": "null: about the whole key."}
    )
    body = fields.String(required=True)
    author = fields.Nested(CommentActorOut, required=True)
    createdAt = fields.DateTime(required=True)
    editedAt = fields.DateTime(required=True, allow_none=True)
    resolved = fields.Boolean(required=True)
    resolvedAt = fields.DateTime(required=True, allow_none=True)
    resolvedBy = fields.Nested(CommentActorOut, required=True, allow_none=True)


class CommentEnvelope(ApiSchema):
    comment = fields.Nested(CommentOut, required=True)


class CommentList(ApiSchema):
    comments = fields.List(fields.Nested(CommentOut), required=True)
