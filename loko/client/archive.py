"""ZIP archives in memory: a push packs its files into one (so the server imports them in one
transaction), a pull unpacks the export's."""

import io
import zipfile
import zlib
from collections.abc import Iterable

from loko.client.templates import unsafe_relative_path

ZIP_TIMESTAMP = (1980, 1, 1, 0, 0, 0)


class ArchiveError(ValueError):
    """An archive that does not open, or an entry that could land outside the folder."""


def pack(files: Iterable[tuple[str, bytes]], compression: int = zipfile.ZIP_DEFLATED) -> bytes:
    """A ZIP of ``(name, bytes)`` entries, sorted by name with fixed timestamps, so the same
    files always give the same archive (``ZIP_STORED``: uncompressed, for files that are
    compressed already)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=compression) as archive:
        for name, data in sorted(files):
            info = zipfile.ZipInfo(name, date_time=ZIP_TIMESTAMP)
            info.compress_type = compression
            info.external_attr = 0o644 << 16
            archive.writestr(info, data)
    return buffer.getvalue()


def unpack(data: bytes) -> list[tuple[str, bytes]]:
    """The file entries of a ZIP, in archive order; ArchiveError for an archive that does not
    open or an entry named with an absolute path, a drive, a backslash or '..'."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            entries = []
            for info in archive.infolist():
                if info.is_dir():
                    continue
                if unsafe_relative_path(info.filename):
                    raise ArchiveError(f"the archive entry {info.filename!r} points outside the folder")
                entries.append((info.filename, archive.read(info)))
            return entries
    except (zipfile.BadZipFile, zipfile.LargeZipFile, zlib.error, EOFError, OSError) as error:
        raise ArchiveError(f"the archive does not open: {error}") from None
