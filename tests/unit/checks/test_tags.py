"""Tags: the source's tags, as many of each, anywhere in the value, and properly nested."""

from loko.checks import tags
from tests.unit.checks import messages


def test_the_same_tags_around_a_different_word_pass():
    assert messages(tags, "Das ist <b>sehr</b> wichtig", "This is <b>really important</b>") == []


def test_a_link_may_point_elsewhere():
    assert (
        messages(tags, 'Lesen Sie die <a href="/de/hilfe">Hilfe</a>', 'Read the <a href="/help">help</a>')
        == []
    )


def test_a_missing_bold_is_named():
    assert messages(tags, "Klicken Sie hier", "Click <b>here</b>") == ["Missing tags </b>, <b>."]


def test_an_extra_tag_is_named():
    assert messages(tags, "Klicken Sie <i>hier</i>", "Click here") == ["Extra tags </i>, <i>."]


def test_a_replaced_tag_is_missing_and_extra():
    assert messages(tags, "<strong>Achtung</strong>", "<b>Warning</b>") == [
        "Missing tags </b>, <b>; extra tags </strong>, <strong>."
    ]


def test_an_unclosed_tag_is_flagged():
    assert messages(tags, "Klicken Sie <b>hier</b> und <b>dort", "Click <b>here</b> and <b>there</b>") == [
        "Missing tag </b>; the tags do not nest: <b> is never closed."
    ]


def test_crossed_tags_do_not_nest():
    assert messages(tags, "<b><i>Achtung</b></i>", "<b><i>Warning</i></b>") == [
        "The tags do not nest: </b> closes <i> early."
    ]


def test_br_with_or_without_slash_is_the_same_tag():
    assert messages(tags, "Zeile eins<br>Zeile zwei", "Line one<br/>line two") == []


def test_android_xliff_g_is_a_tag():
    source = 'You have <xliff:g id="count" example="3">%1$d</xliff:g> new messages'
    assert messages(tags, "Sie haben %1$d neue Nachrichten", source) == [
        "Missing tags </xliff:g>, <xliff:g>."
    ]


def test_android_xliff_g_with_another_example_passes():
    source = 'You have <xliff:g id="count" example="3">%1$d</xliff:g> new messages'
    value = 'Sie haben <xliff:g id="count" example="5">%1$d</xliff:g> neue Nachrichten'
    assert messages(tags, value, source) == []


def test_a_less_than_sign_in_text_is_not_a_tag():
    assert messages(tags, "wenn a < b und c > d", "if a < b and c > d") == []


def test_an_escaped_tag_is_text():
    assert messages(tags, "Schreiben Sie &lt;b&gt;", "Type &lt;b&gt;") == []


def test_an_unbalanced_source_fragment_only_compares_the_tags():
    assert messages(tags, "Klicken Sie <a>", "Click <a>") == []


def test_react_i18next_numbered_tags_are_tags():
    assert messages(tags, "Gehe zu <1>Einstellungen</1>", "Go to <1>settings</1> now") == []


def test_a_lost_react_i18next_numbered_tag_is_named():
    assert messages(tags, "Gehe zu Einstellungen", "Go to <1>settings</1>") == ["Missing tags </1>, <1>."]
