"""The repository integration's background job: the sync a webhook delivery queued."""

from loko.jobs.registry import Postpone, handler
from loko.repohost import service


@handler(service.SYNC_JOB)
def webhook_sync(context, payload: dict) -> dict:
    try:
        return service.webhook_sync(context.project_id, payload["userId"])
    except service.RunBusy:
        # Not a failure: the job waits for the push or sync holding the project.
        raise Postpone(
            seconds=1, reason="waiting for the push or sync of the project that is running"
        ) from None
