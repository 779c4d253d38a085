"""The glossary as the write paths, the editor and machine translation use it: read once per
organization and revision, kept in the process, and the terms found in a text.

A write reads its project's glossary revision in the query that reads its check levels (no
statement more); with no glossary it goes no further. The terms of a revision are read once
and kept (``glossary_of``); a change to the glossary raises the revision, so every process
reads the new terms at its next write. Finding the terms of a text looks each of its words
up in a map of the terms' first words, then confirms the few candidates with the check's own
pattern: the cost follows the text, not the size of the glossary.
"""

import re
import threading
from collections import OrderedDict
from dataclasses import dataclass
from functools import lru_cache

from loko.checks.glossary import GlossaryTerm as CheckedTerm
from loko.checks.glossary import term_pattern
from loko.checks.text import base_language

WORD = re.compile(r"\w+")
KEPT_GLOSSARIES = 64
KEPT_TEXTS = 8192

TERMS_OF_ORGANIZATION = (
    "SELECT t.id, t.language, t.term, t.part_of_speech, t.note, t.case_sensitive, t.forbidden, "
    "r.language, r.text, r.forbidden FROM glossary_terms t "
    "LEFT JOIN glossary_translations r ON r.term_id = t.id "
    "WHERE t.organization_id = ? ORDER BY t.term, t.id, r.language, r.position, r.text"
)
REVISION_OF_PROJECT = (
    "SELECT g.organization_id, g.revision FROM projects p "
    "JOIN glossaries g ON g.organization_id = p.organization_id WHERE p.id = ?"
)


@dataclass(frozen=True)
class Entry:
    """A term and its translations ``(language, text, forbidden)``, the allowed one first."""

    id: str
    language: str
    term: str
    part_of_speech: str | None
    note: str
    case_sensitive: bool
    forbidden: bool
    translations: tuple

    def in_language(self, language: str) -> tuple:
        """The translations in ``language``, or else in its base language (``pt`` for
        ``pt-BR``)."""
        exact = tuple(item for item in self.translations if item[0] == language)
        if exact:
            return exact
        base = base_language(language)
        return tuple(item for item in self.translations if item[0] == base)

    def expected(self, language: str) -> str | None:
        """The translation to use in ``language``, or None."""
        return next((text for _code, text, forbidden in self.in_language(language) if not forbidden), None)

    def avoided(self, language: str) -> list[str]:
        """The translations that must not be used in ``language``."""
        return [text for _code, text, forbidden in self.in_language(language) if forbidden]


class TermIndex:
    """The terms of one source language, by their first word."""

    def __init__(self, entries: list[Entry]):
        self.by_word: dict[str, list[Entry]] = {}
        self.wordless: list[Entry] = []
        for entry in entries:
            words = WORD.findall(entry.term.lower())
            if words:
                self.by_word.setdefault(words[0], []).append(entry)
            else:
                self.wordless.append(entry)
        self.find = lru_cache(maxsize=KEPT_TEXTS)(self._find)

    def _find(self, text: str | None) -> tuple[Entry, ...]:
        """The terms occurring in ``text`` as whole words (as the check finds them), the
        longest first."""
        if not text:
            return ()
        candidates = list(self.wordless)
        for word in set(WORD.findall(text.lower())):
            candidates.extend(self.by_word.get(word, ()))
        found = [
            entry
            for entry in candidates
            if term_pattern(entry.term, entry.case_sensitive, True).search(text) is not None
        ]
        found.sort(key=lambda entry: (-len(entry.term), entry.term))
        return tuple(found)


class CompiledGlossary:
    """An organization's glossary at one revision."""

    def __init__(self, entries: list[Entry]):
        self.entries = entries
        self._indexes: dict[str, TermIndex] = {}
        self._checked: dict[tuple[str, str], tuple] = {}

    def index(self, source_language: str | None) -> TermIndex:
        """The terms of ``source_language`` (or of its base language)."""
        source_language = source_language or ""
        index = self._indexes.get(source_language)
        if index is None:
            base = base_language(source_language)
            index = TermIndex([e for e in self.entries if e.language in (source_language, base)])
            self._indexes[source_language] = index
        return index

    def _checked_terms(self, entry: Entry, language: str) -> tuple:
        key = (entry.id, language)
        terms = self._checked.get(key)
        if terms is None:
            expected = entry.expected(language)
            terms = tuple(
                [CheckedTerm(entry.term, expected, entry.case_sensitive)] if expected else []
            ) + tuple(
                CheckedTerm(entry.term, text, entry.case_sensitive, True) for text in entry.avoided(language)
            )
            self._checked[key] = terms
        return terms

    def check_terms(
        self, language: str, source_language: str | None, source: str | None, value: str
    ) -> tuple:
        """The check's terms for a value in ``language``: in a source-language value, the
        forbidden terms it holds; in a translation, the expected and forbidden translations
        of the terms its source holds (a term found only inside a longer one left to it)."""
        if not self.entries:
            return ()
        index = self.index(source_language)
        if language == source_language:
            return tuple(
                CheckedTerm(entry.term, entry.term, entry.case_sensitive, True)
                for entry in index.find(value)
                if entry.forbidden
            )
        found = index.find(source)
        applying = [entry for entry in found if not entry.forbidden and self._checked_terms(entry, language)]
        terms = ()
        for entry in _unshadowed(applying, source):
            terms += self._checked_terms(entry, language)
        return terms


def _unshadowed(entries: list, text: str) -> list:
    """``entries`` (found in ``text``, the longest first, each with something to check in the
    value's language) but those found only inside a longer one: in "API key" the term "API
    key" applies, not also "key" on its own. A longer term with nothing to check in that
    language (no translation there, or forbidden) hides no other."""
    kept, covered = [], []
    for entry in entries:
        pattern = term_pattern(entry.term, entry.case_sensitive, True)
        spans = [found.span() for found in pattern.finditer(text)]
        if any(not any(start >= begin and end <= until for begin, until in covered) for start, end in spans):
            kept.append(entry)
            covered.extend(spans)
    return kept


_kept: OrderedDict[str, tuple[int, CompiledGlossary]] = OrderedDict()
_lock = threading.Lock()


def _read(statements, organization_id: str) -> CompiledGlossary:
    entries, current, translations = [], None, []
    for row in statements.fetch(TERMS_OF_ORGANIZATION, (organization_id,)):
        if current is None or current[0] != row[0]:
            if current is not None:
                entries.append(_entry(current, translations))
            current, translations = row, []
        if row[7] is not None:
            translations.append((row[7], row[8], bool(row[9])))
    if current is not None:
        entries.append(_entry(current, translations))
    return CompiledGlossary(entries)


def _entry(row, translations: list) -> Entry:
    # The allowed translation of each language first.
    ordered = sorted(translations, key=lambda item: (item[0], item[2]))
    return Entry(row[0], row[1], row[2], row[3], row[4] or "", bool(row[5]), bool(row[6]), tuple(ordered))


def glossary_of(statements, stamp: tuple[str, int] | None) -> CompiledGlossary | None:
    """The glossary of ``stamp`` ``(organization_id, revision)``, read once per revision;
    None for no stamp (an organization that never had a glossary) or an empty glossary."""
    if stamp is None or stamp[0] is None:
        return None
    organization_id, revision = stamp
    with _lock:
        kept = _kept.get(organization_id)
        if kept is not None and kept[0] == revision:
            _kept.move_to_end(organization_id)
            glossary = kept[1]
            return glossary if glossary.entries else None
    glossary = _read(statements, organization_id)
    with _lock:
        _kept[organization_id] = (revision, glossary)
        _kept.move_to_end(organization_id)
        while len(_kept) > KEPT_GLOSSARIES:
            _kept.popitem(last=False)
    return glossary if glossary.entries else None


def project_glossary(statements, project_id: str) -> CompiledGlossary | None:
    """The glossary of a project's organization (one query for its revision)."""
    rows = statements.fetch(REVISION_OF_PROJECT, (project_id,))
    return glossary_of(statements, tuple(rows[0])) if rows else None


def organization_glossary(statements, organization_id: str) -> CompiledGlossary | None:
    rows = statements.fetch("SELECT revision FROM glossaries WHERE organization_id = ?", (organization_id,))
    return glossary_of(statements, (organization_id, rows[0][0])) if rows else None


def describe_match(entry: Entry, language: str | None) -> dict:
    """A term found in a text, with what ``language`` should say for it."""
    return {
        "termId": entry.id,
        "term": entry.term,
        "partOfSpeech": entry.part_of_speech,
        "note": entry.note,
        "caseSensitive": entry.case_sensitive,
        "forbidden": entry.forbidden,
        "translation": entry.expected(language) if language else None,
        "forbiddenTranslations": entry.avoided(language) if language else [],
    }
