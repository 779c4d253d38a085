"""Export writers: pure functions from rows to bytes (JSON, PO and ZIP), deterministic so
that the same data always gives byte-identical output. The JSON and PO writers live with their
formats (``loko.formats.json_flat``, ``loko.formats.po``)."""

import io
import zipfile
from collections.abc import Iterator

from loko.formats.json_flat import json_bytes as json_bytes  # the export's JSON writer
from loko.formats.po import po_bytes as po_bytes  # the export's PO writer

ZIP_TIMESTAMP = (1980, 1, 1, 0, 0, 0)


def entry_name(language: str, file_name: str, fmt: str) -> str:
    """``{language}/{fileName}.{ext}`` (``{fileName}.{ext}`` without a language, for a format
    whose one file holds every language); a file name that already ends in the extension
    keeps it.

    File names are validated on input (no backslash, no leading '/', no '.' or '..'
    segments), and this refuses anything else, so entries never leave the archive.
    """
    segments = file_name.split("/")
    if file_name.startswith("/") or "\\" in file_name or any(s in ("", ".", "..") for s in segments):
        raise ValueError(f"unsafe file name for an archive entry: {file_name!r}")
    from loko.formats.registry import extension_of

    extension = extension_of(fmt)
    name = file_name if file_name.endswith(extension) else file_name + extension
    return f"{language}/{name}" if language else name


class _Sink(io.RawIOBase):
    """A write-only stream that hands over what was written since the last ``drain``."""

    def __init__(self):
        self.parts = []

    def writable(self) -> bool:
        return True

    def write(self, data) -> int:
        self.parts.append(bytes(data))
        return len(data)

    def drain(self) -> bytes:
        data = b"".join(self.parts)
        self.parts.clear()
        return data


def zip_stream(entries) -> Iterator[bytes]:
    """A ZIP of ``(name, bytes)`` entries, produced entry by entry with fixed timestamps."""
    sink = _Sink()
    with zipfile.ZipFile(sink, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, data in entries:
            info = zipfile.ZipInfo(name, date_time=ZIP_TIMESTAMP)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, data)
            yield sink.drain()
    yield sink.drain()


def zip_bytes(entries) -> bytes:
    return b"".join(zip_stream(entries))
