"""Export writers: pure functions from rows to bytes (JSON, PO and ZIP), deterministic so
that the same data always gives byte-identical output. The JSON and PO writers live with their
formats (``loko.formats.json_flat``, ``loko.formats.po``)."""

import struct
import zlib
from collections.abc import Iterator
from dataclasses import dataclass

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


# The ZIP an export is: each member deflated once (``deflated``), then laid out with its
# local header, its data and a data descriptor, and a central directory at the end
# (``zip_members``), byte for byte what ``zipfile`` writes to a stream for the same entries
# (a fixed timestamp, mode 0644, made on Unix), as exports always were. A member's deflated
# data is independent of its place in the archive, so a kept one is laid out again as it
# is: only the members whose data changed are compressed again.
MEMBER_LIMIT = (1 << 31) - 1  # zipfile's ZIP64_LIMIT: larger offsets and counts take ZIP64
MOST_MEMBERS = (1 << 16) - 1
ZIP64_VERSION, ZIP_VERSION, UNIX, DEFLATED = 45, 20, 3, 8
DATA_DESCRIPTOR, UTF8_NAME = 0x08, 0x800
MODE = 0o644 << 16
DOS_TIME = ZIP_TIMESTAMP[3] << 11 | ZIP_TIMESTAMP[4] << 5 | ZIP_TIMESTAMP[5] // 2
DOS_DATE = (ZIP_TIMESTAMP[0] - 1980) << 9 | ZIP_TIMESTAMP[1] << 5 | ZIP_TIMESTAMP[2]
LOCAL_HEADER = struct.Struct("<4s2B4HL2L2H")
DESCRIPTOR = struct.Struct("<4L")
CENTRAL_HEADER = struct.Struct("<4s4B4HL2L5H2L")
END = struct.Struct("<4s4H2LH")
END64 = struct.Struct("<4sQ2H2L4Q")
END64_LOCATOR = struct.Struct("<4sLQL")


@dataclass(frozen=True, slots=True)
class Deflated:
    """A member's data as a ZIP holds it: raw deflate bytes, the CRC-32 and size of what they
    hold."""

    crc: int
    size: int
    data: bytes


def deflated(data: bytes) -> Deflated:
    """``data`` compressed as ``zipfile`` compresses a member (deflate at the default level).
    ValueError for a member of more than 2 GiB, which needs ZIP64 sizes no export writes."""
    if len(data) * 1.05 > MEMBER_LIMIT:
        raise ValueError(f"a file of {len(data):,} bytes is over the 2 GiB an archive's file may hold")
    compressor = zlib.compressobj(zlib.Z_DEFAULT_COMPRESSION, zlib.DEFLATED, -15)
    return Deflated(zlib.crc32(data), len(data), compressor.compress(data) + compressor.flush())


def _encoded(name: str) -> tuple[bytes, int]:
    try:
        return name.encode("ascii"), DATA_DESCRIPTOR
    except UnicodeEncodeError:
        return name.encode("utf-8"), DATA_DESCRIPTOR | UTF8_NAME


def zip_members(members) -> Iterator[bytes]:
    """A ZIP of ``(name, Deflated)`` members, in their order: one chunk a member, then the
    central directory (with ZIP64 records where offsets or the count need them)."""
    directory, offset = [], 0
    for name, member in members:
        encoded, flags = _encoded(name)
        header = LOCAL_HEADER.pack(
            b"PK\x03\x04", ZIP_VERSION, 0, flags, DEFLATED, DOS_TIME, DOS_DATE, 0, 0, 0, len(encoded), 0
        )
        descriptor = DESCRIPTOR.pack(0x08074B50, member.crc, len(member.data), member.size)
        yield b"".join((header, encoded, member.data, descriptor))
        directory.append((encoded, flags, member, offset))
        offset += len(header) + len(encoded) + len(member.data) + len(descriptor)
    entries = []
    for encoded, flags, member, at in directory:
        version, extra = ZIP_VERSION, b""
        if at > MEMBER_LIMIT:
            version, extra, at = ZIP64_VERSION, struct.pack("<HHQ", 1, 8, at), 0xFFFFFFFF
        entries.append(
            CENTRAL_HEADER.pack(
                b"PK\x01\x02",
                version,
                UNIX,
                version,
                0,
                flags,
                DEFLATED,
                DOS_TIME,
                DOS_DATE,
                member.crc,
                len(member.data),
                member.size,
                len(encoded),
                len(extra),
                0,
                0,
                0,
                MODE,
                at,
            )
            + encoded
            + extra
        )
    central = b"".join(entries)
    count, size, start = len(directory), len(central), offset
    if count > MOST_MEMBERS or start > MEMBER_LIMIT or size > MEMBER_LIMIT:
        central += END64.pack(b"PK\x06\x06", 44, 45, 45, 0, 0, count, count, size, start)
        central += END64_LOCATOR.pack(b"PK\x06\x07", 0, start + size, 1)
        count, size, start = min(count, 0xFFFF), min(size, 0xFFFFFFFF), min(start, 0xFFFFFFFF)
    yield central + END.pack(b"PK\x05\x06", 0, 0, count, count, size, start, 0)


def zip_stream(entries) -> Iterator[bytes]:
    """A ZIP of ``(name, bytes)`` entries, produced entry by entry with fixed timestamps."""
    return zip_members((name, deflated(data)) for name, data in entries)


def zip_bytes(entries) -> bytes:
    return b"".join(zip_stream(entries))
