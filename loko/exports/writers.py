"""Export writers: pure functions from rows to bytes (JSON, PO and ZIP), deterministic so
that the same data always gives byte-identical output."""

import io
import zipfile
from importlib.metadata import version

import orjson
import polib

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


def po_bytes(language: str, language_name: str, project_name: str, revision_date: str, entries) -> bytes:
    """A gettext PO catalog; ``entries`` are ``(key, value or None)`` pairs in output order.

    gettext requires a translation to begin and end with a newline exactly when its msgid
    does; a value that does not is kept but marked fuzzy, so compilers skip it.
    """
    catalog = polib.POFile(wrapwidth=0)
    project_name = _one_line(project_name)
    language_name = _one_line(language_name)
    catalog.header = f"{language_name} translations of {project_name}."
    catalog.metadata = {
        "Project-Id-Version": project_name,
        "PO-Revision-Date": revision_date,
        "Last-Translator": "Loko",
        "Language-Team": language_name,
        "Language": language,
        "MIME-Version": "1.0",
        "Content-Type": "text/plain; charset=UTF-8",
        "Content-Transfer-Encoding": "8bit",
        "Plural-Forms": plural_forms(language),
        "X-Generator": f"Loko {version('loko')}",
    }
    for key, value in entries:
        entry = polib.POEntry(msgid=key, msgstr=value or "")
        if _newlines_disagree(key, value or ""):
            entry.flags.append("fuzzy")
            entry.tcomment = "Leading or trailing newlines differ from the source key."
        catalog.append(entry)
    return str(catalog).encode("utf-8") + b"\n"


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


def zip_bytes(entries) -> bytes:
    """A ZIP of ``(name, bytes)`` entries with fixed timestamps and order."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, data in entries:
            info = zipfile.ZipInfo(name, date_time=ZIP_TIMESTAMP)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, data)
    return buffer.getvalue()
