"""A server on SQLite copies the write-ahead log into the database from a thread of its own
(loko/database/sqlite/checkpoints.py), so that no request waits for a checkpoint, and keeps the
log from growing without bound under a steady stream of writes."""

import sqlite3

import pytest
from sqlalchemy import text

import loko.database
import loko.serving
from loko import cli
from loko.database import Checkpointer, start_checkpointer, unit_of_work
from loko.extensions import db
from tests.integration.test_write_gate import flock_is_free
from tests.translation_factories import project_api


@pytest.fixture
def engine(app):
    with app.app_context():
        if db.engine.dialect.name != "sqlite":
            pytest.skip("SQLite's write-ahead log")
        yield db.engine


@pytest.fixture
def log_reader(engine):
    """A connection of its own that reports the log: ``(busy, frames, frames copied)``."""
    connection = sqlite3.connect(engine.url.database, isolation_level=None)
    yield lambda: connection.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
    connection.close()


def write_some(app, rows=50):
    project_api(app).upsert("en", {f"key.{i}": f"value {i}" for i in range(rows)})


def test_connections_leave_checkpoints_to_a_running_checkpointer(app, engine):
    checkpointer = start_checkpointer(engine, across_processes=False)
    try:
        with unit_of_work():
            assert db.session.execute(text("PRAGMA wal_autocheckpoint")).scalar_one() == 0
    finally:
        checkpointer.stop()


def test_without_a_checkpointer_sqlite_checkpoints_as_usual(app, engine):
    with unit_of_work():
        assert db.session.execute(text("PRAGMA wal_autocheckpoint")).scalar_one() == 1000


def checkpoint_with(engine, checkpointer, wrap=lambda connection: connection) -> None:
    connection = sqlite3.connect(engine.url.database, isolation_level=None)
    try:
        checkpointer.run_once(wrap(connection))
    finally:
        connection.close()


def test_a_checkpoint_copies_the_whole_log(app, engine, log_reader):
    write_some(app)
    checkpoint_with(engine, Checkpointer(engine, across_processes=False, restart_frames=10**9))
    _busy, frames, copied = log_reader()
    assert frames > 0
    assert copied == frames


class WriteDuringTheFirstCheckpoint:
    """A checkpointer's connection during whose first checkpoint a writer commits, and which
    notes whether the writers' flock was held at each checkpoint."""

    def __init__(self, connection, write, lock_path):
        self.connection, self.write, self.lock_path = connection, write, lock_path
        self.writers_held_off = []

    def execute(self, sql):
        self.writers_held_off.append(not flock_is_free(self.lock_path))
        cursor = self.connection.execute(sql)
        if len(self.writers_held_off) == 1:
            row = cursor.fetchone()
            self.write()
            return Fetched(row)
        return cursor


class Fetched:
    def __init__(self, row):
        self.row = row

    def fetchone(self):
        return self.row


def test_a_long_log_is_completed_in_the_writers_turn_and_then_starts_afresh(app, engine, log_reader):
    write_some(app, rows=200)
    _busy, frames_before, _ = log_reader()
    lock_path = f"{engine.url.database}-writer.lock"
    checkpointer = Checkpointer(engine, across_processes=True, restart_frames=1)
    wrapped = []

    def wrap(connection):
        wrapped.append(WriteDuringTheFirstCheckpoint(connection, lambda: write_some(app, rows=1), lock_path))
        return wrapped[0]

    checkpoint_with(engine, checkpointer, wrap)
    write_some(app, rows=1)
    _busy, frames_after, _ = log_reader()
    assert wrapped[0].writers_held_off == [False, True]
    assert frames_after < frames_before


def test_postgresql_needs_no_checkpointer(app):
    with app.app_context():
        if db.engine.dialect.name != "postgresql":
            pytest.skip("PostgreSQL")
        assert start_checkpointer(db.engine, across_processes=False) is None


def test_each_serving_process_starts_a_checkpointer(app, monkeypatch):
    started, served = [], []

    class Server:
        def run(self):
            served.append(True)

    monkeypatch.setattr(loko.database, "start_checkpointer", lambda *args: started.append(args))
    monkeypatch.setattr(loko.serving, "make_server", lambda *args, **settings: Server())
    app.config["LOKO_PROCESSES"] = 2
    cli._serve_socket(app, listener=None, threads=8)
    with app.app_context():
        assert started == [(db.engine, True)]
    assert served == [True]
