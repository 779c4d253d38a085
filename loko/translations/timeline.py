"""Reading the history: what one entry leaves behind (the undo reads its entries with these
rules), and a project's keys and values as they were at a moment, rebuilt from the history
in a few set-based statements.

A key's entries without a language move it (``MOVES``: created, trashed, restored, purged)
or name it again (``renamed``, a file rename); its value entries each leave a text or none.
At a moment, a key exists when its latest move up to then left it active (a key created
with values has no move entry: its values' ``created`` entries made it), it is named as its
latest entry up to then names it, and each of its values is what the value's latest entry
up to then left. Every read is a range of the index
``ix_translation_history_timeline`` (project, time, key, language, id), grouped by key or by
value, and the latest entries read again by their primary key.
"""

from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import Text, and_, bindparam, case, cast, func, or_, select

from loko.database import stream_batches, utcnow
from loko.errors import BadRequest
from loko.extensions import db
from loko.translations.models import HistoryEntry, Operation

ACTIVE, TRASHED, GONE = "active", "trashed", "gone"
ABSENT = None  # a value that is not there
# (state before, state after) of a key's entry that moves it
MOVES = {
    "created": (GONE, ACTIVE),
    "deleted": (ACTIVE, TRASHED),
    "restored": (TRASHED, ACTIVE),
    "purged": (None, GONE),
}
LEAVES_ACTIVE = ("created", "restored")
REMOVALS = ("deleted", "purged")
# A key's entry that only names it again (its file was renamed): it moves nothing.
RENAMED = "renamed"
ROWS_PER_FETCH = 10_000


def value_before(action: str, old: str | None) -> str | None:
    """The text a value entry found (ABSENT before a ``created``)."""
    return ABSENT if action == "created" else old


def value_after(action: str, new: str | None) -> str | None:
    """The text a value entry left (ABSENT after a delete or purge)."""
    return ABSENT if action in REMOVALS else new


@dataclass(frozen=True)
class Moment:
    """A past state of a project: everything its history holds up to ``at`` (inclusive).
    ``entry_id`` is the project's latest entry then (0 before the first), ``operation_id``
    the operation it was named by, if any."""

    at: datetime
    entry_id: int
    operation_id: str | None = None

    @property
    def stamp(self) -> str:
        return self.at.astimezone(UTC).isoformat()


def parse_instant(text: str, field: str = "asOf") -> datetime | None:
    """An ISO-8601 instant with its offset (``Z`` too) as a UTC datetime; None when ``text``
    is not a date at all (it may name an operation); BadRequest for a date without offset."""
    try:
        moment = datetime.fromisoformat(text.strip().replace("z", "Z"))
    except ValueError:
        return None
    if moment.tzinfo is None:
        raise BadRequest(f"{field}: give the instant with its offset (2026-01-31T12:00:00Z).")
    return moment.astimezone(UTC)


def resolve_moment(project_id: str, created_at: datetime, as_of: str, field: str = "asOf") -> Moment:
    """The moment ``as_of`` names: an ISO-8601 instant, or an operation of the project (the
    state right after it). BadRequest naming ``field`` for an instant in the future or
    before the project existed, and for an operation the project does not have."""
    at = parse_instant(as_of, field)
    operation_id = None
    if at is None:
        at, operation_id = _operation_end(project_id, as_of, field), as_of
    if at > utcnow():
        raise BadRequest(f"{field}: {at.isoformat()} is in the future.")
    if at < _aware(created_at):
        raise BadRequest(f"{field}: the project did not exist yet at {at.isoformat()}.")
    return Moment(at, latest_entry(project_id, at), operation_id)


def _operation_end(project_id: str, operation_id: str, field: str) -> datetime:
    operation = db.session.get(Operation, operation_id) if len(operation_id) <= 36 else None
    if operation is None or operation.project_id != project_id:
        raise BadRequest(f"{field}: neither an ISO-8601 instant nor an operation of this project.")
    last = db.session.execute(
        select(func.max(HistoryEntry.created_at)).where(
            HistoryEntry.project_id == project_id, HistoryEntry.operation_id == operation_id
        )
    ).scalar()
    return _aware(last or operation.created_at)


def _aware(moment) -> datetime:
    if isinstance(moment, str):
        moment = datetime.fromisoformat(moment)
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def latest_entry(project_id: str, at: datetime) -> int:
    """The id of the project's latest history entry up to ``at`` (0 when none)."""
    return (
        db.session.execute(
            select(func.max(HistoryEntry.id)).where(
                HistoryEntry.project_id == project_id, HistoryEntry.created_at <= at
            )
        ).scalar()
        or 0
    )


H = HistoryEntry.__table__
AT = bindparam("at", type_=HistoryEntry.created_at.type)
UP_TO = (H.c.project_id == bindparam("project_id"), H.c.created_at <= AT)
# Per key: its latest entry (its name) and its latest move (whether it exists).
KEYED = (
    select(
        H.c.translation_id,
        func.max(H.c.id).label("last_id"),
        func.max(case((and_(H.c.language.is_(None), H.c.action.in_(tuple(MOVES))), H.c.id))).label("move_id"),
    )
    .where(*UP_TO)
    .group_by(H.c.translation_id)
    .subquery("keyed")
)
NAMED = H.alias("named")
MOVED = H.alias("moved")
# The keys that were there then, in the trash too: (translation_id, file_name, key).
KEYS_KEPT_AT = (
    select(KEYED.c.translation_id, NAMED.c.file_name, NAMED.c.key)
    .select_from(KEYED)
    .join(NAMED, NAMED.c.id == KEYED.c.last_id)
    .outerjoin(MOVED, MOVED.c.id == KEYED.c.move_id)
    .where(or_(MOVED.c.action.is_(None), MOVED.c.action != "purged"))
)
# The keys that existed then (active).
KEYS_AT = KEYS_KEPT_AT.where(or_(MOVED.c.action.is_(None), MOVED.c.action.in_(LEAVES_ACTIVE)))


def _valued(languages: bool):
    statement = select(H.c.translation_id, H.c.language, func.max(H.c.id).label("id")).where(
        *UP_TO, H.c.language.is_not(None)
    )
    if languages:
        statement = statement.where(H.c.language.in_(bindparam("languages", expanding=True)))
    return statement.group_by(H.c.translation_id, H.c.language).subquery("valued")


def values_statement(languages: bool = True, files: bool = False, dated: bool = False, trashed: bool = False):
    """``(language, file_name, key, value[, written_at as text])`` of the values of the keys
    that existed at ``:at`` (in ``:languages``, in ``:file_names`` when ``files``; with
    ``trashed``, of the keys in the trash then too)."""
    keys = (KEYS_KEPT_AT if trashed else KEYS_AT).subquery("keys")
    valued = _valued(languages)
    value = H.alias("value")
    columns = [value.c.language, keys.c.file_name, keys.c.key, value.c.new_value]
    if dated:
        columns.append(cast(value.c.created_at, Text))
    statement = (
        select(*columns)
        .select_from(valued)
        .join(value, value.c.id == valued.c.id)
        .join(keys, keys.c.translation_id == valued.c.translation_id)
        .where(value.c.action.not_in(REMOVALS))
    )
    if files:
        statement = statement.where(keys.c.file_name.in_(bindparam("file_names", expanding=True)))
    return statement


def keys_statement(files: bool = False):
    """``(translation_id, file_name, key)`` of the keys that existed at ``:at``."""
    keys = KEYS_AT.subquery("keys")
    statement = select(keys.c.translation_id, keys.c.file_name, keys.c.key)
    if files:
        statement = statement.where(keys.c.file_name.in_(bindparam("file_names", expanding=True)))
    return statement


def _parameters(project_id: str, at: datetime, **more) -> dict:
    return {"project_id": project_id, "at": at, **more}


def value_rows(project_id: str, at: datetime, languages=None, file_names=None, dated=False):
    """Batches of ``values_statement`` rows (every language when ``languages`` is None)."""
    parameters = _parameters(project_id, at)
    if languages is not None:
        parameters["languages"] = list(languages)
    if file_names is not None:
        parameters["file_names"] = list(file_names)
    statement = values_statement(languages is not None, file_names is not None, dated)
    return stream_batches(statement, parameters, ROWS_PER_FETCH)


def key_rows(project_id: str, at: datetime, file_names=None):
    """Batches of ``(translation_id, file_name, key)`` of the keys that existed at ``at``."""
    parameters = _parameters(project_id, at)
    if file_names is not None:
        parameters["file_names"] = list(file_names)
    return stream_batches(keys_statement(file_names is not None), parameters, ROWS_PER_FETCH)


def values_at(project_id: str, at: datetime) -> dict[tuple[str, str, str], str]:
    """``{(file_name, key, language): value}`` of the whole project at ``at``."""
    return {
        (file_name, key, language): value
        for batch in value_rows(project_id, at)
        for language, file_name, key, value in batch
    }


def keys_at(project_id: str, at: datetime) -> set[tuple[str, str]]:
    """``{(file_name, key)}`` of the keys that existed at ``at``."""
    return {(file_name, key) for batch in key_rows(project_id, at) for _, file_name, key in batch}
