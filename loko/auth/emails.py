"""E-mails about a person's account (an invitation's join link, a password reset link), queued
in the caller's transaction by the mailer ``create_app`` plugs in (the notifications' durable
mail job, which keeps the link encrypted and sends it after the commit, never inside the
request). The link carries a secret, never logged or put in a response or a job's result.

A password reset link is signed (``itsdangerous``), expires after ``RESET_MINUTES`` and
works once: it names the account and a digest of its password hash at the time, so a new
password, set by this link or any other way, ends it."""

import hashlib
from collections.abc import Callable

from flask import current_app
from itsdangerous import BadSignature, SignatureExpired, URLSafeTimedSerializer

RESET_MINUTES = 60
_RESET_SALT = "loko password reset v1"

# ``mailer(to, subject, lines, link)``: queues one e-mail in the current transaction; plugged
# in by ``create_app`` (the mail job lives above the accounts).
_mailer: list[Callable[[tuple[str, str], str, list[str], str], None]] = []


def use_mailer(function: Callable[[tuple[str, str], str, list[str], str], None]) -> None:
    _mailer[:] = [function]


def email_available() -> bool:
    """Whether an SMTP server is configured (``LOKO_SMTP_HOST``)."""
    return bool(current_app.config.get("LOKO_SMTP_HOST"))


def public_link(endpoint: str, **values) -> str:
    """The address of a page for an e-mail: under ``LOKO_PUBLIC_URL``, else the server's host
    and port (the same outside a request, as jobs run)."""
    config = current_app.config
    base = config.get("LOKO_PUBLIC_URL") or f"http://{config['LOKO_HOST']}:{config['LOKO_PORT']}"
    return base.rstrip("/") + current_app.url_map.bind("loko").build(endpoint, values)


def queue_email(to: tuple[str, str], subject: str, lines: list[str], link: str) -> None:
    """Queue the e-mail to ``to`` (name, address) in the caller's transaction: it goes out
    only if that transaction commits."""
    if not _mailer:
        raise RuntimeError("auth.emails: no mailer is plugged in (create_app does it).")
    _mailer[0](to, subject, lines, link)


def _serializer() -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(current_app.config["SECRET_KEY"], salt=_RESET_SALT)


def _password_digest(password_hash: str) -> str:
    return hashlib.sha256(password_hash.encode()).hexdigest()[:32]


def reset_token(user_id: str, password_hash: str) -> str:
    return _serializer().dumps({"u": user_id, "p": _password_digest(password_hash)})


def read_reset_token(token: str, password_hash_of) -> str | None:
    """The account id a reset token names, when it is genuine, not expired and its account's
    password has not changed since (``password_hash_of(user_id)``: the current hash, or None
    for no such account); else None."""
    try:
        data = _serializer().loads(token, max_age=RESET_MINUTES * 60)
    except (BadSignature, SignatureExpired):
        return None
    if not isinstance(data, dict) or not isinstance(data.get("u"), str):
        return None
    current = password_hash_of(data["u"])
    if current is None or _password_digest(current) != data.get("p"):
        return None
    return data["u"]
