"""Which engines are SQLite files (``sqlite_file``), and the objects this process keeps for
each such engine (``per_engine``: write gates, group commits, WAL indexes, connections)."""

import threading

# Guards the registries of every module of this package; taken only to add to them.
registry_lock = threading.Lock()


def sqlite_file(engine) -> str | None:
    """The path of ``engine``'s database when it is a SQLite file; None for other databases
    and SQLite in memory."""
    database = engine.url.database
    if engine.dialect.name != "sqlite" or database in (None, "", ":memory:"):
        return None
    return database


def per_engine(registry, engine, make):
    """``registry[engine]``, made by ``make()`` the first time. Only that first time takes
    the lock: every request passes here, and a lock all threads take is a queue."""
    found = registry.get(engine)
    if found is None:
        with registry_lock:
            found = registry.get(engine)
            if found is None:
                found = registry[engine] = make()
    return found
