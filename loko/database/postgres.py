"""PostgreSQL's planner statistics after bulk writes (``refresh_statistics``), the pool's
check of a connection before use (``configure_postgresql``), what a write transaction
keeps until it ends (``transaction_info``) and the statements it sends with its COMMIT
(``with_commit``)."""

import time

from sqlalchemy import bindparam, event, exc, text

from loko.database.commit_notices import commit_notices
from loko.database.statements import PIPELINED, _driver_sql
from loko.extensions import db

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


# A pooled connection used less than this long ago is handed out without asking the server
# first whether it is still there: each question is a round trip (a fifth of a millisecond
# on the loopback), and a busy server's connections are all in use every few milliseconds.
IDLE_PING_SECONDS = 5.0
_IDLE_SINCE = "loko_idle_since"
_WROTE = "loko_wrote"
# In a connection's ``info``: what its transaction keeps until it ends (``transaction_info``).
_TRANSACTION = "loko_transaction"
_WITH_COMMIT = "with_commit"


def transaction_info() -> dict:
    """A dict of the session's current transaction on PostgreSQL, dropped when it commits or
    rolls back (the locks it took, the statements it sends with its COMMIT)."""
    return db.session.connection().info.setdefault(_TRANSACTION, {})


def with_commit(sql: str, parameters: tuple) -> None:
    """Run ``sql`` (``?`` placeholders) at the very end of the session's transaction on
    PostgreSQL: the statements so given, in their order, then COMMIT, go to the server as one
    query, in one round trip. A row they update is then locked only while the server commits,
    never while this process runs Python or waits for the interpreter's lock between round
    trips. A statement that fails rolls the transaction back, as a failed COMMIT does."""
    transaction_info().setdefault(_WITH_COMMIT, []).append((sql, parameters))


def _send_with_commit(connection) -> None:
    """The ``commit`` event, right before the driver's COMMIT: the statements of
    ``with_commit`` and the COMMIT itself in one simple query. The driver's own COMMIT then
    finds no transaction open and sends nothing."""
    pending = connection.info.get(_TRANSACTION, {}).pop(_WITH_COMMIT, None)
    if not pending:
        return
    from psycopg import ClientCursor  # only a PostgreSQL engine comes here

    dbapi_connection = connection.connection.dbapi_connection
    # The driver's own client-side binding writes each value in as a literal (and refuses a
    # statement given the wrong number of values).
    with ClientCursor(dbapi_connection) as binder:
        parts = [binder.mogrify(_driver_sql(statement, "format"), values) for statement, values in pending]
    query = "; ".join([*parts, "COMMIT"])
    cursor = dbapi_connection.cursor()
    if connection.dispatch.before_cursor_execute:
        connection.dispatch.before_cursor_execute(connection, cursor, query, (), None, False)
    try:
        cursor.execute(query)
    finally:
        cursor.close()


def configure_postgresql(engine) -> None:
    """Ping a pooled connection before use only when it sat idle for ``IDLE_PING_SECONDS``
    (SQLAlchemy's ``pool_pre_ping`` pings on every checkout). A connection found closed is
    dropped and another one taken, as with ``pool_pre_ping``; one lost within those seconds
    fails its request, and the pool then drops every connection of that age.

    A connection that ran a statement other than a SELECT tells the process's
    ``CommitNotices`` when it goes back to the pool: its write is then committed, and this
    process's 304s must not answer from what it kept before."""
    if engine.dialect.name != "postgresql":
        return

    notices = commit_notices(engine)

    @event.listens_for(engine, "before_cursor_execute")
    def _driver_statements_only_in_pipelines(connection, _cursor, statement, _parameters, context, _many):
        if connection is None:
            return
        # SQLAlchemy's statements come with an execution context; the driver's without.
        if context is not None and connection.info.get(PIPELINED):
            raise RuntimeError(
                f"a SQLAlchemy statement in a pipelined block would read no rows: {statement[:80]}"
            )
        if statement.lstrip()[:6].upper() != "SELECT":
            connection.info[_WROTE] = True

    @event.listens_for(engine, "commit")
    def _committing(connection):
        try:
            _send_with_commit(connection)
        finally:
            connection.info.pop(_TRANSACTION, None)

    @event.listens_for(engine, "rollback")
    def _rolling_back(connection):
        connection.info.pop(_TRANSACTION, None)

    @event.listens_for(engine, "checkin")
    def _checked_in(_dbapi_connection, record):
        record.info.pop(_TRANSACTION, None)
        record.info[_IDLE_SINCE] = time.monotonic()
        # Back in the pool after its transaction ended: a write it made is committed (or
        # rolled back), and this process's reads may see it from now on.
        if record.info.pop(_WROTE, False):
            notices.committed()

    @event.listens_for(engine, "checkout")
    def _checked_out(dbapi_connection, record, _proxy):
        idle_since = record.info.get(_IDLE_SINCE)
        if idle_since is None or time.monotonic() - idle_since < IDLE_PING_SECONDS:
            return
        try:
            engine.dialect.do_ping(dbapi_connection)
        except engine.dialect.loaded_dbapi.Error as error:
            raise exc.DisconnectionError(f"the database connection was lost: {error}") from error
