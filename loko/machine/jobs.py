"""The pre-translation's background job (``POST /api/projects/{id}/pretranslate``): its
report is the job's result."""

from loko.auth.actors import actor_from_record
from loko.jobs.registry import handler
from loko.machine.pretranslate import PRETRANSLATE_JOB, Request, pretranslate


@handler(PRETRANSLATE_JOB)
def run_pretranslate(context, payload: dict) -> dict:
    return pretranslate(
        actor_from_record(payload["actor"]),
        context.project_id,
        Request.from_payload(payload["request"]),
        payload["operationId"],
        progress=context.progress,
        cancelled=context.cancelled,
    )
