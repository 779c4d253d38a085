"""Export writers: pure functions from rows to bytes (JSON, PO and ZIP), deterministic so
that the same data always gives byte-identical output."""

import io
import re
import zipfile
from collections.abc import Iterator

import orjson

from loko import loko_version
from loko.fields import CONTROL_CHARACTERS
from loko.languages.catalog import plural_forms

ZIP_TIMESTAMP = (1980, 1, 1, 0, 0, 0)
EXTENSIONS = {"json": ".json", "po": ".po"}


def json_bytes(document: dict) -> bytes:
    return orjson.dumps(document, option=orjson.OPT_SORT_KEYS)


def _one_line(text: str) -> str:
    return " ".join(CONTROL_CHARACTERS.sub(" ", text).split())


def _newlines_disagree(msgid: str, msgstr: str) -> bool:
    if not msgstr:
        return False
    return msgid.startswith("\n") != msgstr.startswith("\n") or msgid.endswith("\n") != msgstr.endswith("\n")


def po_escape(text: str) -> str:
    return (
        text.replace("\\", "\\\\")
        .replace("\t", "\\t")
        .replace("\r", "\\r")
        .replace("\n", "\\n")
        .replace("\v", "\\v")
        .replace("\b", "\\b")
        .replace("\f", "\\f")
        .replace('"', '\\"')
    )


# Characters that po_escape rewrites, or at which str.splitlines breaks a line.
PO_SPECIAL = re.compile('[\\\\"\t\r\n\v\b\f\x1c\x1d\x1e\x85\u2028\u2029]')


def _po_field(name: str, text: str) -> str:
    if PO_SPECIAL.search(text) is None:
        return f'{name} "{text}"'
    lines = text.splitlines(True)
    if len(lines) > 1:
        return f'{name} ""\n' + "\n".join(f'"{po_escape(line)}"' for line in lines)
    return f'{name} "{po_escape(text)}"'


FUZZY_NOTE = "# Leading or trailing newlines differ from the source key.\n#, fuzzy\n"


def po_bytes(language: str, language_name: str, project_name: str, revision_date: str, entries) -> bytes:
    """A gettext PO catalog; ``entries`` are ``(key, value or None)`` pairs in output order.

    The layout is polib's (unwrapped lines; multi-line strings split after each newline),
    written directly because the export writes millions of entries. gettext requires a
    translation to begin and end with a newline exactly when its msgid does; a value that
    does not is kept but marked fuzzy, so compilers skip it.
    """
    project_name = _one_line(project_name)
    language_name = _one_line(language_name)
    metadata = (
        ("Project-Id-Version", project_name),
        ("PO-Revision-Date", revision_date),
        ("Last-Translator", "Loko"),
        ("Language-Team", language_name),
        ("Language", language),
        ("MIME-Version", "1.0"),
        ("Content-Type", "text/plain; charset=UTF-8"),
        ("Content-Transfer-Encoding", "8bit"),
        ("Plural-Forms", plural_forms(language)),
        ("X-Generator", f"Loko {loko_version()}"),
    )
    parts = [f'# {language_name} translations of {project_name}.\nmsgid ""\nmsgstr ""\n']
    parts += [f'"{po_escape(f"{name}: {value}")}\\n"\n' for name, value in metadata]
    for key, value in entries:
        value = value or ""
        note = FUZZY_NOTE if _newlines_disagree(key, value) else ""
        parts.append(f"\n{note}{_po_field('msgid', key)}\n{_po_field('msgstr', value)}\n")
    return "".join(parts).encode("utf-8")


def entry_name(language: str, file_name: str, fmt: str) -> str:
    """``{language}/{fileName}.{ext}``; a file name that already ends in the extension keeps it.

    File names are validated on input (no backslash, no leading '/', no '.' or '..'
    segments), and this refuses anything else, so entries never leave the archive.
    """
    segments = file_name.split("/")
    if file_name.startswith("/") or "\\" in file_name or any(s in ("", ".", "..") for s in segments):
        raise ValueError(f"unsafe file name for an archive entry: {file_name!r}")
    extension = EXTENSIONS[fmt]
    name = file_name if file_name.endswith(extension) else file_name + extension
    return f"{language}/{name}"


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
