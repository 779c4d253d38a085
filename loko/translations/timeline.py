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

from dataclasses import dataclass, field
from datetime import UTC, datetime

from sqlalchemy import DateTime, String, Text, bindparam, case, cast, func, or_, select
from sqlalchemy.types import TypeDecorator

from loko.database import driver_timestamp, stream_batches, utcnow
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
    # The project's values then (``state_rows``), once read for an export: its layout and
    # its files come from the one read.
    rows: tuple | None = field(default=None, compare=False, hash=False, repr=False)

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
    statement = select(func.max(H.c.id)).where(*UP_TO)
    return db.session.execute(statement, {"project_id": project_id, "at": at}).scalar() or 0


class Instant(TypeDecorator):
    """A moment compared with stored times as the write paths store them (``driver_timestamp``):
    on SQLite the text with its six digits of microseconds, which the driver's own rendering of
    a datetime leaves out when they are zero (so ``12:00:00`` would sort before a time stored
    as ``12:00:00.000000``)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def load_dialect_impl(self, dialect):
        return dialect.type_descriptor(String() if dialect.name == "sqlite" else DateTime(timezone=True))

    def process_bind_param(self, value, dialect):
        if value is None or isinstance(value, str):  # already as the driver takes it
            return value
        return driver_timestamp(value, dialect.name)


H = HistoryEntry.__table__
AT = bindparam("at", type_=Instant())
UP_TO = (H.c.project_id == bindparam("project_id"), H.c.created_at <= AT)
# Per key, over its own entries (without a language, few): its latest one (its name, after a
# rename) and its latest move (whether it exists). Read from ix_translation_history_keyed.
KEYED = (
    select(
        H.c.translation_id,
        func.max(H.c.id).label("last_id"),
        func.max(case((H.c.action.in_(tuple(MOVES)), H.c.id))).label("move_id"),
    )
    .where(*UP_TO, H.c.language.is_(None))
    .group_by(H.c.translation_id)
    .subquery("keyed")
)
NAMED = H.alias("named")
MOVED = H.alias("moved")


def _there(trashed: bool):
    """A key was there: no move yet (created with its values), or its latest move left it
    active (or, with ``trashed``, anything but deleted for good)."""
    if trashed:
        return or_(MOVED.c.action.is_(None), MOVED.c.action != "purged")
    return or_(MOVED.c.action.is_(None), MOVED.c.action.in_(LEAVES_ACTIVE))


def _keyed(statement, translation_id):
    return (
        statement.outerjoin(KEYED, KEYED.c.translation_id == translation_id)
        .outerjoin(NAMED, NAMED.c.id == KEYED.c.last_id)
        .outerjoin(MOVED, MOVED.c.id == KEYED.c.move_id)
    )


def _valued(languages: bool):
    """Per value: its latest entry up to then (ix_translation_history_timeline)."""
    statement = select(H.c.translation_id, H.c.language, func.max(H.c.id).label("id")).where(
        *UP_TO, H.c.language.is_not(None)
    )
    if languages:
        statement = statement.where(H.c.language.in_(bindparam("languages", expanding=True)))
    return statement.group_by(H.c.translation_id, H.c.language).subquery("valued")


def values_statement(languages: bool = True, files: bool = False, dated: bool = False, trashed: bool = False):
    """``(language, file_name, key, value[, written_at as text])`` of the values of the keys
    that existed at ``:at`` (in ``:languages``, in ``:file_names`` when ``files``; with
    ``trashed``, of the keys in the trash then too). A key is named as its own latest entry
    names it (a rename's), else as its values' entries do (only a rename changes a name)."""
    valued = _valued(languages)
    value = H.alias("value")
    file_name = func.coalesce(NAMED.c.file_name, value.c.file_name).label("file_name")
    key = func.coalesce(NAMED.c.key, value.c.key).label("key")
    columns = [value.c.language, file_name, key, value.c.new_value]
    if dated:
        columns.append(cast(value.c.created_at, Text))
    joined = select(*columns).select_from(valued).join(value, value.c.id == valued.c.id)
    statement = _keyed(joined, valued.c.translation_id).where(
        value.c.action.not_in(REMOVALS), _there(trashed)
    )
    if files:
        statement = statement.where(
            func.coalesce(NAMED.c.file_name, value.c.file_name).in_(bindparam("file_names", expanding=True))
        )
    return statement


def state_rows(project_id: str, at: datetime) -> tuple:
    """Every value of the keys there at ``at`` (in the trash then too), in every language:
    ``(language, file_name, key, value, written_at as text, active)``, ``active`` 1 for a
    key that existed then, 0 for one in the trash."""
    statement = values_statement(False, False, dated=True, trashed=True).add_columns(
        case((_there(False), 1), else_=0).label("active")
    )
    batches = _in_memory(stream_batches(statement, _parameters(project_id, at), ROWS_PER_FETCH))
    return tuple(row for batch in batches for row in batch)


def keys_statement(files: bool = False):
    """``(translation_id, file_name, key)`` of the keys that existed at ``:at``, named by
    their latest entry."""
    latest = (
        select(H.c.translation_id, func.max(H.c.id).label("id"))
        .where(*UP_TO)
        .group_by(H.c.translation_id)
        .subquery("latest")
    )
    entry = H.alias("entry")
    joined = (
        select(latest.c.translation_id, entry.c.file_name, entry.c.key)
        .select_from(latest)
        .join(entry, entry.c.id == latest.c.id)
    )
    statement = _keyed(joined, latest.c.translation_id).where(_there(False))
    if files:
        statement = statement.where(entry.c.file_name.in_(bindparam("file_names", expanding=True)))
    return statement


def _parameters(project_id: str, at: datetime, **more) -> dict:
    """For ``stream_batches``, which hands its parameters to the driver as they are."""
    return {"project_id": project_id, "at": driver_timestamp(at), **more}


# PostgreSQL: the grouping of a project's entries up to a moment (hundreds of thousands) is
# hashed in memory, while the statement runs: without statistics the planner sorted them
# (1.2 s for 500,000 entries, comparing text in the database's collation), and with the
# default work_mem a hash spilled to disk in batches.
WIDER = "SET LOCAL work_mem = '64MB'; SET LOCAL enable_sort = off"
NARROWER = "RESET work_mem; RESET enable_sort"


def _in_memory(batches):
    """``batches`` (a ``stream_batches`` generator) with ``WIDER`` in force up to its first
    batch, on PostgreSQL."""
    connection = db.session.connection()
    if connection.dialect.name != "postgresql":
        yield from batches
        return
    connection.exec_driver_sql(WIDER)
    try:
        first = next(batches, None)
    finally:
        connection.exec_driver_sql(NARROWER)
    if first is not None:
        yield first
        yield from batches


def value_rows(project_id: str, at: datetime, languages=None, file_names=None, dated=False):
    """Batches of ``values_statement`` rows (every language when ``languages`` is None)."""
    parameters = _parameters(project_id, at)
    if languages is not None:
        parameters["languages"] = list(languages)
    if file_names is not None:
        parameters["file_names"] = list(file_names)
    statement = values_statement(languages is not None, file_names is not None, dated)
    return _in_memory(stream_batches(statement, parameters, ROWS_PER_FETCH))


def key_rows(project_id: str, at: datetime, file_names=None):
    """Batches of ``(translation_id, file_name, key)`` of the keys that existed at ``at``."""
    parameters = _parameters(project_id, at)
    if file_names is not None:
        parameters["file_names"] = list(file_names)
    return _in_memory(stream_batches(keys_statement(file_names is not None), parameters, ROWS_PER_FETCH))


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
