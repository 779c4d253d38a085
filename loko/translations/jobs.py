"""The translations' background job: the trash retention purge, once a day (``loko
purge-trash`` runs the same purge at once)."""

from datetime import timedelta

from flask import current_app

from loko.auth.actors import SystemActor
from loko.jobs.registry import handler
from loko.translations.service import purge_expired_trash

PURGE_TRASH = "purge-trash"


@handler(PURGE_TRASH, every=timedelta(days=1))
def purge_trash(_context, _payload: dict) -> dict:
    retention = current_app.config["LOKO_TRASH_RETENTION_DAYS"]
    purged = purge_expired_trash(SystemActor(name="scheduled trash purge"), retention)
    return {"purged": purged, "retentionDays": retention}
