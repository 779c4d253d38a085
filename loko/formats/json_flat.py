"""Flat JSON: one object of ``{"key": "text"}``, the format of the API's export.

Reading: UTF-8 (a leading byte order mark is skipped); the top level must be an object whose
values are strings, or ``null`` for a key without a translation. A nested object, a list, a
number or a boolean is refused, naming the key and its line; of duplicate keys the last one
wins, as in JavaScript. A plural is the ICU message as text, so it is kept as any value.

Writing is ``json_bytes``, as the API's export writes its JSON: compact, keys sorted, UTF-8
without ``\\u`` escapes except for control characters, no trailing newline. Keys without a
value are left out.
"""

import re

import orjson

from loko.formats import Entry, FormatError, Target

NAME = "json"
LABEL = "JSON (flat)"
EXTENSION = ".json"
MEDIA_TYPE = "application/json"
KEEPS = frozenset()

_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[{}\[\],]')


def decode(data: bytes) -> str:
    """``data`` as UTF-8 text without a leading byte order mark; FormatError names the line of
    the first byte that is not UTF-8."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        raise FormatError("the file is not UTF-8 text", line) from None
    return text.removeprefix("\ufeff")


def load_object(data: bytes) -> tuple[str, dict]:
    """The text of a JSON file and its top-level object; FormatError when it is not JSON (with
    orjson's line), or when the top level is not an object."""
    text = decode(data)
    try:
        document = orjson.loads(text)
    except orjson.JSONDecodeError as error:
        raise FormatError(f"not valid JSON: {error.msg}", error.lineno) from None
    if not isinstance(document, dict):
        stripped = len(text) - len(text.lstrip())
        raise FormatError("the file must hold one JSON object", text.count("\n", 0, stripped) + 1)
    return text, document


def key_line(text: str, path: tuple[str, ...]) -> int | None:
    """The line of the key at ``path`` (object keys from the top) in valid JSON ``text``; for a
    key given twice, its last occurrence, which is the one a parser keeps. Only used to name
    the line in an error, so it walks the text rather than slowing down every read."""
    target = list(path)
    keys: list[str | None] = []  # the key of each open container below the top level
    kinds: list[str] = []  # "{" or "[" for each open container
    current: str | None = None
    expect_key = False
    found = None
    for match in _TOKEN.finditer(text):
        piece = match.group()
        if piece in "{[":
            if kinds:
                keys.append(current if kinds[-1] == "{" else None)
            kinds.append(piece)
            expect_key = piece == "{"
        elif piece in "}]":
            kinds.pop()
            current = keys.pop() if keys else None
            expect_key = False
        elif piece == ",":
            expect_key = bool(kinds) and kinds[-1] == "{"
        elif expect_key:
            current = orjson.loads(piece)
            expect_key = False
            if [*keys, current] == target:
                found = text.count("\n", 0, match.start()) + 1
    return found


def kind_of(value) -> str:
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, bool):
        return "a boolean"
    return "a number"


def read(data: bytes, language: str) -> list[Entry]:
    text, document = load_object(data)
    entries = []
    for key, value in document.items():
        if value is not None and not isinstance(value, str):
            hint = " (nested keys need the json-nested format)" if isinstance(value, dict) else ""
            raise FormatError(
                f"the value of {key!r} is {kind_of(value)}, not text{hint}", key_line(text, (key,))
            )
        entries.append(Entry(key, value))
    return entries


def json_bytes(document: dict) -> bytes:
    return orjson.dumps(document, option=orjson.OPT_SORT_KEYS)


def write(entries: list[Entry], target: Target) -> bytes:
    return json_bytes({entry.key: entry.value for entry in entries if entry.value is not None})
