"""Reading the audit log straight from its table, as the tests check what was recorded."""

import orjson
from sqlalchemy import select

from loko.audit.models import AuditEvent
from loko.extensions import db


def recorded(app, organization_id: str | None = None, action: str | None = None) -> list[dict]:
    """The events (of an organization, of an action), oldest first, as plain dicts."""
    with app.app_context():
        statement = select(AuditEvent).order_by(AuditEvent.id)
        if organization_id is not None:
            statement = statement.where(AuditEvent.organization_id == organization_id)
        if action is not None:
            statement = statement.where(AuditEvent.action == action)
        return [
            {
                "organization_id": event.organization_id,
                "action": event.action,
                "actor": (event.actor_type, event.actor_id, event.actor_name),
                "target": (event.target_type, event.target_id, event.target_label),
                "ip": event.ip_address,
                "details": orjson.loads(event.details),
                "created_at": event.created_at,
            }
            for event in db.session.scalars(statement)
        ]


def only(app, organization_id: str, action: str) -> dict:
    """The one event of ``action`` in the organization (fails when there are none or several)."""
    (event,) = recorded(app, organization_id, action)
    return event


def every_stored_text(app) -> str:
    """Every column of every audit row, as one text to search for secrets."""
    with app.app_context():
        rows = db.session.execute(select(AuditEvent.__table__)).all()
    return "\n".join(repr(tuple(row)) for row in rows)
