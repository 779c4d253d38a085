"""Checkpoints of a SQLite database's write-ahead log from a thread of their own
(``Checkpointer``, ``start_checkpointer``), so that no commit waits for one."""

import logging
import sqlite3
import threading
import weakref

from loko.database.sqlite.engines import sqlite_file
from loko.database.sqlite.write_gate import write_gate

log = logging.getLogger("loko")

# Engines whose connections leave checkpoints to a ``Checkpointer`` (``configure_sqlite``).
checkpointed_engines: "weakref.WeakSet" = weakref.WeakSet()
CHECKPOINT_SECONDS = 0.2
RESTART_FRAMES = 4000


class Checkpointer:
    """Copies a SQLite database's write-ahead log into the database file from a thread of its
    own. Left to SQLite, the commit that takes the log past 1,000 pages does it, and that
    write (about one in a hundred single-value PATCHes) waits several milliseconds; with a
    checkpointer running, the engine's connections leave it to the checkpointer
    (``wal_autocheckpoint=0``).

    Every ``interval`` seconds a PASSIVE checkpoint copies what was committed when it began,
    while readers and writers go on. SQLite starts the log afresh only when a write begins
    after a checkpoint that left nothing behind, which under a steady stream of writes never
    happens: so once the log has ``restart_frames``, the checkpointer copies the few frames
    committed meanwhile in the writers' turn (``WriteGate``), which bounds the log as SQLite's
    own checkpoints did."""

    def __init__(
        self, engine, across_processes: bool, interval=CHECKPOINT_SECONDS, restart_frames=RESTART_FRAMES
    ):
        self.engine = engine
        self.database = engine.url.database
        self.across_processes = across_processes
        self.interval = interval
        self.restart_frames = restart_frames
        self._stop = threading.Event()
        self._thread = None

    def run_once(self, connection) -> None:
        _busy, frames, _copied = connection.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        if frames >= self.restart_frames:
            with write_gate(self.engine, self.across_processes):
                connection.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="loko-checkpointer", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()

    def _run(self) -> None:
        connection = sqlite3.connect(self.database, isolation_level=None, check_same_thread=False)
        try:
            while not self._stop.wait(self.interval):
                try:
                    self.run_once(connection)
                except sqlite3.Error:
                    log.exception("checkpoint of %s failed; trying again", self.database)
        finally:
            connection.close()


def start_checkpointer(engine, across_processes: bool) -> Checkpointer | None:
    """For a server process on a SQLite file: start a ``Checkpointer`` and have the engine's
    connections, from now on, leave checkpoints to it. None on other databases."""
    if sqlite_file(engine) is None:
        return None
    checkpointed_engines.add(engine)
    engine.dispose()  # pooled connections opened earlier would still checkpoint on commit
    checkpointer = Checkpointer(engine, across_processes)
    checkpointer.start()
    return checkpointer
