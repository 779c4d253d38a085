"""Database plumbing shared by every feature: column types, ids, the unit of work,
SQLite connection settings and the schema-version check."""

import secrets
import time
import uuid
from contextlib import contextmanager
from datetime import UTC, datetime

from sqlalchemy import DateTime, String, bindparam, event, text
from sqlalchemy.types import TypeDecorator

from loko.extensions import db


def new_id() -> str:
    """A UUID version 7 (RFC 9562): the creation time in milliseconds, then 74 random
    bits. New rows land at the end of primary-key indexes, not on random pages, which
    keeps bulk inserts into large tables cheap."""
    milliseconds = time.time_ns() // 1_000_000
    random_bits = secrets.randbits(74)
    value = (milliseconds << 80) | (0x7 << 76) | ((random_bits >> 62) << 64) | (0b10 << 62)
    return str(uuid.UUID(int=value | (random_bits & (2**62 - 1))))


IN_CHUNK = 5000


def in_chunks(items: list, size: int = IN_CHUNK):
    """Slices of ``items`` small enough for one ``IN (...)`` list on every database."""
    for start in range(0, len(items), size):
        yield items[start : start + size]


def utcnow() -> datetime:
    return datetime.now(UTC)


class UTCDateTime(TypeDecorator):
    """A timezone-aware UTC timestamp on every database (SQLite stores naive values)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value, dialect):
        if value is not None and dialect.name == "sqlite":
            return value.astimezone(UTC).replace(tzinfo=None)
        return value

    def process_result_value(self, value, dialect):
        if value is not None and value.tzinfo is None:
            return value.replace(tzinfo=UTC)
        return value


def id_column():
    return db.Column(String(36), primary_key=True, default=new_id)


@contextmanager
def unit_of_work():
    """One use case, one transaction: commit on success, roll back on any error.

    On SQLite the transaction starts with BEGIN IMMEDIATE so that concurrent writers
    queue on the busy timeout instead of failing when a read lock cannot be upgraded;
    a read-only transaction left open by earlier lookups is closed first.
    """
    session = db.session()
    if session.in_transaction() and not (session.new or session.dirty or session.deleted):
        session.commit()
    if not session.in_transaction():
        session.connection(execution_options={"loko_write": True})
    try:
        yield session
        session.commit()
    except BaseException:
        session.rollback()
        raise


def read_snapshot() -> None:
    """Start a read transaction in which every query sees the same snapshot of the data
    (REPEATABLE READ on PostgreSQL; a SQLite read transaction always is one)."""
    session = db.session()
    if db.engine.dialect.name != "postgresql":
        return
    if session.in_transaction() and not (session.new or session.dirty or session.deleted):
        session.commit()
    if not session.in_transaction():
        session.connection(execution_options={"isolation_level": "REPEATABLE READ"})


# PostgreSQL's own rule for autoanalyze: a table is analyzed again once the rows changed
# since the last ANALYZE exceed 50 plus 10% of its size. Loko applies it itself after bulk
# writes, because autovacuum may be off or lag a bulk load, and a planner that still
# believes a table is empty picks nested loops over the whole table.
ANALYZE_BASE_ROWS = 1000
ANALYZE_SCALE = 0.1
STALE_STATISTICS = text(
    "SELECT c.relname, c.reltuples, coalesce(s.n_mod_since_analyze, 0) "
    "FROM pg_class c LEFT JOIN pg_stat_user_tables s ON s.relid = c.oid "
    "WHERE c.relname IN :tables AND c.relnamespace = to_regnamespace(current_schema())::oid"
).bindparams(bindparam("tables", expanding=True))


def refresh_statistics(written: dict[str, int]) -> list[str]:
    """After a bulk write has committed: ANALYZE (on PostgreSQL) each table of ``written``
    (``{table: rows written}``) whose changes since its last ANALYZE exceed PostgreSQL's
    autoanalyze threshold. Returns the tables analyzed."""
    if db.engine.dialect.name != "postgresql" or max(written.values(), default=0) < ANALYZE_BASE_ROWS:
        return []
    session = db.session()
    stale = []
    for name, estimate, changed in session.execute(STALE_STATISTICS, {"tables": list(written)}):
        # Statistics reach pg_stat_user_tables up to a second after a commit: this write's
        # own rows are counted on top, which may count them twice but never misses them.
        changed += written[name]
        if changed >= ANALYZE_BASE_ROWS and changed > ANALYZE_SCALE * max(estimate, 0):
            stale.append(name)
    for name in sorted(stale):
        session.execute(text(f"ANALYZE {session.get_bind().dialect.identifier_preparer.quote(name)}"))
    session.commit()
    return sorted(stale)


def configure_sqlite(engine) -> None:
    """WAL, enforced foreign keys, a busy timeout and explicit BEGINs for SQLite engines."""
    if engine.dialect.name != "sqlite":
        return

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection, _record):
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA busy_timeout=10000")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(connection):
        write = connection.get_execution_options().get("loko_write", False)
        connection.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")


def schema_revision_state(app):
    """Return ``(current, head)`` Alembic revisions of the app's database."""
    from alembic.runtime.migration import MigrationContext
    from alembic.script import ScriptDirectory

    script = ScriptDirectory.from_config(app.extensions["migrate"].migrate.get_config())
    with db.engine.connect() as connection:
        current = MigrationContext.configure(connection).get_current_revision()
    return current, script.get_current_head()


def driver_timestamp(value: datetime):
    """A timestamp as the DBAPI driver takes it for a ``UTCDateTime`` column."""
    if db.engine.dialect.name == "sqlite":
        return value.astimezone(UTC).replace(tzinfo=None).isoformat(" ", "microseconds")
    return value


def execute_rows(sql: str, rows: list[tuple]) -> None:
    """Run ``sql`` (written with ``?`` placeholders) once per row through the DBAPI's executemany.

    Bulk paths use it because SQLAlchemy's per-row parameter processing costs more than the
    database work; values must already be what the driver takes (see ``driver_timestamp``).
    """
    if not rows:
        return
    connection = db.session.connection()
    if connection.dialect.paramstyle != "qmark":
        sql = sql.replace("?", "%s")
    connection.exec_driver_sql(sql, rows)


def stream_tuples(statement, parameters: dict, batch: int = 10_000):
    """Rows of a Core SELECT as plain tuples, fetched ``batch`` at a time from the DBAPI cursor
    of the session's connection (its transaction and snapshot). For exports of a million
    rows: SQLAlchemy's row objects cost about as much as the database's own work."""
    connection = db.session.connection()
    expanded = statement.compile(dialect=connection.dialect).construct_expanded_state(parameters)
    arguments = expanded.positional_parameters if expanded.positiontup is not None else expanded.parameters
    cursor = connection.connection.dbapi_connection.cursor()
    try:
        cursor.execute(expanded.statement, arguments)
        while rows := cursor.fetchmany(batch):
            yield from rows
    finally:
        cursor.close()


def insert_rows(table, columns: tuple[str, ...], rows: list[tuple]) -> None:
    """INSERT tuples (in ``columns`` order) into ``table`` with one executemany."""
    quote = db.session.get_bind().dialect.identifier_preparer.quote
    names = ", ".join(quote(name) for name in columns)
    marks = ", ".join("?" for _ in columns)
    execute_rows(f"INSERT INTO {quote(table.name)} ({names}) VALUES ({marks})", rows)  # noqa: S608
