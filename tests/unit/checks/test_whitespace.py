"""Leading and trailing whitespace as the source's."""

from loko.checks import whitespace
from tests.unit.checks import fixes, messages


def test_a_lost_trailing_space_is_flagged():
    assert messages(whitespace, "Name:", "Name: ") == [
        "The value ends with no whitespace; the source with a space."
    ]


def test_the_fix_restores_the_sources_edges():
    assert fixes(whitespace, "Name:", "Name: ") == ["Name: "]


def test_an_android_trailing_newline_is_compared():
    assert messages(whitespace, "Erste Zeile", "First line\n") == [
        "The value ends with no whitespace; the source with a newline."
    ]


def test_extra_leading_spaces_are_flagged_and_fixed():
    assert fixes(whitespace, "  Weiter", "Next") == ["Weiter"]


def test_both_edges_are_named():
    assert messages(whitespace, "\nHallo", "Hello\n\n") == [
        "The value starts with a newline; the source with no whitespace. "
        "The value ends with no whitespace; the source with 2 newlines."
    ]


def test_the_same_edges_pass():
    assert messages(whitespace, "\tHallo Welt \n", "\tHello world \n") == []


def test_a_french_non_breaking_space_is_not_an_edge():
    assert messages(whitespace, "Nom\u00a0:", "Name:", "fr") == []


def test_a_value_of_spaces_only_is_not_flagged():
    assert messages(whitespace, "   ", "Hello ") == []


def test_one_character_separators_are_not_flagged():
    assert messages(whitespace, " ", ",") == []
