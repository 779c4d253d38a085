"""Each thread's own autocommit connection to a SQLite database (``thread_connection``), for
the one-statement reads of every request."""

import threading
import weakref

from sqlalchemy import event

from loko.database.sqlite.engines import per_engine, registry_lock


class _ThreadConnections:
    """Each thread's connection to one engine's database; all closed when the engine's
    connections are disposed of (each thread opens a new one when it next needs it)."""

    def __init__(self, engine):
        self.local = threading.local()
        self.opened = []
        weakref.finalize(self, _close_all, self.opened)
        event.listen(engine, "engine_disposed", self.close_all)

    def close_all(self, _engine=None) -> None:
        with registry_lock:
            opened, self.opened[:] = list(self.opened), []
            self.local = threading.local()
        _close_all(opened)


_thread_connections: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def thread_connection(engine):
    """The calling thread's own DBAPI connection to ``engine``'s SQLite database, set up as the
    pool's are and kept for the next read: one-statement reads on every request (the key
    lookup, the early 304) then skip the pool's checkout and return, a quarter of their
    time under load. In autocommit mode it holds no lock between statements. Closed when the
    engine goes."""
    connections = per_engine(_thread_connections, engine, lambda: _ThreadConnections(engine))
    connection = getattr(connections.local, "connection", None)
    if connection is None:
        pooled = engine.raw_connection()
        connection = connections.local.connection = pooled.driver_connection
        pooled.detach()
        with registry_lock:
            connections.opened.append(connection)
    return connection


def _close_all(connections: list) -> None:
    for connection in connections:
        connection.close()
