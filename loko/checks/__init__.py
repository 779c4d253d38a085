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

from collections.abc import Iterable
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Issue:
    """One thing wrong with a value. ``fix`` is the whole corrected value when exactly one
    correction is right (a missing trailing newline, say), else None."""

    check: str
    message: str
    fix: str | None = None


@dataclass(frozen=True)
class Target:
    """What a check looks at: a value in ``language`` and what surrounds it.

    ``source`` is the key's value in the project's source language (None when there is none,
    or when ``value`` is itself the source value). ``max_length`` and ``comment`` are the
    key's details. ``glossary`` holds the glossary's terms that apply (filled by the
    glossary feature; empty until then).
    """

    value: str
    language: str
    source: str | None = None
    source_language: str | None = None
    max_length: int | None = None
    comment: str | None = None
    glossary: tuple = field(default=())


def run(target: Target, codes: Iterable[str] | None = None) -> list[Issue]:
    """The issues of one value, by every check or by the checks named in ``codes``."""
    from loko.checks.registry import CHECKS

    selected = CHECKS.values() if codes is None else [CHECKS[code] for code in codes]
    issues: list[Issue] = []
    for module in selected:
        issues.extend(module.check(target))
    return issues


def run_many(targets: Iterable[Target], codes: Iterable[str] | None = None) -> list[list[Issue]]:
    """``run`` over many values in one pass, in order."""
    codes = None if codes is None else tuple(codes)
    return [run(target, codes) for target in targets]


def checker(codes: Iterable[str] | None = None):
    """``run`` with its checks looked up once: a function ``target -> list[Issue]`` by every
    check or by the checks named in ``codes``, for callers that check many values."""
    from loko.checks.registry import CHECKS

    functions = [
        module.check for module in (CHECKS.values() if codes is None else [CHECKS[c] for c in codes])
    ]

    def check(target: Target) -> list[Issue]:
        return [issue for function in functions for issue in function(target)]

    return check
