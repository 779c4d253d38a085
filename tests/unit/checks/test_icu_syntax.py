"""ICU MessageFormat: syntax, plural forms per language, select branches as the source's."""

from loko.checks import icu_syntax
from tests.unit.checks import messages

FILES = "{count, plural, one {# file} other {# files}}"


def test_a_complete_german_plural_passes():
    assert messages(icu_syntax, "{count, plural, one {# Datei} other {# Dateien}}", FILES) == []


def test_a_polish_plural_needs_few_and_many():
    value = "{count, plural, one {# plik} other {# pliku}}"
    assert messages(icu_syntax, value, FILES, "pl") == [
        "The plural on {count} lacks the forms few, many that pl needs."
    ]


def test_a_complete_polish_plural_passes():
    value = "{count, plural, one {# plik} few {# pliki} many {# plików} other {# pliku}}"
    assert messages(icu_syntax, value, FILES, "pl") == []


def test_japanese_needs_only_other():
    assert messages(icu_syntax, "{count, plural, other {#個のファイル}}", FILES, "ja") == []


def test_a_form_the_language_does_not_use_is_named():
    value = "{count, plural, one {# Datei} few {# Dateien} other {# Dateien}}"
    assert messages(icu_syntax, value, FILES) == [
        "The plural on {count} has the form few, which de does not use."
    ]


def test_an_english_one_in_a_japanese_value_is_named():
    value = "{count, plural, one {1個のファイル} other {#個のファイル}}"
    assert messages(icu_syntax, value, FILES, "ja") == [
        "The plural on {count} has the form one, which ja does not use."
    ]


def test_forms_of_a_language_cldr_does_not_know_are_not_flagged():
    value = "{count, plural, one {# x} few {# y} other {# z}}"
    assert messages(icu_syntax, value, FILES, "tlh") == []


def test_other_is_always_required():
    assert messages(icu_syntax, "{count, plural, one {# Datei}}", FILES) == [
        "The plural on {count} lacks the form other that de needs."
    ]


def test_an_exact_one_stands_for_english_like_one():
    source = "{n, plural, =0 {No files} =1 {One file} other {# files}}"
    value = "{n, plural, =0 {Keine Dateien} =1 {Eine Datei} other {# Dateien}}"
    assert messages(icu_syntax, value, source) == []


def test_an_exact_one_does_not_stand_for_french_one_which_also_holds_zero():
    source = "{n, plural, =1 {One file} other {# files}}"
    value = "{n, plural, =1 {Un fichier} other {# fichiers}}"
    assert messages(icu_syntax, value, source, "fr") == [
        "The plural on {n} lacks the form one that fr needs."
    ]


def test_french_many_which_holds_only_millions_is_not_required():
    value = "{count, plural, one {# fichier} other {# fichiers}}"
    assert messages(icu_syntax, value, FILES, "fr") == []


def test_lithuanian_many_which_holds_only_fractions_is_not_required():
    value = "{count, plural, one {# failas} few {# failai} other {# failų}}"
    assert messages(icu_syntax, value, FILES, "lt") == []


PLACE = "{place, selectordinal, one {#st} two {#nd} few {#rd} other {#th}}"


def test_a_german_selectordinal_needs_only_other():
    assert messages(icu_syntax, "{place, selectordinal, other {#.}}", PLACE) == []


def test_a_selectordinal_needs_the_languages_ordinal_forms():
    assert messages(icu_syntax, "{place, selectordinal, one {#st} other {#th}}", PLACE, "en-GB") == [
        "The selectordinal on {place} lacks the forms two, few that en-GB needs."
    ]


def test_a_syntax_error_names_the_position():
    assert messages(icu_syntax, "{count, plural, one {# Datei other {# Dateien}}", FILES) == [
        'The value is not a valid ICU message: Expected placeholder name at position 36 but found "#".'
    ]


def test_an_unclosed_brace_in_plain_text_against_an_icu_source_is_an_error():
    assert messages(icu_syntax, "{count} Dateien {", FILES) == [
        'The value is not a valid ICU message: Expected placeholder name at position 17 but found "<EOF>".'
    ]


def test_quoted_braces_are_valid():
    value = "{count, plural, one {'{'#'}' Datei} other {'{'#'}' Dateien}}"
    assert messages(icu_syntax, value, FILES) == []


def test_a_nested_select_in_a_plural_keeps_the_sources_keys():
    source = (
        "{gender, select, female {{count, plural, one {She has # file} other {She has # files}}} "
        "male {{count, plural, one {He has # file} other {He has # files}}} "
        "other {{count, plural, one {They have # file} other {They have # files}}}}"
    )
    value = (
        "{gender, select, female {{count, plural, one {Sie hat # Datei} other {Sie hat # Dateien}}} "
        "other {{count, plural, one {Er hat # Datei} other {Er hat # Dateien}}}}"
    )
    assert messages(icu_syntax, value, source) == ["The select on {gender} lacks the source's male."]


def test_a_nested_plural_in_a_select_is_checked_for_its_language():
    source = (
        "{gender, select, female {{n, plural, one {# file} other {# files}}} "
        "other {{n, plural, one {# file} other {# files}}}}"
    )
    value = (
        "{gender, select, female {{n, plural, one {# plik} other {# pliku}}} "
        "other {{n, plural, one {# plik} few {# pliki} many {# plików} other {# pliku}}}}"
    )
    assert messages(icu_syntax, value, source, "pl") == [
        "The plural on {n} lacks the forms few, many that pl needs."
    ]


def test_a_select_key_the_source_lacks_is_named():
    source = "{role, select, admin {Admin} other {Member}}"
    assert messages(
        icu_syntax, "{role, select, admin {Admin} owner {Besitzer} other {Mitglied}}", source
    ) == ["The select on {role} has owner, which the source has not."]


def test_a_select_without_other_is_flagged():
    assert messages(icu_syntax, "{role, select, admin {Admin}}", "{role, select, admin {Admin}}") == [
        "The select on {role} has no other branch."
    ]


def test_a_plural_dropped_from_the_value_is_named():
    assert messages(icu_syntax, "Dateien", FILES) == [
        "The source's plural on {count} is missing from the value."
    ]


def test_plain_text_is_not_read_as_icu():
    assert messages(icu_syntax, "Klammern { und } sind hier Text", "Braces { and } are text here") == []


def test_a_value_needs_no_source_to_be_checked():
    assert messages(icu_syntax, "{count, plural, one {# plik}}", None, "pl") == [
        "The plural on {count} lacks the forms few, many, other that pl needs."
    ]
