"""A find and replace compiled once: text or a regular expression, in any case or in the
case given, anywhere or as a whole word. Pure functions over strings, no database.

Regular expressions run on the ``regex`` module, whose matching takes a time limit: a pattern
that backtracks without end on one value is stopped there (``TimedOut``) and the other values
go on. Its compiler expands counted repetitions (``(a{1000}){1000}`` is a million steps, and
hundreds of megabytes), which no time limit stops, so a pattern whose counted repetitions
expand beyond ``MAX_PATTERN_WEIGHT`` is refused before it is compiled.
"""

import re
from dataclasses import dataclass

from loko.errors import BadRequest

MODES = ("text", "regex")
MAX_FIND = 1000
# Seconds of matching one value may take.
VALUE_TIMEOUT = 0.1
# Steps a pattern's counted repetitions may expand into, nested ones multiplied.
MAX_PATTERN_WEIGHT = 10_000
_COUNTED = re.compile(r"\{(\d{0,6})(?:,(\d{0,6}))?\}")
# Escapes followed by a braced or bracketed argument: \p{L}, \N{DASH}, \x{41}, \g<name>.
_ARGUMENT_ESCAPES = "pPNxuUgk"


class TimedOut(Exception):
    """The matching of one value ran out of its time (``VALUE_TIMEOUT``)."""


def pattern_weight(pattern: str) -> int:
    """How many steps a regular expression's counted repetitions expand into (an estimate from
    above: every character, class and escape counts one, a group the sum of its parts, and a
    repetition ``{m,n}`` multiplies what it repeats by ``m``)."""
    frames = [[0, 0]]  # per open group: [its weight so far, the weight of its last atom]
    limit = MAX_PATTERN_WEIGHT + 1

    def atom(weight: int) -> None:
        frames[-1][0] = min(frames[-1][0] + weight, limit)
        frames[-1][1] = weight

    index, length = 0, len(pattern)
    while index < length:
        char = pattern[index]
        if char == "\\":
            end = index + 2
            if end < length and pattern[index + 1] in _ARGUMENT_ESCAPES and pattern[end] in "{<":
                close = pattern.find("}" if pattern[end] == "{" else ">", end)
                end = length if close < 0 else close + 1
            atom(1)
            index = end
        elif char == "[":
            end = index + 1
            if end < length and pattern[end] == "^":
                end += 1
            if end < length and pattern[end] == "]":
                end += 1
            while end < length and pattern[end] != "]":
                end += 2 if pattern[end] == "\\" else 1
            atom(1)
            index = end + 1
        elif char == "(":
            frames.append([0, 0])
            index += 1
        elif char == ")":
            if len(frames) > 1:
                atom(max(frames.pop()[0], 1))
            index += 1
        else:
            counted = _COUNTED.match(pattern, index) if char == "{" else None
            if counted is not None and (counted.group(1) or counted.group(2)):
                times = max(int(counted.group(1) or 0), 1)
                frame = frames[-1]
                frame[0] = min(frame[0] + frame[1] * (times - 1), limit)
                frame[1] = min(frame[1] * times, limit)
                index = counted.end()
            else:
                atom(1)
                index += 1
    while len(frames) > 1:
        atom(max(frames.pop()[0], 1))
    return frames[0][0]


@dataclass(frozen=True)
class Replacement:
    """What a find and replace does to one value: ``apply(value) -> (after, matches)``."""

    find: str
    replace: str
    pattern: object | None = None  # compiled; None: a plain substring in its case
    template: bool = False  # the replacement refers to groups (regex mode)

    def apply(self, value: str) -> tuple[str, int]:
        """The value after the replacement and how many matches it replaced; TimedOut when
        matching the value took longer than ``VALUE_TIMEOUT``."""
        if self.pattern is None:
            count = value.count(self.find)
            return (value.replace(self.find, self.replace), count) if count else (value, 0)
        replacement = self.replace if self.template else self._literal
        try:
            return self.pattern.subn(replacement, value, timeout=VALUE_TIMEOUT)
        except TimeoutError:
            raise TimedOut from None

    def _literal(self, _match) -> str:
        return self.replace


def compile_replacement(
    find: str, replace: str, mode: str = "text", match_case: bool = False, whole_word: bool = False
) -> Replacement:
    """The replacement of ``find`` by ``replace``: in ``text`` mode both are taken as written;
    in ``regex`` mode ``find`` is a regular expression and ``replace`` may name its groups
    (``\\1``, ``\\g<name>``). BadRequest naming ``find`` for a pattern that does not compile or
    repeats too much, ``replace`` for a replacement naming a group the pattern lacks."""
    if mode == "text" and match_case and not whole_word:
        return Replacement(find, replace)
    import regex

    if mode == "text":
        source = regex.escape(find)
    else:
        if pattern_weight(find) > MAX_PATTERN_WEIGHT:
            raise BadRequest(
                f"find: the pattern's counted repetitions ({{n}}) expand to more than "
                f"{MAX_PATTERN_WEIGHT:,} steps; use * or + or smaller counts."
            )
        source = find
    if whole_word:
        source = rf"(?<!\w)(?:{source})(?!\w)"
    flags = 0 if match_case else regex.IGNORECASE
    try:
        pattern = regex.compile(source, flags)
    except (regex.error, OverflowError, RecursionError, ValueError) as error:
        raise BadRequest(f"find: not a valid regular expression: {error}.") from None
    if mode == "text":
        return Replacement(find, replace, pattern)
    _check_template(regex, pattern, replace)
    return Replacement(find, replace, pattern, template=True)


def _check_template(regex, pattern, replace: str) -> None:
    """Expand ``replace`` once against a pattern with the same groups, each matching the empty
    string, so that a group it names and the pattern lacks is refused before any value."""
    names = {index: name for name, index in pattern.groupindex.items()}
    probe = "".join(
        f"(?P<{names[index]}>)" if index in names else "()" for index in range(1, pattern.groups + 1)
    )
    try:
        regex.compile(probe).sub(replace, "", count=1)
    except (regex.error, IndexError) as error:
        raise BadRequest(f"replace: not a valid replacement for this pattern: {error}.") from None
