"""E-mail: the SMTP settings from the configuration, messages built with the standard
library's ``email`` package (plain text and HTML, with a one-click unsubscribe link), and
sending a batch over one connection (STARTTLS, implicit TLS or none; login when an account
is set). Called by the notifications' jobs only, never inside a request."""

import smtplib
import ssl
from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import formataddr, make_msgid
from html import escape

TLS_MODES = ("starttls", "tls", "none")
TIMEOUT = 30


@dataclass(frozen=True)
class SmtpSettings:
    host: str
    port: int
    user: str | None
    password: str | None
    tls: str
    sender: str
    # A file of CA certificates to trust instead of the system's (a private mail server's).
    ca_file: str | None = None


class MailError(RuntimeError):
    """The SMTP server refused the login or its certificate could not be verified: said in
    words naming the server and the setting to look at (the job is retried)."""


def smtp_settings(config) -> SmtpSettings | None:
    """The SMTP settings of ``config`` (a Flask config), or None when no host is set."""
    host = config.get("LOKO_SMTP_HOST")
    if not host:
        return None
    tls = (config.get("LOKO_SMTP_TLS") or "starttls").strip().lower()
    if tls not in TLS_MODES:
        raise ValueError(f"LOKO_SMTP_TLS: one of {', '.join(TLS_MODES)}, not {tls!r}.")
    return SmtpSettings(
        host=host,
        port=int(config.get("LOKO_SMTP_PORT") or (465 if tls == "tls" else 587)),
        user=config.get("LOKO_SMTP_USER") or None,
        password=config.get("LOKO_SMTP_PASSWORD") or None,
        tls=tls,
        sender=config.get("LOKO_MAIL_FROM") or f"loko@{host}",
        ca_file=config.get("LOKO_SMTP_CA_FILE") or None,
    )


def build_message(
    settings: SmtpSettings,
    to: tuple[str, str],
    subject: str,
    lines: list[str],
    link: str | None = None,
    unsubscribe: tuple[str, str] | None = None,
) -> EmailMessage:
    """A text and HTML message to ``to`` (name, address); with ``unsubscribe`` (the one-click
    address a mail client posts to, and the page a person opens), the ``List-Unsubscribe``
    and ``List-Unsubscribe-Post`` headers (RFC 8058) and the link in the text."""
    message = EmailMessage()
    message["From"] = formataddr(("Loko", settings.sender))
    message["To"] = formataddr(to)
    message["Subject"] = subject
    message["Message-ID"] = make_msgid(domain=settings.sender.rpartition("@")[2] or None)
    text = "\n".join(lines)
    if link:
        text += f"\n\nOpen: {link}"
    if unsubscribe:
        text += f"\n\nStop these e-mails: {unsubscribe[1]}"
        message["List-Unsubscribe"] = f"<{unsubscribe[0]}>"
        message["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    message.set_content(text + "\n")
    html = "".join(f"<p>{escape(line)}</p>" for line in lines)
    if link:
        html += f'<p><a href="{escape(link)}">Open in Loko</a></p>'
    if unsubscribe:
        page = escape(unsubscribe[1])
        html += f'<p style="color:#666;font-size:small"><a href="{page}">Stop these e-mails</a></p>'
    message.add_alternative(f"<!doctype html><html><body>{html}</body></html>", subtype="html")
    return message


def _connect(settings: SmtpSettings) -> smtplib.SMTP:
    where = f"{settings.host}:{settings.port}"
    try:
        context = ssl.create_default_context(cafile=settings.ca_file)
    except (OSError, ssl.SSLError) as error:
        raise MailError(
            f"LOKO_SMTP_CA_FILE: {settings.ca_file!r} cannot be read as CA certificates ({error})."
        ) from None
    connection = None
    try:
        if settings.tls == "tls":
            connection = smtplib.SMTP_SSL(settings.host, settings.port, timeout=TIMEOUT, context=context)
        else:
            connection = smtplib.SMTP(settings.host, settings.port, timeout=TIMEOUT)
            if settings.tls == "starttls":
                connection.starttls(context=context)
        if settings.user:
            connection.login(settings.user, settings.password or "")
    except ssl.SSLCertVerificationError as error:
        _close(connection)
        raise MailError(
            f"The SMTP server {where}'s certificate is not trusted ({error.verify_message}); "
            "LOKO_SMTP_CA_FILE names the CA certificates to trust."
        ) from None
    except smtplib.SMTPAuthenticationError as error:
        _close(connection)
        reply = (
            error.smtp_error.decode("utf-8", "replace")
            if isinstance(error.smtp_error, bytes)
            else error.smtp_error
        )
        raise MailError(
            f"The SMTP server {where} refused the login of {settings.user!r} ({error.smtp_code} {reply}); "
            "check LOKO_SMTP_USER and LOKO_SMTP_PASSWORD."
        ) from None
    except smtplib.SMTPNotSupportedError as error:
        _close(connection)
        raise MailError(f"The SMTP server {where}: {error} (see LOKO_SMTP_TLS).") from None
    except BaseException:
        _close(connection)
        raise
    return connection


def _close(connection: smtplib.SMTP | None) -> None:
    if connection is not None:
        connection.close()


def send_all(settings: SmtpSettings, messages: list[EmailMessage]) -> int:
    """Send ``messages`` over one connection; returns how many were sent. An SMTP error
    propagates, a refused login or an untrusted certificate as a ``MailError`` (the job is
    retried)."""
    if not messages:
        return 0
    with _connect(settings) as connection:
        for message in messages:
            connection.send_message(message)
    return len(messages)
