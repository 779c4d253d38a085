"""Two spaces in a row where the source has none."""

from loko.checks import double_space
from tests.unit.checks import fixes, messages


def test_a_double_space_is_flagged():
    assert messages(double_space, "Datei  speichern", "Save file") == [
        "The value has two spaces in a row; the source has none."
    ]


def test_the_fix_collapses_every_run():
    assert fixes(double_space, "Die   Datei  speichern", "Save the file") == ["Die Datei speichern"]


def test_a_source_with_a_double_space_allows_them():
    assert messages(double_space, "Name:  Wert", "Name:  value") == []


def test_leading_and_trailing_runs_are_left_to_the_whitespace_check():
    assert messages(double_space, "Weiter  ", "Next") == []


def test_a_single_space_passes():
    assert messages(double_space, "Datei speichern", "Save file") == []
