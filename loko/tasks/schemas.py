"""What the task endpoints take and answer."""

from marshmallow import ValidationError, fields, validate, validates_schema

from loko.fields import ApiSchema, FileName, LanguageCode, UuidString, no_control_characters
from loko.tasks.models import KINDS, STATES

MAX_KEYS = 10_000
TEXT = [no_control_characters]


class TaskFilter(ApiSchema):
    """The editor's filters choosing the keys (every one given must hold)."""

    fileName = FileName()
    search = fields.String(validate=[validate.Length(min=1, max=256), *TEXT])
    missing = LanguageCode(metadata={"description": "Keys without a value in this language."})
    changedSince = fields.Date()
    needsReview = fields.Boolean(metadata={"description": "Keys with a value waiting for a review."})
    issues = fields.String(
        validate=[validate.Length(min=1, max=32), *TEXT],
        metadata={"description": "`any`, or a check's code: keys a check found wrong."},
    )
    screenshots = fields.String(validate=validate.OneOf(["with", "without"]))


class TaskCreate(ApiSchema):
    kind = fields.String(required=True, validate=validate.OneOf(KINDS))
    language = LanguageCode(required=True)
    title = fields.String(required=True, validate=[validate.Length(min=1, max=200), *TEXT])
    description = fields.String(load_default="", validate=[validate.Length(max=5000)])
    dueAt = fields.AwareDateTime(allow_none=True, load_default=None, default_timezone=None)
    assignees = fields.List(UuidString(), load_default=list, validate=validate.Length(max=100))
    assigneeEmails = fields.List(
        fields.Email(validate=validate.Length(max=320)),
        validate=validate.Length(max=100),
        metadata={"description": "Assignees by their e-mail (people of the project), besides `assignees`."},
    )
    keys = fields.List(
        fields.String(validate=validate.Length(min=1, max=36)),
        validate=validate.Length(min=1, max=MAX_KEYS),
        metadata={"description": "The keys' ids; or give `filter`."},
    )
    filter = fields.Nested(TaskFilter, metadata={"description": "The editor's filters; or give `keys`."})
    dryRun = fields.Boolean(
        load_default=False, metadata={"description": "Count the keys and list the overlaps only."}
    )

    @validates_schema
    def keys_or_filter(self, data, **_kwargs):
        if ("keys" in data) == ("filter" in data):
            raise ValidationError("Give either keys or filter.", field_name="keys")


class TaskPatch(ApiSchema):
    BODY_REQUIRED = True

    title = fields.String(validate=[validate.Length(min=1, max=200), *TEXT])
    description = fields.String(validate=[validate.Length(max=5000)])
    dueAt = fields.AwareDateTime(allow_none=True)
    state = fields.String(validate=validate.OneOf(STATES))
    assignees = fields.List(UuidString(), validate=validate.Length(max=100))


class TasksQuery(ApiSchema):
    state = fields.String(validate=validate.OneOf((*STATES, "all")), load_default="all")


class PersonOut(ApiSchema):
    id = fields.String()
    name = fields.String()
    email = fields.String()


class ProgressOut(ApiSchema):
    keys = fields.Integer()
    translated = fields.Integer()
    reviewed = fields.Integer()
    done = fields.Boolean()
    percent = fields.Integer()


class TaskOut(ApiSchema):
    id = fields.String()
    projectId = fields.String()
    projectName = fields.String()
    kind = fields.String()
    language = fields.String()
    title = fields.String()
    description = fields.String()
    dueAt = fields.DateTime(allow_none=True)
    state = fields.String()
    keyCount = fields.Integer()
    createdBy = fields.Dict()
    createdAt = fields.DateTime()
    closedAt = fields.DateTime(allow_none=True)
    assignees = fields.List(fields.Nested(PersonOut))
    progress = fields.Nested(ProgressOut, allow_none=True)


class OverlapOut(ApiSchema):
    translationId = fields.String()
    fileName = fields.String()
    key = fields.String()
    taskId = fields.String()
    taskTitle = fields.String()


class TaskCreated(ApiSchema):
    task = fields.Nested(TaskOut, allow_none=True)
    keyCount = fields.Integer()
    overlaps = fields.List(
        fields.Nested(OverlapOut),
        metadata={"description": "Keys already in another open task of the same kind and language."},
    )


class TaskEnvelope(ApiSchema):
    task = fields.Nested(TaskOut)


class TaskList(ApiSchema):
    tasks = fields.List(fields.Nested(TaskOut))
