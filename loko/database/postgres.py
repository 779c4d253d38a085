"""PostgreSQL's planner statistics after bulk writes (``refresh_statistics``), and the
pool's check of a connection before use (``configure_postgresql``)."""

import time

from sqlalchemy import bindparam, event, exc, text

from loko.database.commit_notices import commit_notices
from loko.database.statements import PIPELINED
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

    @event.listens_for(engine, "checkin")
    def _checked_in(_dbapi_connection, record):
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
