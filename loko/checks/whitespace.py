"""Leading and trailing whitespace (spaces, tabs, newlines) as the source's: UIs glue a
value to its neighbours, and a lost trailing space or newline shows.

Never flagged: a value or source of one character (a separator), a value that is only
whitespace, non-breaking spaces (a French value may end with one before nothing). The fix
is the value with the source's leading and trailing whitespace.
"""

from functools import lru_cache

from loko.checks import Issue, Signal, Target

CODE = "whitespace"
TITLE = "Leading or trailing whitespace differs from the source"

_EDGE_CHARACTERS = " \t\r\n"
_NAMES = {" ": "space", "\t": "tab", "\n": "newline", "\r": "carriage return"}
# Finds nothing in a value unless it or its source shows this (``checks.Signal``):
# whitespace at either end.
SIGNAL = Signal(first=_EDGE_CHARACTERS, last=_EDGE_CHARACTERS)


@lru_cache(maxsize=8192)
def _edges(text: str) -> tuple[str, str, str]:
    """The leading whitespace, the rest, and the trailing whitespace of ``text``."""
    body = text.strip(_EDGE_CHARACTERS)
    if not body:
        return text, "", ""
    start = text.index(body[0])
    return text[:start], body, text[start + len(body) :]


def _describe(run: str) -> str:
    if not run:
        return "no whitespace"
    names = []
    for character in run:
        name = _NAMES[character]
        if names and names[-1][1] == name:
            names[-1][0] += 1
        else:
            names.append([1, name])
    return " then ".join(f"a {name}" if count == 1 else f"{count} {name}s" for count, name in names)


def check(target: Target) -> list[Issue]:
    source, value = target.source, target.value
    if not source or not value or (len(source) <= 1 and len(value) <= 1):
        return []
    if (
        value[0] not in _EDGE_CHARACTERS
        and value[-1] not in _EDGE_CHARACTERS
        and source[0] not in _EDGE_CHARACTERS
        and source[-1] not in _EDGE_CHARACTERS
    ):
        return []
    source_lead, _body, source_trail = _edges(source)
    lead, body, trail = _edges(value)
    if not body or (lead == source_lead and trail == source_trail):
        return []
    parts = []
    if lead != source_lead:
        parts.append(f"The value starts with {_describe(lead)}; the source with {_describe(source_lead)}.")
    if trail != source_trail:
        parts.append(f"The value ends with {_describe(trail)}; the source with {_describe(source_trail)}.")
    return [Issue(CODE, " ".join(parts), source_lead + body + source_trail)]
