"""The webhooks' background job: one message delivered to one endpoint. A failed attempt
(no answer, or not a 2xx) raises, and the queue tries again after its backoff. A delivery
job ending raises no ``job.finished`` event: that would be another delivery, and so on."""

from loko.jobs.registry import handler
from loko.webhooks import service


@handler(service.DELIVERY_JOB, announced=False)
def deliver(context, payload: dict) -> dict:
    return service.deliver(payload, context.attempt)
