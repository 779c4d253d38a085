"""The checks engine: what may be wrong with a translation, decided without a database.

One module per check, listed in ``registry.CHECKS`` (as ``loko/formats/`` lists formats).
Each check module defines:

- ``CODE``: the stable identifier (``placeholders``, ``max-length`` ...), used in the
  stored issues, the project's settings, the REST filters and the editor;
- ``TITLE``: a short label for people ("Placeholders differ from the source");
- ``check(target: Target) -> list[Issue]``: the issues of one value, empty when none.

``run(target)`` runs every check (or the named ones) over one value; ``run_many`` over many
in one pass. The translations service calls them on each write path and stores the issues.
"""

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

from loko import collector


@dataclass(frozen=True)
class Issue:
    """One thing wrong with a value. ``fix`` is the whole corrected value when exactly one
    correction is right (a missing trailing newline, say), else None."""

    check: str
    message: str
    fix: str | None = None


class Target(NamedTuple):
    """What a check looks at: a value in ``language`` and what surrounds it.

    ``source`` is the key's value in the project's source language (None when there is none,
    or when ``value`` is itself the source value). ``max_length`` and ``comment`` are the
    key's details. ``glossary`` holds the glossary's terms that apply (filled by the
    glossary feature; empty until then). A named tuple: a bulk write makes one per value,
    and a frozen dataclass costs several times as much to make.
    """

    value: str
    language: str
    source: str | None = None
    source_language: str | None = None
    max_length: int | None = None
    comment: str | None = None
    glossary: tuple = ()


def run(target: Target, codes: Iterable[str] | None = None) -> list[Issue]:
    """The issues of one value, by every check or by the checks named in ``codes``."""
    from loko.checks.registry import CHECKS

    selected = CHECKS.values() if codes is None else [CHECKS[code] for code in codes]
    issues: list[Issue] = []
    for module in selected:
        issues.extend(module.check(target))
    return issues


def run_many(targets: Iterable[Target], codes: Iterable[str] | None = None) -> list[list[Issue]]:
    """``run`` over many values in one pass, in order.

    The checks keep what they read of a source (a few thousand sources), so the values are
    checked grouped by source: a source checked in many languages is read once, however the
    values come (a language's file after another's). The cyclic garbage collector is paused
    meanwhile: the checks make no reference cycles, and its passes over the many short-lived
    objects of a bulk write cost a third of the time."""
    from loko.checks.registry import CHECKS

    modules = CHECKS.values() if codes is None else [CHECKS[code] for code in codes]
    checks = [module.check for module in modules]
    with collector.paused():
        targets = targets if isinstance(targets, list) else list(targets)
        by_source: dict[str | None, list[int]] = {}
        for index, target in enumerate(targets):
            by_source.setdefault(target.source, []).append(index)
        results: list[list[Issue]] = [[] for _ in targets]
        for indexes in by_source.values():
            for index in indexes:
                target, issues = targets[index], results[index]
                for check in checks:
                    found = check(target)
                    if found:
                        issues.extend(found)
    return results


class Signal(NamedTuple):
    """What a check needs to see to find anything at all: in a value or in its source, one of
    ``characters`` anywhere, one of ``substrings``, a first character among ``first`` or a
    last among ``last``; or, of the target, a value longer than its key's maximum length
    (``too_long``), a value equal to its source but for the whitespace at its edges
    (``same_text``), or glossary terms (``terms``). A check module that defines ``SIGNAL``
    promises to find nothing in a value where none of it shows (``checker`` then skips it)."""

    characters: str = ""
    substrings: tuple[str, ...] = ()
    first: str = ""
    last: str = ""
    too_long: bool = False
    same_text: bool = False
    terms: bool = False


def _shows_none(signals: list[Signal]):
    """A function ``text -> bool``: whether ``text`` shows none of ``signals``' characters,
    substrings, first or last characters. Their characters and substrings are one regular
    expression: one search per text."""
    characters = "".join(sorted({c for signal in signals for c in signal.characters}))
    substrings = list(dict.fromkeys(s for signal in signals for s in signal.substrings))
    parts = (["[" + re.escape(characters) + "]"] if characters else []) + [re.escape(s) for s in substrings]
    search = re.compile("|".join(parts)).search if parts else None
    first = frozenset(c for signal in signals for c in signal.first)
    last = frozenset(c for signal in signals for c in signal.last)

    def shows_none(text: str | None) -> bool:
        if not text:
            return True
        if text[0] in first or text[-1] in last:
            return False
        return search is None or search(text) is None

    return shows_none


def _quiet(signals: list[Signal]):
    """A function ``(value, source, max_length, terms) -> bool``: whether a target with these
    shows none of ``signals``, so that no check of theirs can find anything in it."""
    shows_none = _shows_none(signals)
    too_long = any(signal.too_long for signal in signals)
    same_text = any(signal.same_text for signal in signals)
    terms_wanted = any(signal.terms for signal in signals)

    def quiet(value: str, source: str | None, max_length: int | None, terms) -> bool:
        if too_long and max_length is not None and len(value) > max_length:
            return False
        if terms_wanted and terms:
            return False
        if same_text and source and value and value.strip() == source.strip():
            return False
        return shows_none(value) and shows_none(source)

    return quiet


def checker(codes: Iterable[str] | None = None):
    """``run`` with its checks looked up once: a function ``target -> list[Issue]`` by every
    check or by the checks named in ``codes``, for callers that check many values.

    When every check has a ``SIGNAL``, a target that shows none of them is answered at once
    with no issue (most values of a bulk write). The function's ``quiet(value, source,
    max_length, terms)`` tells so before a ``Target`` is even made (False when some check has
    no signal), and its ``every(target)`` runs every check without asking."""
    return _checker_of(None if codes is None else tuple(codes))


def _checker_of(codes: tuple | None):
    """``checker`` of these check codes: the checks registered under them now (a change of
    the registry is followed), made once per set of checks (``_checker``)."""
    from loko.checks.registry import CHECKS

    modules = CHECKS.values() if codes is None else [CHECKS[c] for c in codes]
    return _checker(tuple((module.check, getattr(module, "SIGNAL", None)) for module in modules))


def _never_quiet(_value, _source, _max_length, _terms) -> bool:
    return False


@lru_cache(maxsize=64)
def _checker(parts: tuple):
    """``checker`` of ``(check, signal)`` pairs, made once for the same checks (a single
    write asks for one; making it costs more than checking one value)."""
    functions = [function for function, _signal in parts]
    signals = [signal for _function, signal in parts]

    def every(target: Target) -> list[Issue]:
        return [issue for function in functions for issue in function(target)]

    if not signals or any(signal is None for signal in signals):
        every.quiet = _never_quiet
        every.every = every
        return every
    quiet = _quiet(signals)

    def check(target: Target) -> list[Issue]:
        if quiet(target.value, target.source, target.max_length, target.glossary):
            return []
        return every(target)

    check.quiet = quiet
    check.every = every
    return check
