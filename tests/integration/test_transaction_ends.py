"""``at_transaction_end``: a feature that keeps something in a session until its transaction
ends registers its handler once, and hears of every commit and rollback of every session."""

import pytest
from sqlalchemy import event, text

from loko.database import at_transaction_end, unit_of_work
from loko.extensions import db


@pytest.fixture
def heard():
    heard = []

    def commit(session):
        heard.append(("commit", session.info.get("test_kept")))

    def rollback(session):
        heard.append(("rollback", session.info.get("test_kept")))

    for _ in range(2):  # registered twice: heard once
        at_transaction_end("after_commit", commit)
        at_transaction_end("after_rollback", rollback)
    yield heard
    event.remove(db.session.session_factory, "after_commit", commit)
    event.remove(db.session.session_factory, "after_rollback", rollback)


def test_a_commit_and_a_rollback_are_each_heard_once(app, heard):
    with app.app_context():
        with unit_of_work() as session:
            session.info["test_kept"] = "first"
            session.execute(text("SELECT 1"))
        with pytest.raises(RuntimeError), unit_of_work() as session:
            session.info["test_kept"] = "second"
            raise RuntimeError("refused")
    assert heard == [("commit", "first"), ("rollback", "second")]


def test_a_moment_that_is_no_transaction_end_is_refused():
    with pytest.raises(ValueError, match="moment"):
        at_transaction_end("after_flush", lambda session: None)
