"""The webhooks' background jobs.

- The delivery: one message delivered to one endpoint. A failed attempt (no answer, or not
  a 2xx) raises, and the queue tries again after its backoff. A delivery job ending raises
  no ``job.finished`` event: that would be another delivery, and so on.
- The daily pruning of the delivery log: attempts older than ``LOKO_WEBHOOK_DELIVERY_DAYS``
  (0 keeps them for ever)."""

from datetime import timedelta

from flask import current_app

from loko.jobs.registry import handler
from loko.webhooks import service

PRUNE_DELIVERIES = "webhook-deliveries-prune"


@handler(service.DELIVERY_JOB, announced=False)
def deliver(context, payload: dict) -> dict:
    return service.deliver(payload, context.attempt)


@handler(PRUNE_DELIVERIES, every=timedelta(days=1))
def prune_deliveries(_context, _payload: dict) -> dict:
    days = current_app.config["LOKO_WEBHOOK_DELIVERY_DAYS"]
    deleted = service.prune_deliveries(timedelta(days=days)) if days > 0 else 0
    return {"deleted": deleted, "retentionDays": days}
