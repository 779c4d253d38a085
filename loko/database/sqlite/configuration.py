"""The settings of every connection to a SQLite database (``configure_sqlite``): WAL,
enforced foreign keys, a busy timeout and explicit BEGINs."""

from sqlalchemy import event

from loko.database.sqlite.checkpoints import checkpointed_engines
from loko.database.statements import driver_execute


def configure_sqlite(engine) -> None:
    """WAL, enforced foreign keys, a busy timeout and explicit BEGINs for SQLite engines."""
    if engine.dialect.name != "sqlite":
        return

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection, _record):
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA busy_timeout=10000")
        cursor.execute("PRAGMA synchronous=NORMAL")
        if engine in checkpointed_engines:
            cursor.execute("PRAGMA wal_autocheckpoint=0")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(connection):
        write = connection.get_execution_options().get("loko_write", False)
        driver_execute(connection, "BEGIN IMMEDIATE" if write else "BEGIN", ())
