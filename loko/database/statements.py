"""Statements run below SQLAlchemy's execution, straight on the DBAPI driver, for the hot
paths: ``DriverQuery``, ``execute_rows`` and ``insert_rows``, the session's and a bare
connection's statements (``SESSION_STATEMENTS``, ``ConnectionStatements``), values as the
driver takes them (``driver_timestamp``), rows streamed in batches (``stream_batches``) and
``IN`` lists cut to size (``in_chunks``)."""

from contextlib import contextmanager
from datetime import UTC, datetime
from functools import lru_cache

from loko.database.sqlite.connections import thread_connection
from loko.extensions import db

IN_CHUNK = 5000
# Set in a connection's ``info`` while its statements are pipelined (``pipelined``).
PIPELINED = "loko_pipelined"


def in_chunks(items: list, size: int = IN_CHUNK):
    """Slices of ``items`` small enough for one ``IN (...)`` list on every database."""
    for start in range(0, len(items), size):
        yield items[start : start + size]


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


# Rows from which PostgreSQL is sent them by COPY (an INSERT) or into a scratch table by COPY
# (an UPDATE), not one statement each: psycopg's work per statement, pipelined, costs ten
# times the server's on large writes (an undo of 100,000 values spent 8 s in it).
COPY_INSERT_ABOVE = 100
COPY_UPDATE_ABOVE = 1000
SCRATCH_TABLE = "loko_rows"


def insert_rows(table, columns: tuple[str, ...], rows: list[tuple]) -> None:
    """INSERT tuples (in ``columns`` order) into ``table`` with one executemany (by COPY on
    PostgreSQL, for many)."""
    if not rows:
        return
    connection = db.session.connection()
    if _copies(connection, len(rows), COPY_INSERT_ABOVE):
        _copy(connection, table.name, columns, rows)
    else:
        execute_rows(_insert_sql(table.name, columns, connection.dialect), rows)


def update_rows(table, columns: tuple[str, ...], keys: tuple[str, ...], rows: list[tuple]) -> None:
    """UPDATE ``table`` SET ``columns`` WHERE ``keys`` match, per row: each row holds the new
    values in ``columns`` order, then the keys'. One executemany; on PostgreSQL, for many
    rows, a scratch table filled by COPY and one UPDATE ... FROM it. The keys must name one
    row each."""
    if not rows:
        return
    connection = db.session.connection()
    quote = connection.dialect.identifier_preparer.quote
    if not _copies(connection, len(rows), COPY_UPDATE_ABOVE):
        execute_rows(_update_sql(table.name, columns, keys, connection.dialect), rows)
        return
    names = ", ".join(quote(name) for name in (*columns, *keys))
    driver_execute(
        connection,
        f"CREATE TEMP TABLE {SCRATCH_TABLE} ON COMMIT DROP AS "  # noqa: S608
        f"SELECT {names} FROM {quote(table.name)} WITH NO DATA",
        (),
    )
    _copy(connection, SCRATCH_TABLE, (*columns, *keys), rows)
    driver_execute(connection, f"ANALYZE {SCRATCH_TABLE}", ())  # its size, for the join's plan
    assignments = ", ".join(f"{quote(name)} = r.{quote(name)}" for name in columns)
    match = " AND ".join(f"t.{quote(name)} = r.{quote(name)}" for name in keys)
    driver_execute(
        connection,
        f"UPDATE {quote(table.name)} AS t SET {assignments} FROM {SCRATCH_TABLE} AS r WHERE {match}",  # noqa: S608
        (),
    )
    driver_execute(connection, f"DROP TABLE {SCRATCH_TABLE}", ())


def _copies(connection, count: int, above: int) -> bool:
    """Whether ``count`` rows go by COPY: on PostgreSQL, above ``above``, and not in a
    pipelined block (psycopg's pipeline mode has no COPY)."""
    return connection.dialect.name == "postgresql" and count > above and not connection.info.get(PIPELINED)


def _copy(connection, table_name: str, columns: tuple[str, ...], rows: list[tuple]) -> None:
    """Rows into a PostgreSQL table by COPY, in the session's transaction (the engine's
    ``before_cursor_execute`` listeners hear of it as one statement)."""
    quote = connection.dialect.identifier_preparer.quote
    sql = f"COPY {quote(table_name)} ({', '.join(quote(name) for name in columns)}) FROM STDIN"
    cursor = connection.connection.dbapi_connection.cursor()
    if connection.dispatch.before_cursor_execute:
        connection.dispatch.before_cursor_execute(connection, cursor, sql, rows, None, True)
    with cursor.copy(sql) as copy:
        for row in rows:
            copy.write_row(row)


@lru_cache(maxsize=64)
def _update_sql(table: str, columns: tuple[str, ...], keys: tuple[str, ...], dialect) -> str:
    quote = dialect.identifier_preparer.quote
    assignments = ", ".join(f"{quote(name)} = ?" for name in columns)
    match = " AND ".join(f"{quote(name)} = ?" for name in keys)
    return f"UPDATE {quote(table)} SET {assignments} WHERE {match}"  # noqa: S608


@lru_cache(maxsize=64)
def _insert_sql(table: str, columns: tuple[str, ...], dialect) -> str:
    quote = dialect.identifier_preparer.quote
    names = ", ".join(quote(name) for name in columns)
    marks = ", ".join("?" for _ in columns)
    return f"INSERT INTO {quote(table)} ({names}) VALUES ({marks})"  # noqa: S608


class SessionStatements:
    """Statements run in the session's transaction: the usual write path."""

    # A group commit's transaction (``ConnectionStatements``) keeps these; a session's does not.
    wal_state = None  # the WAL index's state as the transaction began
    bumped = None  # the data version bumps made in the transaction (``bump_data_version``)

    def query(self, driver_query: "DriverQuery", parameters: dict):
        """Run a ``DriverQuery``; returns the DBAPI cursor to read."""
        return driver_query.run(parameters)

    @contextmanager
    def pipelined(self):
        """On PostgreSQL, the statements run meanwhile go to the server without waiting for
        each one's answer (psycopg's pipeline mode): the first result read, and the end of
        the block, wait once for all sent so far; an error is raised there. Only this
        class's statements may run inside: SQLAlchemy's would read no rows (the server has
        not answered yet), so ``configure_postgresql`` refuses them. Elsewhere it does
        nothing."""
        connection = db.session.connection()
        if connection.dialect.name != "postgresql":
            yield
            return
        connection.info[PIPELINED] = True
        try:
            with connection.connection.dbapi_connection.pipeline():
                yield
        finally:
            connection.info.pop(PIPELINED, None)

    def pipelining(self) -> bool:
        """Whether the statements run now go to the server in a ``pipelined`` block: a query
        run then and read later (``ahead``) costs no round trip of its own."""
        return bool(db.session.connection().info.get(PIPELINED))

    def ahead(self, sql: str, parameters: tuple | list):
        """In a ``pipelined`` block, send the query ``sql`` now, with what the block sends
        before its first read, and return its cursor to read (``fetchall``) and close later;
        None elsewhere, where asking when the rows are needed costs no more."""
        if not self.pipelining():
            return None
        connection = db.session.connection()
        return driver_execute(connection, _driver_sql(sql, connection.dialect.paramstyle), parameters)

    def execute(self, sql: str, rows: list[tuple]) -> None:
        """``sql`` (``?`` placeholders) once per row."""
        execute_rows(sql, rows)

    def insert(self, table, columns: tuple[str, ...], rows: list[tuple]) -> None:
        insert_rows(table, columns, rows)

    def update(self, table, columns: tuple[str, ...], keys: tuple[str, ...], rows: list[tuple]) -> None:
        """``update_rows``: each row's ``columns`` values, then its ``keys``'."""
        update_rows(table, columns, keys, rows)

    def timestamp(self, value: datetime):
        """``value`` as the driver of these statements' database takes it (``driver_timestamp``)."""
        return driver_timestamp(value)

    def fetch(self, sql: str, parameters: tuple | list) -> list[tuple]:
        """The rows of ``sql`` (``?`` placeholders), as plain tuples."""
        connection = db.session.connection()
        cursor = driver_execute(connection, _driver_sql(sql, connection.dialect.paramstyle), parameters)
        try:
            return cursor.fetchall()
        finally:
            cursor.close()


class ConnectionStatements(SessionStatements):
    """The same statements on a DBAPI ``connection`` to ``engine``'s database, in a
    transaction its owner began and ends (the direct write path of a single PATCH). The
    engine's ``before_cursor_execute`` listeners hear of each statement, with no
    SQLAlchemy connection."""

    def __init__(self, connection, engine):
        self.connection = connection
        self.dialect = engine.dialect
        self.listeners = engine.dispatch.before_cursor_execute
        # Known here: ``driver_timestamp`` would ask the app's engine for it on every call.
        self.dialect_name = engine.dialect.name
        self._last_timestamp = (None, None)
        self.wal_state = None
        self.bumped: set = set()

    def timestamp(self, value: datetime):
        # A write stamps its rows with one ``now``: the last one made serves again.
        last, stamp = self._last_timestamp
        if value is not last:
            stamp = driver_timestamp(value, self.dialect_name)
            self._last_timestamp = (value, stamp)
        return stamp

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

    def update(self, table, columns: tuple[str, ...], keys: tuple[str, ...], rows: list[tuple]) -> None:
        if rows:
            self.execute(_update_sql(table.name, columns, keys, self.dialect), rows)

    @contextmanager
    def pipelined(self):
        yield  # a bare connection's statements (SQLite's direct writes) run one by one

    def pipelining(self) -> bool:
        return False

    def ahead(self, sql: str, parameters: tuple | list):
        return None

    def fetch(self, sql: str, parameters: tuple | list) -> list[tuple]:
        cursor = self.run(_driver_sql(sql, self.dialect.paramstyle), parameters)
        try:
            return cursor.fetchall()
        finally:
            cursor.close()


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
        transaction left open; elsewhere one from the pool, in autocommit for the read."""
        if engine.dialect.name == "sqlite":
            return self._first_on(thread_connection(engine), engine.dialect, parameters)
        connection = engine.raw_connection()
        driver = connection.dbapi_connection
        try:
            # In autocommit: no transaction is left to end when the pool takes it back (a
            # round trip more).
            driver.autocommit = True
            return self._first_on(connection, engine.dialect, parameters)
        finally:
            if not driver.closed:
                driver.autocommit = False
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
