"""The session's transactions: ``unit_of_work`` (one use case, one transaction),
``read_snapshot`` (reads that all see the same data) and ``CarriedSession`` (a streamed
body read in its request's snapshot)."""

import weakref
from contextlib import ExitStack, contextmanager

from flask import current_app
from sqlalchemy import event

from loko.database.sqlite.write_gate import write_gate
from loko.extensions import db

TRANSACTION_ENDS = ("before_commit", "after_commit", "after_rollback")
# The handlers of each moment, in the order they were registered (``at_transaction_end``).
_HANDLERS: dict[str, list] = {moment: [] for moment in TRANSACTION_ENDS}


def at_transaction_end(moment: str, handler) -> None:
    """Call ``handler(session)`` at ``moment`` (one of TRANSACTION_ENDS) of every transaction
    of every session ``db`` makes, for a feature that keeps something in ``session.info``
    until then; registered once, by the module that keeps it. A listener added to each
    session that needs one costs more than a small write's statements, as a session lives
    for one request. A savepoint's release or rollback is no transaction's end: the
    transaction goes on, with what its handlers keep (SQLAlchemy tells its session events
    of savepoints too)."""
    if moment not in TRANSACTION_ENDS:
        raise ValueError(f"moment: one of {', '.join(TRANSACTION_ENDS)}")
    if handler not in _HANDLERS[moment]:
        _HANDLERS[moment].append(handler)
    factory, dispatch = db.session.session_factory, _DISPATCH[moment]
    if not event.contains(factory, moment, dispatch):
        event.listen(factory, moment, dispatch)


def _dispatcher(moment: str):
    def dispatch(session) -> None:
        if session.in_nested_transaction():
            return  # a savepoint's end
        for handler in list(_HANDLERS[moment]):
            handler(session)

    return dispatch


_DISPATCH = {moment: _dispatcher(moment) for moment in TRANSACTION_ENDS}


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


def run_alone(statement, parameters: dict) -> list:
    """One write statement as a transaction of its own, its rows returned: on PostgreSQL on a
    pooled connection in autocommit, in one round trip (no BEGIN, no COMMIT); elsewhere in a
    ``unit_of_work`` of the session. For the statements the job workers run between their
    jobs' work (a claim, a delivery's log, a completion that raises no event)."""
    if db.engine.dialect.name == "postgresql":
        with db.engine.connect() as connection:
            connection.execution_options(isolation_level="AUTOCOMMIT")
            return connection.execute(statement, parameters).all()
    with unit_of_work():
        return db.session.execute(statement, parameters).all()


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


def new_snapshot() -> bool:
    """End the session's read transaction and start another (``read_snapshot``), so that
    the next reads see the data as it stands now; False, and nothing done, when the session
    holds changes not yet written."""
    session = db.session()
    if session.new or session.dirty or session.deleted:
        return False
    if session.in_transaction():
        session.commit()
    read_snapshot()
    return True


class CarriedSession:
    """An iterator read after its request has ended (a streamed response's body), in that
    request's own session and transaction, so it sees the snapshot the request's reads saw.

    Flask pops a request's contexts before the server reads the body, and the app context's
    teardown closes its session: a body reading through ``db.session`` would open another
    transaction and see whatever was committed since (another snapshot than the one the
    response's ETag was computed in). Made in the view, this takes the session out of the
    request's reach (its teardown then leaves it open), and reads each chunk in an app
    context of its own where ``db.session`` is that session (pushed for that chunk only, so
    a body left half read leaves no context behind). The session, with its transaction, is
    closed when the body is read to its end or closed, or else when this goes."""

    def __init__(self, chunks):
        self.app = current_app._get_current_object()
        self.session = db.session()
        db.session.registry.clear()
        self.chunks = chunks
        self._close_session = weakref.finalize(self, self.session.close)

    def __iter__(self):
        return self

    def __next__(self):
        with self.app.app_context():
            db.session.registry.set(self.session)
            try:
                return next(self.chunks)
            except BaseException:
                self._close_chunks()
                self._close_session()
                raise
            finally:
                db.session.registry.clear()  # the context's teardown leaves it to us

    def _close_chunks(self) -> None:
        close = getattr(self.chunks, "close", None)
        if close is not None:
            with self.app.app_context():
                db.session.registry.set(self.session)
                try:
                    close()
                finally:
                    db.session.registry.clear()

    def close(self) -> None:
        self._close_chunks()
        self._close_session()
