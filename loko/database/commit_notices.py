"""Whether a PostgreSQL database's exported data may have changed, told without a query
(``CommitNotices``, ``commit_notices``): PostgreSQL's ``LISTEN/NOTIFY``.

Triggers (migration ``0031_commit_notices``) send ``NOTIFY loko_commits`` from every
transaction that writes what a revalidation reads: the projects (their data versions), the
files' and languages' versions, the API keys. The database delivers a notice only after its
transaction committed, and signals the listeners before it tells the committer so. Each
process listens on a connection of its own; the count of notices it has read is its state,
as the header of the WAL index is on SQLite (``WalIndex``). A process's own writes advance
its state when their connection goes back to the pool, after their commit and before their
answer, so a process reads its own writes at once. Another process's commit reaches it as a
notice, a moment after the commit: so that no 304 answers for a commit acknowledged before
the request came, ``state()`` first makes one round trip on the listening connection (an
empty query, no statement to plan or run, shared by the requests that arrive together),
before whose answer the database hands over every notice it owes.

The state is None (the callers ask the database) until the listener listens, and from the
moment its connection is found lost until it listens again; the listener tries again every
``RETRY_SECONDS``. Notices sent while nobody listened are missed, so a new listener starts
from a new state: nothing read before it is given back."""

import contextlib
import logging
import os
import select
import threading
import time
import weakref

from sqlalchemy import event

log = logging.getLogger("loko")

CHANNEL = "loko_commits"
APPLICATION_NAME = "loko-commit-notices"
RETRY_SECONDS = 1.0
# How long the listener waits for its socket before it looks again at whether to stop.
WAIT_SECONDS = 1.0


def readable(descriptor: int) -> bool:
    """Whether ``descriptor`` has data (or its end) to read now."""
    try:
        ready, _, _ = select.select([descriptor], [], [], 0)
    except (OSError, ValueError):
        return True  # closed: reading it tells the loss
    return bool(ready)


class _Listener:
    """One listening connection and the thread that reads it while no request does, in one
    process. Its connection is used under ``connection_lock``."""

    def __init__(self, notices: "CommitNotices", conninfo: str):
        self.notices = notices
        self.conninfo = conninfo
        self.pid = os.getpid()
        self.stopped = threading.Event()
        self.connection_lock = threading.Lock()
        self.connection = None
        self.descriptor = -1
        self.listening = False
        # The round trips of ``barrier()``: one at a time, each serving every caller that
        # arrived before it began.
        self.rounds = threading.Condition()
        self.rounds_started = self.rounds_done = 0
        self.in_round = False
        self.thread = threading.Thread(target=self._run, name="loko-commit-notices", daemon=True)

    def start(self) -> None:
        self.thread.start()

    def stop(self) -> None:
        self.stopped.set()

    def barrier(self) -> bool:
        """Whether the notice of every commit acknowledged before this call has been read:
        an empty query sent on the connection and answered, by this call or by one that
        began after it. The database signals its listeners before it acknowledges a commit,
        and hands a listener its pending notices before it answers. False when the
        connection is lost."""
        with self.rounds:
            wanted = self.rounds_started + 1
            while self.rounds_done < wanted:
                if not self.in_round:
                    self.in_round = True
                    break
                self.rounds.wait()
            else:
                return self.listening
        try:
            # The requests under way that arrive before the round is counted as begun join it.
            time.sleep(0)
            with self.rounds:
                self.rounds_started += 1
            self._read(round_trip=True)
        finally:
            with self.rounds:
                self.in_round = False
                self.rounds_done = self.rounds_started
                self.rounds.notify_all()
        return self.listening

    def _connect(self) -> bool:
        import psycopg

        try:
            connection = psycopg.connect(
                self.conninfo, autocommit=True, application_name=APPLICATION_NAME, connect_timeout=5
            )
            connection.execute(f"LISTEN {CHANNEL}")
        except psycopg.Error as error:
            log.warning("listening for commits failed (exports revalidate with a query): %s", error)
            return False
        with self.connection_lock:
            self.connection, self.descriptor = connection, connection.pgconn.socket
            self.listening = True
        self.notices.advance()  # whatever was kept before this listener may be stale
        return True

    def _run(self) -> None:
        while not self.stopped.is_set():
            if not self._connect():
                self.stopped.wait(RETRY_SECONDS)
                continue
            try:
                while self.listening and not self.stopped.is_set():
                    # A failing wait: the read below finds the connection lost.
                    with contextlib.suppress(OSError, ValueError):
                        select.select([self.descriptor], [], [], WAIT_SECONDS)
                    self._read()
            finally:
                with self.connection_lock:
                    self.listening = False
                    connection, self.connection = self.connection, None
                self.notices.advance()
                if connection is not None:
                    connection.close()
            if not self.stopped.is_set():
                log.warning("the connection listening for commits was lost; listening again")
                self.stopped.wait(RETRY_SECONDS)

    def _read(self, round_trip: bool = False) -> None:
        """Read what the connection has (after an empty query and its answer, with
        ``round_trip``): notices advance the state; a lost connection stops the listening."""
        import psycopg
        from psycopg import pq

        noticed = False
        with self.connection_lock:
            if not self.listening or not (round_trip or readable(self.descriptor)):
                return
            pgconn = self.connection.pgconn
            try:
                if round_trip:
                    if pgconn.exec_(b"").status != pq.ExecStatus.EMPTY_QUERY:
                        raise psycopg.OperationalError("the connection is lost")
                else:
                    # The end of a connection may follow the error the server sent before
                    # closing it: read until nothing is left.
                    for _ in range(4):
                        pgconn.consume_input()
                        if not readable(self.descriptor):
                            break
                while pgconn.notifies() is not None:
                    noticed = True
                if pgconn.status != pq.ConnStatus.OK:
                    raise psycopg.OperationalError("the connection is lost")
            except psycopg.Error:
                self.listening = False
        if noticed or not self.listening:
            self.notices.advance()


class CommitNotices:
    """The commits of a PostgreSQL database as this process learns of them (see the
    module's docstring). ``state()`` is a number that changes with every such commit, or
    None when the process cannot tell."""

    def __init__(self, engine):
        self.conninfo = engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
        self.lock = threading.Lock()
        self.generation = 0
        self.listener: _Listener | None = None
        event.listen(engine, "engine_disposed", self.stop)

    def advance(self) -> None:
        """A commit this process made or learned of, or a listener gained or lost."""
        with self.lock:
            self.generation += 1

    committed = advance  # this process committed a write (its connection is back in the pool)

    def state(self) -> int | None:
        """The number of commits this process knows of, once it has read the notice of
        every commit acknowledged before this call (``_Listener.barrier``); None when it
        cannot tell (no listener)."""
        listener = self.listener
        if listener is None or listener.pid != os.getpid():
            self._start()
            return None
        if not listener.barrier():
            return None
        with self.lock:
            return self.generation if listener.listening else None

    def _start(self) -> None:
        with self.lock:
            if self.listener is not None and self.listener.pid == os.getpid():
                return
            # A listener of the parent process is left alone: its connection is the parent's.
            self.listener = listener = _Listener(self, self.conninfo)
            self.generation += 1
        listener.start()

    def stop(self, _engine=None) -> None:
        """Stop listening (the engine's connections were disposed of); the next ``state()``
        listens again."""
        with self.lock:
            listener, self.listener = self.listener, None
            self.generation += 1
        if listener is not None and listener.pid == os.getpid():
            listener.stop()


_registry_lock = threading.Lock()
_notices: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def commit_notices(engine) -> CommitNotices | None:
    """The ``CommitNotices`` of ``engine``'s database on PostgreSQL, one per engine; None
    for other databases."""
    if engine.dialect.name != "postgresql":
        return None
    found = _notices.get(engine)
    if found is None:
        with _registry_lock:
            found = _notices.get(engine)
            if found is None:
                found = _notices[engine] = CommitNotices(engine)
    return found
