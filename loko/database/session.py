"""The session's transactions: ``unit_of_work`` (one use case, one transaction) and
``read_snapshot`` (reads that all see the same data)."""

from contextlib import ExitStack, contextmanager

from flask import current_app

from loko.database.sqlite.write_gate import write_gate
from loko.extensions import db


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
