"""Backups of an installation's SQLite database, taken and restored with SQLite's online
backup API: ``loko backup`` while the server runs, ``loko restore`` with it stopped. The
backup is one file: the screenshots' image files go into a table of the copy
(``screenshots.carried``), and a restore writes them back into the screenshots' folder. On
PostgreSQL, ``pg_dump`` and ``pg_restore`` do this job; the commands say how."""

import os
import shlex
import sqlite3
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from sqlalchemy.engine import URL

from loko.errors import BadRequest, Conflict
from loko.screenshots import carried

# Tables every Loko database has had since its first migration.
LOKO_TABLES = frozenset({"users", "organizations", "organization_members", "projects", "api_keys"})
# What a summary counts, as (label, table, condition).
COUNTED = (
    ("users", "users", ""),
    ("organizations", "organizations", ""),
    ("projects", "projects", ""),
    ("translations", "translations", "WHERE deleted_at IS NULL"),
    ("in the trash", "translations", "WHERE deleted_at IS NOT NULL"),
    ("history entries", "translation_history", ""),
    ("tags on keys", "key_tags", ""),
    ("API keys", "api_keys", ""),
    ("image files", carried.TABLE, ""),
)
# A database holds data once it has any of these rows (everything else hangs off them).
DATA_TABLES = ("users", "organizations", "projects")


@dataclass(frozen=True)
class DatabaseSummary:
    """What a SQLite Loko database holds: its schema revision, its size and row counts."""

    revision: str | None
    size: int
    counts: dict[str, int]
    # Image files of the backup's screenshots that were not in the folder when it was taken.
    missing_images: int = 0

    def describe(self) -> str:
        counts = ", ".join(f"{label}: {count:,}" for label, count in self.counts.items())
        described = f"{_size(self.size)}, schema {self.revision or 'empty'}; {counts or 'no Loko tables'}"
        if self.missing_images:
            described += f" ({self.missing_images:,} image files missing from the folder)"
        return described


def sqlite_file(url: URL) -> str:
    """The file of a SQLite database URL; BadRequest for an in-memory database."""
    if url.database in (None, "", ":memory:"):
        raise BadRequest("An in-memory SQLite database has nothing to back up or restore.")
    return url.database


def backup_sqlite(source: str, target: Path, images: Path | None = None) -> DatabaseSummary:
    """Copy the SQLite database ``source`` to ``target`` as one consistent snapshot, while
    other connections and processes go on reading and writing, with the image files its
    screenshots name from the folder ``images``; BadRequest when ``source`` or ``target``'s
    folder does not exist. The copy is written beside ``target`` and renamed over it when
    complete, so ``target`` is never a half-written file."""
    if not Path(source).is_file():
        raise BadRequest(f"There is no database at {source} to back up.")
    target = Path(target).absolute()
    if not target.parent.is_dir():
        raise BadRequest(f"There is no folder {target.parent} to write the backup in.")
    temporary = target.with_name(f".{target.name}.{os.getpid()}.partial")
    temporary.unlink(missing_ok=True)
    try:
        with closing(_open(source, "rw")) as origin, closing(sqlite3.connect(temporary)) as copy:
            # All pages in one step: one read transaction, so one snapshot. In steps, a write
            # by another connection between two steps would restart the copy, which under a
            # steady stream of writes might never finish.
            origin.backup(copy, pages=-1)
            copy.execute("PRAGMA journal_mode=DELETE")  # one self-contained file
            # Into the copy, once the snapshot is taken: the live database never holds them.
            missing = carried.pack(copy, Path(images)) if images is not None else 0
            _check(copy, temporary)
            summary = _summary(copy, temporary)
        _fsync(temporary)
        os.replace(temporary, target)
        _fsync(target.parent)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    return DatabaseSummary(summary.revision, target.stat().st_size, summary.counts, missing)


def inspect_backup(path: Path) -> DatabaseSummary:
    """Read a backup without changing it; BadRequest unless it is an intact Loko SQLite
    database."""
    try:
        with closing(_open(path, "ro")) as backup:
            tables = {name for (name,) in backup.execute("SELECT name FROM sqlite_master WHERE type='table'")}
            if "alembic_version" not in tables or not LOKO_TABLES.issubset(tables):
                raise BadRequest(f"{path} is a SQLite database but not a Loko one (no Loko schema in it).")
            _check(backup, path)
            return _summary(backup, path)
    except sqlite3.DatabaseError as error:
        raise BadRequest(f"{path} is not a SQLite database ({error}).") from None


def restore_sqlite(
    backup: Path, target: str, known_revisions: set[str], force: bool, images: Path | None = None
) -> DatabaseSummary:
    """Replace the SQLite database ``target`` with the backup ``backup``, and write the image
    files it carries into the folder ``images`` (a backup without them restores the database
    alone): BadRequest unless it is an intact Loko database of a schema this Loko knows and
    every file it carries is a screenshot's image named as the folder names them; Conflict
    when ``target`` holds data and ``force`` is not set. Nothing is written before these
    checks pass. Readers of ``target`` see the old database or the new one, never a mix: the
    backup API writes all of it in one transaction."""
    summary = inspect_backup(backup)
    if summary.revision not in known_revisions:
        raise BadRequest(
            f"The backup's schema is newer than this Loko (revision {summary.revision}); upgrade Loko first."
        )
    held = existing_data(target)
    if held and not force:
        counts = ", ".join(f"{table}: {count:,}" for table, count in held.items())
        raise Conflict(f"{target} already holds data ({counts}); pass --force to replace it.")
    with closing(_open(backup, "ro")) as origin:
        if images is not None and carried.carries_images(origin):
            carried.check(origin, Path(images), backup)
            # The files first: named by their content, one that is there already is the same,
            # and a restore that fails after them leaves only unused files.
            carried.unpack(origin, Path(images))
    replaced_version = _highest_data_version(target)
    staged = Path(target).with_name(f".{Path(target).name}.{os.getpid()}.restore")
    staged.unlink(missing_ok=True)
    try:
        with closing(_open(backup, "ro")) as origin, closing(sqlite3.connect(staged)) as copy:
            origin.backup(copy, pages=-1)
            copy.execute("PRAGMA journal_mode=DELETE")  # no -wal or -shm file beside it
            if replaced_version:
                # Every project's data version goes past any the replaced database reached, so
                # no ETag or cached export of the replaced data can be taken for the restored.
                copy.execute("UPDATE projects SET data_version = data_version + ?", (replaced_version,))
                copy.commit()
            if carried.carries_images(copy):
                copy.execute(f"DROP TABLE {carried.TABLE}")
                copy.execute("VACUUM")  # the images' pages go, not only their rows
        with closing(sqlite3.connect(staged)) as copy, closing(sqlite3.connect(target)) as database:
            database.execute("PRAGMA busy_timeout=10000")
            copy.backup(database, pages=-1)
            database.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        staged.unlink(missing_ok=True)
    return summary


def _highest_data_version(path: str) -> int:
    """The highest data version of the projects of the SQLite database ``path`` (0 when there
    is none)."""
    if not Path(path).exists():
        return 0
    with closing(_open(path, "ro")) as database:
        tables = {name for (name,) in database.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if "projects" not in tables:
            return 0
        return database.execute("SELECT coalesce(max(data_version), 0) FROM projects").fetchone()[0]


def existing_data(path: str) -> dict[str, int]:
    """The rows of ``DATA_TABLES`` the SQLite database ``path`` holds (empty when there is
    no such file, or no such rows)."""
    if not Path(path).exists():
        return {}
    with closing(_open(path, "ro")) as database:
        tables = {name for (name,) in database.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        counts = {
            table: database.execute(f"SELECT count(*) FROM {table}").fetchone()[0]  # noqa: S608
            for table in DATA_TABLES
            if table in tables
        }
    return {table: count for table, count in counts.items() if count}


def pg_dump_advice(url: URL, target: Path, images: Path) -> str:
    """What to run instead of ``loko backup`` on PostgreSQL (the password hidden), the
    screenshots' folder ``images`` copied after the dump."""
    return (
        "Loko's database is PostgreSQL: back it up with pg_dump (the password from PGPASSWORD "
        "or ~/.pgpass), then copy the screenshots' image files:\n"
        f"  pg_dump --format=custom --file={shlex.quote(str(target))} {_libpq_uri(url)}\n"
        f"  tar -czf {shlex.quote(str(target) + '.screenshots.tar.gz')} -C {shlex.quote(str(images))} .\n"
        "and keep the secret key (LOKO_SECRET_KEY) with them."
    )


def pg_restore_advice(url: URL, backup: Path, images: Path) -> str:
    """What to run instead of ``loko restore`` on PostgreSQL (the password hidden), the
    screenshots' image files put back in the folder ``images``."""
    return (
        "Loko's database is PostgreSQL: restore a pg_dump archive with pg_restore, put the "
        "screenshots' image files back, then upgrade the schema:\n"
        f"  pg_restore --clean --if-exists --no-owner --dbname={_libpq_uri(url)} {shlex.quote(str(backup))}\n"
        f"  mkdir -p {shlex.quote(str(images))} && "
        f"tar -xzf {shlex.quote(str(backup) + '.screenshots.tar.gz')} -C {shlex.quote(str(images))}\n"
        "  loko db upgrade"
    )


def _libpq_uri(url: URL) -> str:
    return shlex.quote(url.set(drivername="postgresql").render_as_string(hide_password=True))


def _open(path, mode: str) -> sqlite3.Connection:
    """A connection to an existing database file (``ro`` or ``rw``; never creates one)."""
    connection = sqlite3.connect(f"file:{quote(str(path))}?mode={mode}", uri=True)
    connection.execute("PRAGMA busy_timeout=10000")
    return connection


def _check(connection: sqlite3.Connection, path) -> None:
    problems = [row[0] for row in connection.execute("PRAGMA quick_check")]
    if problems != ["ok"]:
        raise BadRequest(f"{path} is damaged: {'; '.join(problems[:5])}")


def _summary(connection: sqlite3.Connection, path) -> DatabaseSummary:
    tables = {name for (name,) in connection.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    revision = None
    if "alembic_version" in tables:
        row = connection.execute("SELECT version_num FROM alembic_version").fetchone()
        revision = row[0] if row else None
    counts = {
        label: connection.execute(f"SELECT count(*) FROM {table} {condition}").fetchone()[0]  # noqa: S608
        for label, table, condition in COUNTED
        if table in tables
    }
    return DatabaseSummary(revision, Path(path).stat().st_size, counts)


def _fsync(path: Path) -> None:
    descriptor = os.open(path, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


def _size(size: int) -> str:
    for unit in ("bytes", "KiB", "MiB", "GiB"):
        if size < 1024 or unit == "GiB":
            return f"{size:,} {unit}" if unit == "bytes" else f"{size:,.1f} {unit}"
        size /= 1024
    return f"{size:,.1f} GiB"
