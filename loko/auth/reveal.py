"""A secret shown once to the browser that made it (a new API key, an invitation link, a new
webhook's secret, a repository's webhook secret), after the redirect that follows its form:
the form's response carries it to the next page in a short-lived cookie, encrypted under the
installation's secret key and bound to the signed-in session, and that page shows it and
deletes the cookie. Reloading shows it no more and creates nothing. Loko's database never
holds it in the clear."""

import orjson
from flask import current_app, g, request

from loko.auth.identity import SESSION_COOKIE
from loko.auth.tokens import token_hash
from loko.secrets import fernet

REVEAL_COOKIE = "loko-reveal"
REVEAL_SECONDS = 300
INFO = b"loko one-time reveal v1"


def _fernet():
    return fernet(current_app.config["SECRET_KEY"], INFO)


def _session_hash() -> str:
    return token_hash(request.cookies.get(SESSION_COOKIE, ""))


def _path() -> str:
    return request.script_root or "/"


def remember_secret(response, purpose: str, value: dict):
    """Let the next page of this session (for ``purpose``, e.g. ``key:<project id>``) show
    ``value`` once."""
    payload = orjson.dumps({"purpose": purpose, "session": _session_hash(), "value": value})
    response.set_cookie(
        REVEAL_COOKIE,
        _fernet().encrypt(payload).decode(),
        max_age=REVEAL_SECONDS,
        httponly=True,
        samesite="Strict",
        secure=current_app.config["LOKO_COOKIE_SECURE"],
        path=_path(),
    )
    return response


def take_secret(purpose: str) -> dict | None:
    """The value remembered for ``purpose`` by this session, or None; the cookie is deleted
    by ``forget_secret`` on the response that shows it."""
    sealed = request.cookies.get(REVEAL_COOKIE)
    if not sealed:
        return None
    from cryptography.fernet import InvalidToken

    try:
        payload = orjson.loads(_fernet().decrypt(sealed.encode(), ttl=REVEAL_SECONDS))
    except (InvalidToken, orjson.JSONDecodeError):
        g.reveal_taken = True
        return None
    if payload.get("purpose") != purpose:
        return None  # another page's: left for it
    g.reveal_taken = True
    if payload.get("session") != _session_hash():
        return None
    return payload.get("value")


def forget_secret(response):
    """Delete the cookie a page has just shown (or found unusable)."""
    if g.get("reveal_taken"):
        response.delete_cookie(REVEAL_COOKIE, path=_path())
    return response
