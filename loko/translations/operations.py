"""Operations: a bulk change (an import, a bulk upsert or delete, a file or language
delete, an undo) recorded as one, so that it can be listed and undone as a whole.

Inside ``operation(...)`` every history entry written carries the operation's id; the
operation's row keeps what the history cannot (the file records and the language a delete
removed, and counts for the listing). It is written at the end of the block, and only when
the block changed something.

A change written in several transactions (a pre-translation job, batch by batch) is still
one operation: each block names the same ``operation_id``, the first that changes something
adds the row and the next ones add their counts to it.
"""

from contextlib import contextmanager
from contextvars import ContextVar
from datetime import timedelta

import orjson
from flask import current_app
from sqlalchemy import select, update

from loko.auth import policy
from loko.auth.actors import actor_summary
from loko.database import new_id, utcnow
from loko.errors import NotFound
from loko.extensions import db
from loko.translations.models import Operation

_current: ContextVar[str | None] = ContextVar("loko_operation", default=None)


def current_operation_id() -> str | None:
    """The id of the operation whose block is running, for the history entries it writes."""
    return _current.get()


@contextmanager
def operation(
    actor, project_id: str, kind: str, permanent: bool = False, operation_id: str | None = None, **details
):
    """Record the block's writes as one operation of ``kind``. The block fills ``details``
    (the yielded dict) and sets ``details["changes"]`` to the number of changes it made; an
    operation with no changes is not kept. With ``operation_id``, the block continues that
    operation when an earlier transaction recorded it: its counts are added up."""
    operation_id = operation_id or new_id()
    details = {"changes": 0, **details}
    token = _current.set(operation_id)
    try:
        yield details
    finally:
        _current.reset(token)
    earlier = db.session.get(Operation, operation_id) if details["changes"] else None
    if earlier is not None:
        earlier.details = orjson.dumps(_added_up(orjson.loads(earlier.details), details)).decode()
        db.session.flush()
    elif details["changes"]:
        summary = actor_summary(actor)
        db.session.add(
            Operation(
                id=operation_id,
                project_id=project_id,
                kind=kind,
                details=orjson.dumps(details).decode(),
                permanent=permanent,
                actor_type=summary["type"],
                actor_id=summary["id"],
                actor_name=summary["name"],
                created_at=utcnow(),
            )
        )
        db.session.flush()
    details["operation_id"] = operation_id if details["changes"] else None


def _added_up(earlier: dict, later: dict) -> dict:
    """An operation's details after one more of its transactions: counts added, the rest kept."""
    merged = dict(earlier)
    for name, value in later.items():
        before = merged.get(name)
        if isinstance(value, int) and not isinstance(value, bool) and isinstance(before, int):
            merged[name] = before + value
        elif name not in merged:
            merged[name] = value
    return merged


def retention() -> timedelta | None:
    days = current_app.config["LOKO_TRASH_RETENTION_DAYS"]
    return timedelta(days=days) if days > 0 else None


def describe(item: Operation) -> dict:
    """An operation as the API shows it; ``undoable`` unless it was undone, is permanent or
    what it removed has been purged."""
    kept = retention()
    expires_at = item.created_at + kept if kept is not None else None
    expired = item.expired_at is not None or (expires_at is not None and expires_at <= utcnow())
    return {
        "id": item.id,
        "kind": item.kind,
        "details": orjson.loads(item.details),
        "permanent": item.permanent,
        "actor": {"type": item.actor_type, "id": item.actor_id, "name": item.actor_name},
        "created_at": item.created_at,
        "undone_at": item.undone_at,
        "undone_by": item.undone_by,
        "expires_at": None if item.permanent else expires_at,
        "undoable": item.undone_at is None and not item.permanent and not expired,
    }


def in_project(project_id: str, operation_id: str) -> Operation:
    """The operation, or NotFound when the project has none with this id."""
    item = db.session.get(Operation, operation_id)
    if item is None or item.project_id != project_id:
        raise NotFound("operationId: no operation with this id in this project.")
    return item


def get_operation(actor, project_id: str, operation_id: str) -> dict:
    """One operation; Forbidden or NotFound as ``policy.require_permission`` decides."""
    policy.require_permission(actor, project_id, policy.VIEW_TRANSLATIONS)
    return describe(in_project(project_id, operation_id))


def list_operations(
    actor, project_id: str, limit: int, offset: int = 0, kinds=None, undoable: bool | None = None
) -> tuple[list[dict], int]:
    """The project's operations, newest first, with the total before paging. ``undoable``
    keeps those that can (True) or cannot (False) be undone now."""
    policy.require_permission(actor, project_id, policy.VIEW_TRANSLATIONS)
    query = select(Operation).where(Operation.project_id == project_id)
    if kinds:
        query = query.where(Operation.kind.in_(kinds))
    if undoable is not None:
        query = query.where(_undoable() if undoable else ~_undoable())
    total = db.session.execute(
        select(db.func.count()).select_from(query.order_by(None).subquery())
    ).scalar_one()
    rows = db.session.execute(
        query.order_by(Operation.created_at.desc(), Operation.id.desc()).limit(limit).offset(offset)
    ).scalars()
    return [describe(row) for row in rows], total


def _undoable():
    condition = (
        Operation.undone_at.is_(None) & Operation.expired_at.is_(None) & Operation.permanent.is_(False)
    )
    kept = retention()
    if kept is not None:
        condition &= Operation.created_at > utcnow() - kept
    return condition


def expire_operations(project_id: str | None = None, before=None) -> int:
    """Mark kept operations as gone for good: those of ``project_id`` (the trash was emptied),
    or in every project those created before ``before`` (the retention period ended)."""
    statement = update(Operation).where(Operation.expired_at.is_(None), Operation.undone_at.is_(None))
    if project_id is not None:
        statement = statement.where(Operation.project_id == project_id)
    if before is not None:
        statement = statement.where(Operation.created_at < before)
    return db.session.execute(statement.values(expired_at=utcnow())).rowcount
