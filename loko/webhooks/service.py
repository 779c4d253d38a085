"""Webhooks' use cases: manage a project's endpoints; turn the domain events of a
transaction into one delivery job per matching endpoint, enqueued in that transaction; and
deliver one message (the job's work), signed as Standard Webhooks specifies.

Events are batched per transaction: every ``values.changed`` (and every ``key.*``) a write
use case raises becomes one message listing its first ``EVENT_ITEMS`` items with the count of
all of them. The messages are built and their jobs enqueued just before the transaction
commits, so a write that rolls back sends nothing and one that commits always does."""

import base64
import secrets
import time
from datetime import UTC, datetime, timedelta

import orjson
from flask import current_app
from sqlalchemy import bindparam, exists, insert, select

from loko import events
from loko.audit import service as audit
from loko.auth import policy
from loko.database import (
    SESSION_STATEMENTS,
    DriverQuery,
    at_transaction_end,
    new_id,
    run_alone,
    unit_of_work,
    utcnow,
)
from loko.errors import BadRequest, NotFound
from loko.extensions import db
from loko.jobs import service as jobs
from loko.webhooks.models import Webhook, WebhookDelivery

DELIVERY_JOB = "webhook-delivery"
EVENT_ITEMS = 100
DELIVERIES_LISTED = 50
SNIPPET = 500
ERROR_LIMIT = 1000
SECRET_BYTES = 32
SECRET_PREFIX = "whsec_"  # noqa: S105 - the prefix, not a secret
WEBHOOK_NOT_FOUND = "Webhook not found."
_PENDING = "loko_webhook_events"
_ENDPOINTS = "loko_webhook_endpoints"
_SENT = "loko_webhook_endpoints_sent"  # the endpoints' queries sent ahead (``Listener.expect``)
ENDPOINTS = "SELECT id, events FROM webhooks WHERE project_id = ? AND enabled = ?"


class DeliveryFailed(Exception):
    """An attempt that did not get a 2xx: the job is tried again after the queue's backoff."""


class DeliveryRefused(BadRequest):
    """The endpoint's address may not be reached (private, loopback, not https): a refusal
    the queue does not try again."""


# Managing endpoints


def _allow_private() -> bool:
    from loko import outbound

    return outbound.allow_private(current_app.config)


def _secrets():
    from loko import secrets as stored

    return stored


def new_secret() -> str:
    return SECRET_PREFIX + base64.b64encode(secrets.token_bytes(SECRET_BYTES)).decode()


def describe(hook: Webhook) -> dict:
    return {
        "id": hook.id,
        "url": hook.url,
        "description": hook.description,
        "events": orjson.loads(hook.events),
        "enabled": hook.enabled,
        "createdAt": hook.created_at,
        "updatedAt": hook.updated_at,
    }


def describe_delivery(delivery: WebhookDelivery) -> dict:
    return {
        "id": delivery.id,
        "messageId": delivery.message_id,
        "eventType": delivery.event_type,
        "attempt": delivery.attempt,
        "succeeded": delivery.succeeded,
        "statusCode": delivery.status_code,
        "durationMs": delivery.duration_ms,
        "error": delivery.error,
        "responseSnippet": delivery.response_snippet,
        "createdAt": delivery.created_at,
    }


def _events(chosen) -> str:
    unknown = sorted(set(chosen) - set(events.KINDS))
    if unknown:
        raise BadRequest(f"events: unknown event {unknown[0]}.")
    if not chosen:
        raise BadRequest("events: choose at least one event.")
    return orjson.dumps([kind for kind in events.KINDS if kind in chosen]).decode()


def _hook(project_id: str, hook_id: str) -> Webhook:
    hook = db.session.get(Webhook, hook_id)
    if hook is None or hook.project_id != project_id:
        raise NotFound(WEBHOOK_NOT_FOUND)
    return hook


def list_webhooks(actor, project_id: str) -> list[dict]:
    policy.require_permission(actor, project_id, policy.MANAGE_WEBHOOKS)
    rows = db.session.scalars(
        select(Webhook).where(Webhook.project_id == project_id).order_by(Webhook.created_at, Webhook.id)
    )
    return [describe(hook) for hook in rows]


def list_webhooks_with_deliveries(actor, project_id: str, deliveries: int = 5) -> list[dict]:
    """The project's endpoints, each with its latest ``deliveries`` attempts (for the page)."""
    hooks = list_webhooks(actor, project_id)
    for hook in hooks:
        hook["deliveries"] = _deliveries(hook["id"], deliveries)
    return hooks


def get_webhook(actor, project_id: str, hook_id: str) -> dict:
    policy.require_permission(actor, project_id, policy.MANAGE_WEBHOOKS)
    return describe(_hook(project_id, hook_id))


def create_webhook(actor, project_id: str, data: dict) -> tuple[dict, str]:
    """A new endpoint and its secret, which is answered this once and then only kept
    encrypted."""
    secret = new_secret()
    with unit_of_work():
        policy.require_permission(actor, project_id, policy.MANAGE_WEBHOOKS)
        now = utcnow()
        hook = Webhook(
            project_id=project_id,
            url=data["url"],
            description=data.get("description") or "",
            events=_events(data["events"]),
            enabled=data.get("enabled", True),
            secret_encrypted=_secrets().encrypt(current_app.config["LOKO_SECRET_KEY"], secret),
            created_at=now,
            updated_at=now,
        )
        db.session.add(hook)
        db.session.flush()
        audit.record_for_project_id(actor, project_id, "webhook.created", _target(hook), _audit_details(hook))
        return describe(hook), secret


def _target(hook: Webhook) -> audit.Target:
    return audit.Target("webhook", hook.id, audit.safe_url(hook.url))


def _audit_details(hook: Webhook, changed=None) -> dict:
    """What the audit log keeps of an endpoint: its address without credentials or query,
    never its secret."""
    details = {"url": audit.safe_url(hook.url), "events": orjson.loads(hook.events), "enabled": hook.enabled}
    return details | ({"fields": sorted(changed)} if changed is not None else {})


def update_webhook(actor, project_id: str, hook_id: str, data: dict) -> dict:
    with unit_of_work():
        policy.require_permission(actor, project_id, policy.MANAGE_WEBHOOKS)
        hook = _hook(project_id, hook_id)
        if "url" in data:
            hook.url = data["url"]
        if "description" in data:
            hook.description = data["description"] or ""
        if "events" in data:
            hook.events = _events(data["events"])
        if "enabled" in data:
            hook.enabled = data["enabled"]
        hook.updated_at = utcnow()
        audit.record_for_project_id(
            actor, project_id, "webhook.updated", _target(hook), _audit_details(hook, data)
        )
        return describe(hook)


def delete_webhook(actor, project_id: str, hook_id: str) -> None:
    with unit_of_work():
        policy.require_permission(actor, project_id, policy.MANAGE_WEBHOOKS)
        hook = _hook(project_id, hook_id)
        audit.record_for_project_id(actor, project_id, "webhook.deleted", _target(hook), _audit_details(hook))
        db.session.delete(hook)


def _deliveries(hook_id: str, limit: int) -> list[dict]:
    rows = db.session.scalars(
        select(WebhookDelivery)
        .where(WebhookDelivery.webhook_id == hook_id)
        .order_by(WebhookDelivery.created_at.desc(), WebhookDelivery.id.desc())
        .limit(limit)
    )
    return [describe_delivery(delivery) for delivery in rows]


def list_deliveries(actor, project_id: str, hook_id: str) -> list[dict]:
    """The endpoint's latest delivery attempts, newest first."""
    policy.require_permission(actor, project_id, policy.MANAGE_WEBHOOKS)
    _hook(project_id, hook_id)
    return _deliveries(hook_id, DELIVERIES_LISTED)


def redeliver(actor, project_id: str, hook_id: str, delivery_id: str) -> dict:
    """Send a delivered (or failed) message again: the same id and body, a new signature;
    queued as a new delivery job, whose attempts are logged like the first ones."""
    with unit_of_work():
        policy.require_permission(actor, project_id, policy.MANAGE_WEBHOOKS)
        hook = _hook(project_id, hook_id)
        delivery = db.session.get(WebhookDelivery, delivery_id)
        if delivery is None or delivery.webhook_id != hook.id:
            raise NotFound("Delivery not found.")
        job = _enqueue(hook, delivery.message_id, delivery.event_type, delivery.body)
        return {"jobId": job.id, "messageId": delivery.message_id}


def prune_deliveries(kept: timedelta) -> int:
    """Delete the delivery attempts logged more than ``kept`` ago, in one statement (by
    endpoint and time, the log's index); how many."""
    with unit_of_work():
        return db.session.execute(
            WebhookDelivery.__table__.delete().where(
                WebhookDelivery.webhook_id.in_(select(Webhook.id)),
                WebhookDelivery.created_at < utcnow() - kept,
            )
        ).rowcount


def _enqueue(hook: Webhook, message_id: str, event_type: str, body: str):
    return jobs.enqueue(
        DELIVERY_JOB,
        {"webhookId": hook.id, "messageId": message_id, "eventType": event_type, "body": body},
        project_id=hook.project_id,
    )


# Listening to the domain events


class Listener:
    """Registered with ``loko.events`` by ``create_app``. Keeps, in the session, the enabled
    endpoints of each project it was asked about (one query per project and transaction) and
    the transaction's events until it commits."""

    def wanted(self, project_id: str, kind: str) -> bool:
        return any(kind in wants for _hook_id, wants in self._endpoints(project_id))

    def emit(
        self, project_id: str, kind: str, items: list[dict], count: int, author: str | None = None
    ) -> None:
        pending = self._pending()
        batch = pending.setdefault((project_id, kind), {"items": [], "count": 0})
        room = EVENT_ITEMS - len(batch["items"])
        batch["items"].extend(items[: max(room, 0)])
        batch["count"] += count

    def emit_one(self, project_id: str, kind: str, data: dict) -> None:
        self._pending()[(project_id, kind, new_id())] = {"data": data}

    def expect(self, project_id: str, statements) -> None:
        """A write of the project will ask: send the question now, in its pipelined round
        trip (``SessionStatements.ahead``), and read the answer when it asks. Statements
        that send nothing ahead (SQLite's) ask nothing here, and make no session for it."""
        if not statements.pipelining():
            return
        session = db.session()
        if project_id in session.info.get(_ENDPOINTS, {}):
            return
        sent = statements.ahead(ENDPOINTS, (project_id, True))
        if sent is not None:
            session.info.setdefault(_SENT, {})[project_id] = sent

    def _endpoints(self, project_id: str) -> list[tuple[str, set]]:
        session = db.session()
        known = session.info.setdefault(_ENDPOINTS, {})
        if project_id not in known:
            sent = session.info.get(_SENT, {}).pop(project_id, None)
            if sent is None:
                # By the driver: a write may ask in the middle of its pipelined statements.
                rows = SESSION_STATEMENTS.fetch(ENDPOINTS, (project_id, True))
            else:
                try:
                    rows = sent.fetchall()
                finally:
                    sent.close()
            known[project_id] = [(hook_id, set(orjson.loads(wants))) for hook_id, wants in rows]
        return known[project_id]

    def _pending(self) -> dict:
        return db.session().info.setdefault(_PENDING, {})


def _forget(session) -> None:
    session.info.pop(_PENDING, None)
    session.info.pop(_ENDPOINTS, None)
    for sent in session.info.pop(_SENT, {}).values():
        sent.close()


def _send_pending(session) -> None:
    """Just before the commit: one message per batched event, one job per endpoint."""
    pending = session.info.pop(_PENDING, None)
    if not pending:
        return
    endpoints = session.info.get(_ENDPOINTS, {})
    timestamp = utcnow().isoformat().replace("+00:00", "Z")
    for key, batch in pending.items():
        project_id, kind = key[0], key[1]
        if "data" in batch:
            data = {"projectId": project_id, **batch["data"]}
        else:
            items = batch["items"]
            data = {
                "projectId": project_id,
                "count": batch["count"],
                "truncated": batch["count"] > len(items),
                ("changes" if kind == events.VALUES_CHANGED else "keys"): items,
            }
        body = orjson.dumps({"type": kind, "timestamp": timestamp, "data": data}).decode()
        message_id = "msg_" + new_id()
        for hook_id, wants in endpoints.get(project_id, []):
            if kind in wants:
                jobs.enqueue_at_commit(
                    DELIVERY_JOB,
                    {"webhookId": hook_id, "messageId": message_id, "eventType": kind, "body": body},
                    project_id=project_id,
                )


LISTENER = Listener()


def start_listening() -> None:
    events.listen(LISTENER)


# Delivering (the job's work)


def _http_client():
    from loko import outbound

    return outbound.kept_http_client(_allow_private())


_ENDPOINT = DriverQuery(
    select(Webhook.url, Webhook.secret_encrypted, Webhook.enabled).where(
        Webhook.id == bindparam("webhook_id")
    )
)
_DELIVERIES = WebhookDelivery.__table__
# The attempt is logged only while its webhook exists: one statement, no read before it.
_LOG_DELIVERY = (
    insert(_DELIVERIES)
    .from_select(
        list(_DELIVERIES.c),
        select(*(bindparam(column.name, type_=column.type) for column in _DELIVERIES.c)).where(
            exists().where(Webhook.id == bindparam("webhook_id"))
        ),
    )
    .returning(_DELIVERIES.c.id)
)


def deliver(payload: dict, attempt: int) -> dict:
    """POST one message to its endpoint, outside any transaction, and log the attempt;
    DeliveryFailed (to be tried again) unless the endpoint answered 2xx. An endpoint deleted
    or disabled since is not called."""
    # Read alone, in autocommit: no transaction stays open while the endpoint is called.
    hook = _ENDPOINT.first(db.engine, {"webhook_id": payload["webhookId"]})
    if hook is None or not hook[2]:
        return {"skipped": "the webhook was deleted or disabled"}
    url, secret_encrypted, _enabled = hook
    secret = _secrets().decrypt(current_app.config["LOKO_SECRET_KEY"], secret_encrypted)
    headers = sign(secret, payload["messageId"], payload["body"], datetime.now(UTC))
    headers["Content-Type"] = "application/json"
    status, snippet, error, refused = None, None, None, False
    started = time.monotonic()
    try:
        response = _http_client().post(url, content=payload["body"].encode(), headers=headers)
        status, snippet = response.status_code, response.text[:SNIPPET]
    except Exception as failure:  # every failure is logged and retried
        error = _error_text(failure)
        # A refused address is refused again on every attempt: the job fails at once.
        refused = getattr(failure, "problem", None) == "refused"
    duration = int((time.monotonic() - started) * 1000)
    succeeded = status is not None and 200 <= status < 300
    logged = run_alone(
        _LOG_DELIVERY,
        {
            "id": new_id(),
            "webhook_id": payload["webhookId"],
            "message_id": payload["messageId"],
            "event_type": payload["eventType"],
            "body": payload["body"],
            "attempt": attempt,
            "status_code": status,
            "duration_ms": duration,
            "error": error,
            "response_snippet": snippet,
            "succeeded": succeeded,
            "created_at": utcnow(),
        },
    )
    if not logged:
        return {"skipped": "the webhook was deleted meanwhile"}
    if refused:
        raise DeliveryRefused(error)
    if not succeeded:
        raise DeliveryFailed(error or f"the endpoint answered {status}")
    return {"statusCode": status}


def _error_text(failure: Exception) -> str:
    message = getattr(failure, "message", None) or str(failure) or type(failure).__name__
    return message[:ERROR_LIMIT]


def sign(secret: str, message_id: str, body: str, when: datetime) -> dict:
    """The Standard Webhooks headers of one attempt: HMAC-SHA256 over ``id.timestamp.body``."""
    from standardwebhooks.webhooks import Webhook as Signer

    return {
        "webhook-id": message_id,
        "webhook-timestamp": str(int(when.timestamp())),
        "webhook-signature": Signer(secret).sign(message_id, when, body),
    }


# What a transaction kept in its session (the batched events, the endpoints read, the
# questions sent ahead) goes out with its commit or is dropped with its end.
at_transaction_end("before_commit", _send_pending)
at_transaction_end("after_commit", _forget)
at_transaction_end("after_rollback", _forget)
