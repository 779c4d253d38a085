"""The audit log's daily job: events older than ``LOKO_AUDIT_RETENTION_DAYS`` are deleted
(0 keeps them for ever)."""

from datetime import timedelta

from flask import current_app

from loko.audit import service
from loko.jobs.registry import handler

PRUNE_AUDIT = "audit-prune"


@handler(PRUNE_AUDIT, every=timedelta(days=1))
def prune_audit_events(_context, _payload: dict) -> dict:
    days = current_app.config["LOKO_AUDIT_RETENTION_DAYS"]
    deleted = service.prune(timedelta(days=days)) if days > 0 else 0
    return {"deleted": deleted, "retentionDays": days}
