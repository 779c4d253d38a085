"""Domain events for whoever listens (the webhooks), raised by the features' write paths in
their own transaction without knowing who listens: a listener registers itself from
``create_app``, so no feature imports another to tell it what happened.

- ``wanted(project_id, kind)``: whether any listener cares, asked before gathering details
  that cost a query.
- ``emit(project_id, kind, items, count)``: ``count`` things of ``kind`` happened (``items``
  describes some or all of them); a listener batches them per transaction.
- ``emit_one(project_id, kind, data)``: one event with its own data (an import finished, a
  job finished).
"""

from collections.abc import Callable
from typing import Protocol

VALUES_CHANGED = "values.changed"
KEY_CREATED = "key.created"
KEY_TRASHED = "key.trashed"
KEY_RESTORED = "key.restored"
IMPORT_FINISHED = "import.finished"
JOB_FINISHED = "job.finished"
KINDS = (VALUES_CHANGED, IMPORT_FINISHED, KEY_CREATED, KEY_TRASHED, KEY_RESTORED, JOB_FINISHED)


class Listener(Protocol):
    def wanted(self, project_id: str, kind: str) -> bool: ...
    def emit(self, project_id: str, kind: str, items: list[dict], count: int) -> None: ...
    def emit_one(self, project_id: str, kind: str, data: dict) -> None: ...


LISTENERS: list[Listener] = []


def listen(listener: Listener) -> None:
    if listener not in LISTENERS:
        LISTENERS.append(listener)


def wanted(project_id: str, kind: str) -> bool:
    return any(listener.wanted(project_id, kind) for listener in LISTENERS)


def emit(project_id: str, kind: str, items: list[dict], count: int) -> None:
    for listener in LISTENERS:
        if listener.wanted(project_id, kind):
            listener.emit(project_id, kind, items, count)


def emit_one(project_id: str, kind: str, data: dict) -> None:
    for listener in LISTENERS:
        if listener.wanted(project_id, kind):
            listener.emit_one(project_id, kind, data)


Emitter = Callable[[str, str, list, int], None]
