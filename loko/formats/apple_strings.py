"""Apple ``.strings`` (``Localizable.strings``): ``"key" = "value";`` statements with
``/* comments */`` and ``// comments``.

Reading takes UTF-8 (with or without a byte order mark) or UTF-16 (told by its byte order
mark, or without one by its zero bytes), as Xcode writes either. Keys and values may be
quoted or, as in old property lists, unquoted (letters, digits and ``_ $ + / : . -``); a
statement ``"key";`` alone means the key is its own value. The escapes ``\\"``, ``\\'``,
``\\\\``, ``\\n``, ``\\t``, ``\\r``, ``\\a``, ``\\b``, ``\\f``, ``\\v``, ``\\UHHHH`` (and
``\\uHHHH``, a surrogate pair as one character) and octal ``\\ooo`` are resolved; any other
escaped character stands for itself. The comments right before a key (with no blank line
between), joined by line breaks, are its ``Entry.comment``; a header comment followed by a
blank line is not kept. A key defined twice is refused. Errors name the line.

``.strings`` has no plurals (they live in the ``.stringsdict`` beside it), so a plural value
is written as its ICU plural message text and read back unchanged.

The writer is deterministic and canonical: UTF-8 without a byte order mark, the entries in
the order given, each ``/* comment */`` (``*/`` inside becomes ``* /``) on the line before
``"key" = "value";``, a blank line between entries, keys whose value is None left out, and a
final newline. Text is escaped as ``\\\\``, ``\\"``, ``\\n``, ``\\t``, ``\\r`` and other control
characters (and lone surrogates) as ``\\UHHHH``; everything else is written as is.
"""

import re

from loko.formats import Entry, FormatError, Target

NAME = "strings"
LABEL = "Apple .strings"
EXTENSION = ".strings"
MEDIA_TYPE = "text/plain"
KEEPS = frozenset({"comments"})

_UNQUOTED = re.compile(r"[A-Za-z0-9_$+/:.\-]+")
_SIMPLE_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "a": "\a", "b": "\b", "f": "\f", "v": "\v"}
_WRITE_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\t": "\\t", "\r": "\\r"}
_CONTROL = re.compile("[\x00-\x1f\x7f\ud800-\udfff]")
_COMMENT_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f\ud800-\udfff]")
_SPECIAL = re.compile(r'["\\]')
_OCTAL = re.compile(r"[0-7]{1,3}")
_HEX4 = re.compile(r"[0-9A-Fa-f]{4}")


def _decode(data: bytes) -> str:
    if data.startswith(b"\xef\xbb\xbf"):
        encoding, data = "utf-8", data[3:]
    elif data.startswith((b"\xff\xfe", b"\xfe\xff")):
        encoding = "utf-16"
    elif b"\x00" in data[:4096] and len(data) % 2 == 0:
        encoding = "utf-16-le" if data[1:2] == b"\x00" else "utf-16-be"
    else:
        encoding = "utf-8"
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as error:
        good = data[: error.start].decode(encoding, "replace")
        raise FormatError(f"the file is not valid {encoding.upper()}", good.count("\n") + 1) from None


class _Scanner:
    def __init__(self, text: str):
        self.text = text
        self.position = 0
        self.line = 1

    def error(self, message: str, line: int | None = None) -> FormatError:
        return FormatError(message, self.line if line is None else line)

    def advance(self, end: int) -> str:
        chunk = self.text[self.position : end]
        self.line += chunk.count("\n")
        self.position = end
        return chunk

    def skip(self, comments: list) -> None:
        """Skips whitespace and comments, collecting each comment as (text, first line, last
        line)."""
        text = self.text
        while self.position < len(text):
            character = text[self.position]
            if character.isspace() or character == "\ufeff":
                self.advance(self.position + 1)
            elif text.startswith("/*", self.position):
                first = self.line
                end = text.find("*/", self.position + 2)
                if end < 0:
                    raise self.error("a /* comment that is never closed", first)
                body = self.advance(end + 2)[2:-2]
                comments.append((body.strip(), first, self.line))
            elif text.startswith("//", self.position):
                first = self.line
                end = text.find("\n", self.position)
                end = len(text) if end < 0 else end
                comments.append((self.advance(end)[2:].strip(), first, first))
            else:
                return

    def string(self, what: str) -> str:
        text = self.text
        if self.position >= len(text):
            raise self.error(f"the file ends where a {what} was expected")
        if text[self.position] != '"':
            match = _UNQUOTED.match(text, self.position)
            if match is None:
                raise self.error(f"expected a quoted {what}, found {text[self.position]!r}")
            return self.advance(match.end())
        first = self.line
        self.advance(self.position + 1)
        out: list[str] = []
        while True:
            end = _SPECIAL.search(text, self.position)
            if end is None:
                raise self.error(f"a quoted {what} that is never closed", first)
            out.append(self.advance(end.start()))
            if text[self.position] == '"':
                self.advance(self.position + 1)
                return _join_surrogates("".join(out))
            out.append(self.escape())

    def escape(self) -> str:
        text = self.text
        escaped = text[self.position + 1 : self.position + 2]
        if not escaped:
            raise self.error("the file ends inside an escape")
        if escaped in _SIMPLE_ESCAPES:
            self.advance(self.position + 2)
            return _SIMPLE_ESCAPES[escaped]
        if escaped in "Uu":
            digits = text[self.position + 2 : self.position + 6]
            if not _HEX4.fullmatch(digits):
                raise self.error(f"\\{escaped} must be followed by four hexadecimal digits")
            self.advance(self.position + 6)
            return chr(int(digits, 16))
        octal = _OCTAL.match(text, self.position + 1)
        if octal is not None:
            self.advance(octal.end())
            return chr(int(octal.group(), 8))
        self.advance(self.position + 2)
        return escaped

    def expect(self, symbol: str, after: str) -> None:
        if not self.text.startswith(symbol, self.position):
            found = self.text[self.position] if self.position < len(self.text) else "the end of the file"
            raise self.error(f"expected {symbol!r} after the {after}, found {found!r}")
        self.advance(self.position + 1)


def _join_surrogates(text: str) -> str:
    # \UD83D\UDE00 read as two escapes is one character.
    return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")


def _comment(comments: list, line: int, after: int) -> str | None:
    """The comments that end right above ``line`` (no blank line between), in order, leaving
    out one that trails the statement ending on line ``after``."""
    texts, next_line = [], line
    for comment in reversed(comments):
        if comment[2] < next_line - 1 or comment[1] == after:
            break
        texts.append(comment[0])
        next_line = comment[1]
    return "\n".join(reversed(texts)) if texts else None


def read(data: bytes, language: str) -> list[Entry]:
    scanner = _Scanner(_decode(data))
    entries: list[Entry] = []
    seen: dict[str, int] = {}
    after = 0
    while True:
        comments: list = []
        scanner.skip(comments)
        if scanner.position >= len(scanner.text):
            return entries
        line = scanner.line
        key = scanner.string("key")
        scanner.skip([])
        if scanner.text.startswith(";", scanner.position):
            value = key
        else:
            scanner.expect("=", "key")
            scanner.skip([])
            value = scanner.string("value")
            scanner.skip([])
        scanner.expect(";", "value")
        if key in seen:
            raise FormatError(f"the key {key!r} appears twice (first on line {seen[key]})", line)
        seen[key] = line
        entries.append(Entry(key, value, _comment(comments, line, after)))
        after = scanner.line


def _quote(text: str) -> str:
    escaped = "".join(_WRITE_ESCAPES.get(character, character) for character in text)
    return '"' + _CONTROL.sub(lambda match: f"\\U{ord(match.group()):04X}", escaped) + '"'


def write(entries: list[Entry], target: Target) -> bytes:
    blocks = []
    for entry in entries:
        if entry.value is None:
            continue
        block = ""
        if entry.comment is not None:
            comment = _COMMENT_CONTROL.sub("", entry.comment)
            while "*/" in comment:
                comment = comment.replace("*/", "* /")
            block = f"/* {comment} */\n"
        blocks.append(f"{block}{_quote(entry.key)} = {_quote(entry.value)};\n")
    return "\n".join(blocks).encode("utf-8")
