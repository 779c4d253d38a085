"""The replacement rule without an app: modes, whole words, groups, the time limit, and the
patterns refused before they are compiled."""

import pytest

from loko.errors import BadRequest
from loko.replace.guards import breakage
from loko.replace.matching import MAX_PATTERN_WEIGHT, TimedOut, compile_replacement, pattern_weight


def test_plain_text_in_its_case_is_replaced_as_written():
    assert compile_replacement("a.b", r"\1", match_case=True).apply("a.b axb a.b") == (r"\1 axb \1", 2)


def test_text_in_any_case_escapes_the_pattern():
    assert compile_replacement("a.b", "x").apply("A.B axb") == ("x axb", 1)


def test_a_whole_word_is_not_part_of_a_longer_word():
    assert compile_replacement("cat", "dog", whole_word=True).apply("cat concat cat.") == (
        "dog concat dog.",
        2,
    )


def test_regex_groups_by_number_and_by_name():
    rule = compile_replacement(r"(?P<a>\d+)-(\d+)", r"\2-\g<a>", mode="regex")
    assert rule.apply("10-20") == ("20-10", 1)


def test_a_pathological_pattern_times_out():
    with pytest.raises(TimedOut):
        compile_replacement(r"(a|aa)+$", "x", mode="regex").apply("a" * 40 + "b")


@pytest.mark.parametrize(
    ("pattern", "weight"),
    [("abc", 3), (r"a{3}", 3), (r"(ab){10}", 20), (r"(a{100}){100}", 10_000), (r"[a-z]{5}\d", 6)],
)
def test_the_weight_of_a_pattern_multiplies_its_counted_repetitions(pattern, weight):
    assert pattern_weight(pattern) == weight


def test_a_pattern_whose_repetitions_expand_too_far_is_refused_before_it_compiles():
    assert pattern_weight(r"(a{1000}){1000}") > MAX_PATTERN_WEIGHT
    with pytest.raises(BadRequest, match=r"^find: the pattern's counted repetitions"):
        compile_replacement(r"(a{1000}){1000}", "x", mode="regex")


@pytest.mark.parametrize(("pattern", "replace", "field"), [("(", "x", "find"), ("(a)", r"\2", "replace")])
def test_a_pattern_or_replacement_that_cannot_run_names_its_field(pattern, replace, field):
    with pytest.raises(BadRequest, match=f"^{field}: "):
        compile_replacement(pattern, replace, mode="regex")


def test_breakage_counts_only_what_was_not_wrong_before():
    assert breakage("{n, plural, one {# item}}", "{n, plural, one {# Artikel}}", "en") is None
    assert breakage("{count} items", "{anzahl} items", "de")[0] == "placeholders"
    assert breakage("<b>Hi</b>", "<b>Hi", "de")[0] == "tags"
    assert (
        breakage("{n, plural, one {#} other {#}}", "{n, plural, one {#} other {#}", "de")[0] == "icu-syntax"
    )
    assert breakage("{count} items", "", "de")[0] == "placeholders"
