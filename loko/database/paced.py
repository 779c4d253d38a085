"""Background work paced in short write transactions (``Paced``).

A background job that writes much (the memory's index, a re-check of every key) does it in
batches, each in a transaction of its own. On SQLite a transaction holds the one write lock
for as long as it runs, so a batch that takes 50 ms makes a save that comes meanwhile wait
50 ms. ``Paced`` sizes each batch from the pace of the ones before, so that one takes about
``PACE_SECONDS`` (5 ms: a save waits a few milliseconds at most), and rests a moment after
each one: a save that waited for the lock takes it then, rather than the job's next batch (a
lock is not handed over in the order it was asked for).

A job whose small batches cost it much more in all (the memory's rebuild: FTS5 writes and
merges a segment per transaction) names a longer ``idle_target``: its batches take that
long only while no request has written for ``IDLE_SECONDS``, and the pace drops back to
``PACE_SECONDS`` from the batch after a request's write.

While requests write, each batch is followed by a rest three times its length
(``BUSY_REST``): the job's Python work holds the interpreter's lock, which the requests of
the process need as much as the database's."""

import contextvars
import time
from contextlib import contextmanager

from loko.database.sqlite.write_gate import seconds_since_foreground_write

PACE_SECONDS = 0.005
# A request's write within this many seconds keeps batches at PACE_SECONDS.
IDLE_SECONDS = 2.0
GROWTH = 2.0
# The rest after a batch: long enough for a writer woken by the lock's release to take it.
REST_SECONDS = 0.003
# While requests write (within IDLE_SECONDS), a batch is followed by a rest this many times
# its length: the job's Python work (the checks of a large write, the memory's texts) holds
# the interpreter's lock while it runs, so a job that ran flat out would slow every request
# of the process, lock or no lock. It then takes about a quarter of the time (batches of
# the usual few milliseconds; a rest is never longer than MOST_BUSY_REST).
BUSY_REST = 3.0
MOST_BUSY_REST = 0.05


_alone = contextvars.ContextVar("loko_writing_alone", default=False)


@contextmanager
def writing_alone():
    """For work that no one else writes beside (a benchmark's seed, a database being set
    up): its batches grow to their largest at once, without a rest between them."""
    token = _alone.set(True)
    try:
        yield
    finally:
        _alone.reset(token)


class Paced:
    """The sizes of a job's successive batches: ``first`` to begin with, then what the last
    batch's rate says fits in ``target`` seconds (at most twice the size before, never below
    ``least`` nor above ``most``)."""

    def __init__(
        self,
        first: int,
        *,
        least: int = 1,
        most: int | None = None,
        target: float | None = None,
        idle_target: float | None = None,
    ):
        self.least = least
        self.most = most
        self.base_target = PACE_SECONDS if target is None else target
        self.idle_target = idle_target
        self.target = self.base_target
        self.alone = _alone.get() and most is not None
        self.size = self._bounded(most if self.alone else first)

    def _target(self) -> float:
        if self.idle_target is None or seconds_since_foreground_write() < IDLE_SECONDS:
            return self.base_target
        return self.idle_target

    def _bounded(self, size: int) -> int:
        size = max(size, self.least)
        return size if self.most is None else min(size, self.most)

    def took(self, seconds: float, done: int) -> None:
        """A batch of ``done`` items took ``seconds``: rest, and size the next one."""
        if self.alone:
            return
        busy = seconds_since_foreground_write() < IDLE_SECONDS
        time.sleep(self.rest(seconds, busy))
        if done <= 0:
            return
        self.target = self._target()
        fitting = done * self.target / seconds if seconds > 0 else done * GROWTH
        self.size = self._bounded(int(min(fitting, self.size * GROWTH)))

    @staticmethod
    def rest(seconds: float, busy: bool) -> float:
        """The rest after a batch of ``seconds``: BUSY_REST times it while requests write
        (``busy``), within REST_SECONDS and MOST_BUSY_REST; REST_SECONDS otherwise."""
        if not busy:
            return REST_SECONDS
        return min(max(REST_SECONDS, seconds * BUSY_REST), MOST_BUSY_REST)

    def chunks(self, items: list):
        """Successive slices of ``items``, each sized by the time the one before took (from
        one yield to the next: the caller's transaction for it)."""
        start = 0
        while start < len(items):
            chunk = items[start : start + self.size]
            began = time.monotonic()
            yield chunk
            self.took(time.monotonic() - began, len(chunk))
            start += len(chunk)
