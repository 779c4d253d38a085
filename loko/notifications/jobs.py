"""The notifications' background jobs: the fan-out of one event into messages, the e-mails
of those sent at once, the daily and weekly digests and the reminders of tasks due. None of
them raises ``job.finished`` (that would be told about again, without end)."""

from datetime import timedelta

from loko.jobs.registry import handler
from loko.notifications import service
from loko.notifications.models import DAILY, WEEKLY


@handler(service.FANOUT_JOB, announced=False)
def fan_out(_context, payload: dict) -> dict:
    return service.fan_out(payload)


@handler(service.EMAIL_JOB, announced=False)
def send_emails(_context, payload: dict) -> dict:
    return service.send_emails(payload["ids"])


@handler(service.ACCOUNT_EMAIL_JOB, announced=False)
def send_account_email(_context, payload: dict) -> dict:
    return service.send_account_email(payload)


@handler(service.DAILY_JOB, every=timedelta(days=1), announced=False)
def daily_digest(_context, _payload: dict) -> dict:
    return service.send_digests(DAILY)


@handler(service.WEEKLY_JOB, every=timedelta(days=7), announced=False)
def weekly_digest(_context, _payload: dict) -> dict:
    return service.send_digests(WEEKLY)


@handler(service.REMINDERS_JOB, every=timedelta(hours=1), announced=False)
def remind_due_tasks(_context, _payload: dict) -> dict:
    return service.remind_due_tasks()


@handler(service.PRUNE_JOB, every=timedelta(days=1), announced=False)
def prune(_context, _payload: dict) -> dict:
    return {"deleted": service.prune()}
