"""The checks' ICU MessageFormat parser: the tree of a message, or its first error."""

from loko.checks.icu import MAXIMUM_DEPTH, parse


def test_a_plural_gives_its_forms_with_hash_nodes():
    tree, error = parse("{count, plural, one {# file} other {# files}}")
    assert (tree, error) == (
        [
            {
                "name": "count",
                "type": "plural",
                "options": {
                    "one": [{"name": "count", "hash": True}, " file"],
                    "other": [{"name": "count", "hash": True}, " files"],
                },
            }
        ],
        None,
    )


def test_quoting_is_undone():
    assert parse("It''s '{'literal'}' and {n}") == (["It's {literal} and ", {"name": "n"}], None)


def test_a_lone_apostrophe_is_text():
    assert parse("It's {n}") == (["It's ", {"name": "n"}], None)


def test_a_hash_outside_a_plural_is_text():
    assert parse("Issue #{n}") == (["Issue #", {"name": "n"}], None)


def test_a_quoted_hash_in_a_plural_is_text():
    tree, _error = parse("{n, plural, other {'#' is #}}")
    assert tree[0]["options"]["other"] == ["# is ", {"name": "n", "hash": True}]


def test_a_hash_in_a_select_inside_a_plural_is_the_plurals():
    tree, _error = parse("{n, plural, other {{g, select, other {# items}}}}")
    assert tree[0]["options"]["other"][0]["options"]["other"][0] == {"name": "n", "hash": True}


def test_offset_and_exact_selectors_are_read():
    tree, _error = parse("{n, plural, offset:1 =0 {nobody} one {you} other {you and # others}}")
    assert list(tree[0]["options"]) == ["=0", "one", "other"]


def test_a_style_may_hold_a_skeleton():
    assert parse("{price, number, ::currency/EUR}") == (
        [{"name": "price", "type": "number", "style": "::currency/EUR"}],
        None,
    )


def test_an_unclosed_form_names_the_position():
    assert parse("{count, plural, one {# Datei} other {# Dateien}") == (
        None,
        'Expected "}" at position 47 but found "<EOF>"',
    )


def test_a_stray_closing_brace_is_an_error():
    assert parse("Text }") == (None, 'Unexpected "}" at position 5')


def test_a_duplicate_selector_is_an_error():
    assert parse("{n, plural, one {a} one {b} other {c}}") == (
        None,
        'Duplicate sub-message selector "one" at position 20',
    )


def test_a_choice_without_forms_is_an_error():
    assert parse("{n, plural,}") == (None, 'Expected sub-message selector at position 11 but found "}"')


def test_nesting_beyond_the_limit_is_an_error():
    text = "{a, select, other {" * (MAXIMUM_DEPTH + 1) + "x" + "}}" * (MAXIMUM_DEPTH + 1)
    assert parse(text)[1] == f"Too deeply nested at position {MAXIMUM_DEPTH * len('{a, select, other {')}"
