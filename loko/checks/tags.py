"""HTML/XML tags: the value has the source's tags (as many of each, anywhere: a translation may
put ``<b>`` around another word) and, when the source's tags are balanced, so are its own.

A tag is ``<name ...>``, ``</name>`` or ``<name .../>`` with a name starting with a letter
(``<b>``, ``<a href="...">``, ``<br/>``, Android's ``<xliff:g id="n">``, react-i18next's
``<1>``); attributes are not
compared (a link may point to a translated page). ``a < b``, ``<3`` and ``&lt;b&gt;`` are text.
HTML's void elements (``<br>``, ``<img>`` ...) need no closing tag. No fix.
"""

import re
from collections import Counter
from functools import lru_cache

from loko.checks import Issue, Signal, Target
from loko.checks.text import plural_word

CODE = "tags"
TITLE = "Tags differ from the source"
# Finds nothing in a value unless it or its source shows this (``checks.Signal``).
SIGNAL = Signal(characters="<")

# A name starts with a letter, or is a number (react-i18next's ``<1>...</1>``).
TAG = re.compile(r"<(/?)([A-Za-z][\w:.-]*|[0-9]+)(?:\s[^<>]*?)?\s*(/?)>")
_VOID = frozenset(
    (
        "area",
        "base",
        "br",
        "col",
        "embed",
        "hr",
        "img",
        "input",
        "link",
        "meta",
        "param",
        "source",
        "track",
        "wbr",
    )
)


@lru_cache(maxsize=8192)
def _read(text: str) -> tuple[Counter, str | None]:
    """The tags of ``text`` (``<b>``, ``</b>``, ``<br/>``) counted, and what is unbalanced
    (None when the tags nest properly)."""
    tags: Counter = Counter()
    stack: list[str] = []
    problem = None
    for closing, name, self_closing in TAG.findall(text):
        key = name.lower()
        if self_closing or (not closing and key in _VOID):
            tags[f"<{name}/>"] += 1
        elif closing:
            tags[f"</{name}>"] += 1
            if stack and stack[-1] == key:
                stack.pop()
            elif problem is None:
                problem = (
                    f"</{name}> closes no open <{name}>"
                    if key not in stack
                    else f"</{name}> closes <{stack[-1]}> early"
                )
                if key in stack:
                    del stack[len(stack) - 1 - stack[::-1].index(key) :]
        else:
            tags[f"<{name}>"] += 1
            stack.append(key)
    if problem is None and stack:
        problem = f"<{stack[-1]}> is never closed"
    return tags, problem


def check(target: Target) -> list[Issue]:
    source, value = target.source, target.value
    if not source or not value or ("<" not in value and "<" not in source):
        return []
    if TAG.findall(value) == TAG.findall(source):
        return []
    wanted, source_problem = _read(source)
    found, problem = _read(value)
    if not wanted and not found:
        return []
    missing = sorted((wanted - found).elements())
    extra = sorted((found - wanted).elements())
    parts = []
    if missing:
        parts.append(f"Missing {plural_word(len(missing), 'tag')} {', '.join(missing)}")
    if extra:
        parts.append(f"{'extra' if missing else 'Extra'} {plural_word(len(extra), 'tag')} {', '.join(extra)}")
    if problem is not None and source_problem is None:
        parts.append(f"{'the tags' if parts else 'The tags'} do not nest: {problem}")
    if not parts:
        return []
    return [Issue(CODE, "; ".join(parts) + ".")]
