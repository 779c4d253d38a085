"""Java ``.properties``, read by the rules of ``java.util.Properties.load``.

Reading: UTF-8, as Java 9+ reads resource bundles, or ISO-8859-1 when the bytes are not
UTF-8 (a leading byte order mark is skipped). Lines end in ``\\n``, ``\\r\\n`` or ``\\r``; a
line ending in an odd number of backslashes goes on with the next line, less its leading
whitespace. A line whose first non-blank character is ``#`` or ``!`` is a comment; comment
lines right above a key are its comment (one space after the marker dropped, lines joined
with ``\\n``), and a blank line in between detaches them. The key runs to the first
unescaped ``=``, ``:`` or whitespace; blanks and one ``=`` or ``:`` after it are skipped and
the rest of the line is the value. Escapes are ``\\t \\n \\r \\f``, ``\\uHHHH`` (a surrogate
pair of two escapes is one character) and a backslash before any other character, which
stands for itself. A malformed ``\\u`` escape or half a surrogate pair is refused, naming
the line. Of duplicate keys the last one wins.

Writing: UTF-8, keys sorted, ``key=value`` lines, each key's comment above it as ``# `` lines.
Escaped are the backslash, tab, line and form feeds, other control characters, U+0085,
U+2028, U+2029 and U+FEFF (``\\uHHHH``); in keys also ``=``, ``:``, spaces and a leading
``#`` or ``!``; in values a leading space. Keys without a value are left out. Java's
``Properties.load(InputStream)`` still reads ISO-8859-1; ``PropertyResourceBundle`` and
``Properties.load(Reader)`` read this file as written.
"""

import re

from loko.formats import Entry, FormatError, Target

NAME = "properties"
LABEL = "Java properties"
EXTENSION = ".properties"
MEDIA_TYPE = "text/x-java-properties"
KEEPS = frozenset({"comments"})

_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_BLANKS = " \t\f"
_KEY = re.compile(r"(?:[^\\=: \t\f]+|\\.?)*", re.DOTALL)
_ESCAPE = re.compile(r"\\(u[0-9A-Fa-f]{4}|u|.|$)", re.DOTALL)
_UNESCAPED = {"t": "\t", "n": "\n", "r": "\r", "f": "\f"}
_SURROGATE = re.compile("[\ud800-\udfff]")

_ESCAPED = {"\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r", "\f": "\\f"}
_VALUE_SPECIAL = re.compile("[\\\\\x00-\x1f\x7f\x85\u2028\u2029\ufeff\ud800-\udfff]")
_KEY_SPECIAL = re.compile("[\\\\\x00-\x1f\x7f\x85\u2028\u2029\ufeff\ud800-\udfff=: ]")


def _decode(data: bytes) -> str:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = data.decode("iso-8859-1")
    return text.removeprefix("\ufeff")


def _continues(line: str) -> bool:
    return (len(line) - len(line.rstrip("\\"))) % 2 == 1


def _unescape(text: str, line: int) -> str:
    if "\\" not in text:
        return text

    def replace(match: re.Match) -> str:
        code = match.group(1)
        if code.startswith("u"):
            if len(code) != 5:
                raise FormatError("a \\u escape needs four hexadecimal digits", line)
            return chr(int(code[1:], 16))
        return _UNESCAPED.get(code, code)

    result = _ESCAPE.sub(replace, text)
    if _SURROGATE.search(result):
        try:
            result = result.encode("utf-16-le", "surrogatepass").decode("utf-16-le")
        except UnicodeDecodeError:
            raise FormatError("a \\u escape gives half of a surrogate pair", line) from None
    return result


def _key_and_value(logical: str) -> tuple[str, str]:
    end = _KEY.match(logical).end()
    position, separator = end, False
    while position < len(logical):
        character = logical[position]
        if character in "=:" and not separator:
            separator = True
        elif character not in _BLANKS:
            break
        position += 1
    return logical[:end], logical[position:]


def read(data: bytes, language: str) -> list[Entry]:
    lines = _LINE_BREAK.split(_decode(data))
    entries: dict[str, Entry] = {}
    comment: list[str] = []
    index = 0
    while index < len(lines):
        number = index + 1
        line = lines[index].lstrip(_BLANKS)
        index += 1
        if not line:
            comment = []
            continue
        if line[0] in "#!":
            text = line[1:]
            comment.append(text[1:] if text.startswith(" ") else text)
            continue
        parts = []
        while _continues(line) and index < len(lines):
            parts.append(line[:-1])
            line = lines[index].lstrip(_BLANKS)
            index += 1
        parts.append(line[:-1] if _continues(line) else line)
        key, value = _key_and_value("".join(parts))
        key = _unescape(key, number)
        entries[key] = Entry(key, _unescape(value, number), "\n".join(comment) if comment else None)
        comment = []
    return list(entries.values())


def _escape_match(match: re.Match) -> str:
    character = match.group()
    escaped = _ESCAPED.get(character)
    if escaped is not None:
        return escaped
    if character in "=: ":
        return "\\" + character
    return f"\\u{ord(character):04X}"


def _escape_key(key: str) -> str:
    escaped = _KEY_SPECIAL.sub(_escape_match, key)
    return "\\" + escaped if escaped[:1] in ("#", "!") else escaped


def _escape_value(value: str) -> str:
    escaped = _VALUE_SPECIAL.sub(_escape_match, value)
    return "\\" + escaped if escaped[:1] == " " else escaped


def write(entries: list[Entry], target: Target) -> bytes:
    kept = {entry.key: entry for entry in entries if entry.value is not None}
    lines = []
    for key in sorted(kept):
        entry = kept[key]
        if entry.comment is not None:
            lines.extend(f"# {text}" if text else "#" for text in _LINE_BREAK.split(entry.comment))
        lines.append(f"{_escape_key(key)}={_escape_value(entry.value)}")
    return "".join(f"{line}\n" for line in lines).encode("utf-8")
