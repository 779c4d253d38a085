"""A small ICU MessageFormat parser for the checks: the syntax tree of a message, or the
position of its first error.

The tree is a list of nodes: a string is text (ICU quoting already undone: ``''`` is ``'``,
``'{'`` is ``{``), a dict is an argument: ``{"name": "n"}``, ``{"name": "n", "type":
"number", "style": "percent"}``, a choice ``{"name": "count", "type": "plural", "options":
{"one": [...], "other": [...]}}`` (``plural``, ``selectordinal``, ``select``), or a plural's
``#`` as ``{"name": "count", "hash": True}``.

It finds where each run of plain text stops with one regular expression step, so a message costs a few
microseconds: every value written is checked, so a general-purpose parser written character
by character (hundreds of microseconds per plural) would not do.
"""

import re
from functools import lru_cache

CHOICE_TYPES = frozenset({"plural", "selectordinal", "select"})
MAXIMUM_DEPTH = 50

# Where plain text stops: the characters that matter (``#`` only in a plural's forms).
_STOP = re.compile(r"[{}']")
_STOP_IN_PLURAL = re.compile(r"[{}'#]")
_SPACE = re.compile(r"\s*")
_NAME = re.compile(r"[^\s{}'#,=|]+")
_TYPE = re.compile(r"[A-Za-z]+")
_SELECTOR = re.compile(r"=-?[0-9]+(?:\.[0-9]+)?|[^\s{}'#,=|]+")
_OFFSET = re.compile(r"offset\s*:\s*[0-9]+\s*")
_STYLE_STOP = re.compile(r"[{}']")


class _Reader:
    def __init__(self, text: str):
        self.text = text
        self.length = len(text)

    def _found(self, position: int) -> str:
        return self.text[position] if position < self.length else "<EOF>"

    def expected(self, what: str, position: int) -> SyntaxError:
        return SyntaxError(f'Expected {what} at position {position} but found "{self._found(position)}"')

    def skip(self, position: int) -> int:
        if position < self.length and self.text[position].isspace():
            return _SPACE.match(self.text, position).end()
        return position

    def _quoted(self, position: int) -> tuple[str, int]:
        """Quoted text from just after its opening apostrophe; to the end when unclosed."""
        text, parts = self.text, []
        while True:
            quote = text.find("'", position)
            if quote < 0:
                parts.append(text[position:])
                return "".join(parts), self.length
            if text.startswith("''", quote):
                parts.append(text[position : quote + 1])
                position = quote + 2
                continue
            parts.append(text[position:quote])
            return "".join(parts), quote + 1

    def message(self, position: int, depth: int, plural: str | None) -> tuple[list, int]:
        """The nodes from ``position`` to the ``}`` closing this message (or the end)."""
        text, length = self.text, self.length
        stops = _STOP_IN_PLURAL if plural is not None else _STOP
        nodes: list = []
        buffer: list[str] = []
        while position < length:
            match = stops.search(text, position)
            if match is None:
                buffer.append(text[position:])
                position = length
                break
            if match.start() > position:
                buffer.append(text[position : match.start()])
                position = match.start()
            character = text[position]
            if character == "'":
                following = text[position + 1 : position + 2]
                if following == "'":
                    buffer.append("'")
                    position += 2
                elif following and (following in "{}|" or (following == "#" and plural is not None)):
                    quoted, position = self._quoted(position + 1)
                    buffer.append(quoted)
                else:
                    buffer.append("'")
                    position += 1
                continue
            if character == "}":
                if depth == 0:
                    raise SyntaxError(f'Unexpected "}}" at position {position}')
                break
            if buffer:
                nodes.append("".join(buffer))
                buffer = []
            if character == "#":
                nodes.append({"name": plural, "hash": True})
                position += 1
            else:
                node, position = self.argument(position, depth, plural)
                nodes.append(node)
        if buffer:
            nodes.append("".join(buffer))
        return nodes, position

    def argument(self, position: int, depth: int, plural: str | None) -> tuple[dict, int]:
        if depth >= MAXIMUM_DEPTH:
            raise SyntaxError(f"Too deeply nested at position {position}")
        text = self.text
        position = self.skip(position + 1)
        match = _NAME.match(text, position)
        if match is None:
            raise self.expected("placeholder name", position)
        name = match.group()
        position = self.skip(match.end())
        character = self._found(position)
        if character == "}":
            return {"name": name}, position + 1
        if character != ",":
            raise self.expected('"," or "}"', position)
        position = self.skip(position + 1)
        match = _TYPE.match(text, position)
        if match is None:
            raise self.expected("placeholder type", position)
        kind = match.group()
        position = self.skip(match.end())
        if kind in CHOICE_TYPES:
            return self._choice(name, kind, position, depth, plural)
        character = self._found(position)
        if character == "}":
            return {"name": name, "type": kind}, position + 1
        if character != ",":
            raise self.expected('"," or "}"', position)
        style, position = self._style(position + 1)
        return {"name": name, "type": kind, "style": style}, position

    def _choice(
        self, name: str, kind: str, position: int, depth: int, plural: str | None
    ) -> tuple[dict, int]:
        text = self.text
        if self._found(position) != ",":
            raise self.expected('","', position)
        position = self.skip(position + 1)
        if kind == "plural":
            offset = _OFFSET.match(text, position)
            if offset is not None:
                position = offset.end()
        inner = plural if kind == "select" else name
        options: dict[str, list] = {}
        while position < self.length and text[position] != "}":
            match = _SELECTOR.match(text, position)
            if match is None:
                raise self.expected("sub-message selector", position)
            selector = match.group()
            if selector in options:
                raise SyntaxError(f'Duplicate sub-message selector "{selector}" at position {position}')
            position = self.skip(match.end())
            if self._found(position) != "{":
                raise self.expected('"{"', position)
            nodes, position = self.message(position + 1, depth + 1, inner)
            if position >= self.length:
                raise self.expected('"}"', position)
            options[selector] = nodes
            position = self.skip(position + 1)
        if position >= self.length:
            raise self.expected('"}"', position)
        if not options:
            raise self.expected("sub-message selector", position)
        return {"name": name, "type": kind, "options": options}, position + 1

    def _style(self, position: int) -> tuple[str, int]:
        """A simple argument's style (``percent``, ``::currency/EUR``) up to its ``}``."""
        text, start, depth = self.text, position, 0
        while True:
            match = _STYLE_STOP.search(text, position)
            if match is None:
                raise self.expected('"}"', self.length)
            position = match.end()
            character = match.group()
            if character == "'":
                position = self._quoted(position)[1]
            elif character == "{":
                depth += 1
            elif depth:
                depth -= 1
            else:
                return text[start : position - 1].strip(), position


@lru_cache(maxsize=8192)
def parse(text: str) -> tuple[list | None, str | None]:
    """The syntax tree of ``text`` and None, or None and the first error
    (``Expected "}" at position 12 but found "<EOF>"``)."""
    try:
        return _Reader(text).message(0, 0, None)[0], None
    except SyntaxError as error:
        return None, str(error)
