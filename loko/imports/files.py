"""From uploaded bytes to parsed files: one file, or a ZIP of several matched by a path
template; each parsed with the format registry and checked against the limits before
anything is compared or written."""

import io
import re
import zipfile
import zlib
from contextlib import contextmanager
from dataclasses import dataclass

from loko.errors import BadRequest
from loko.fields import CONTROL_CHARACTERS, MAX_FILE_NAME, MAX_KEY, MAX_VALUE
from loko.formats import Entry, FormatError
from loko.formats.registry import detect_format, format_module
from loko.languages.codes import (
    CODE_PLACEHOLDERS,
    canonical_code,
    code_in_path,
    code_pattern,
    code_placeholder,
)

MAX_ENTRIES = 100_000
MAX_ARCHIVE_MEMBERS = 10_000
MAX_UNPACKED_BYTES = 256 * 1024 * 1024
MAX_RATIO = 200  # a member may unpack to at most this many times its packed size
MAX_CONTEXT = 1024
MAX_COMMENT = MAX_VALUE
DEFAULT_TEMPLATE = "{language}/{fileName}"
MULTILINGUAL_TEMPLATE = "{fileName}"
IGNORED_MEMBERS = ("__MACOSX/", ".DS_Store")


@dataclass
class ParsedFile:
    """The entries of one file in one language (the source path says where they came from)."""

    file_name: str
    language: str
    format: str
    entries: list[Entry]
    path: str


def is_zip(data: bytes) -> bool:
    return data[:4] == b"PK\x03\x04" or data[:4] == b"PK\x05\x06"


def parse_upload(
    data: bytes, *, format: str | None, language: str | None, file_name: str | None, path_template: str | None
) -> list[ParsedFile]:
    """The files of an upload, parsed and checked; BadRequest naming what is wrong."""
    if language is not None:
        try:
            language = canonical_code(language)  # a pending import may predate canonical codes
        except ValueError as error:
            raise BadRequest(f"language: {error}") from None
    if is_zip(data):
        files = _parse_archive(data, format, language, path_template)
    else:
        if not file_name:
            raise BadRequest("fileName: required for a single file (the file's name in Loko).")
        name = format or detect_format(file_name, data)
        module = format_module(name)
        file_name = _without_extension(file_name, module.EXTENSION) if not format else file_name
        files = _parse_one(data, name, language, file_name, path=file_name)
    _refuse_too_many(sum(len(parsed.entries) for parsed in files))
    for parsed in files:
        _check(parsed)
    _refuse_duplicate_files(files)
    return files


def _refuse_too_many(total: int) -> None:
    if total > MAX_ENTRIES:
        raise BadRequest(f"file: {total:,} entries or more; an import takes at most {MAX_ENTRIES:,}.")


def _without_extension(file_name: str, extension: str) -> str:
    return (
        file_name[: -len(extension)]
        if file_name.endswith(extension) and file_name != extension
        else file_name
    )


def _parse_one(data: bytes, name: str, language: str | None, file_name: str, path: str) -> list[ParsedFile]:
    module = format_module(name)
    try:
        if getattr(module, "MULTILINGUAL", False):
            by_language = _canonical_columns(module.read_all(data), path)
            if language is not None:
                if language not in by_language:
                    raise BadRequest(
                        f"language: {path!r} has no column {language!r} (it has "
                        f"{', '.join(sorted(by_language)) or 'none'})."
                    )
                by_language = {language: by_language[language]}
            return [
                ParsedFile(file_name, code, name, entries, path)
                for code, entries in sorted(by_language.items())
            ]
        if not language:
            raise BadRequest(f"language: required for {path!r} (format {name} holds one language).")
        return [ParsedFile(file_name, language, name, module.read(data, language), path)]
    except FormatError as error:
        raise BadRequest(f"file: {path!r} is not a valid {name} file: {error}") from None
    except RecursionError:
        raise BadRequest(f"file: {path!r} is nested too deeply.") from None


def _canonical_columns(by_language: dict[str, list[Entry]], path: str) -> dict[str, list[Entry]]:
    """A multilingual file's languages under their canonical codes; BadRequest for a code
    the registry does not know or two columns of one language."""
    columns: dict[str, list[Entry]] = {}
    spelled: dict[str, str] = {}
    for given, entries in by_language.items():
        try:
            code = canonical_code(given)
        except ValueError as error:
            raise BadRequest(f"language: {error} (a language of {path!r})") from None
        if code in columns:
            raise BadRequest(
                f"language: {path!r} has {spelled[code]!r} and {given!r}, both the language {code!r}."
            )
        columns[code], spelled[code] = entries, given
    return columns


def template_pattern(template: str) -> re.Pattern:
    """A regex of a path template: ``{language}``, ``{locale}`` or ``{android}`` match a
    language code in that form (group ``language``, read with ``template_language``),
    ``{fileName}`` any path (folders included); everything else literally."""
    if "{fileName}" not in template:
        raise BadRequest("pathTemplate: must contain {fileName}.")
    try:
        placeholder = code_placeholder(template)
    except ValueError as error:
        raise BadRequest(f"pathTemplate: {error}") from None
    parts = re.split(r"(\{language\}|\{locale\}|\{android\}|\{fileName\})", template)
    pattern = []
    for part in parts:
        if part in CODE_PLACEHOLDERS:
            pattern.append(
                f"(?P<language>{code_pattern(placeholder)})"
                if "(?P<language>" not in "".join(pattern)
                else "(?P=language)"
            )
        elif part == "{fileName}":
            pattern.append(
                "(?P<fileName>.+?)" if "(?P<fileName>" not in "".join(pattern) else "(?P=fileName)"
            )
        else:
            pattern.append(re.escape(part))
    return re.compile("".join(pattern) + r"\Z")


def template_language(template: str, match: re.Match) -> str | None:
    """The canonical code a path matched by ``template_pattern(template)`` holds, None when
    the template has no code placeholder; ValueError for a code the registry does not know."""
    text = match.groupdict().get("language")
    return None if text is None else code_in_path(code_placeholder(template), text)


@contextmanager
def read_zip(data: bytes):
    """The uploaded ZIP ``data``, open; BadRequest naming ``file`` when it is no ZIP, when a
    member is damaged, or when a member uses a compression method zipfile lacks (PPMd ...:
    zipfile answers NotImplementedError for those)."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, ValueError) as error:
        raise BadRequest(f"file: not a valid ZIP archive ({error}).") from None
    try:
        with archive:
            yield archive
    except (zipfile.BadZipFile, EOFError, zlib.error) as error:
        raise BadRequest(f"file: the ZIP archive is damaged ({error}).") from None
    except NotImplementedError as error:
        raise BadRequest(
            f"file: the ZIP archive uses a compression method that cannot be read ({error}); "
            "store its files uncompressed or with Deflate, bzip2 or LZMA."
        ) from None


def zip_members(archive: zipfile.ZipFile):
    infos = archive.infolist()
    if len(infos) > MAX_ARCHIVE_MEMBERS:
        raise BadRequest(f"file: the archive has {len(infos)} members; at most {MAX_ARCHIVE_MEMBERS:,}.")
    unpacked = 0
    for info in infos:
        name = info.filename
        if info.is_dir() or name.startswith(IGNORED_MEMBERS) or name.rsplit("/", 1)[-1] in IGNORED_MEMBERS:
            continue
        segments = name.split("/")
        if (
            name.startswith("/")
            or "\\" in name
            or any(s in ("", ".", "..") for s in segments)
            or ":" in segments[0]
        ):
            raise BadRequest(f"file: the archive member {name!r} points outside the archive.")
        if info.flag_bits & 0x1:
            raise BadRequest(f"file: the archive member {name!r} is encrypted.")
        unpacked += info.file_size
        if unpacked > MAX_UNPACKED_BYTES or info.file_size > MAX_RATIO * max(info.compress_size, 1024):
            raise BadRequest(
                "file: the archive unpacks to too much data (at most 256 MiB, 200 times its size)."
            )
        with archive.open(info) as member:
            data = member.read(info.file_size + 1)
        if len(data) != info.file_size:
            raise BadRequest(f"file: the archive member {name!r} is not the size its header says.")
        yield name, data


def _parse_archive(
    data: bytes, format: str | None, language: str | None, template: str | None
) -> list[ParsedFile]:
    patterns = {}
    files, entries = [], 0
    with read_zip(data) as archive:
        for name, member in zip_members(archive):
            member_format = format or detect_format(name, member)
            chosen = template or _default_template(member_format)
            if chosen not in patterns:
                patterns[chosen] = template_pattern(chosen)
            match = patterns[chosen].match(name)
            if match is None:
                raise BadRequest(f"file: the archive member {name!r} does not match pathTemplate {chosen!r}.")
            try:
                in_path = template_language(chosen, match)
            except ValueError as error:
                raise BadRequest(f"language: {error} (in the path {name!r})") from None
            file_name = match["fileName"]
            if template is None or template.endswith("{fileName}"):
                file_name = _without_extension(file_name, format_module(member_format).EXTENSION)
            parsed = _parse_one(member, member_format, in_path or language, file_name, path=name)
            files += parsed
            entries += sum(len(each.entries) for each in parsed)
            _refuse_too_many(entries)  # before reading the next member
    if not files:
        raise BadRequest("file: the archive holds no translation file.")
    return files


def _default_template(format_name: str) -> str:
    """The export's layout: ``{language}/{fileName}``, or ``{fileName}`` for a format whose
    one file holds every language (CSV)."""
    return (
        MULTILINGUAL_TEMPLATE
        if getattr(format_module(format_name), "MULTILINGUAL", False)
        else DEFAULT_TEMPLATE
    )


def _check(parsed: ParsedFile) -> None:
    where = f"in {parsed.path!r}"
    file_name = parsed.file_name
    if not 0 < len(file_name) <= MAX_FILE_NAME or CONTROL_CHARACTERS.search(file_name):
        raise BadRequest(
            f"fileName: {file_name[:80]!r} must be 1-{MAX_FILE_NAME} characters without control characters."
        )
    if (
        "\\" in file_name
        or file_name.startswith("/")
        or any(s in ("", ".", "..") for s in file_name.split("/"))
    ):
        raise BadRequest(
            f"fileName: {file_name[:80]!r} must be a relative path without '.', '..' or empty segments."
        )
    try:
        parsed.language = canonical_code(parsed.language)
    except ValueError as error:
        raise BadRequest(f"language: {error}") from None
    seen = set()
    for entry in parsed.entries:
        key = entry.key
        if not isinstance(key, str) or not 0 < len(key) <= MAX_KEY or CONTROL_CHARACTERS.search(key):
            raise BadRequest(
                f"key: {str(key)[:80]!r} {where} must be 1-{MAX_KEY} characters without control characters."
            )
        if key != key.strip():
            raise BadRequest(f"key: {key[:80]!r} {where} must not begin or end with a space.")
        if key in seen:
            raise BadRequest(f"key: {key!r} appears twice {where}.")
        seen.add(key)
        if entry.value is not None and (not isinstance(entry.value, str) or len(entry.value) > MAX_VALUE):
            raise BadRequest(f"value: the value of {key!r} {where} is longer than {MAX_VALUE:,} characters.")
        for name, text in (("value", entry.value), ("comment", entry.comment), ("context", entry.context)):
            if text is not None and "\x00" in text:
                raise BadRequest(f"{name}: the {name} of {key!r} {where} contains a NUL character (U+0000).")
        if entry.context is not None and len(entry.context) > MAX_CONTEXT:
            raise BadRequest(
                f"context: the context of {key!r} {where} is longer than {MAX_CONTEXT} characters."
            )
        if entry.comment is not None and len(entry.comment) > MAX_COMMENT:
            raise BadRequest(
                f"comment: the comment of {key!r} {where} is longer than {MAX_COMMENT:,} characters."
            )


def _refuse_duplicate_files(files: list[ParsedFile]) -> None:
    seen = {}
    for parsed in files:
        pair = (parsed.file_name, parsed.language)
        if pair in seen:
            raise BadRequest(
                f"file: {seen[pair]!r} and {parsed.path!r} are both the file {parsed.file_name!r} "
                f"in {parsed.language!r}."
            )
        seen[pair] = parsed.path
