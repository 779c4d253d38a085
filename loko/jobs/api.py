"""/api/projects/{id}/jobs: a project's background jobs, one job, and its cancellation."""

from flask import Blueprint

from loko.auth import policy
from loko.auth.identity import current_actor
from loko.http import load_query
from loko.jobs import service
from loko.jobs.schemas import JobEnvelope, JobList, JobsQuery
from loko.openapi import documented

jobs_api = Blueprint("jobs_api", __name__)
BASE = "/projects/<uuid:project_id>/jobs"
TAGS = ("jobs",)


@jobs_api.get(BASE)
@documented(
    "The project's latest background jobs (newest first)",
    tags=TAGS,
    query=JobsQuery,
    responses={200: JobList},
    description="The latest 50 of `kind`; without it, of every kind but webhook deliveries.",
)
def list_jobs(project_id):
    query = load_query(JobsQuery)
    policy.require_permission(current_actor(), str(project_id), policy.VIEW_JOBS)
    return JobList().dump({"jobs": service.list_jobs(str(project_id), query.get("kind"))})


@jobs_api.get(BASE + "/<job_id>")
@documented(
    "A background job: its state, progress and result",
    tags=TAGS,
    responses={200: JobEnvelope},
    description=(
        "`state` is `queued`, `running`, `succeeded`, `failed` (after its last attempt) or "
        "`cancelled`; `result` holds the handler's answer once it succeeded."
    ),
)
def get_job(project_id, job_id):
    policy.require_permission(current_actor(), str(project_id), policy.VIEW_JOBS)
    return JobEnvelope().dump({"job": service.get_job(str(project_id), job_id)})


@jobs_api.post(BASE + "/<job_id>/cancel")
@documented(
    "Cancel a queued or running job",
    tags=TAGS,
    responses={200: JobEnvelope},
    errors=(401, 403, 404, 409),
    description="A running job stops when its handler next checks; a finished one is a 409.",
)
def cancel_job(project_id, job_id):
    policy.require_permission(current_actor(), str(project_id), policy.CANCEL_JOBS)
    return JobEnvelope().dump({"job": service.cancel(str(project_id), job_id)})
