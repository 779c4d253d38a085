"""The checks' background job: the issues of a large write's values, stored right after it
commits (``service.CHECKED_LATER_ABOVE``), in paced transactions, so the write itself runs
only the checks that may refuse it."""

from loko.database import Paced
from loko.jobs.registry import handler
from loko.quality.service import CHECK_WRITTEN, check_operation

KEYS_PER_TRANSACTION = 2000  # at most; fewer when they would hold the write lock long
FIRST_KEYS = 200


@handler(CHECK_WRITTEN, announced=False)
def check_written(_context, payload: dict) -> dict:
    """Check the values an operation wrote as they are now (idempotent: a job run again
    stores the same issues)."""
    pace = Paced(FIRST_KEYS, most=KEYS_PER_TRANSACTION)
    return {"keys": check_operation(payload["projectId"], payload["operationId"], pace.chunks)}
