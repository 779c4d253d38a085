"""``at_transaction_end``: a feature that keeps something in a session until its transaction
ends registers its handler once, and hears of every commit and rollback of every session,
not of a savepoint's release or rollback, after which the transaction goes on."""

import pytest
from sqlalchemy import text

from loko.database import at_transaction_end, unit_of_work
from loko.database import session as session_module


@pytest.fixture
def heard(monkeypatch):
    monkeypatch.setattr(
        session_module, "_HANDLERS", {moment: [] for moment in session_module.TRANSACTION_ENDS}
    )
    heard = []

    def commit(session):
        heard.append(("commit", session.info.get("test_kept")))

    def rollback(session):
        heard.append(("rollback", session.info.get("test_kept")))

    for _ in range(2):  # registered twice: heard once
        at_transaction_end("before_commit", commit)
        at_transaction_end("after_rollback", rollback)
    return heard


def test_a_commit_and_a_rollback_are_each_heard_once(app, heard):
    with app.app_context():
        with unit_of_work() as session:
            session.info["test_kept"] = "first"
            session.execute(text("SELECT 1"))
        with pytest.raises(RuntimeError), unit_of_work() as session:
            session.info["test_kept"] = "second"
            raise RuntimeError("refused")
    assert heard == [("commit", "first"), ("rollback", "second")]


def test_a_savepoints_release_and_rollback_are_not_heard(app, heard):
    with app.app_context(), unit_of_work() as session:
        session.info["test_kept"] = "outer"
        with session.begin_nested():
            session.execute(text("SELECT 1"))
        savepoint = session.begin_nested()
        savepoint.rollback()
        assert heard == []
    assert heard == [("commit", "outer")]


def test_a_moment_that_is_no_transaction_end_is_refused():
    with pytest.raises(ValueError, match="moment"):
        at_transaction_end("after_flush", lambda session: None)
