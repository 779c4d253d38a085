"""A SQLite database's WAL index tells, without a query, whether anything was committed to
it since it was last read, by any connection or process; rows read from it are kept while
it stands there."""

import gc
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from loko.database import KeptRows, WalIndex, one_transaction_apart

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def database(tmp_path) -> str:
    path = str(tmp_path / "wal.db")
    connection = sqlite3.connect(path, isolation_level=None)
    connection.execute("PRAGMA journal_mode=WAL")
    connection.execute("CREATE TABLE notes (text TEXT)")
    connection.close()
    return path


def write(database: str, text: str) -> None:
    connection = sqlite3.connect(database, isolation_level=None)
    connection.execute("INSERT INTO notes VALUES (?)", (text,))
    connection.close()


def test_the_state_stands_while_nothing_is_written(database):
    index = WalIndex(database)
    state = index.state()
    assert state is not None
    assert index.state() == state


def test_a_write_by_another_connection_changes_the_state(database):
    index = WalIndex(database)
    before = index.state()
    write(database, "one")
    assert index.state() not in (None, before)


def test_a_write_by_another_process_changes_the_state(database):
    index = WalIndex(database)
    before = index.state()
    script = "import sys\nfrom tests.integration.test_wal_index import write\nwrite(sys.argv[1], 'x')"
    subprocess.run([sys.executable, "-c", script, database], check=True, cwd=ROOT)
    assert index.state() not in (None, before)


def test_a_database_not_in_wal_mode_has_no_state(tmp_path):
    path = str(tmp_path / "rollback.db")
    sqlite3.connect(path).execute("CREATE TABLE notes (text TEXT)").connection.close()
    assert WalIndex(path).state() is None


def test_one_commit_is_one_transaction_apart_and_two_are_not(database):
    index = WalIndex(database)
    first = index.state()
    write(database, "one")
    second = index.state()
    write(database, "two")
    assert one_transaction_apart(first, second)
    assert not one_transaction_apart(first, index.state())


def test_kept_rows_answer_only_at_the_state_they_were_read_at():
    kept = KeptRows()
    kept.keep("key", b"state one", ("row",))
    assert kept.get("key", b"state one") == ("row",)
    assert kept.get("key", b"state two") is None


def test_kept_rows_carried_over_a_known_change_answer_after_it():
    kept = KeptRows()
    kept.keep("key", b"state one", ("row",))
    kept.advance(b"state one", b"state two")
    assert kept.get("key", b"state two") == ("row",)
    assert kept.get("key", b"state one") is None


def test_kept_rows_go_after_their_time():
    kept = KeptRows(seconds=-1)
    kept.keep("key", b"state", ("row",))
    assert kept.get("key", b"state") is None


def test_reading_the_index_never_lets_go_of_this_process_locks(database):
    reader = sqlite3.connect(database, isolation_level=None)
    reader.execute("SELECT count(*) FROM notes").fetchone()
    write(database, "one")
    reader.execute("BEGIN")
    reader.execute("SELECT count(*) FROM notes").fetchone()  # a read transaction on the log
    index = WalIndex(database)
    assert index.state() is not None
    del index
    gc.collect()
    script = (
        "import sqlite3, sys\n"
        "checkpoint = sqlite3.connect(sys.argv[1], timeout=0).execute('PRAGMA wal_checkpoint(TRUNCATE)')\n"
        "print(checkpoint.fetchone()[0])"
    )
    busy = subprocess.run(
        [sys.executable, "-c", script, database], capture_output=True, text=True, check=True
    )
    assert busy.stdout.strip() == "1"  # the reader still holds the log: it may not be truncated
    reader.execute("COMMIT")
