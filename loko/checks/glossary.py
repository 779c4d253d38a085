"""The glossary's terms: a term found in the source wants its translation in the value, and a
forbidden translation must not be used.

``target.glossary`` holds the terms that apply to the value's language (the glossary feature
fills it); an empty glossary raises nothing. In a source-language value (no ``source``) the
terms given are forbidden terms (``source`` and ``translation`` the same text), found in the
value itself. A term is found in the source as a whole word
(``file`` is not found in ``profile``), ignoring case unless the term is case sensitive. A
term's translation is found in the value anywhere (``Datei`` in ``Dateiname``: compounds
count), a forbidden one as a whole word, except in languages written without spaces. No fix.
"""

import re
from dataclasses import dataclass
from functools import lru_cache

from loko.checks import Issue, Signal, Target
from loko.checks.text import base_language

CODE = "glossary"
TITLE = "Glossary term not followed"
SIGNAL = Signal(terms=True)

_NO_SPACES = frozenset({"zh", "ja", "th", "lo", "km", "my", "yue", "bo"})


@dataclass(frozen=True)
class GlossaryTerm:
    """A source term and its translation in the value's language; ``forbidden`` marks a
    translation that must not be used for the term."""

    source: str
    translation: str
    case_sensitive: bool = False
    forbidden: bool = False


@lru_cache(maxsize=4096)
def term_pattern(text: str, case_sensitive: bool, whole_word: bool) -> re.Pattern:
    body = re.escape(text)
    if whole_word:
        body = rf"(?<!\w){body}(?!\w)"
    return re.compile(body, 0 if case_sensitive else re.IGNORECASE)


def check(target: Target) -> list[Issue]:
    source, value = target.source, target.value
    if not target.glossary or not value:
        return []
    if source is None:
        return [
            Issue(CODE, f"The value uses {term.source!r}, a term the glossary forbids.")
            for term in target.glossary
            if term.forbidden
            and term.source
            and term_pattern(term.source, term.case_sensitive, True).search(value)
        ]
    if not source:
        return []
    spaced = base_language(target.language) not in _NO_SPACES
    issues = []
    for term in target.glossary:
        if not term.source or not term.translation:
            continue
        if term_pattern(term.source, term.case_sensitive, True).search(source) is None:
            continue
        found = term_pattern(term.translation, term.case_sensitive, term.forbidden and spaced).search(value)
        if term.forbidden and found is not None:
            issues.append(
                Issue(
                    CODE,
                    f"The value uses {term.translation!r}, which the glossary forbids for {term.source!r}.",
                )
            )
        elif not term.forbidden and found is None:
            issues.append(
                Issue(
                    CODE,
                    f"The source has the glossary term {term.source!r}; the value lacks its translation "
                    f"{term.translation!r}.",
                )
            )
    return issues
