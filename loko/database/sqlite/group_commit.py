"""Group commit on SQLite (``GroupCommit``, ``group_commit``): small writes that arrive
while another's transaction runs are written together in the next transaction."""

import logging
import os
import threading
import weakref

from sqlalchemy import event

from loko.database.sqlite.engines import per_engine
from loko.database.sqlite.shared_commits import shared_commits
from loko.database.sqlite.wal_index import one_transaction_apart, wal_index
from loko.database.sqlite.write_gate import write_gate
from loko.database.statements import ConnectionStatements

log = logging.getLogger("loko")


class _Job:
    __slots__ = ("done", "error", "group", "result", "wake", "work")

    def __init__(self, work):
        self.work = work
        self.done = False
        self.result = None
        self.error = None
        self.group = None  # set when this job's thread is to lead a group
        self.wake = threading.Lock()  # released once: the job is done, or its thread leads
        self.wake.acquire()


class GroupCommit:
    """Small writes to one SQLite database that arrive while another's transaction runs are
    written together in the next one. The writer that finds none running leads: it runs its
    write, commits, then wakes the writers it wrote for and hands every write queued
    meanwhile to the first of them, who leads the next transaction. Each waiting thread is
    woken once, when its write is done or its turn to lead has come. When a write of a group
    fails, the transaction is rolled back and each write runs again alone, so only the
    failing one fails. Under many writers the cost of a transaction (BEGIN, COMMIT and the
    writers' turn, ``write_gate``) is paid once per group, not per write; a lone writer runs
    at once, as before. A write's result comes back only once its transaction has committed.

    The writes go through one connection of their own, whichever thread leads: its page
    cache stays valid from one write to the next, where a thread's connection would find
    it stale after every other thread's write and read each page of the write again."""

    def __init__(self, engine):
        self._engine = weakref.ref(engine)  # the registry's value must not keep its key alive
        # Called with the database's state before and after a transaction of these writes
        # when it was the only change between the two (``one_transaction_apart``).
        self.after_commit: list = []
        self._lock = threading.Lock()
        self._queue: list[_Job] = []
        self._busy = False
        self._connection = None
        self._pid = None

    @property
    def engine(self):
        return self._engine()

    def _writer(self):
        """The writers' connection (opened in each process: a fork must not share it; closed
        when the engine's connections are disposed of, and opened again when next needed)."""
        if self._pid != os.getpid():
            pooled = self.engine.raw_connection()
            self._connection = pooled.driver_connection
            pooled.detach()
            weakref.finalize(self, self._connection.close)
            self._pid = os.getpid()
            if not event.contains(self.engine, "engine_disposed", self._close):
                event.listen(self.engine, "engine_disposed", self._close)
        return self._connection

    def _close(self, _engine=None) -> None:
        connection, self._connection, self._pid = self._connection, None, None
        if connection is not None:
            connection.close()

    def run(self, work, across_processes: bool = False):
        """``work(statements)`` (a ``ConnectionStatements``) in a committed transaction; its
        result, or its error (nothing of it written)."""
        job = _Job(work)
        with self._lock:
            if self._busy:
                self._queue.append(job)
            else:
                self._busy = True
                job.group = [job]
        if job.group is None:
            job.wake.acquire()
        if not job.done:
            self._lead(job, across_processes)
        if job.error is not None:
            raise job.error
        return job.result

    def _lead(self, leader: _Job, across_processes: bool) -> None:
        try:
            self._commit(leader.group, across_processes)
        finally:
            with self._lock:
                following, self._queue = self._queue, []
                if following:
                    following[0].group = following
                else:
                    self._busy = False
            for job in leader.group:
                if job is not leader:
                    job.wake.release()
            if following:
                following[0].wake.release()

    def _commit(self, group: list[_Job], across_processes: bool) -> None:
        try:
            self._transaction(group, across_processes)
        except Exception as error:
            for job in group:
                job.result = None  # rolled back
            if len(group) == 1:
                group[0].error = error
            else:  # each write again, alone: only the failing one fails
                for index, job in enumerate(group):
                    try:
                        self._commit([job], across_processes)
                    except BaseException as stop:
                        for rest in group[index + 1 :]:
                            rest.error = stop
                        raise
        except BaseException as error:
            for job in group:
                job.result, job.error = None, error
            raise
        finally:
            for job in group:
                job.done = True

    def _transaction(self, group: list[_Job], across_processes: bool) -> None:
        """Every write of ``group`` in one transaction; any error rolls them all back."""
        connection = self._writer()
        statements = ConnectionStatements(connection, self.engine)
        index = wal_index(self.engine) if self.after_commit else None
        with write_gate(self.engine, across_processes):
            statements.run("BEGIN IMMEDIATE")
            before = index.state() if index is not None else None  # no one else commits now
            statements.wal_state = before
            changes = connection.total_changes
            try:
                for job in group:
                    job.result = job.work(statements)
                statements.run("COMMIT")
            except BaseException:
                statements.run("ROLLBACK")
                raise
            # Committed: nothing from here on may count as the writes' failure.
            after = self._committed(connection, changes, index, before, across_processes)
        if after is None:
            return
        try:
            for listener in self.after_commit:
                listener(before, after)
        except Exception:
            log.exception("after a group commit")

    def _committed(self, connection, changes: int, index, before, across_processes: bool):
        """The WAL index's state right after this commit, still in the writers' turn, when
        the commit was the only change since ``before`` (else None); told to the other
        processes (``SharedCommits``) when there are several."""
        try:
            if before is None or connection.total_changes == changes:
                return None
            after = index.state()
            if after is None or not one_transaction_apart(before, after):
                return None
            if across_processes:
                shared_commits(self.engine).record(before, after)
            return after
        except Exception:
            log.exception("after a group commit")
            return None


_group_commits: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def group_commit(engine) -> GroupCommit:
    """The ``GroupCommit`` of ``engine``'s SQLite database in this process."""
    return per_engine(_group_commits, engine, lambda: GroupCommit(engine))
