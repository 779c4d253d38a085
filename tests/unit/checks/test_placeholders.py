"""Placeholders: the value has the source's, of every syntax, in any order."""

from loko.checks import placeholders
from tests.unit.checks import fixes, messages


def test_a_renamed_brace_placeholder_is_missing_and_extra():
    assert messages(placeholders, "Bonjour {nom}", "Hello {name}", "fr") == [
        "Missing placeholder {name}; extra placeholder {nom}."
    ]


def test_a_single_renamed_placeholder_is_fixed_back():
    assert fixes(placeholders, "Bonjour {nom}", "Hello {name}", "fr") == ["Bonjour {name}"]


def test_android_positional_placeholders_may_be_reordered():
    assert messages(placeholders, "Fichier %2$s dans le dossier %1$s", "File %1$s in folder %2$s", "fr") == []


def test_a_lost_android_positional_placeholder_is_missing():
    assert messages(placeholders, "Datei in %1$s", "File %2$s in %1$s") == ["Missing placeholder %2$s."]


def test_a_placeholder_used_once_less_than_in_the_source_is_missing():
    assert messages(placeholders, "%s und mehr", "%s and %s") == ["Missing placeholder %s."]


def test_ios_object_and_long_long_placeholders_are_compared():
    assert (
        messages(
            placeholders, "Bonjour %@, vous avez %lld messages", "Hello %@, you have %lld messages", "fr"
        )
        == []
    )


def test_ios_long_long_is_not_the_same_placeholder_as_d():
    assert messages(placeholders, "%d Nachrichten", "%lld messages") == [
        "Missing placeholder %lld; extra placeholder %d."
    ]


def test_gettext_python_named_placeholders_are_compared_by_name():
    assert messages(placeholders, "Vous avez %(count)d fichiers", "You have %(num)d files", "fr") == [
        "Missing placeholder %(num)d; extra placeholder %(count)d."
    ]


def test_an_escaped_percent_is_not_a_placeholder():
    assert messages(placeholders, "100%% sicher, %d Dateien", "100%% sure, %d files") == []


def test_a_percent_after_a_number_is_text():
    assert messages(placeholders, "100%ige Sicherheit", "100% safe") == []


def test_a_percent_before_a_space_is_text():
    assert messages(placeholders, "50 % de réduction", "50% off", "fr") == []


def test_i18next_double_braces_ignore_inner_spaces():
    assert messages(placeholders, "Hallo {{ name }}", "Hello {{name}}") == []


def test_i18next_nesting_is_a_placeholder():
    assert messages(placeholders, "Hallo {{name}}", "Hello {{name}}, $t(common.welcome)") == [
        "Missing placeholder $t(common.welcome)."
    ]


def test_i18next_double_braces_are_not_single_braces():
    assert messages(placeholders, "{count} Elemente", "{{count}} items") == [
        "Missing placeholder {{count}}; extra placeholder {count}."
    ]


def test_an_icu_argument_is_a_placeholder_whatever_its_format():
    assert messages(placeholders, "{n} Elemente", "{n, number} items") == []


def test_icu_plural_branches_may_repeat_a_placeholder():
    source = "{count, plural, one {# file in {folder}} other {# files in {folder}}}"
    value = (
        "{count, plural, one {# plik w {folder}} few {# pliki w {folder}} "
        "many {# plików w {folder}} other {# pliku w {folder}}}"
    )
    assert messages(placeholders, value, source, "pl") == []


def test_an_argument_missing_from_an_icu_plural_is_named():
    source = "{count, plural, one {# file in {folder}} other {# files in {folder}}}"
    value = "{count, plural, one {# Datei} other {# Dateien}}"
    assert messages(placeholders, value, source) == ["Missing placeholder {folder}."]


def test_icu_quoted_braces_and_hash_are_text():
    source = "{count, plural, one {Use '{'name'}' once} other {Use '{'name'}' # times}}"
    value = "{count, plural, one {Verwende '{'name'}' einmal} other {Verwende '{'name'}' #-mal}}"
    assert messages(placeholders, value, source) == []


def test_printf_inside_an_icu_plural_from_android_plurals_is_compared():
    source = "{count, plural, one {%d file} other {%d files}}"
    value = "{count, plural, one {Eine Datei} other {Dateien}}"
    assert messages(placeholders, value, source) == ["Missing placeholder %d."]


def test_a_value_that_is_not_valid_icu_is_left_to_the_icu_check():
    source = "{count, plural, one {# file} other {# files}}"
    assert messages(placeholders, "{count, plural, one {# Datei other {# Dateien}}", source) == []


def test_no_source_means_nothing_to_compare():
    assert messages(placeholders, "Hallo {name}", None) == []


def test_rails_interpolation_keeps_its_percent_sign():
    assert messages(placeholders, "Hallo {name}", "Hello %{name}") == [
        "Missing placeholder %{name}; extra placeholder {name}."
    ]
