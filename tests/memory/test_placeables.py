"""A memory match adapted to the text looked up: its translation takes the text's
placeholders where the sources differ only in theirs, and a match whose placeholders cannot
be mapped is offered below 100 and never pre-translated."""

import pytest

from loko.memory import service
from loko.memory.placeables import adapt


def test_the_translation_takes_the_text_s_placeholders():
    assert adapt(
        "Hello {name}, you have {count} new messages",
        "Hallo {name}, du hast {count} neue Nachrichten",
        "Hello {user}, you have {count} new messages",
    ) == ("Hallo {user}, du hast {count} neue Nachrichten", True)


def test_placeholders_are_mapped_by_position_whatever_their_order_in_the_translation():
    assert adapt("From {a} to {b}", "Nach {b} von {a}", "From {start} to {end}") == (
        "Nach {end} von {start}",
        True,
    )


def test_the_same_placeholders_leave_the_translation_as_it_is():
    assert adapt("Hello %s", "Hallo %s", "Hello %s") == ("Hallo %s", False)


@pytest.mark.parametrize(
    ("source", "text"),
    [
        ("Hello %s", "Hello {user}"),  # another kind
        ("Hello %s", "Hello %d"),  # another conversion
        ("{a} and {a}", "{x} and {y}"),  # one placeholder for two
        ("{a} and {b}", "{x} and {x}"),  # two for one
    ],
)
def test_no_one_to_one_mapping_adapts_nothing(source, text):
    assert adapt(source, "…", text) is None


def test_a_translation_with_a_placeholder_its_source_lacks_is_not_adapted():
    assert adapt("Hello {name}", "Hallo {name} {extra}", "Hello {user}") is None


@pytest.fixture
def stored(memory):
    project = memory.project("Web")
    memory.write(
        project, "en", {"inbox": "Hello {name}, you have {count} new messages", "price": "Total: %s"}
    )
    memory.write(
        project, "de", {"inbox": "Hallo {name}, du hast {count} neue Nachrichten", "price": "Summe: %s"}
    )
    service.refresh_index()
    return memory


def test_a_lookup_answers_the_adapted_translation_at_100(stored):
    [match] = service.lookup(
        stored.organization_id,
        "en",
        "de",
        "Hello {user}, you have {count} new messages",
        reach=stored.reach(),
    )
    assert (match["text"], match["score"], match["adapted"]) == (
        "Hallo {user}, du hast {count} neue Nachrichten",
        100,
        True,
    )


def test_a_match_whose_placeholders_cannot_be_mapped_scores_below_100(stored):
    [match] = service.lookup(stored.organization_id, "en", "de", "Total: {amount}", reach=stored.reach())
    assert (match["text"], match["score"], match["placeholdersDiffer"]) == ("Summe: %s", 99, True)


def test_pre_translation_fills_with_the_adapted_translation(stored):
    found = service.lookup_many(
        stored.organization_id,
        "en",
        "de",
        ["Hello {user}, you have {count} new messages"],
        reach=stored.reach(),
    )
    assert (
        found["Hello {user}, you have {count} new messages"]["text"]
        == "Hallo {user}, du hast {count} neue Nachrichten"
    )


@pytest.mark.parametrize("min_score", [100, 90])
def test_pre_translation_never_takes_a_match_whose_placeholders_differ(stored, min_score):
    found = service.lookup_many(
        stored.organization_id, "en", "de", ["Total: {amount}"], reach=stored.reach(), min_score=min_score
    )
    assert found == {}
