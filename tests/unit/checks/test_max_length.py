"""A value longer than its key's maximum length."""

from loko.checks import max_length
from tests.unit.checks import messages


def test_a_longer_value_is_flagged():
    assert messages(max_length, "Speichern", "Save", max_length=4) == [
        "The value has 9 characters; the key holds at most 4."
    ]


def test_a_value_within_the_limit_passes():
    assert messages(max_length, "Sichern", "Save", max_length=7) == []
