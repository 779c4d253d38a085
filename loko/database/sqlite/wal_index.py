"""Whether a SQLite database has changed, told from the header of its WAL index without a
query (``WalIndex``, ``wal_index``, ``one_transaction_apart``)."""

import logging
import os
import sqlite3
import struct
import weakref

from loko.database.sqlite.engines import per_engine, registry_lock, sqlite_file

log = logging.getLogger("loko")

WAL_HEADER_BYTES = 48  # one copy of the WAL index header; SQLite keeps two, one after the other


class WalIndex:
    """Whether a SQLite database in WAL mode has changed, told without a query: the header of
    its WAL index (``<database>-shm``, https://www.sqlite.org/walformat.html) changes with
    every transaction any connection or process commits. Reading it is one ``pread`` of 96
    bytes; a query lets go of the GIL several times, and under load each such hand-over
    between threads costs more than the query itself.

    ``state()`` is the header, or None when it cannot be read consistently (its two copies
    differ while a writer updates them, or the file is shorter) or the database is not in
    WAL mode: then the caller asks the database. The file is read through a descriptor that
    this process never closes, beside a connection it keeps open (``_shm_descriptor``)."""

    def __init__(self, database: str):
        self.database = database

    def state(self) -> bytes | None:
        descriptor = _shm_descriptor(self.database)
        if descriptor is None:
            return None
        try:
            both = os.pread(descriptor, 2 * WAL_HEADER_BYTES, 0)
        except OSError:
            return None
        if len(both) < 2 * WAL_HEADER_BYTES:
            return None
        header = both[:WAL_HEADER_BYTES]
        if header != both[WAL_HEADER_BYTES:] or not header[12]:  # byte 12: isInit
            return None
        return header


_shm_descriptors: dict[tuple[int, str], int | None] = {}
_shm_keepers: list = []


def _shm_descriptor(database: str) -> int | None:
    """A read-only descriptor of the WAL index of ``database``; None when it is not in WAL
    mode or cannot be opened (then the callers ask the database). Opened once per process,
    after a connection that this process keeps open for good; neither is ever closed:

    - while a connection is open in WAL mode, it holds a shared lock on the database, so no
      connection closing elsewhere can take the database for unused and delete the index
      (this descriptor would then read a dead file whose header never changes);
    - closing any descriptor of a file drops every POSIX lock the process holds on it,
      SQLite's own on the index included."""
    key = (os.getpid(), database)
    if key in _shm_descriptors:
        return _shm_descriptors[key]
    with registry_lock:
        if key not in _shm_descriptors:
            _shm_descriptors[key] = None
            try:
                keeper = sqlite3.connect(database, check_same_thread=False)
                (mode,) = keeper.execute("PRAGMA journal_mode").fetchone()
                if mode != "wal":
                    keeper.close()
                    return None
                keeper.execute("SELECT count(*) FROM sqlite_master").fetchone()  # opens the index
                _shm_keepers.append(keeper)
                _shm_descriptors[key] = os.open(f"{database}-shm", os.O_RDONLY)
            except (OSError, sqlite3.Error):
                log.warning("the WAL index of %s cannot be read; revalidations ask the database", database)
        return _shm_descriptors[key]


_wal_indexes: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def wal_index(engine) -> WalIndex | None:
    """The ``WalIndex`` of ``engine``'s SQLite file; None for other databases."""
    database = sqlite_file(engine)
    if database is None:
        return None
    return per_engine(_wal_indexes, engine, lambda: WalIndex(database))


def one_transaction_apart(before: bytes, after: bytes) -> bool:
    """Whether exactly one transaction was committed between two states of a WAL index
    (its header counts them: ``iChange``, the third 32-bit word, in the machine's order)."""
    counted = struct.unpack_from("=I", before, 8)[0]
    return struct.unpack_from("=I", after, 8)[0] == (counted + 1) % 2**32 and before != after
