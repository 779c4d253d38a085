"""Placeholder masking: what is hidden from a provider, and what comes back refused."""

import pytest

from loko.machine.masking import MaskingError, mask, placeholders, unmask

KINDS = [
    ("Hello {name}", ["{name}"]),
    ("{0} of {1}", ["{0}", "{1}"]),
    ("Total: {amount, number, currency}", ["{amount, number, currency}"]),
    ("Hi {{user}}!", ["{{user}}"]),
    ("%s files in %d folders", ["%s", "%d"]),
    ("%1$s sent %2$d", ["%1$s", "%2$d"]),
    ("%@ liked it", ["%@"]),
    ("%(count)s left, %.2f%% done", ["%(count)s", "%.2f", "%%"]),
    ('Read <a href="/terms">the terms</a><br/>', ['<a href="/terms">', "</a>", "<br/>"]),
    ("See https://example.org/help?x=1.", ["https://example.org/help?x=1"]),
    ("50 % off, 100% sure", []),
]


@pytest.mark.parametrize(("text", "expected"), KINDS)
def test_placeholders_of_every_kind_are_found(text, expected):
    assert placeholders(text) == expected


@pytest.mark.parametrize("style", ["xml", "brackets"])
@pytest.mark.parametrize(("text", "_expected"), KINDS)
def test_a_text_returned_unchanged_unmasks_to_itself(style, text, _expected):
    assert unmask(mask(text, style), mask(text, style).text) == text


def test_xml_tokens_are_ignored_tags_and_the_rest_is_escaped():
    masked = mask("a < b & {n}", "xml")
    assert masked.text == 'a &lt; b &amp; <x id="0"/>'


def test_bracket_tokens_are_numbered_in_order():
    assert mask("{a} and %s", "brackets").text == "⟦0⟧ and ⟦1⟧"


def test_tokens_may_move_within_the_sentence():
    masked = mask("{count} new messages from {sender}", "brackets")
    assert unmask(masked, "⟦1⟧ hat dir ⟦0⟧ neue Nachrichten geschickt") == (
        "{sender} hat dir {count} neue Nachrichten geschickt"
    )


def test_deepl_may_answer_an_empty_element_for_a_token():
    masked = mask("Hello {name}", "xml")
    assert unmask(masked, 'Hallo <x id="0"></x>') == "Hallo {name}"


@pytest.mark.parametrize(
    ("answer", "reason"),
    [
        ("Hallo", "lost placeholder"),
        ("Hallo ⟦0⟧ ⟦0⟧", "repeated"),
        ("Hallo ⟦0⟧ ⟦1⟧", "not in the text"),
        ("Hallo ⟦0⟧ {other}", "added {other}"),
        ("Hallo ⟦0⟧ ⟦x⟧", "cannot read"),
    ],
)
def test_an_answer_that_loses_or_invents_a_placeholder_is_refused(answer, reason):
    with pytest.raises(MaskingError, match=reason):
        unmask(mask("Hello {name}", "brackets"), answer)


@pytest.mark.parametrize("kind", ["plural", "select", "selectordinal"])
def test_icu_plural_and_select_are_refused_with_a_reason(kind):
    with pytest.raises(MaskingError, match=f"ICU {kind} messages are not sent"):
        mask(f"{{n, {kind}, one {{# item}} other {{# items}}}}", "brackets")


def test_a_text_holding_the_token_brackets_is_refused():
    with pytest.raises(MaskingError, match="⟦"):
        mask("Press ⟦Enter⟧", "brackets")
