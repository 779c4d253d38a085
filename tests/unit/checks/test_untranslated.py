"""A value identical to its source in another language, with the texts that may stay the same."""

import pytest

from loko.checks import Target, untranslated
from tests.unit.checks import messages

UNTRANSLATED = ["The value is the same as the source; it may not be translated yet."]


def test_an_identical_sentence_is_flagged():
    assert messages(untranslated, "Save the file", "Save the file") == UNTRANSLATED


def test_edges_do_not_hide_an_identical_value():
    assert messages(untranslated, "Save the file ", "Save the file") == UNTRANSLATED


def test_a_regional_variant_may_keep_the_source():
    assert messages(untranslated, "Save the file", "Save the file", "en-GB") == []


def test_a_value_in_the_source_language_itself_is_not_flagged():
    target = Target(value="Save", language="en", source="Save", source_language="en")
    assert untranslated.check(target) == []


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("%1$s / %2$d", id="placeholders and numbers"),
        pytest.param("OK", id="a short word"),
        pytest.param("GitHub", id="a product name"),
        pytest.param("HTML", id="an acronym"),
        pytest.param("MP3", id="a code with digits"),
        pytest.param("https://loko.example", id="a URL"),
        pytest.param("{count} km", id="a placeholder and a unit"),
        pytest.param("<b>a</b> < b", id="tags and letters"),
    ],
)
def test_text_that_legitimately_stays_the_same_is_not_flagged(text):
    assert messages(untranslated, text, text) == []


def test_a_different_value_passes():
    assert messages(untranslated, "Datei speichern", "Save the file") == []
