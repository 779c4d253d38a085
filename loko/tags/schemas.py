"""What the tag endpoints take and answer."""

from marshmallow import ValidationError, fields, validate, validates_schema

from loko.fields import (
    MAX_BULK_ITEMS,
    MAX_TAGS,
    ApiSchema,
    FileName,
    TagName,
    UuidString,
    no_control_characters,
)

TAG_LIST = validate.Length(max=MAX_TAGS)


def _tags(description: str):
    return fields.List(TagName(), load_default=list, validate=TAG_LIST, metadata={"description": description})


class TagOut(ApiSchema):
    name = fields.String(required=True)
    keys = fields.Integer(required=True, metadata={"description": "The active keys carrying the tag."})


class TagList(ApiSchema):
    tags = fields.List(fields.Nested(TagOut), required=True)


# At least one tag, to add or to remove.
SOME_TAG = {
    "anyOf": [
        {"required": ["add"], "properties": {"add": {"minItems": 1}}},
        {"required": ["remove"], "properties": {"remove": {"minItems": 1}}},
    ]
}


class KeyTagsChange(ApiSchema):
    """Tags to add to and to remove from one key."""

    BODY_REQUIRED = True

    class Meta(ApiSchema.Meta):
        json_schema = SOME_TAG

    add = _tags("Tags to add (those the key carries already are left as they are).")
    remove = _tags("Tags to remove (those the key lacks are left as they are).")


class KeyTagsOut(ApiSchema):
    translationId = fields.String(required=True)
    key = fields.String(required=True)
    fileName = fields.String(required=True)
    tags = fields.List(fields.String(), required=True, metadata={"description": "The key's tags, by name."})
    operationId = fields.String(
        allow_none=True,
        metadata={
            "description": "The change as one operation (undo it with POST history/revert); null if none."
        },
    )


class KeyFilter(ApiSchema):
    """Which keys: every active key of the project matching every field given."""

    fileName = FileName()
    search = fields.String(
        validate=[validate.Length(min=1, max=256), no_control_characters],
        metadata={"description": "Keys whose key contains this (case-insensitive)."},
    )
    tags = fields.List(
        TagName(), validate=TAG_LIST, metadata={"description": "Keys with every one of these tags."}
    )
    excludeTags = fields.List(
        TagName(), validate=TAG_LIST, metadata={"description": "Keys with none of these tags."}
    )


class BulkTagRequest(ApiSchema):
    """Tags to add to and remove from many keys, named by ``ids`` or chosen by ``filter``."""

    BODY_REQUIRED = True

    class Meta(ApiSchema.Meta):
        json_schema = {"oneOf": [{"required": ["ids"]}, {"required": ["filter"]}], **SOME_TAG}

    add = _tags("Tags to add to each key chosen.")
    remove = _tags("Tags to remove from each key chosen.")
    ids = fields.List(
        UuidString(),
        validate=validate.Length(min=1, max=MAX_BULK_ITEMS),
        metadata={"description": "The keys (translation ids), each an active key of the project."},
    )
    filter = fields.Nested(
        KeyFilter, metadata={"description": "The keys matching it (`{}`: every active key of the project)."}
    )

    @validates_schema
    def ids_or_filter(self, data, **kwargs):
        if ("ids" in data) == ("filter" in data):
            raise ValidationError("Name the keys by ids or choose them by a filter (one of the two).", "ids")


class BulkTagResult(ApiSchema):
    matched = fields.Integer(required=True, metadata={"description": "The keys chosen."})
    added = fields.Integer(
        required=True, metadata={"description": "Tags added (a key that had one counts none)."}
    )
    removed = fields.Integer(required=True, metadata={"description": "Tags removed."})
    operationId = fields.String(
        required=True,
        allow_none=True,
        metadata={"description": "The change as one operation (kind tag; POST history/revert undoes it)."},
    )
