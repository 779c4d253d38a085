"""Database plumbing shared by every feature, one module per concern:

- ``columns``: column types and ids (``id_column``, ``new_id``, ``utcnow``, ``UTCDateTime``);
- ``session``: the unit of work, read snapshots and bodies streamed in their snapshot;
- ``statements``: statements run straight on the DBAPI driver, streaming, ``in_chunks``;
- ``sqlite/``: SQLite's connection settings, checkpoints, write gate, group commit (and its
  transactions shared across processes), WAL index;
- ``postgres``: PostgreSQL's planner statistics after bulk writes, its pool's pings;
- ``commit_notices``: PostgreSQL's commits as a process learns of them (``LISTEN/NOTIFY``);
- ``paced``: background work in write transactions sized to a short time (``Paced``);
- ``schema``: the state of the migrations.

Features import from ``loko.database`` itself; this package imports no feature.
"""

from loko.database.columns import UTCDateTime, id_column, new_id, utcnow
from loko.database.commit_notices import CommitNotices, commit_notices
from loko.database.paced import Paced, writing_alone
from loko.database.postgres import (
    ANALYZE_BASE_ROWS,
    ANALYZE_SCALE,
    STALE_STATISTICS,
    configure_postgresql,
    refresh_statistics,
    transaction_info,
    with_commit,
)
from loko.database.schema import (
    MIGRATIONS_DIRECTORY,
    init_migrations,
    known_schema_revisions,
    migration_scripts,
    schema_revision_state,
    upgrade_schema,
)
from loko.database.session import (
    CarriedSession,
    at_transaction_end,
    new_snapshot,
    read_snapshot,
    run_alone,
    unit_of_work,
)
from loko.database.sqlite.checkpoints import (
    CHECKPOINT_SECONDS,
    RESTART_FRAMES,
    Checkpointer,
    start_checkpointer,
)
from loko.database.sqlite.configuration import configure_sqlite
from loko.database.sqlite.connections import thread_connection
from loko.database.sqlite.engines import sqlite_file
from loko.database.sqlite.group_commit import GroupCommit, group_commit
from loko.database.sqlite.kept_rows import KeptRows
from loko.database.sqlite.shared_commits import SharedCommits, shared_commits
from loko.database.sqlite.wal_index import WAL_HEADER_BYTES, WalIndex, one_transaction_apart, wal_index
from loko.database.sqlite.write_gate import WriteGate, write_gate
from loko.database.statements import (
    IN_CHUNK,
    SESSION_STATEMENTS,
    ConnectionStatements,
    DriverQuery,
    SessionStatements,
    driver_execute,
    driver_timestamp,
    execute_rows,
    in_chunks,
    insert_rows,
    stream_batches,
    update_rows,
)

__all__ = [
    "ANALYZE_BASE_ROWS",
    "ANALYZE_SCALE",
    "CHECKPOINT_SECONDS",
    "IN_CHUNK",
    "MIGRATIONS_DIRECTORY",
    "RESTART_FRAMES",
    "SESSION_STATEMENTS",
    "STALE_STATISTICS",
    "WAL_HEADER_BYTES",
    "CarriedSession",
    "Checkpointer",
    "CommitNotices",
    "ConnectionStatements",
    "DriverQuery",
    "GroupCommit",
    "KeptRows",
    "Paced",
    "SessionStatements",
    "SharedCommits",
    "UTCDateTime",
    "WalIndex",
    "WriteGate",
    "at_transaction_end",
    "commit_notices",
    "configure_postgresql",
    "configure_sqlite",
    "driver_execute",
    "driver_timestamp",
    "execute_rows",
    "group_commit",
    "id_column",
    "in_chunks",
    "init_migrations",
    "insert_rows",
    "known_schema_revisions",
    "migration_scripts",
    "new_id",
    "new_snapshot",
    "one_transaction_apart",
    "read_snapshot",
    "refresh_statistics",
    "run_alone",
    "schema_revision_state",
    "shared_commits",
    "sqlite_file",
    "start_checkpointer",
    "stream_batches",
    "thread_connection",
    "transaction_info",
    "unit_of_work",
    "update_rows",
    "upgrade_schema",
    "utcnow",
    "wal_index",
    "with_commit",
    "write_gate",
    "writing_alone",
]
