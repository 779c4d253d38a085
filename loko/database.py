"""Database plumbing shared by every feature: column types, ids, the unit of work,
SQLite connection settings and the schema-version check."""

import fcntl
import logging
import os
import secrets
import sqlite3
import struct
import threading
import time
import weakref
from contextlib import ExitStack, contextmanager, nullcontext
from datetime import UTC, datetime
from functools import lru_cache

from flask import current_app
from sqlalchemy import DateTime, String, bindparam, event, text
from sqlalchemy.types import TypeDecorator

from loko.extensions import db

log = logging.getLogger("loko")


def new_id() -> str:
    """A UUID version 7 (RFC 9562): the creation time in milliseconds, then 74 random
    bits. New rows land at the end of primary-key indexes, not on random pages, which
    keeps bulk inserts into large tables cheap."""
    milliseconds = time.time_ns() // 1_000_000
    random_bits = secrets.randbits(74)
    value = (milliseconds << 80) | (0x7 << 76) | ((random_bits >> 62) << 64) | (0b10 << 62)
    digits = f"{value | (random_bits & (2**62 - 1)):032x}"  # as str(uuid.UUID(int=...)) writes it
    return f"{digits[:8]}-{digits[8:12]}-{digits[12:16]}-{digits[16:20]}-{digits[20:]}"


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

    On SQLite the transaction starts with BEGIN IMMEDIATE, once this process's writers
    ahead of it are done (``WriteGate``); a read-only transaction left open by earlier
    lookups is closed first.
    """
    session = db.session()
    if session.in_transaction() and not (session.new or session.dirty or session.deleted):
        session.commit()
    with ExitStack() as stack:
        if not session.in_transaction():
            stack.enter_context(write_gate(db.engine, current_app.config["LOKO_PROCESSES"] > 1))
            session.connection(execution_options={"loko_write": True})
        try:
            yield session
            session.commit()
        except BaseException:
            session.rollback()
            raise


class WriteGate:
    """Writers of one SQLite database take turns here before BEGIN IMMEDIATE: one at a time
    per process (a lock) and, when ``loko serve`` runs several processes, one at a time
    across them (an flock on ``<database>-writer.lock``). SQLite alone would make the others
    retry on its busy timeout, which sleeps 1, 2, 5, 10 ... ms between attempts: under many
    writers much of the time went to those sleeps, and two processes served fewer writes
    than one. Re-entrant within a thread."""

    def __init__(self, database: str):
        self.lock_path = f"{database}-writer.lock"
        self._lock = threading.RLock()
        self._depth = 0
        self._file = None
        self._pid = None
        self._flocked = False

    def enter(self, across_processes: bool) -> None:
        self._lock.acquire()
        self._depth += 1
        if self._depth == 1 and across_processes:
            try:
                fcntl.flock(self._lock_file(), fcntl.LOCK_EX)
            except BaseException:
                self.leave()
                raise
            self._flocked = True

    def leave(self) -> None:
        if self._depth == 1 and self._flocked:
            self._flocked = False
            fcntl.flock(self._file, fcntl.LOCK_UN)
        self._depth -= 1
        self._lock.release()

    @contextmanager
    def held(self, across_processes: bool):
        self.enter(across_processes)
        try:
            yield self
        finally:
            self.leave()

    def _lock_file(self):
        # Opened in each process: an flock belongs to an open file, which a fork shares.
        if self._pid != os.getpid():
            if self._file is not None:
                self._file.close()
            self._file = open(self.lock_path, "a")  # noqa: SIM115 - kept open while the gate lives
            weakref.finalize(self, self._file.close)
            self._pid = os.getpid()
        return self._file


_write_gates: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()
_write_gates_lock = threading.Lock()


def write_gate(engine, across_processes: bool = False):
    """The turn of a writer of ``engine``'s SQLite file (``WriteGate``); on other databases
    nothing (PostgreSQL queues the writers of a project on the project's row lock)."""
    database = sqlite_file(engine)
    if database is None:
        return nullcontext()
    return _per_engine(_write_gates, engine, lambda: WriteGate(database)).held(across_processes)


def sqlite_file(engine) -> str | None:
    """The path of ``engine``'s database when it is a SQLite file; None for other databases
    and SQLite in memory."""
    database = engine.url.database
    if engine.dialect.name != "sqlite" or database in (None, "", ":memory:"):
        return None
    return database


def _per_engine(registry, engine, make):
    """``registry[engine]``, made by ``make()`` the first time. Only that first time takes
    the lock: every request passes here, and a lock all threads take is a queue."""
    found = registry.get(engine)
    if found is None:
        with _write_gates_lock:
            found = registry.get(engine)
            if found is None:
                found = registry[engine] = make()
    return found


class _Job:
    __slots__ = ("done", "error", "group", "result", "wake", "work")

    def __init__(self, work):
        self.work = work
        self.done = False
        self.result = None
        self.error = None
        self.group = None  # set when this job's thread is to lead a group
        self.wake = threading.Lock()  # released once: the job is done, or its thread leads
        self.wake.acquire()


class GroupCommit:
    """Small writes to one SQLite database that arrive while another's transaction runs are
    written together in the next one. The writer that finds none running leads: it runs its
    write, commits, then wakes the writers it wrote for and hands every write queued
    meanwhile to the first of them, who leads the next transaction. Each waiting thread is
    woken once, when its write is done or its turn to lead has come. When a write of a group
    fails, the transaction is rolled back and each write runs again alone, so only the
    failing one fails. Under many writers the cost of a transaction (BEGIN, COMMIT and the
    writers' turn, ``write_gate``) is paid once per group, not per write; a lone writer runs
    at once, as before. A write's result comes back only once its transaction has committed.

    The writes go through one connection of their own, whichever thread leads: its page
    cache stays valid from one write to the next, where a thread's connection would find
    it stale after every other thread's write and read each page of the write again."""

    def __init__(self, engine):
        self._engine = weakref.ref(engine)  # the registry's value must not keep its key alive
        # Called with the database's state before and after a transaction of these writes
        # when it was the only change between the two (``one_transaction_apart``).
        self.after_commit: list = []
        self._lock = threading.Lock()
        self._queue: list[_Job] = []
        self._busy = False
        self._connection = None
        self._pid = None

    @property
    def engine(self):
        return self._engine()

    def _writer(self):
        """The writers' connection (opened in each process: a fork must not share it; closed
        when the engine's connections are disposed of, and opened again when next needed)."""
        if self._pid != os.getpid():
            pooled = self.engine.raw_connection()
            self._connection = pooled.driver_connection
            pooled.detach()
            weakref.finalize(self, self._connection.close)
            self._pid = os.getpid()
            if not event.contains(self.engine, "engine_disposed", self._close):
                event.listen(self.engine, "engine_disposed", self._close)
        return self._connection

    def _close(self, _engine=None) -> None:
        connection, self._connection, self._pid = self._connection, None, None
        if connection is not None:
            connection.close()

    def run(self, work, across_processes: bool = False):
        """``work(statements)`` (a ``ConnectionStatements``) in a committed transaction; its
        result, or its error (nothing of it written)."""
        job = _Job(work)
        with self._lock:
            if self._busy:
                self._queue.append(job)
            else:
                self._busy = True
                job.group = [job]
        if job.group is None:
            job.wake.acquire()
        if not job.done:
            self._lead(job, across_processes)
        if job.error is not None:
            raise job.error
        return job.result

    def _lead(self, leader: _Job, across_processes: bool) -> None:
        try:
            self._commit(leader.group, across_processes)
        finally:
            with self._lock:
                following, self._queue = self._queue, []
                if following:
                    following[0].group = following
                else:
                    self._busy = False
            for job in leader.group:
                if job is not leader:
                    job.wake.release()
            if following:
                following[0].wake.release()

    def _commit(self, group: list[_Job], across_processes: bool) -> None:
        try:
            self._transaction(group, across_processes)
        except Exception as error:
            for job in group:
                job.result = None  # rolled back
            if len(group) == 1:
                group[0].error = error
            else:  # each write again, alone: only the failing one fails
                for index, job in enumerate(group):
                    try:
                        self._commit([job], across_processes)
                    except BaseException as stop:
                        for rest in group[index + 1 :]:
                            rest.error = stop
                        raise
        except BaseException as error:
            for job in group:
                job.result, job.error = None, error
            raise
        finally:
            for job in group:
                job.done = True

    def _transaction(self, group: list[_Job], across_processes: bool) -> None:
        """Every write of ``group`` in one transaction; any error rolls them all back."""
        connection = self._writer()
        statements = ConnectionStatements(connection, self.engine)
        index = wal_index(self.engine) if self.after_commit else None
        with write_gate(self.engine, across_processes):
            statements.run("BEGIN IMMEDIATE")
            before = index.state() if index is not None else None  # no one else commits now
            changes = connection.total_changes
            try:
                for job in group:
                    job.result = job.work(statements)
                statements.run("COMMIT")
            except BaseException:
                statements.run("ROLLBACK")
                raise
        # Committed: nothing from here on may count as the writes' failure.
        try:
            wrote = connection.total_changes > changes
            after = index.state() if before is not None and wrote else None
            if after is not None and one_transaction_apart(before, after):
                for listener in self.after_commit:
                    listener(before, after)
        except Exception:
            log.exception("after a group commit")


_group_commits: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def group_commit(engine) -> GroupCommit:
    """The ``GroupCommit`` of ``engine``'s SQLite database in this process."""
    return _per_engine(_group_commits, engine, lambda: GroupCommit(engine))


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
        if engine in _checkpointed_engines:
            cursor.execute("PRAGMA wal_autocheckpoint=0")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(connection):
        write = connection.get_execution_options().get("loko_write", False)
        driver_execute(connection, "BEGIN IMMEDIATE" if write else "BEGIN", ())


_checkpointed_engines: "weakref.WeakSet" = weakref.WeakSet()
CHECKPOINT_SECONDS = 0.2
RESTART_FRAMES = 4000


class Checkpointer:
    """Copies a SQLite database's write-ahead log into the database file from a thread of its
    own. Left to SQLite, the commit that takes the log past 1,000 pages does it, and that
    write (about one in a hundred single-value PATCHes) waits several milliseconds; with a
    checkpointer running, the engine's connections leave it to the checkpointer
    (``wal_autocheckpoint=0``).

    Every ``interval`` seconds a PASSIVE checkpoint copies what was committed when it began,
    while readers and writers go on. SQLite starts the log afresh only when a write begins
    after a checkpoint that left nothing behind, which under a steady stream of writes never
    happens: so once the log has ``restart_frames``, the checkpointer copies the few frames
    committed meanwhile in the writers' turn (``WriteGate``), which bounds the log as SQLite's
    own checkpoints did."""

    def __init__(
        self, engine, across_processes: bool, interval=CHECKPOINT_SECONDS, restart_frames=RESTART_FRAMES
    ):
        self.engine = engine
        self.database = engine.url.database
        self.across_processes = across_processes
        self.interval = interval
        self.restart_frames = restart_frames
        self._stop = threading.Event()
        self._thread = None

    def run_once(self, connection) -> None:
        _busy, frames, _copied = connection.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        if frames >= self.restart_frames:
            with write_gate(self.engine, self.across_processes):
                connection.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="loko-checkpointer", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()

    def _run(self) -> None:
        connection = sqlite3.connect(self.database, isolation_level=None, check_same_thread=False)
        try:
            while not self._stop.wait(self.interval):
                try:
                    self.run_once(connection)
                except sqlite3.Error:
                    log.exception("checkpoint of %s failed; trying again", self.database)
        finally:
            connection.close()


def start_checkpointer(engine, across_processes: bool) -> Checkpointer | None:
    """For a server process on a SQLite file: start a ``Checkpointer`` and have the engine's
    connections, from now on, leave checkpoints to it. None on other databases."""
    if sqlite_file(engine) is None:
        return None
    _checkpointed_engines.add(engine)
    engine.dispose()  # pooled connections opened earlier would still checkpoint on commit
    checkpointer = Checkpointer(engine, across_processes)
    checkpointer.start()
    return checkpointer


def _migration_scripts(app):
    from alembic.script import ScriptDirectory

    return ScriptDirectory.from_config(app.extensions["migrate"].migrate.get_config())


def schema_revision_state(app):
    """Return ``(current, head)`` Alembic revisions of the app's database."""
    from alembic.runtime.migration import MigrationContext

    with db.engine.connect() as connection:
        current = MigrationContext.configure(connection).get_current_revision()
    return current, _migration_scripts(app).get_current_head()


def known_schema_revisions(app) -> set[str]:
    """The Alembic revisions of this Loko's migrations: a database at any other revision was
    written by a newer Loko."""
    return {script.revision for script in _migration_scripts(app).walk_revisions()}


def driver_timestamp(value: datetime, dialect_name: str | None = None):
    """A timestamp as the DBAPI driver takes it for a ``UTCDateTime`` column (of the app's
    database, or of a ``dialect_name`` database)."""
    if (dialect_name or db.engine.dialect.name) == "sqlite":
        return value.astimezone(UTC).replace(tzinfo=None).isoformat(" ", "microseconds")
    return value


def driver_execute(connection, sql: str, parameters, many: bool = False):
    """Run ``sql`` on the DBAPI cursor of a SQLAlchemy ``connection`` (in its transaction);
    returns the cursor. SQLAlchemy's own execution costs several times what SQLite spends
    on a small statement, so the hot paths skip it; the engine's ``before_cursor_execute``
    listeners (statement logging and counting) still hear of every statement."""
    cursor = connection.connection.dbapi_connection.cursor()
    if connection.dispatch.before_cursor_execute:
        connection.dispatch.before_cursor_execute(connection, cursor, sql, parameters, None, many)
    if many:
        cursor.executemany(sql, parameters)
    else:
        cursor.execute(sql, parameters)
    return cursor


def execute_rows(sql: str, rows: list[tuple]) -> None:
    """Run ``sql`` (written with ``?`` placeholders) once per row through the DBAPI's executemany.

    Bulk paths use it because SQLAlchemy's per-row parameter processing costs more than the
    database work; values must already be what the driver takes (see ``driver_timestamp``).
    """
    if not rows:
        return
    connection = db.session.connection()
    sql = _driver_sql(sql, connection.dialect.paramstyle)
    if len(rows) == 1:
        driver_execute(connection, sql, rows[0])
    else:
        driver_execute(connection, sql, rows, many=True)


@lru_cache(maxsize=256)
def _driver_sql(sql: str, paramstyle: str) -> str:
    return sql if paramstyle == "qmark" else sql.replace("?", "%s")


def stream_batches(statement, parameters: dict, batch: int = 10_000):
    """Rows of a Core SELECT as lists of plain tuples, fetched ``batch`` at a time from the
    DBAPI cursor of the session's connection (its transaction and snapshot). For exports of
    a million rows: SQLAlchemy's row objects cost about as much as the database's own work,
    and a generator step per row a tenth."""
    connection = db.session.connection()
    expanded = statement.compile(dialect=connection.dialect).construct_expanded_state(parameters)
    arguments = expanded.positional_parameters if expanded.positiontup is not None else expanded.parameters
    cursor = connection.connection.dbapi_connection.cursor()
    try:
        cursor.execute(expanded.statement, arguments)
        while rows := cursor.fetchmany(batch):
            yield rows
    finally:
        cursor.close()


def insert_rows(table, columns: tuple[str, ...], rows: list[tuple]) -> None:
    """INSERT tuples (in ``columns`` order) into ``table`` with one executemany."""
    if rows:
        execute_rows(_insert_sql(table.name, columns, db.session.get_bind().dialect), rows)


@lru_cache(maxsize=64)
def _insert_sql(table: str, columns: tuple[str, ...], dialect) -> str:
    quote = dialect.identifier_preparer.quote
    names = ", ".join(quote(name) for name in columns)
    marks = ", ".join("?" for _ in columns)
    return f"INSERT INTO {quote(table)} ({names}) VALUES ({marks})"  # noqa: S608


class SessionStatements:
    """Statements run in the session's transaction: the usual write path."""

    def query(self, driver_query: "DriverQuery", parameters: dict):
        """Run a ``DriverQuery``; returns the DBAPI cursor to read."""
        return driver_query.run(parameters)

    def execute(self, sql: str, rows: list[tuple]) -> None:
        """``sql`` (``?`` placeholders) once per row."""
        execute_rows(sql, rows)

    def insert(self, table, columns: tuple[str, ...], rows: list[tuple]) -> None:
        insert_rows(table, columns, rows)


class ConnectionStatements(SessionStatements):
    """The same statements on a DBAPI ``connection`` to ``engine``'s database, in a
    transaction its owner began and ends (the direct write path of a single PATCH). The
    engine's ``before_cursor_execute`` listeners hear of each statement, with no
    SQLAlchemy connection."""

    def __init__(self, connection, engine):
        self.connection = connection
        self.dialect = engine.dialect
        self.listeners = engine.dispatch.before_cursor_execute

    def run(self, sql: str, parameters=(), many: bool = False):
        """``sql`` as the driver takes it; returns the cursor."""
        cursor = self.connection.cursor()
        if self.listeners:
            self.listeners(None, cursor, sql, parameters, None, many)
        if many:
            cursor.executemany(sql, parameters)
        else:
            cursor.execute(sql, parameters)
        return cursor

    def query(self, driver_query: "DriverQuery", parameters: dict):
        return self.run(*driver_query.arguments(self.dialect, parameters))

    def execute(self, sql: str, rows: list[tuple]) -> None:
        if rows:
            sql = _driver_sql(sql, self.dialect.paramstyle)
            if len(rows) == 1:
                self.run(sql, rows[0])
            else:
                self.run(sql, rows, many=True)

    def insert(self, table, columns: tuple[str, ...], rows: list[tuple]) -> None:
        if rows:
            self.execute(_insert_sql(table.name, columns, self.dialect), rows)


SESSION_STATEMENTS = SessionStatements()


class DriverQuery:
    """A Core statement compiled once per dialect and run straight on a DBAPI cursor, for the
    hottest paths (a key lookup on every request, the statements of a single PATCH):
    SQLAlchemy's per-execution work costs several times what SQLite spends on such a
    statement. Parameters must already be what the driver takes (see ``driver_timestamp``);
    rows come back as the driver makes them (SQLite timestamps are text). No expanding
    (``IN``) parameters."""

    def __init__(self, statement):
        self.statement = statement
        self._compiled: dict[tuple[str, str], tuple[str, tuple[str, ...] | None]] = {}

    def _compiled_for(self, dialect) -> tuple[str, tuple[str, ...] | None]:
        compiled = self._compiled.get((dialect.name, dialect.driver))
        if compiled is None:
            statement = self.statement.compile(dialect=dialect)
            positions = tuple(statement.positiontup) if statement.positiontup is not None else None
            compiled = self._compiled[(dialect.name, dialect.driver)] = (statement.string, positions)
        return compiled

    def arguments(self, dialect, parameters: dict) -> tuple[str, list | dict]:
        """``(sql, arguments)`` as the DBAPI driver of a ``dialect`` database takes them."""
        sql, positions = self._compiled_for(dialect)
        return sql, parameters if positions is None else [parameters[name] for name in positions]

    def execute(self, cursor, dialect, parameters: dict):
        """Run on ``cursor`` (a DBAPI cursor of a ``dialect`` database); returns the cursor."""
        cursor.execute(*self.arguments(dialect, parameters))
        return cursor

    def first(self, engine, parameters: dict):
        """The first row (a tuple) or None, read outside any session on a connection of its
        own: on SQLite the calling thread's autocommit connection (``thread_connection``), no
        transaction left open; elsewhere one from the pool."""
        if engine.dialect.name == "sqlite":
            return self._first_on(thread_connection(engine), engine.dialect, parameters)
        connection = engine.raw_connection()
        try:
            return self._first_on(connection, engine.dialect, parameters)
        finally:
            connection.close()

    def _first_on(self, connection, dialect, parameters: dict):
        cursor = self.execute(connection.cursor(), dialect, parameters)
        try:
            return cursor.fetchone()
        finally:
            cursor.close()

    def run(self, parameters: dict):
        """Execute in the session's transaction; returns the DBAPI cursor to read."""
        connection = db.session.connection()
        return driver_execute(connection, *self.arguments(connection.dialect, parameters))


class _ThreadConnections:
    """Each thread's connection to one engine's database; all closed when the engine's
    connections are disposed of (each thread opens a new one when it next needs it)."""

    def __init__(self, engine):
        self.local = threading.local()
        self.opened = []
        weakref.finalize(self, _close_all, self.opened)
        event.listen(engine, "engine_disposed", self.close_all)

    def close_all(self, _engine=None) -> None:
        with _write_gates_lock:
            opened, self.opened[:] = list(self.opened), []
            self.local = threading.local()
        _close_all(opened)


_thread_connections: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def thread_connection(engine):
    """The calling thread's own DBAPI connection to ``engine``'s SQLite database, set up as the
    pool's are and kept for the next read: one-statement reads on every request (the key
    lookup, the early 304) then skip the pool's checkout and return, a quarter of their
    time under load. In autocommit mode it holds no lock between statements. Closed when the
    engine goes."""
    connections = _per_engine(_thread_connections, engine, lambda: _ThreadConnections(engine))
    connection = getattr(connections.local, "connection", None)
    if connection is None:
        pooled = engine.raw_connection()
        connection = connections.local.connection = pooled.driver_connection
        pooled.detach()
        with _write_gates_lock:
            connections.opened.append(connection)
    return connection


def _close_all(connections: list) -> None:
    for connection in connections:
        connection.close()


WAL_HEADER_BYTES = 48  # one copy of the WAL index header; SQLite keeps two, one after the other


class WalIndex:
    """Whether a SQLite database in WAL mode has changed, told without a query: the header of
    its WAL index (``<database>-shm``, https://www.sqlite.org/walformat.html) changes with
    every transaction any connection or process commits. Reading it is one ``pread`` of 96
    bytes; a query lets go of the GIL several times, and under load each such hand-over
    between threads costs more than the query itself.

    ``state()`` is the header, or None when it cannot be read consistently (its two copies
    differ while a writer updates them, or the file is shorter) or the database is not in
    WAL mode: then the caller asks the database. The file is read through a descriptor that
    this process never closes, beside a connection it keeps open (``_shm_descriptor``)."""

    def __init__(self, database: str):
        self.database = database

    def state(self) -> bytes | None:
        descriptor = _shm_descriptor(self.database)
        if descriptor is None:
            return None
        try:
            both = os.pread(descriptor, 2 * WAL_HEADER_BYTES, 0)
        except OSError:
            return None
        if len(both) < 2 * WAL_HEADER_BYTES:
            return None
        header = both[:WAL_HEADER_BYTES]
        if header != both[WAL_HEADER_BYTES:] or not header[12]:  # byte 12: isInit
            return None
        return header


_shm_descriptors: dict[tuple[int, str], int | None] = {}
_shm_keepers: list = []


def _shm_descriptor(database: str) -> int | None:
    """A read-only descriptor of the WAL index of ``database``; None when it is not in WAL
    mode or cannot be opened (then the callers ask the database). Opened once per process,
    after a connection that this process keeps open for good; neither is ever closed:

    - while a connection is open in WAL mode, it holds a shared lock on the database, so no
      connection closing elsewhere can take the database for unused and delete the index
      (this descriptor would then read a dead file whose header never changes);
    - closing any descriptor of a file drops every POSIX lock the process holds on it,
      SQLite's own on the index included."""
    key = (os.getpid(), database)
    if key in _shm_descriptors:
        return _shm_descriptors[key]
    with _write_gates_lock:
        if key not in _shm_descriptors:
            _shm_descriptors[key] = None
            try:
                keeper = sqlite3.connect(database, check_same_thread=False)
                (mode,) = keeper.execute("PRAGMA journal_mode").fetchone()
                if mode != "wal":
                    keeper.close()
                    return None
                keeper.execute("SELECT count(*) FROM sqlite_master").fetchone()  # opens the index
                _shm_keepers.append(keeper)
                _shm_descriptors[key] = os.open(f"{database}-shm", os.O_RDONLY)
            except (OSError, sqlite3.Error):
                log.warning("the WAL index of %s cannot be read; revalidations ask the database", database)
        return _shm_descriptors[key]


_wal_indexes: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def wal_index(engine) -> WalIndex | None:
    """The ``WalIndex`` of ``engine``'s SQLite file; None for other databases."""
    database = sqlite_file(engine)
    if database is None:
        return None
    return _per_engine(_wal_indexes, engine, lambda: WalIndex(database))


class KeptRows:
    """Rows read from a SQLite database, kept with the state of its WAL index at which they
    were read (``WalIndex``) and given back only while the database still stands there, for
    at most ``seconds`` each. Rows kept at an older state are of no more use and go.

    ``advance(before, after)`` carries the rows kept at ``before`` over to ``after``: for a
    writer whose own transaction, which left these rows alone, was the only change between
    the two (see ``GroupCommit.after_commit``)."""

    def __init__(self, seconds: float = 1.0, size: int = 1024):
        self.seconds = seconds
        self.size = size
        self._lock = threading.Lock()
        self._kept: tuple[bytes | None, dict] = (None, {})

    def get(self, key, state: bytes):
        kept_state, rows = self._kept
        if kept_state != state:
            return None
        found = rows.get(key)
        if found is None or found[0] < time.monotonic():
            return None
        return found[1]

    def keep(self, key, state: bytes, row) -> None:
        with self._lock:
            kept_state, rows = self._kept
            if kept_state != state or len(rows) >= self.size:
                rows = {}
            rows[key] = (time.monotonic() + self.seconds, row)
            self._kept = (state, rows)

    def read(self, key, state: bytes | None, load):
        """The row kept for ``key`` at ``state``, or else ``load()``'s, kept when it is one
        (no state: ``load()``'s, kept nowhere)."""
        if state is None:
            return load()
        row = self.get(key, state)
        if row is None:
            row = load()
            if row is not None:
                self.keep(key, state, row)
        return row

    def advance(self, before: bytes, after: bytes) -> None:
        with self._lock:
            kept_state, rows = self._kept
            if kept_state == before:
                self._kept = (after, rows)


def one_transaction_apart(before: bytes, after: bytes) -> bool:
    """Whether exactly one transaction was committed between two states of a WAL index
    (its header counts them: ``iChange``, the third 32-bit word, in the machine's order)."""
    counted = struct.unpack_from("=I", before, 8)[0]
    return struct.unpack_from("=I", after, 8)[0] == (counted + 1) % 2**32 and before != after
