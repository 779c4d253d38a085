"""Two spaces in a row inside the value where the source has none anywhere (leading and
trailing runs are the whitespace check's). The fix collapses each inner run to one space."""

import re

from loko.checks import Issue, Signal, Target

CODE = "double-space"
TITLE = "Double space"
# Finds nothing in a value unless it or its source shows this (``checks.Signal``).
SIGNAL = Signal(substrings=("  ",))

_RUN = re.compile(r"(?<=\S)  +(?=\S)")


def check(target: Target) -> list[Issue]:
    source, value = target.source, target.value
    if not source or not value or "  " not in value or "  " in source:
        return []
    if _RUN.search(value) is None:
        return []
    return [Issue(CODE, "The value has two spaces in a row; the source has none.", _RUN.sub(" ", value))]
