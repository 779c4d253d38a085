"""What a replacement may not do to a value: break its placeholders, its markup tags or its
ICU message syntax (the checks engine reads the value before as the source of the value
after; only what it finds after and not before counts), empty a value of them, contain the
NUL character, or grow past the longest value."""

import re

from loko import checks
from loko.checks import Target
from loko.checks.placeholders import read as read_placeholders
from loko.checks.tags import TAG
from loko.fields import MAX_VALUE

GUARDED = ("placeholders", "icu-syntax", "tags")
# Whatever the guarded checks find begins with one of these: a placeholder (%, {, $), ICU
# syntax ({) or a markup tag (<). A value without any, before and after, has none to break.
MARKS = re.compile(r"[%{$<]")


def breakage(before: str, after: str, language: str) -> tuple[str | None, str] | None:
    """``(check, reason)`` when ``after`` breaks what ``before`` held (check None for the limits
    of a value), else None."""
    if "\x00" in after:
        return None, "The result would contain the NUL character."
    if len(after) > MAX_VALUE:
        return (
            None,
            f"The result would be {len(after):,} characters long; a value holds at most {MAX_VALUE:,}.",
        )
    if MARKS.search(before) is None and MARKS.search(after) is None:
        return None
    if not after:
        tokens, _icu = read_placeholders(before)
        if tokens:
            return "placeholders", f"The result would be empty, without the placeholders {', '.join(tokens)}."
        if TAG.search(before):
            return "tags", "The result would be empty, without the value's tags."
        return None
    found = checks.run(Target(after, language, before), GUARDED)
    if not found:
        return None
    already = {
        (issue.check, issue.message) for issue in checks.run(Target(before, language, before), GUARDED)
    }
    for issue in found:
        if (issue.check, issue.message) not in already:
            return issue.check, issue.message
    return None
