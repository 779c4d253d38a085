"""E-mails about a person's account (an invitation's join link, a password reset link), queued
as a durable job in the caller's transaction and sent by the notifications' mail job, never
inside the request. The link carries a secret: it is stored in the job's payload encrypted
under a key derived from ``LOKO_SECRET_KEY``, and is never logged or put in a response or a
job's result.

A password reset link is signed (``itsdangerous``), expires after ``RESET_MINUTES`` and
works once: it names the account and a digest of its password hash at the time, so a new
password, set by this link or any other way, ends it."""

import hashlib

from flask import current_app
from itsdangerous import BadSignature, SignatureExpired, URLSafeTimedSerializer

from loko.jobs import service as jobs
from loko.secrets import fernet

ACCOUNT_EMAIL_JOB = "auth.email"
RESET_MINUTES = 60
_LINK_INFO = b"loko account e-mail links v1"
_RESET_SALT = "loko password reset v1"


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
    sealed = fernet(current_app.config["SECRET_KEY"], _LINK_INFO).encrypt(link.encode()).decode()
    jobs.enqueue(ACCOUNT_EMAIL_JOB, {"to": list(to), "subject": subject, "lines": lines, "link": sealed})


def opened_link(payload: dict) -> str:
    """The link of a queued e-mail's payload, decrypted (for the mail job only)."""
    return fernet(current_app.config["SECRET_KEY"], _LINK_INFO).decrypt(payload["link"].encode()).decode()


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
