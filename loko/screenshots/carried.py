"""The screenshots' image files carried in a SQLite backup, so that a backup stays one file:
``pack`` writes the files the copy's screenshots name into the table ``backup_images`` of
the copy (never of the live database), ``check`` reads a backup's table before a restore
writes anything, and ``unpack`` writes the files back into the screenshots' folder.

Only names the ``ImageStore`` itself gives are taken (``ab/<sha256>.png``, ``....thumbnail
.webp``, ``....preview.webp``), and an original only when its bytes have that SHA-256: a
crafted backup cannot write outside the folder, nor put another picture under a name."""

import hashlib
import os
import re
import sqlite3
from pathlib import Path

from loko.errors import BadRequest
from loko.screenshots.images import EXTENSIONS
from loko.screenshots.storage import ORIGINAL, SIZES, ImageStore

TABLE = "backup_images"
NAME = re.compile(r"[0-9a-f]{2}/(?P<sha256>[0-9a-f]{64})\.(?P<rest>[a-z.]{3,14})")
FORMATS = {extension: image_format for image_format, extension in EXTENSIONS.items()}
PREVIEWS = {f"{size}.webp": size for size in SIZES if size != ORIGINAL}


def carries_images(connection: sqlite3.Connection) -> bool:
    """Whether the database holds the table of carried images."""
    found = connection.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND name=?", (TABLE,))
    return found.fetchone() is not None


def pack(copy: sqlite3.Connection, root: Path) -> int:
    """Write the files of the copy's screenshots (as the copy has them: the backup's snapshot)
    from ``root`` into the copy's ``backup_images``; returns how many of them were missing
    from the folder (a screenshot deleted since the snapshot took its files with it). Without
    screenshots the copy is left as it is."""
    tables = {name for (name,) in copy.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    if "screenshots" not in tables:
        return 0
    pictures = copy.execute("SELECT DISTINCT sha256, format FROM screenshots").fetchall()
    if not pictures:
        return 0
    copy.execute(f"CREATE TABLE {TABLE} (path TEXT PRIMARY KEY, data BLOB NOT NULL)")
    store, missing = ImageStore(root), 0
    for sha256, image_format in pictures:
        for size in SIZES:
            path = store.path(sha256, image_format, size)
            try:
                data = path.read_bytes()
            except FileNotFoundError:
                missing += 1
                continue
            copy.execute(f"INSERT INTO {TABLE} (path, data) VALUES (?, ?)", (_relative(store, path), data))  # noqa: S608
    copy.commit()
    return missing


def _relative(store: ImageStore, path: Path) -> str:
    return path.relative_to(store.root).as_posix()


def _stored_name(store: ImageStore, name) -> tuple[str, str] | None:
    """``(sha256, size)`` when ``name`` is one the store gives; None otherwise."""
    found = NAME.fullmatch(name) if isinstance(name, str) else None
    if found is None:
        return None
    sha256, rest = found["sha256"], found["rest"]
    if rest in FORMATS:
        size, image_format = ORIGINAL, FORMATS[rest]
    elif rest in PREVIEWS:
        size, image_format = PREVIEWS[rest], "WEBP"
    else:
        return None
    if _relative(store, store.path(sha256, image_format, size)) != name:
        return None
    return sha256, size


def check(backup: sqlite3.Connection, root: Path, label) -> int:
    """How many image files the backup carries; BadRequest, before anything is written, when
    one has a name the store would not give it (a path out of the folder among them) or an
    original's bytes do not have its SHA-256."""
    store, count = ImageStore(root), 0
    for name, data in backup.execute(f"SELECT path, data FROM {TABLE}"):  # noqa: S608
        named = _stored_name(store, name)
        if named is None or not isinstance(data, bytes):
            raise BadRequest(
                f"{label} carries a file {name!r} that is not a screenshot's image; nothing was restored."
            )
        sha256, size = named
        if size == ORIGINAL and hashlib.sha256(data).hexdigest() != sha256:
            raise BadRequest(
                f"{label} carries an image {name!r} whose bytes are not its name's; nothing was restored."
            )
        count += 1
    return count


def unpack(backup: sqlite3.Connection, root: Path) -> int:
    """Write the backup's image files (``check``ed) into ``root``, each atomically (a
    temporary file renamed); a file already there is the same picture and is kept. Returns
    how many were written."""
    store, written = ImageStore(root), 0
    for name, data in backup.execute(f"SELECT path, data FROM {TABLE}"):  # noqa: S608
        if _stored_name(store, name) is None:
            raise BadRequest(f"not a screenshot's image: {name!r}")
        path = store.root / name
        if path.exists():
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        scratch = path.with_name(f".restore-{os.getpid()}-{path.name}")
        try:
            scratch.write_bytes(data)
            os.replace(scratch, path)
        finally:
            scratch.unlink(missing_ok=True)
        written += 1
    return written
