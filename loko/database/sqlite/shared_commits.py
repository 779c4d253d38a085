"""Group commits told across the processes of one server (``SharedCommits``,
``shared_commits``).

Rows kept between group-committed writes (``KeptRows``: API keys, webhook listeners, file
records) stay valid while only such writes change the database, since they leave those rows
alone. In one process the group commit itself carries them over each transaction it makes.
With several server processes, each one's transactions moved the WAL index on under the
others' kept rows, which then went at every write: with two processes every write read its
key, its listeners and its file's records again, and cost twice the CPU of a write in one.

So each group commit, still in the writers' turn across processes, records its transaction
(the WAL index state before and after it, as digests) in a small ring shared by the
processes (``<database>-group-commits``, memory-mapped). A process whose rows were kept at a
state that is followed, only through recorded transactions, by the current one keeps them.
Any other transaction (a write through the full path, a checkpoint that restarts the WAL,
another tool) is not recorded, so the chain breaks and the rows are read again. An entry
read while it is being written fails its checksum and counts as missing: the rows are then
read again, never kept wrongly."""

import hashlib
import mmap
import os
import struct
import threading
import weakref

from loko.database.sqlite.engines import per_engine, sqlite_file

SLOTS = 64
DIGEST_BYTES = 16
CHECK_BYTES = 8
SLOT_BYTES = 2 * DIGEST_BYTES + CHECK_BYTES
COUNT_BYTES = 8  # the number of transactions recorded so far, first in the file
FILE_BYTES = COUNT_BYTES + SLOTS * SLOT_BYTES


def _digest(state: bytes) -> bytes:
    return hashlib.blake2b(state, digest_size=DIGEST_BYTES).digest()


def _check(entry: bytes) -> bytes:
    return hashlib.blake2b(entry, digest_size=CHECK_BYTES, person=b"loko-commits").digest()


class SharedCommits:
    """The ring of recorded transactions of one SQLite database (see the module)."""

    def __init__(self, database: str):
        self.path = f"{database}-group-commits"
        self._lock = threading.Lock()
        self._pid = None
        self._map = None
        self._read = 0  # transactions read into ``_steps`` so far
        self._slots: list[tuple[bytes, bytes] | None] = [None] * SLOTS
        self._steps: dict[bytes, bytes] = {}  # digest before -> digest after

    def _mapped(self) -> mmap.mmap:
        # Mapped in each process (a fork must not use its parent's reading of the ring).
        if self._pid != os.getpid():
            descriptor = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
            try:
                if os.fstat(descriptor).st_size < FILE_BYTES:
                    os.ftruncate(descriptor, FILE_BYTES)
                self._map = mmap.mmap(descriptor, FILE_BYTES)
            finally:
                os.close(descriptor)
            self._pid = os.getpid()
            self._read = 0
            self._slots = [None] * SLOTS
            self._steps = {}
        return self._map

    def record(self, before: bytes, after: bytes) -> None:
        """Record one group commit's transaction, from ``before`` to ``after``; called in
        the writers' turn across processes, right after the commit."""
        with self._lock:
            ring = self._mapped()
            count = struct.unpack_from("=Q", ring, 0)[0]
            entry = _digest(before) + _digest(after)
            offset = COUNT_BYTES + (count % SLOTS) * SLOT_BYTES
            ring[offset : offset + SLOT_BYTES] = entry + _check(entry)
            # The count moves on only once the entry is written.
            struct.pack_into("=Q", ring, 0, count + 1)

    def leads(self, start: bytes, end: bytes) -> bool:
        """Whether only recorded transactions were committed from ``start`` to ``end``."""
        with self._lock:
            self._catch_up()
            here, there = _digest(start), _digest(end)
            for _ in range(SLOTS):
                here = self._steps.get(here)
                if here is None:
                    return False
                if here == there:
                    return True
            return False

    def _catch_up(self) -> None:
        ring = self._mapped()
        count = struct.unpack_from("=Q", ring, 0)[0]
        if count < self._read:  # the file was made again: start over
            self._read, self._slots, self._steps = 0, [None] * SLOTS, {}
        for number in range(max(self._read, count - SLOTS), count):
            slot = number % SLOTS
            old = self._slots[slot]
            if old is not None and self._steps.get(old[0]) == old[1]:
                del self._steps[old[0]]
            offset = COUNT_BYTES + slot * SLOT_BYTES
            raw = ring[offset : offset + SLOT_BYTES]
            entry = raw[: 2 * DIGEST_BYTES]
            if raw[2 * DIGEST_BYTES :] == _check(entry):
                step = (entry[:DIGEST_BYTES], entry[DIGEST_BYTES:])
                self._slots[slot] = step
                self._steps[step[0]] = step[1]
            else:
                self._slots[slot] = None
        self._read = count


_shared: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def shared_commits(engine) -> SharedCommits | None:
    """The ``SharedCommits`` of ``engine``'s SQLite file; None for other databases."""
    database = sqlite_file(engine)
    if database is None:
        return None
    return per_engine(_shared, engine, lambda: SharedCommits(database))
