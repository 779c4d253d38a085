"""Writers of a SQLite database take turns before BEGIN IMMEDIATE
(loko/database/sqlite/write_gate.py): one at a time in a process and, when ``loko serve``
runs several processes, across them through an flock."""

import contextlib
import fcntl
import threading

import pytest

from loko.database import WriteGate, unit_of_work, write_gate
from loko.extensions import db


def flock_is_free(path) -> bool:
    """Whether another open file could take the gate's flock right now."""
    with open(path, "a") as other:
        try:
            fcntl.flock(other, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        fcntl.flock(other, fcntl.LOCK_UN)
        return True


@pytest.fixture
def gate(tmp_path) -> WriteGate:
    return WriteGate(str(tmp_path / "loko.db"))


def test_a_second_writer_enters_only_after_the_first_has_left(gate):
    order, first_in, second_trying = [], threading.Event(), threading.Event()

    def first():
        with gate.held(False):
            order.append("first in")
            first_in.set()
            second_trying.wait(timeout=30)
            order.append("first out")

    def second():
        first_in.wait(timeout=30)
        second_trying.set()
        with gate.held(False):
            order.append("second in")

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert order == ["first in", "first out", "second in"]


def test_the_gate_is_reentrant_within_a_thread(gate):
    with gate.held(True), gate.held(True):
        assert not flock_is_free(gate.lock_path)
    entered = []

    def enter():
        with gate.held(False):
            entered.append(True)

    thread = threading.Thread(target=enter)
    thread.start()
    thread.join(timeout=30)
    assert entered


def test_across_processes_the_lock_file_is_held_while_writing(gate):
    with gate.held(True):
        assert not flock_is_free(gate.lock_path)
    assert flock_is_free(gate.lock_path)


def test_a_single_process_takes_no_file_lock(gate):
    with gate.held(False):
        assert flock_is_free(gate.lock_path)


@pytest.fixture
def sqlite_app(app):
    with app.app_context():
        if db.engine.dialect.name != "sqlite":
            pytest.skip("the write gate is SQLite's")
    app.config["LOKO_PROCESSES"] = 2
    return app


def test_a_unit_of_work_writes_inside_the_gate(sqlite_app):
    with sqlite_app.app_context():
        path = f"{db.engine.url.database}-writer.lock"
        with unit_of_work():
            assert not flock_is_free(path)
        assert flock_is_free(path)


def test_postgresql_writers_pass_no_gate(app):
    with app.app_context():
        if db.engine.dialect.name != "postgresql":
            pytest.skip("PostgreSQL queues the writers of a project on its row lock")
        assert isinstance(write_gate(db.engine, True), contextlib.nullcontext)
