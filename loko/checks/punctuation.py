# ruff: noqa: RUF001, RUF002 (the marks of other scripts are this module's subject)
"""Ending punctuation as the source's, in the value's language's own marks.

The last character (trailing whitespace aside) is read as one of: full stop, question mark,
exclamation mark, colon, semicolon, ellipsis, or none. The value must end with the same kind
as the source, in any script's form of it: ``?`` = Arabic ``؟`` = CJK ``？`` = Greek ``;``,
``.`` = CJK ``。`` = Devanagari ``।`` = Urdu ``۔`` = Armenian ``։``, ``!`` = ``！``, ``:`` =
``：``, ``...`` = ``…``. A space before the mark (French ``Nom :``, a non-breaking space
before ``?``) and an opening ``¿``/``¡`` (Spanish) change nothing.

Never flagged: a full stop when the source is 4 characters or less (abbreviations); Thai and
Lojban full stops (Thai has none); Japanese may end a ``:`` or ``;`` source with ``。``/``.``;
Armenian accepts ``:``/``։`` for a stop, its ``՞`` or ``։`` for a question, anything for an
exclamation; Greek ``;`` ends a question; Hindi, Bengali and Odia accept ``|`` for ``।``.

The fix, when the language has no such latitude: the value with its final mark replaced by
(or given, or stripped of) the language's mark of the source's kind (``؟`` in Arabic, ``。``
in Chinese, `` :`` with a non-breaking space in French).
"""

from functools import lru_cache

from loko.checks import Issue, Signal, Target
from loko.checks.text import base_language

CODE = "punctuation"
TITLE = "Ending punctuation differs from the source"

STOP, QUESTION, EXCLAMATION, COLON, SEMICOLON, ELLIPSIS = (
    "full stop",
    "question mark",
    "exclamation mark",
    "colon",
    "semicolon",
    "ellipsis",
)
_KINDS = {
    **dict.fromkeys(".。।۔։෴។።။．｡", STOP),
    **dict.fromkeys("?՞؟⸮？፧꘏⳺\u037e", QUESTION),  # U+037E: the Greek question mark
    **dict.fromkeys("!！՜᥄႟߹", EXCLAMATION),
    **dict.fromkeys(":：៖", COLON),
    **dict.fromkeys(";；؛", SEMICOLON),
    "…": ELLIPSIS,
}
_ALL_MARKS = frozenset(_KINDS) | {"|", "\u0387", "\u00b7"}
# Per language: the kinds its own characters stand for where they differ from the table.
_LANGUAGE_KINDS = {
    "el": {";": QUESTION, "\u0387": SEMICOLON, "\u00b7": SEMICOLON},
    "hi": {"|": STOP},
    "bn": {"|": STOP},
    "or": {"|": STOP},
}
# Per language: for a source ending with a kind, every final character that is fine.
_LATITUDE = {
    "hy": {
        STOP: frozenset(".։:。"),
        QUESTION: frozenset("?՞։:"),
        COLON: frozenset(":՝`"),
    },
    "el": {SEMICOLON: frozenset(";\u0387\u00b7")},
    "ja": {COLON: frozenset(";:：.。;；"), SEMICOLON: frozenset(";:：.。;；")},
}
_NO_STOP = frozenset({"th", "jbo", "lo"})
_NOTHING_CHECKED = frozenset({"jbo"})
_ANY_EXCLAMATION = frozenset({"hy"})
_NO_FIX = frozenset({"hy", "ja", "th", "lo", "jbo", "el"})
# The mark a fix writes, per language and kind (the first of the default for the others).
_DEFAULT_MARKS = {STOP: ".", QUESTION: "?", EXCLAMATION: "!", COLON: ":", SEMICOLON: ";", ELLIPSIS: "…"}
_MARKS = {
    "zh": {STOP: "。", QUESTION: "？", EXCLAMATION: "！", COLON: "：", SEMICOLON: "；"},
    "yue": {STOP: "。", QUESTION: "？", EXCLAMATION: "！", COLON: "：", SEMICOLON: "；"},
    "ar": {QUESTION: "؟", SEMICOLON: "؛"},
    "fa": {QUESTION: "؟", SEMICOLON: "؛"},
    "ur": {STOP: "۔", QUESTION: "؟", SEMICOLON: "؛"},
    "ps": {QUESTION: "؟", SEMICOLON: "؛"},
    "hi": {STOP: "।"},
    "bn": {STOP: "।"},
    "or": {STOP: "।"},
    "ne": {STOP: "।"},
    "pa": {STOP: "।"},
    "my": {STOP: "။"},
    "am": {STOP: "።"},
    "km": {STOP: "។", COLON: "៖"},
    "fr": {COLON: "\u00a0:", QUESTION: "\u00a0?", EXCLAMATION: "\u00a0!", SEMICOLON: "\u00a0;"},
}
_TRAILING = " \t\r\n\u00a0\u202f\u2009"
_STRIPPED = "".join(_ALL_MARKS) + _TRAILING
# Finds nothing in a value unless it or its source shows this (``checks.Signal``): a
# mark at the end, trailing whitespace aside.
SIGNAL = Signal(last="".join(sorted(_ALL_MARKS)) + _TRAILING)


def _ending(text: str, language: str) -> str | None:
    """The kind of ``text``'s final mark, None when it ends with none."""
    stripped = text.rstrip(_TRAILING)
    if not stripped:
        return None
    if stripped.endswith("..."):
        return ELLIPSIS
    last = stripped[-1]
    return _LANGUAGE_KINDS.get(language, {}).get(last) or _KINDS.get(last)


_source_ending = lru_cache(maxsize=8192)(_ending)


def _fix(value: str, language: str, source_kind: str | None, source_mark: str) -> str:
    """The value with its final marks (all of them: ``?!``) replaced by the language's mark of
    the source's kind, or none; its trailing whitespace kept."""
    body = value.rstrip(_TRAILING)
    trailing = value[len(body) :]
    body = body.rstrip(_STRIPPED)
    if source_kind is None:
        return body + trailing
    mark = _MARKS.get(language, {}).get(source_kind, _DEFAULT_MARKS[source_kind])
    if source_kind == ELLIPSIS and source_mark == "...":
        mark = "..."
    return body + mark + trailing


def _accepted(language: str, source: str, source_kind: str | None, value: str, kind: str | None) -> bool:
    if source_kind == kind or language in _NOTHING_CHECKED:
        return True
    latitude = _LATITUDE.get(language, {}).get(source_kind)
    if latitude is not None and value.rstrip(_TRAILING)[-1:] in latitude:
        return True
    if source_kind == EXCLAMATION and language in _ANY_EXCLAMATION:
        return True
    if source_kind == STOP and kind is None and (len(source.strip()) <= 4 or language in _NO_STOP):
        return True
    return kind == STOP and source_kind is None and language in _NO_STOP


def _name(kind: str | None) -> str:
    if kind is None:
        return "no punctuation"
    return f"an {kind}" if kind[0] in "aeiou" else f"a {kind}"


def check(target: Target) -> list[Issue]:
    source, value = target.source, target.value
    if not source or not value:
        return []
    stripped, source_stripped = value.rstrip(_TRAILING), source.rstrip(_TRAILING)
    last, source_last = stripped[-1:], source_stripped[-1:]
    if last == source_last:
        # The same final character: the same kind, but for "..." against a lone ".".
        if last != "." or stripped.endswith("...") == source_stripped.endswith("..."):
            return []
    elif last not in _ALL_MARKS and source_last not in _ALL_MARKS:
        return []
    language = base_language(target.language)
    source_kind = _source_ending(source, base_language(target.source_language))
    kind = _ending(value, language)
    if _accepted(language, source, source_kind, value, kind):
        return []
    fix = None
    if language not in _NO_FIX:
        fix = _fix(value, language, source_kind, source_stripped[-3:])
    message = f"The value ends with {_name(kind)}; the source with {_name(source_kind)}."
    return [Issue(CODE, message, fix)]
