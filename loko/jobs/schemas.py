"""A job as the endpoints answer it."""

from marshmallow import fields

from loko.fields import ApiSchema
from loko.jobs.models import STATES


class JobProgress(ApiSchema):
    done = fields.Integer(required=True)
    total = fields.Integer(allow_none=True, required=True)


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


class JobEnvelope(ApiSchema):
    job = fields.Nested(JobOut, required=True)


class JobList(ApiSchema):
    jobs = fields.List(fields.Nested(JobOut), required=True)
