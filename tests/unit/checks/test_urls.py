"""URLs and e-mail addresses of the source appear unchanged in the value."""

from loko.checks import urls
from tests.unit.checks import messages


def test_a_kept_url_passes():
    assert (
        messages(urls, "Siehe https://loko.example/docs/start.", "See https://loko.example/docs/start.") == []
    )


def test_a_changed_url_is_named_without_the_sentences_full_stop():
    assert messages(urls, "Siehe https://loko.example/dokumente.", "See https://loko.example/docs.") == [
        "The value lacks the source's address https://loko.example/docs."
    ]


def test_a_changed_email_is_named():
    assert messages(urls, "Schreiben Sie an hilfe@loko.example", "Write to help@loko.example") == [
        "The value lacks the source's address help@loko.example."
    ]


def test_a_url_in_a_link_is_compared():
    source = '<a href="https://loko.example/help">Help</a>'
    assert messages(urls, '<a href="https://loko.example/hilfe">Hilfe</a>', source) == [
        "The value lacks the source's address https://loko.example/help."
    ]


def test_an_extra_url_in_the_value_is_not_flagged():
    assert messages(urls, "Hilfe: https://loko.example/de", "Help") == []


def test_an_at_sign_in_text_is_not_an_address():
    assert messages(urls, "Treffen @ 10 Uhr", "Meet @ 10") == []
