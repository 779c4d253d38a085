"""The memory's background jobs: a TMX import, and the refresh of the index from the writes
since the last one (every 30 seconds; writes themselves never touch the index)."""

import base64
from datetime import timedelta

from loko.jobs.registry import handler
from loko.memory import service

REFRESH_EVERY = timedelta(seconds=30)


@handler(service.IMPORT_JOB)
def run_import(context, payload: dict) -> dict:
    context.progress(0, 1)
    return service.import_tmx(payload["organizationId"], base64.b64decode(payload["data"]))


@handler(service.REFRESH_JOB, every=REFRESH_EVERY, announced=False)
def refresh(_context, _payload: dict) -> dict:
    return service.refresh_index()
