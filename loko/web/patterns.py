"""A message with named parameters (``key: %(key)s is not in the file %(file_name)s.``) as
a pattern that finds the parameters in the message the code built from it: the refusals'
and the checks' messages are found this way to be shown in the page's language."""

import re

PLACEHOLDER = re.compile(r"%\((\w+)\)s")


def literal_length(msgid: str) -> int:
    """How much of ``msgid`` is literal text: the patterns are tried longest first, so that a
    specific message wins over a general one."""
    return sum(len(part) for part in PLACEHOLDER.split(msgid)[0::2])


def compile_patterns(messages) -> tuple[tuple[tuple[str, ...], tuple[str, ...], object], ...]:
    """Each ``(message id, key)`` of ``messages`` as the message's literal parts and the names
    of the parameters between them, with its key, the most literal first."""
    patterns = []
    for msgid, key in sorted(messages, key=lambda message: -literal_length(message[0])):
        parts = PLACEHOLDER.split(msgid)
        literals = tuple(part.replace("%%", "%") for part in parts[0::2])
        patterns.append((literals, tuple(parts[1::2]), key))
    return tuple(patterns)


def match(literals: tuple[str, ...], names: tuple[str, ...], message: str) -> dict | None:
    """The parameters of ``message`` when it is the pattern's literal parts in order with
    text between them (each part found at its first place after the one before, the last at
    the end: one pass, whatever the message), else None."""
    first, last = literals[0], literals[-1]
    if not names:
        return {} if message == first else None
    end = len(message) - len(last)
    if end < len(first) or not message.startswith(first) or not message.endswith(last):
        return None
    position, values = len(first), {}
    for name, literal in zip(names[:-1], literals[1:-1], strict=True):
        found = message.find(literal, position, end)
        if found < 0:
            return None
        values[name], position = message[position:found], found + len(literal)
    values[names[-1]] = message[position:end]
    return values
