"""The canonical form of a language code and the forms a file path holds it in."""

import itertools
import random
import re
import string

import pytest

from loko.languages.codes import (
    android_form,
    canonical_code,
    fill_code,
    from_android,
    known_code_pattern,
    locale_form,
)


@pytest.mark.parametrize(
    ("given", "canonical"),
    [
        ("en", "en"),
        ("EN", "en"),
        ("pt-br", "pt-BR"),
        ("pt_BR", "pt-BR"),
        ("zh-hant-tw", "zh-Hant-TW"),
        ("zh-Hant-TW", "zh-Hant-TW"),
        ("SR-LATN", "sr-Latn"),
        ("es-419", "es-419"),
        ("de-ch-1996", "de-CH-1996"),
        ("fil", "fil"),
    ],
)
def test_canonical_code_changes_only_casing_and_separator(given, canonical):
    assert canonical_code(given) == canonical


@pytest.mark.parametrize("code", ["iw", "tl", "in", "en-Latn", "zh-yue"])
def test_canonical_code_keeps_every_subtag_it_is_given(code):
    assert canonical_code(code) == code


@pytest.mark.parametrize("code", ["xx-bogus", "qq", "en-Abcde", "de-DE-DE"])
def test_a_code_the_registry_does_not_know_is_refused_naming_it(code):
    with pytest.raises(ValueError, match=f"{code!r} is not a known language code"):
        canonical_code(code)


@pytest.mark.parametrize(
    "text", ["", "d", "deut", "de-", "de--DE", "en-x-foo", "de DE", "a" * 2 + "-abcdefgh" * 4]
)
def test_a_text_not_shaped_like_a_code_is_refused(text):
    with pytest.raises(ValueError, match="is not a language code"):
        canonical_code(text)


@pytest.mark.parametrize(
    ("code", "locale", "android"),
    [
        ("de", "de", "de"),
        ("pt-BR", "pt_BR", "pt-rBR"),
        ("sr-Latn", "sr_Latn", "b+sr+Latn"),
        ("zh-Hant-TW", "zh_Hant_TW", "b+zh+Hant+TW"),
        ("es-419", "es_419", "b+es+419"),
    ],
)
def test_path_forms_read_back_as_the_canonical_code(code, locale, android):
    assert locale_form(code) == locale and canonical_code(locale) == code
    assert android_form(code) == android and from_android(android) == code


def test_fill_code_writes_each_placeholder_in_its_form():
    assert fill_code("{language}/{locale}/values-{android}", "pt-BR") == "pt-BR/pt_BR/values-pt-rBR"


@pytest.mark.parametrize("text", ["pt-BR", "pt_rBR", "b+xx+bogus"])
def test_from_android_refuses_what_is_not_a_qualifier(text):
    with pytest.raises(ValueError):
        from_android(text)


def _subtags(pattern: str, candidates, prefix: str) -> list[str]:
    known = re.compile(pattern)
    return [tag for tag in candidates if known.fullmatch(f"{prefix}{tag}")]


def test_the_known_code_pattern_admits_only_languages_the_registry_knows():
    # Not all of them: an overlong code such as ``aar`` (for ``aa``) is read too.
    pattern = re.compile(known_code_pattern())
    admitted = 0
    for length in (2, 3):
        for letters in itertools.product(string.ascii_lowercase, repeat=length):
            code = "".join(letters)
            if pattern.fullmatch(code):
                admitted += 1
                assert canonical_code(code) == code
    assert admitted > 7000


def test_every_code_the_known_code_pattern_admits_is_canonical_and_known():
    # Each kind of subtag the pattern admits, then codes made of random ones of each kind.
    pattern = known_code_pattern()
    letters = ["".join(t) for n in (2, 3) for t in itertools.product(string.ascii_lowercase, repeat=n)]
    languages = _subtags(pattern, letters, "")
    scripts = _subtags(
        pattern,
        [
            a + "".join(t)
            for a in string.ascii_uppercase
            for t in itertools.product(string.ascii_lowercase, repeat=3)
        ],
        "en-",
    )
    regions = _subtags(
        pattern,
        ["".join(t) for t in itertools.product(string.ascii_uppercase, repeat=2)]
        + [f"{n:03}" for n in range(1000)],
        "en-",
    )
    variants = ["1901", "1996", "fonipa", "oxendict", "valencia", "pinyin"]
    assert len(languages) > 7000 and len(scripts) > 150 and len(regions) > 250
    draw = random.Random(0)
    for _ in range(5000):
        code = "-".join(
            [draw.choice(languages)]
            + [draw.choice(kind) for kind in (scripts, regions, variants) if draw.random() < 0.5]
        )
        assert re.fullmatch(pattern, code), code
        assert canonical_code(code) == code
