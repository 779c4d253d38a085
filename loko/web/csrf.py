"""CSRF tokens for the web app: an HMAC, under the installation's secret key, of the session
cookie (or, before sign-in, of a random per-browser cookie). A page's forms carry it in a
hidden field and its fetches in the ``X-CSRF-Token`` header; another site can neither read
it nor compute it."""

import hashlib
import hmac
import secrets

from flask import current_app, g, request

from loko.auth.identity import SESSION_COOKIE
from loko.errors import Forbidden
from loko.http import UNSAFE_METHODS, guard_cross_site_write

CSRF_COOKIE = "loko-csrf"
CSRF_FIELD = "csrf_token"
CSRF_HEADER = "X-CSRF-Token"
CSRF_FAILURE = "The form has expired or did not come from this site: reload the page and try again."


def _basis() -> str:
    """What the token is bound to: the session when there is one, else the browser cookie."""
    session = request.cookies.get(SESSION_COOKIE)
    if session:
        return f"session:{session}"
    browser = request.cookies.get(CSRF_COOKIE) or g.get("new_csrf_cookie")
    if browser is None:
        browser = g.new_csrf_cookie = secrets.token_urlsafe(32)
    return f"browser:{browser}"


def token_for(basis: str) -> str:
    key = current_app.config["SECRET_KEY"].encode()
    return hmac.new(key, f"csrf|{basis}".encode(), hashlib.sha256).hexdigest()


def csrf_token() -> str:
    """This browser's token (templates call it for every form)."""
    return token_for(_basis())


def valid_token(sent: str | None) -> bool:
    return bool(sent) and hmac.compare_digest(sent, csrf_token())


def protect_page_write() -> None:
    """Refuse a page form post without this browser's token (or from another origin)."""
    if request.method not in UNSAFE_METHODS:
        return
    guard_cross_site_write(authenticated_by_cookie=False)
    if not valid_token(request.form.get(CSRF_FIELD) or request.headers.get(CSRF_HEADER)):
        raise Forbidden(CSRF_FAILURE)


def check_api_token() -> None:
    """An API call made by a page (cookie, no Bearer key) sends the header; when it is sent,
    it must be right."""
    sent = request.headers.get(CSRF_HEADER)
    if sent is None or request.method not in UNSAFE_METHODS or "Authorization" in request.headers:
        return
    if not valid_token(sent):
        raise Forbidden(CSRF_FAILURE)


def set_csrf_cookie(response):
    """Keep the browser cookie a new token was bound to."""
    value = g.get("new_csrf_cookie")
    if value is not None and not request.cookies.get(CSRF_COOKIE):
        response.set_cookie(
            CSRF_COOKIE,
            value,
            httponly=True,
            samesite="Lax",
            secure=current_app.config["LOKO_COOKIE_SECURE"],
            path=request.script_root or "/",
        )
    return response
