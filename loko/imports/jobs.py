"""The import's background job (``POST .../import?async=true``): the same import, its answer
kept as the job's result."""

import base64

from loko.auth.actors import actor_from_record
from loko.imports.schemas import ImportResult
from loko.imports.service import IMPORT_JOB, ImportOptions, import_files
from loko.jobs.registry import handler


@handler(IMPORT_JOB)
def run_import(context, payload: dict) -> dict:
    context.progress(0, 1)
    answer = import_files(
        actor_from_record(payload["actor"]),
        context.project_id,
        base64.b64decode(payload["data"]),
        ImportOptions(**payload["options"]),
    )
    return ImportResult().dump(answer)
