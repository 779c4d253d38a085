"""The writers' turn on a SQLite database (``WriteGate``, ``write_gate``): one writer at a
time per process and, with several server processes, across them."""

import fcntl
import os
import threading
import time
import weakref
from contextlib import contextmanager, nullcontext

from loko.database.sqlite.engines import per_engine, sqlite_file

# The threads of background work (the job worker, the checkpointer): every other writer is
# a person's or a pipeline's request, which background batches keep short for (``Paced``).
BACKGROUND_THREADS = ("loko-",)
_last_foreground = [float("-inf")]


def note_foreground_write() -> None:
    _last_foreground[0] = time.monotonic()


def seconds_since_foreground_write() -> float:
    """Seconds since a request last asked this process for a write turn (on any database)."""
    return time.monotonic() - _last_foreground[0]


class WriteGate:
    """Writers of one SQLite database take turns here before BEGIN IMMEDIATE: one at a time
    per process (a lock) and, when ``loko serve`` runs several processes, one at a time
    across them (an flock on ``<database>-writer.lock``). SQLite alone would make the others
    retry on its busy timeout, which sleeps 1, 2, 5, 10 ... ms between attempts: under many
    writers much of the time went to those sleeps, and two processes served fewer writes
    than one. Re-entrant within a thread."""

    def __init__(self, database: str):
        self.lock_path = f"{database}-writer.lock"
        self._lock = threading.RLock()
        self._depth = 0
        self._file = None
        self._pid = None
        self._flocked = False

    def enter(self, across_processes: bool) -> None:
        if not threading.current_thread().name.startswith(BACKGROUND_THREADS):
            note_foreground_write()
        self._lock.acquire()
        self._depth += 1
        if self._depth == 1 and across_processes:
            try:
                fcntl.flock(self._lock_file(), fcntl.LOCK_EX)
            except BaseException:
                self.leave()
                raise
            self._flocked = True

    def leave(self) -> None:
        if self._depth == 1 and self._flocked:
            self._flocked = False
            fcntl.flock(self._file, fcntl.LOCK_UN)
        self._depth -= 1
        self._lock.release()

    @contextmanager
    def held(self, across_processes: bool):
        self.enter(across_processes)
        try:
            yield self
        finally:
            self.leave()

    def _lock_file(self):
        # Opened in each process: an flock belongs to an open file, which a fork shares.
        if self._pid != os.getpid():
            if self._file is not None:
                self._file.close()
            self._file = open(self.lock_path, "a")  # noqa: SIM115 - kept open while the gate lives
            weakref.finalize(self, self._file.close)
            self._pid = os.getpid()
        return self._file


_write_gates: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def write_gate(engine, across_processes: bool = False):
    """The turn of a writer of ``engine``'s SQLite file (``WriteGate``); on other databases
    nothing (PostgreSQL queues the writers of a project on the project's row lock)."""
    database = sqlite_file(engine)
    if database is None:
        return nullcontext()
    return per_engine(_write_gates, engine, lambda: WriteGate(database)).held(across_processes)
