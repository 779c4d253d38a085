"""CSV: one table holding every language, as spreadsheets open and save it.

The header is ``key``, then ``comment`` when a key has a comment, then one column per
language; each row is one key.

Reading: UTF-8 (a leading byte order mark, as Excel's "CSV UTF-8" writes, is skipped), RFC
4180 quoting (malformed quoting is refused); the delimiter is the one after ``key`` in the
header, so the semicolons of spreadsheets in many locales are read too. The first column
must be ``key``; a ``comment`` column may be anywhere, and every other column is a language,
named once. An empty cell is no value (None), so an empty text does not survive a round
trip. Blank rows are skipped; a row with text but no key, text under a column without a
header, or a language not in the header (``read``) is refused, naming the line where the row
starts. Of duplicate keys the last row wins.

Writing: ``key``, ``comment`` (only when a key has one: a key's comment is the first one
found in language order), then the languages sorted; rows sorted by key; comma-separated
with quotes only where needed (``csv`` module, Excel dialect), CRLF line ends, UTF-8
without a byte order mark.
"""

import csv
import io
import re

from loko.formats import Entry, FormatError, Target, json_flat

NAME = "csv"
LABEL = "CSV (all languages)"
EXTENSION = ".csv"
MEDIA_TYPE = "text/csv"
KEEPS = frozenset({"comments"})
MULTILINGUAL = True

KEY = "key"
COMMENT = "comment"
_HEADER_DELIMITER = re.compile(r'"?key"?([,;\t])', re.IGNORECASE)


def _delimiter(text: str) -> str:
    match = _HEADER_DELIMITER.match(text)
    return match.group(1) if match else ","


def _columns(header: list[str]) -> tuple[int | None, dict[int, str]]:
    names = [name.strip() for name in header]
    if not names or names[0].lower() != KEY:
        raise FormatError(f"the first column must be {KEY!r}", 1)
    comment_column, languages = None, {}
    for index, name in enumerate(names[1:], start=1):
        if not name:
            continue
        if name.lower() == COMMENT:
            if comment_column is not None:
                raise FormatError(f"the {COMMENT!r} column is given twice", 1)
            comment_column = index
        elif name in languages.values():
            raise FormatError(f"the language {name!r} has two columns", 1)
        else:
            languages[index] = name
    return comment_column, languages


def read_all(data: bytes) -> dict[str, list[Entry]]:
    text = json_flat.decode(data)
    reader = csv.reader(
        io.StringIO(text, newline=""), dialect="excel", delimiter=_delimiter(text), strict=True
    )
    start = 1  # the line where the row being read starts
    try:
        header = next(reader, None)
        if header is None:
            return {}
        comment_column, languages = _columns(header)
        rows: dict[str, tuple[str | None, list[str]]] = {}
        start = reader.line_num + 1
        for row in reader:
            line, start = start, reader.line_num + 1
            if not any(row):
                continue
            for index, cell in enumerate(row):
                if cell and index and index != comment_column and index not in languages:
                    raise FormatError("a cell has text under a column without a header", line)
            if not row[0]:
                raise FormatError("a row has text but no key", line)
            comment = row[comment_column] if comment_column is not None and comment_column < len(row) else ""
            rows[row[0]] = (comment or None, row)
    except csv.Error as error:
        raise FormatError(f"not valid CSV: {error}", start) from None
    return {
        language: [
            Entry(key, (row[index] if index < len(row) else "") or None, comment)
            for key, (comment, row) in rows.items()
        ]
        for index, language in languages.items()
    }


def _same_language(a: str, b: str) -> bool:
    return a.replace("_", "-").lower() == b.replace("_", "-").lower()


def read(data: bytes, language: str) -> list[Entry]:
    by_language = read_all(data)
    if language in by_language:
        return by_language[language]
    for name, entries in by_language.items():
        if _same_language(name, language):
            return entries
    raise FormatError(f"no column for the language {language!r}", 1)


def write_all(entries_by_language: dict[str, list[Entry]], target: Target) -> bytes:
    languages = sorted(entries_by_language)
    values: dict[str, dict[str, str | None]] = {}
    comments: dict[str, str] = {}
    for language in languages:
        for entry in entries_by_language[language]:
            values.setdefault(entry.key, {})[language] = entry.value
            if entry.comment and entry.key not in comments:
                comments[entry.key] = entry.comment
    buffer = io.StringIO(newline="")
    writer = csv.writer(buffer, dialect="excel")
    writer.writerow([KEY, *([COMMENT] if comments else []), *languages])
    for key in sorted(values):
        by_language = values[key]
        row = [key, *([comments.get(key, "")] if comments else [])]
        row += [by_language.get(language) or "" for language in languages]
        writer.writerow(row)
    return buffer.getvalue().encode("utf-8")


def write(entries: list[Entry], target: Target) -> bytes:
    return write_all({target.language: entries}, target)
