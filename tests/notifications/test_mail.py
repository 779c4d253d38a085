"""The SMTP settings read from the configuration and the messages built with the standard
library (no app, no server)."""

import pytest

from loko.notifications import mail


def test_no_host_means_no_email():
    assert mail.smtp_settings({"LOKO_SMTP_HOST": None}) is None


def test_implicit_tls_defaults_to_port_465_and_starttls_to_587():
    tls = mail.smtp_settings(
        {"LOKO_SMTP_HOST": "smtp.example.test", "LOKO_SMTP_TLS": "TLS", "LOKO_SMTP_PORT": None}
    )
    assert (tls.tls, tls.port, tls.sender) == ("tls", 465, "loko@smtp.example.test")
    starttls = mail.smtp_settings({"LOKO_SMTP_HOST": "smtp.example.test", "LOKO_SMTP_PORT": None})
    assert (starttls.tls, starttls.port) == ("starttls", 587)


def test_an_unknown_tls_mode_is_refused_naming_the_setting():
    with pytest.raises(ValueError, match="LOKO_SMTP_TLS"):
        mail.smtp_settings({"LOKO_SMTP_HOST": "smtp.example.test", "LOKO_SMTP_TLS": "ssl3"})


def test_a_message_has_text_and_html_and_the_one_click_headers():
    settings = mail.SmtpSettings("smtp.example.test", 587, None, None, "starttls", "loko@example.test")
    message = mail.build_message(
        settings,
        ("Ada <x>", "ada@example.test"),
        "3 new keys in Web",
        ["3 new keys in Web <b>"],
        "https://loko.example.test/projects/1/editor",
        (
            "https://loko.example.test/api/notifications/unsubscribe?token=t",
            "https://loko.example.test/u?token=t",
        ),
    )
    assert message["List-Unsubscribe"] == "<https://loko.example.test/api/notifications/unsubscribe?token=t>"
    assert message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    html = message.get_body(("html",)).get_content()
    assert "&lt;b&gt;" in html and "<b>" not in html.replace("<body>", "")
    assert "https://loko.example.test/u?token=t" in message.get_body(("plain",)).get_content()
