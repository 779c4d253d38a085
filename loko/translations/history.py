"""The change history: every write records who changed which value, in the same transaction.
Entries keep key and file name so they outlive a purged translation."""

from sqlalchemy import func, insert, literal, null, select

from loko import events
from loko.auth import policy
from loko.auth.actors import actor_summary
from loko.database import SESSION_STATEMENTS, utcnow
from loko.extensions import db
from loko.translations.models import HistoryEntry, Translation, TranslationValue
from loko.translations.operations import current_operation_id

ENTRY_FIELDS = ("translation_id", "key", "file_name", "language", "action", "old_value", "new_value")


def record(actor, project_id: str, entries: list[dict]) -> None:
    """Insert entries ``{translation_id, key, file_name, action, [language, old_value, new_value]}``."""
    rows = [tuple(entry.get(field) for field in ENTRY_FIELDS) for entry in entries]
    record_rows(actor, project_id, rows, utcnow())


ROW_COLUMNS = (
    "project_id",
    "operation_id",
    "actor_type",
    "actor_id",
    "actor_name",
    "created_at",
    "translation_id",
    "key",
    "file_name",
    "language",
    "action",
    "old_value",
    "new_value",
)


def record_rows(
    actor, project_id: str, rows: list[tuple], now, statements=SESSION_STATEMENTS, **written
) -> int:
    """Bulk form of ``record``: ``(translation_id, key, file_name, language, action,
    old_value, new_value)`` tuples written with one executemany. The values these rows
    write are told to the write listeners here (``events.values_written``, which ``written``
    is passed on to: the quality checks them and sets their review states): every write of
    values records history, so every write path is checked. Returns the number of warnings
    the checks found in them."""
    read = written.get("before") or written.get("file")
    events.writing_values(
        actor,
        project_id,
        {row[3] for row in rows if row[3] is not None},
        now,
        statements,
        events.SOURCE_UNREAD if read is None else read.source,
    )
    warnings = events.values_written(project_id, rows, statements, **written)
    summary = actor_summary(actor)
    common = (
        project_id,
        current_operation_id(),
        summary["type"],
        summary["id"],
        summary["name"],
        statements.timestamp(now),
    )
    statements.insert(HistoryEntry.__table__, ROW_COLUMNS, [common + row for row in rows])
    if statements is SESSION_STATEMENTS:
        _emit_rows(project_id, rows)
    return warnings


# The events the history tells its listeners (the webhooks), in the writing transaction: a
# key's own entries (no language) by action, and every value's entry as ``values.changed``.
# A new key's entries are its values' ``created`` ones (or one without a language when it has
# none), so the write paths name the keys they insert with ``keys_created``.
KEY_EVENTS = {"deleted": events.KEY_TRASHED, "restored": events.KEY_RESTORED}
EVENT_ITEMS = 100  # items listed per event and transaction; the count says how many in all


def _key_item(row) -> dict:
    return {"translationId": row[0], "key": row[1], "fileName": row[2]}


def _value_item(row, action: str) -> dict:
    return {**_key_item(row), "language": row[3], "action": action, "oldValue": row[4], "newValue": row[5]}


def _emit_rows(project_id: str, rows: list[tuple]) -> None:
    if not events.LISTENERS or not rows:
        return
    if not events.wanted(project_id, events.VALUES_CHANGED):
        # The values' rows (most of a bulk write's) tell nobody: only the keys' are looked at.
        rows = [row for row in rows if row[3] is None]
    # Each event lists its first EVENT_ITEMS items and counts them all.
    items: dict[str, list] = {}
    counts: dict[str, int] = {}
    for row in rows:
        translation_id, key, file_name, language, action, old_value, new_value = row
        kind = events.VALUES_CHANGED if language is not None else KEY_EVENTS.get(action)
        if kind is None:
            continue
        counts[kind] = counts.get(kind, 0) + 1
        listed = items.setdefault(kind, [])
        if len(listed) < EVENT_ITEMS:
            listed.append(
                _key_item(row)
                if language is None
                else _value_item((translation_id, key, file_name, language, old_value, new_value), action)
            )
    for kind, listed in items.items():
        events.emit(project_id, kind, listed, counts[kind])


def keys_created(project_id: str, keys, actor=None) -> None:
    """Tell the listeners of the keys a write by ``actor`` inserts: ``(translation_id, key,
    file_name)``; the event names its author when a person (not an API key) wrote."""
    if events.LISTENERS and keys and events.wanted(project_id, events.KEY_CREATED):
        items = [_key_item(row) for row in keys[:EVENT_ITEMS]]
        author = actor.id if getattr(actor, "kind", None) == "user" else None
        events.emit(project_id, events.KEY_CREATED, items, len(keys), author)


def _emit_selected(project_id: str, action: str, entries, count: int, values: bool) -> None:
    """The events of an INSERT ... SELECT: its first rows read again (only when listened to)."""
    if not events.LISTENERS or not count:
        return
    kind = events.VALUES_CHANGED if values else KEY_EVENTS.get(action)
    if kind is None or not events.wanted(project_id, kind):
        return
    rows = db.session.execute(entries.limit(EVENT_ITEMS)).all()
    if kind == events.VALUES_CHANGED:
        items = [_value_item((*row, None), action) for row in rows]
    else:
        items = [_key_item(row) for row in rows]
    events.emit(project_id, kind, items, count)


SELECT_COLUMNS = (
    "project_id",
    "operation_id",
    "actor_type",
    "actor_id",
    "actor_name",
    "created_at",
    "action",
    "translation_id",
    "key",
    "file_name",
    "language",
    "old_value",
)


def _record_selected(actor, project_id: str, action: str, entries, values: bool) -> int:
    """INSERT ... SELECT: one entry per row of ``entries``, a select of ``(translation_id,
    key, file_name, language, old_value)``."""
    summary = actor_summary(actor)
    constants = (
        literal(project_id),
        literal(current_operation_id(), HistoryEntry.operation_id.type),
        literal(summary["type"]),
        literal(summary["id"]),
        literal(summary["name"]),
        literal(utcnow(), HistoryEntry.created_at.type),
        literal(action),
    )
    rows = entries.with_only_columns(*constants, *entries.selected_columns, maintain_column_froms=True)
    # An INSERT's row count is kept only when asked for (psycopg's is otherwise -1).
    statement = insert(HistoryEntry).from_select(SELECT_COLUMNS, rows)
    count = db.session.execute(statement.execution_options(preserve_rowcount=True)).rowcount
    _emit_selected(project_id, action, entries, count, values)
    return count


def record_translation_event(actor, project_id: str, translation_ids, action: str) -> int:
    """One entry per translation in ``translation_ids`` (ids or a select of ids), without
    values; returns the number of entries."""
    entries = select(Translation.id, Translation.key, Translation.file_name, null(), null()).where(
        Translation.id.in_(translation_ids)
    )
    return _record_selected(actor, project_id, action, entries, values=False)


def record_file_rename(actor, project_id: str, new_file_name: str, old_file_name: str) -> int:
    """One ``renamed`` entry per key of the renamed file (trashed ones too), naming it under
    ``new_file_name`` with the old name as its old value, so that the history knows each
    key's name at every moment. Returns the number of entries."""
    entries = select(
        Translation.id, Translation.key, Translation.file_name, null(), literal(old_file_name)
    ).where(Translation.project_id == project_id, Translation.file_name == new_file_name)
    return _record_selected(actor, project_id, "renamed", entries, values=False)


def record_value_removals(
    actor, project_id: str, translation_ids, language_code: str, action: str = "purged"
) -> int:
    """One entry per value of ``language_code`` about to be removed, with the value as its
    old value: ``deleted`` when the removal can be undone, ``purged`` when it is for good.
    Returns the number of entries. The write guards (``events.writing_values``) may refuse it."""
    events.writing_values(actor, project_id, {language_code}, utcnow(), SESSION_STATEMENTS)
    entries = (
        select(
            Translation.id,
            Translation.key,
            Translation.file_name,
            TranslationValue.language_code,
            TranslationValue.value,
        )
        .join(TranslationValue, TranslationValue.translation_id == Translation.id)
        .where(Translation.id.in_(translation_ids), TranslationValue.language_code == language_code)
    )
    return _record_selected(actor, project_id, action, entries, values=True)


FILTER_COLUMNS = {
    "translationId": HistoryEntry.translation_id,
    "key": HistoryEntry.key,
    "fileName": HistoryEntry.file_name,
    "language": HistoryEntry.language,
    "action": HistoryEntry.action,
    "actorType": HistoryEntry.actor_type,
    "actorId": HistoryEntry.actor_id,
    "operationId": HistoryEntry.operation_id,
}


def _filtered(query, project_id: str, filters: dict):
    """``keyContains`` (the history page's key filter) matches part of a key, ignoring case,
    its LIKE wildcards taken as written."""
    query = query.where(HistoryEntry.project_id == project_id)
    for name, column in FILTER_COLUMNS.items():
        if filters.get(name) is not None:
            query = query.where(column == filters[name])
    if filters.get("keyContains"):
        query = query.where(HistoryEntry.key.icontains(filters["keyContains"], autoescape=True))
    return query


def list_history(project_id: str, filters: dict, limit: int, cursor: int | None) -> tuple[list, int | None]:
    """Newest first; ``cursor`` is the id of the last entry of the previous page. ``filters``
    holds any of the FILTER_COLUMNS names (``actorType`` and ``actorId`` name the actor)."""
    query = _filtered(select(HistoryEntry), project_id, filters)
    if cursor is not None:
        query = query.where(HistoryEntry.id < cursor)
    rows = list(db.session.execute(query.order_by(HistoryEntry.id.desc()).limit(limit + 1)).scalars())
    next_cursor = str(rows[limit - 1].id) if len(rows) > limit else None
    return [_describe(entry) for entry in rows[:limit]], next_cursor


def newer_cursor(actor, project_id: str, filters: dict, limit: int, cursor: int) -> str | None:
    """The cursor of the page before (newer than) the one ``cursor`` opens, with the same
    filters; None when that page is the first. Forbidden or NotFound as
    ``policy.require_permission`` decides."""
    policy.require_permission(actor, project_id, policy.VIEW_TRANSLATIONS)
    query = _filtered(select(HistoryEntry.id), project_id, filters).where(HistoryEntry.id >= cursor)
    ids = list(db.session.execute(query.order_by(HistoryEntry.id).limit(limit + 1)).scalars())
    return str(ids[limit - 1] + 1) if len(ids) > limit else None


def history_actors(actor, project_id: str) -> list[dict]:
    """Everyone who has changed the project's translations, ``{type, id, name}`` sorted by
    name; Forbidden or NotFound as ``policy.require_permission`` decides."""
    policy.require_permission(actor, project_id, policy.VIEW_TRANSLATIONS)
    # One row per actor, also for a user who has been renamed since.
    rows = db.session.execute(
        select(HistoryEntry.actor_type, HistoryEntry.actor_id, func.max(HistoryEntry.actor_name))
        .where(HistoryEntry.project_id == project_id)
        .group_by(HistoryEntry.actor_type, HistoryEntry.actor_id)
    ).all()
    actors = [{"type": kind, "id": actor_id, "name": name} for kind, actor_id, name in rows]
    return sorted(actors, key=lambda item: ((item["name"] or "").casefold(), item["type"], item["id"] or ""))


def _describe(entry: HistoryEntry) -> dict:
    return {
        "id": entry.id,
        "translation_id": entry.translation_id,
        "key": entry.key,
        "fileName": entry.file_name,
        "language": entry.language,
        "action": entry.action,
        "old_value": entry.old_value,
        "new_value": entry.new_value,
        "actor": {"type": entry.actor_type, "id": entry.actor_id, "name": entry.actor_name},
        "created_at": entry.created_at,
        "operation_id": entry.operation_id,
    }
