# ruff: noqa: RUF001 (the marks of other scripts are what the punctuation check reads)
"""A check's ``SIGNAL`` holds: where neither a value nor its source shows it, the check finds
nothing; so ``checker``, which skips such checks there, finds what ``run`` finds."""

import itertools

import pytest

from loko.checks import Target, checker, run
from loko.checks.registry import CHECKS

# Pieces of text that trip each check, and plain ones; every pair of them is a value or a source.
PIECES = [
    "Save",
    "Speichern",
    "",
    " ",
    "a",
    "Hello, world",
    "Hello world.",
    "Hello world...",
    "Hello world…",
    "Hello world?",
    "Hello world!",
    "Nom :",
    "Nom\u00a0:",
    "¿Qué?",
    "終わり。",
    "何？",
    "Τι;",
    "Ինչ՞",
    "नमस्ते।",
    "Done|",
    " leading",
    "trailing ",
    "line\n",
    "\ttab",
    "two  spaces",
    "%s files",
    "%1$s and %2$d",
    "100%",
    "{name} here",
    "{{count}} items",
    "$t(other.key)",
    "{count, plural, one {# file} other {# files}}",
    "{count, plural, other {# files}",
    "<b>bold</b>",
    "<br/>",
    "a < b",
    "See https://example.com/a.",
    "mail me@example.com",
    "mailto:team@example.com",
    "WIFI",
    "OK",
]
PAIRS = list(itertools.product(PIECES, repeat=2))
LANGUAGES = [("de", "en"), ("ja", "en"), ("el", "en"), ("hy", "en"), ("th", "en"), ("en", "en")]


def _shows(signal, text: str | None) -> bool:
    if not text:
        return False
    return (
        any(c in text for c in signal.characters)
        or any(s in text for s in signal.substrings)
        or text[0] in signal.first
        or text[-1] in signal.last
    )


def _target_shows(signal, target: Target) -> bool:
    value, source = target.value, target.source
    return (
        _shows(signal, value)
        or _shows(signal, source)
        or (signal.too_long and target.max_length is not None and len(value) > target.max_length)
        or (signal.same_text and bool(source) and bool(value) and value.strip() == source.strip())
        or (signal.terms and bool(target.glossary))
    )


@pytest.mark.parametrize("code", [code for code, module in CHECKS.items() if getattr(module, "SIGNAL", None)])
def test_a_check_finds_nothing_where_its_signal_does_not_show(code):
    module = CHECKS[code]
    for (value, source), (language, source_language) in itertools.product(PAIRS, LANGUAGES):
        for max_length in (None, 3):
            target = Target(value, language, source or None, source_language, max_length)
            if _target_shows(module.SIGNAL, target):
                continue
            assert module.check(target) == [], (value, source, language, max_length)


def test_every_check_has_a_signal():
    assert [code for code, module in CHECKS.items() if getattr(module, "SIGNAL", None) is None] == []


def test_the_checker_says_which_targets_are_quiet_before_one_is_made():
    check = checker()
    for value, source in PAIRS:
        for max_length in (None, 3):
            target = Target(value, "de", source or None, "en", max_length)
            quiet = check.quiet(value, source or None, max_length, ())
            assert not quiet or check.every(target) == [], (value, source, max_length)


def test_the_checker_finds_what_run_finds():
    check = checker()
    for (value, source), (language, source_language) in itertools.product(PAIRS, LANGUAGES[:3]):
        for max_length in (None, 3):
            target = Target(value, language, source or None, source_language, max_length)
            assert check(target) == run(target), (value, source, language)


def test_the_checker_of_some_checks_finds_what_they_find():
    codes = ["punctuation", "max-length", "untranslated"]
    check = checker(codes)
    for value, source in PAIRS:
        target = Target(value, "de", source or None, "en", 3)
        assert check(target) == run(target, codes), (value, source)
