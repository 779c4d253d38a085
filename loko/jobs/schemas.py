"""A job as the endpoints answer it."""

from marshmallow import fields, validate

from loko.fields import ApiSchema, no_control_characters
from loko.jobs.models import STATES


class JobProgress(ApiSchema):
    done = fields.Integer(required=True)
    total = fields.Integer(allow_none=True, required=True)


class JobStarter(ApiSchema):
    type = fields.String(required=True, metadata={"enum": ["user", "api_key", "system"]})
    name = fields.String(required=True, allow_none=True, metadata={"description": "A user's email."})


class JobOut(ApiSchema):
    id = fields.String(required=True)
    kind = fields.String(
        required=True, metadata={"description": "The handler: `import`, `repohost-sync` ..."}
    )
    projectId = fields.String(allow_none=True, required=True)
    state = fields.String(required=True, metadata={"enum": list(STATES)})
    attempts = fields.Integer(required=True)
    maxAttempts = fields.Integer(required=True)
    progress = fields.Nested(JobProgress, required=True)
    result = fields.Raw(
        allow_none=True,
        required=True,
        metadata={
            "description": "The handler's answer once succeeded (an import's: as its synchronous answer)."
        },
    )
    error = fields.String(
        allow_none=True, required=True, metadata={"description": "The last attempt's error."}
    )
    runAfter = fields.DateTime(required=True)
    createdAt = fields.DateTime(required=True)
    startedAt = fields.DateTime(allow_none=True, required=True)
    finishedAt = fields.DateTime(allow_none=True, required=True)
    startedBy = fields.Nested(
        JobStarter,
        allow_none=True,
        required=True,
        metadata={"description": "Who the job acts for (null: Loko's own maintenance)."},
    )
    about = fields.Raw(
        allow_none=True,
        required=True,
        metadata={
            "description": "What it was asked, kept after it ends (a pre-translation's "
            "`languages`, `files`, `provider`, `memory`); null for kinds that say nothing."
        },
    )


class JobEnvelope(ApiSchema):
    job = fields.Nested(JobOut, required=True)


class JobList(ApiSchema):
    jobs = fields.List(fields.Nested(JobOut), required=True)


class JobsQuery(ApiSchema):
    kind = fields.String(
        validate=[validate.Length(min=1, max=64), no_control_characters],
        metadata={
            "description": "Only jobs of this kind. Without it, every kind but webhook deliveries "
            "(`webhook-delivery`), listed only when asked for."
        },
    )
