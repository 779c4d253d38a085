"""The canonical form of a language code and the forms a file path holds it in."""

import pytest

from loko.languages.codes import android_form, canonical_code, fill_code, from_android, locale_form


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
