"""Domain events for whoever listens (the workbench: webhooks, quality, audit), raised by the
core's write paths in their own transaction without knowing who listens: a listener registers
itself from ``create_app``, so the core imports no workbench package to tell it what happened.

What a change is, for the webhooks:

- ``wanted(project_id, kind)``: whether any listener cares, asked before gathering details
  that cost a query (``expect(project_id, statements)`` first lets a listener send its own
  question in the write's pipelined round trip).
- ``emit(project_id, kind, items, count, author)``: ``count`` things of ``kind`` happened
  (``items`` describes some or all of them; ``author``: the id of the person who did it,
  when a person did and the write names them); a listener batches them per transaction.
- ``emit_one(project_id, kind, data)``: one event with its own data (an import finished, a
  job finished).
"""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

VALUES_CHANGED = "values.changed"
KEY_CREATED = "key.created"
KEY_TRASHED = "key.trashed"
KEY_RESTORED = "key.restored"
IMPORT_FINISHED = "import.finished"
JOB_FINISHED = "job.finished"
KINDS = (VALUES_CHANGED, IMPORT_FINISHED, KEY_CREATED, KEY_TRASHED, KEY_RESTORED, JOB_FINISHED)
# Raised for the people concerned (the notifications), not offered to webhooks.
TASK_ASSIGNED = "task.assigned"
COMMENT_ADDED = "comment.added"


class Listener(Protocol):
    def expect(self, project_id: str, statements) -> None: ...
    def wanted(self, project_id: str, kind: str) -> bool: ...
    def emit(
        self, project_id: str, kind: str, items: list[dict], count: int, author: str | None = None
    ) -> None: ...
    def emit_one(self, project_id: str, kind: str, data: dict) -> None: ...


LISTENERS: list[Listener] = []


def listen(listener: Listener) -> None:
    if listener not in LISTENERS:
        LISTENERS.append(listener)


def expect(project_id: str, statements) -> None:
    """A write of the project is about to ask what its listeners want (``wanted``) and its
    guards whether it may (``writing_values``): they may send their question now, in the
    write's pipelined round trip (``statements``)."""
    for listener in LISTENERS:
        listener.expect(project_id, statements)
    for ahead in GUARDS_AHEAD:
        ahead(project_id, statements)


def wanted(project_id: str, kind: str, direct: bool = False) -> bool:
    """Whether any listener cares about ``kind`` in the project; with ``direct``, asked by a
    write that raises no events (the direct PATCH), only the listeners that need every one
    (a listener with ``every_write = False``, the notifications, does without them)."""
    return any(
        listener.wanted(project_id, kind)
        for listener in LISTENERS
        if not direct or getattr(listener, "every_write", True)
    )


def emit(project_id: str, kind: str, items: list[dict], count: int, author: str | None = None) -> None:
    for listener in LISTENERS:
        if listener.wanted(project_id, kind):
            listener.emit(project_id, kind, items, count, author)


def emit_one(project_id: str, kind: str, data: dict) -> None:
    for listener in LISTENERS:
        if listener.wanted(project_id, kind):
            listener.emit_one(project_id, kind, data)


Emitter = Callable[[str, str, list, int], None]


# -- The writes of values, in their transaction -----------------------------------------------
#
# Every write of values records its history (``translations.history.record_rows``), which
# tells the write listeners (the quality: the checks and the review states) what it wrote,
# before the history rows go in; a listener may refuse the write by raising
# (``translations.writing.Refused``), and the transaction writes nothing. A write of one key (a
# PATCH, the hot path) or of one file in one language reads what it needs before writing in
# one query with what its listeners need: the first write listener reads, and what it read is
# handed back to every listener with the rows.


class KeyRead(Protocol):
    """One key as a write of it read it: its id (None when not stored yet), its stored
    values ``{language: value}`` and the project's source language (None when it has none),
    and whatever the reader's listener needs besides."""

    translation_id: str | None
    values: dict
    source: str | None


class FileRead(Protocol):
    """A file's active keys as a write of many of them in one language read them: ``keys``
    ``{key: (translation_id, stored value or None)}``, the project's source language, and
    whatever the reader needs besides."""

    keys: dict
    source: str | None


class WriteListener(Protocol):
    def key_before(self, statements, project_id: str, file_name: str, key: str) -> KeyRead: ...
    def file_before(
        self, statements, project_id: str, file_name: str, language: str, items: int = 0
    ) -> FileRead: ...
    def values_written(self, project_id: str, rows: list[tuple], statements, **read) -> int: ...
    def details_changed(self, project_id: str, translation_ids: list[str], statements) -> None: ...


WRITE_LISTENERS: list[WriteListener] = []


def listen_to_writes(listener: WriteListener) -> None:
    if listener not in WRITE_LISTENERS:
        WRITE_LISTENERS.append(listener)


def _reader() -> WriteListener:
    if not WRITE_LISTENERS:
        raise LookupError("no write listener: create_app subscribes the checks to the writes")
    return WRITE_LISTENERS[0]


def key_before(statements, project_id: str, file_name: str, key: str) -> KeyRead:
    """The active key ``key`` of ``file_name`` before a write of it, as the first write
    listener reads it (one query for the write and its listeners)."""
    return _reader().key_before(statements, project_id, file_name, key)


def file_before(statements, project_id: str, file_name: str, language: str, items: int = 0) -> FileRead:
    """The active keys of ``file_name`` with their values in ``language``, before a write of
    many of them (``items``: how many it sends), as the first write listener reads them."""
    return _reader().file_before(statements, project_id, file_name, language, items)


def values_written(project_id: str, rows: list[tuple], statements, **read) -> int:
    """History rows ``(translation_id, key, file_name, language, action, old_value,
    new_value)`` a write is about to record, in its transaction; ``read``: what the write read
    before (``before=`` a ``key_before``, ``file=`` a ``file_before``, ...). Returns the
    warnings the listeners found; a listener refusing the write raises."""
    return sum(listener.values_written(project_id, rows, statements, **read) for listener in WRITE_LISTENERS)


def details_changed(project_id: str, translation_ids: list[str], statements) -> None:
    """These keys' details (comment, context, maximum length) changed, in the transaction."""
    for listener in WRITE_LISTENERS:
        listener.details_changed(project_id, translation_ids, statements)


# -- Guards of the writes of values, before they are recorded -----------------------------------

# ``guard(actor, project_id, languages, now, statements, source)``: raises to refuse a write
# of values in ``languages`` (the releases' string freeze refuses source texts); ``source``:
# the project's source language as the write read it in its transaction (a ``KeyRead``'s or
# ``FileRead``'s), or SOURCE_UNREAD.
# ``ahead(project_id, statements)``: the guard's question sent with a write's first reads
# (``expect``), read when the write is guarded.
SOURCE_UNREAD = object()
WriteGuard = Callable[[object, str, set, object, object, object], None]
WRITE_GUARDS: list[WriteGuard] = []
GUARDS_AHEAD: list[Callable[[str, object], None]] = []


def guard_writes(guard: WriteGuard, ahead: Callable[[str, object], None] | None = None) -> None:
    if guard not in WRITE_GUARDS:
        WRITE_GUARDS.append(guard)
    if ahead is not None and ahead not in GUARDS_AHEAD:
        GUARDS_AHEAD.append(ahead)


def writing_values(actor, project_id: str, languages: set, now, statements, source=SOURCE_UNREAD) -> None:
    """A write by ``actor`` is about to change values in ``languages``, in its transaction:
    each guard may refuse it (raises). ``source``: the project's source language, when the
    write read it (``KeyRead.source``, ``FileRead.source``)."""
    if languages:
        for guard in WRITE_GUARDS:
            guard(actor, project_id, languages, now, statements, source)


# -- The project's settings, in their transaction ---------------------------------------------

SettingsListener = Callable[[str, dict], None]
SETTINGS_LISTENERS: list[SettingsListener] = []


def listen_to_settings(listener: SettingsListener) -> None:
    if listener not in SETTINGS_LISTENERS:
        SETTINGS_LISTENERS.append(listener)


def settings_changed(project_id: str, changes: dict) -> None:
    """A project's settings changed (``changes`` as the update gave them), in its transaction."""
    for listener in SETTINGS_LISTENERS:
        listener(project_id, changes)


# -- An operation undone, in the undo's transaction -------------------------------------------
#
# Whoever keeps something decided by an operation beside its history (the proposals an accept
# decided) takes it back with the operation's values.

UndoListener = Callable[[str, str], None]
UNDO_LISTENERS: list[UndoListener] = []


def listen_to_undo(listener: UndoListener) -> None:
    if listener not in UNDO_LISTENERS:
        UNDO_LISTENERS.append(listener)


def operation_undone(project_id: str, operation_id: str) -> None:
    """The operation ``operation_id`` of the project was undone, in the undo's transaction."""
    for listener in UNDO_LISTENERS:
        listener(project_id, operation_id)


# -- What the organization's owners see audited, in the transaction of the change --------------


@dataclass(frozen=True)
class Target:
    """What an audited action is about: its type, id and a readable label."""

    type: str
    id: str | None
    label: str | None = None


def user_target(user) -> Target:
    return Target("user", user.id, user.email)


class Auditor(Protocol):
    def in_project(
        self, actor, project, action: str, target: Target | None, details: dict | None
    ) -> None: ...
    def in_organization(
        self, actor, organization_id: str, action: str, target: Target | None, details: dict | None
    ) -> None: ...
    def for_user(
        self, actor, user_id: str, action: str, target: Target | None, details: dict | None
    ) -> None: ...


AUDITORS: list[Auditor] = []


def listen_to_audited(auditor: Auditor) -> None:
    if auditor not in AUDITORS:
        AUDITORS.append(auditor)


def audited(actor, project, action: str, target: Target | None = None, details: dict | None = None) -> None:
    """``actor`` did ``action`` (``area.verb``) in ``project`` (a Project, or its id) to
    ``target``, in the caller's transaction, so a refused change leaves no trace."""
    for auditor in AUDITORS:
        auditor.in_project(actor, project, action, target, details)


def audited_in_organization(
    actor, organization_id: str, action: str, target: Target | None = None, details: dict | None = None
) -> None:
    """``audited`` for an action on the organization itself (its members, its invitations)."""
    for auditor in AUDITORS:
        auditor.in_organization(actor, organization_id, action, target, details)


def audited_for_user(
    actor, user_id: str, action: str, target: Target | None = None, details: dict | None = None
) -> None:
    """``audited`` in each organization ``user_id`` belongs to (a sign-in, a sign-out)."""
    for auditor in AUDITORS:
        auditor.for_user(actor, user_id, action, target, details)


# -- A project's deletion: read in its transaction, acted on after the commit -----------------
#
# Deleting projects takes their rows by ON DELETE CASCADE; what a listener keeps outside the
# database (the screenshots' files) it reads while the rows are still there, and removes once
# the deletion has committed, never before (a deletion that rolls back keeps everything).

AfterCommit = Callable[[], None]
ProjectsDeletedListener = Callable[[list[str]], AfterCommit | None]
DELETE_LISTENERS: list[ProjectsDeletedListener] = []


def listen_to_project_deletes(listener: ProjectsDeletedListener) -> None:
    if listener not in DELETE_LISTENERS:
        DELETE_LISTENERS.append(listener)


def projects_deleting(project_ids: list[str]) -> list[AfterCommit]:
    """These projects are about to be deleted, in the deleting transaction (their rows still
    there): each listener reads what it needs and answers what to do once the deletion has
    committed. The caller hands the answers to ``projects_deleted`` after its commit."""
    answers = (listener(list(project_ids)) for listener in DELETE_LISTENERS)
    return [answer for answer in answers if answer is not None]


def projects_deleted(after_commit: list[AfterCommit]) -> None:
    """The deletion ``projects_deleting`` announced has committed: what the listeners asked
    for is done now."""
    for action in after_commit:
        action()
