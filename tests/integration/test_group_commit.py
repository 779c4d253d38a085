"""Small writes arriving while another write's transaction runs share the next transaction
(``GroupCommit``), each in a savepoint of its own."""

import gc
import sqlite3
import threading
import time
import weakref

import pytest
import sqlalchemy as sa
from sqlalchemy import event

from loko.database import configure_sqlite, group_commit

WRITERS = 4


@pytest.fixture
def engine(tmp_path):
    engine = sa.create_engine(f"sqlite:///{tmp_path / 'group.db'}")
    configure_sqlite(engine)
    with engine.begin() as connection:
        connection.exec_driver_sql("CREATE TABLE notes (text TEXT NOT NULL UNIQUE)")
    yield engine
    engine.dispose()


@pytest.fixture
def commits(engine) -> list[str]:
    seen = []

    def record(_connection, _cursor, statement, *_args):
        if statement == "COMMIT":
            seen.append(statement)

    event.listen(engine, "before_cursor_execute", record)
    return seen


def note(text: str):
    def work(statements):
        statements.execute("INSERT INTO notes (text) VALUES (?)", [(text,)])
        return text

    return work


def stored(engine) -> list[str]:
    with engine.connect() as connection:
        return sorted(row[0] for row in connection.exec_driver_sql("SELECT text FROM notes"))


def test_a_lone_write_commits_and_returns_its_result(engine, commits):
    assert group_commit(engine).run(note("one")) == "one"
    assert stored(engine) == ["one"]
    assert len(commits) == 1


def writes_while_one_runs(engine, texts: list[str]) -> dict:
    """Run a first write that waits until ``texts``' writers are queued, then those writers;
    returns each writer's result or error."""
    queued, outcomes = threading.Event(), {}
    group = group_commit(engine)

    def slow(statements):
        queued.wait(5)
        statements.execute("INSERT INTO notes (text) VALUES (?)", [("first",)])

    def write(text):
        try:
            outcomes[text] = group.run(note(text))
        except sqlite3.Error as error:
            outcomes[text] = error

    first = threading.Thread(target=group.run, args=(slow,))
    first.start()
    while not group._busy:
        time.sleep(0.001)
    writers = [threading.Thread(target=write, args=(text,)) for text in texts]
    for writer in writers:
        writer.start()
    while len(group._queue) < len(texts):
        time.sleep(0.001)
    queued.set()
    for thread in (first, *writers):
        thread.join(10)
    return outcomes


def test_writes_queued_meanwhile_share_one_transaction(engine, commits):
    texts = [f"note {n}" for n in range(WRITERS)]
    outcomes = writes_while_one_runs(engine, texts)
    assert outcomes == {text: text for text in texts}
    assert stored(engine) == sorted(["first", *texts])
    assert len(commits) == 2


def test_a_failing_write_of_a_group_rolls_back_alone(engine, commits):
    outcomes = writes_while_one_runs(engine, ["note 1", "first", "note 2"])
    assert isinstance(outcomes["first"], sqlite3.IntegrityError)
    assert outcomes["note 1"] == "note 1" and outcomes["note 2"] == "note 2"
    assert stored(engine) == ["first", "note 1", "note 2"]


def test_a_failing_lone_write_writes_nothing(engine):
    group = group_commit(engine)

    def two_notes(statements):
        statements.execute("INSERT INTO notes (text) VALUES (?)", [("kept?",)])
        statements.execute("INSERT INTO notes (text) VALUES (?)", [("kept?",)])

    with pytest.raises(sqlite3.IntegrityError):
        group.run(two_notes)
    assert stored(engine) == []
    assert group.run(note("after")) == "after"


def test_a_group_commit_does_not_keep_its_engine_alive(tmp_path):
    engine = sa.create_engine(f"sqlite:///{tmp_path / 'gone.db'}")
    group_commit(engine)
    gone = weakref.ref(engine)
    del engine
    gc.collect()
    assert gone() is None


def test_writes_sharing_a_transaction_bump_a_project_s_data_version_once_per_file(app, world, database_url):
    from loko.database import group_commit as app_group_commit
    from loko.extensions import db
    from loko.projects.service import bump_data_version

    if not database_url.startswith("sqlite"):
        pytest.skip("group commits are SQLite's")

    def version():
        with db.engine.connect() as connection:
            return connection.exec_driver_sql(
                "SELECT data_version FROM projects WHERE id = ?", (world.project_id,)
            ).scalar()

    def writes(statements):
        for file_name in ("common", "common", "admin", "common"):
            bump_data_version(world.project_id, statements, files=(file_name,))
        bump_data_version(world.project_id, statements)

    with app.app_context():
        before = version()
        app_group_commit(db.engine).run(writes)
        assert version() == before + 3  # common, admin, and the shared change
        app_group_commit(db.engine).run(writes)
        assert version() == before + 6  # a new transaction bumps again
