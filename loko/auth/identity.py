"""Turn a request's credentials into an actor, once per request, before any view runs.

A Bearer header decides when present; otherwise the ``sb-access-token`` cookie. Bad
credentials are remembered and raised only by views that need a caller.
"""

from flask import g, request
from flask.sessions import SessionInterface

from loko.auth import service
from loko.errors import Unauthorized
from loko.http import guard_cross_site_write

SESSION_COOKIE = "sb-access-token"


class NoFlaskSession(SessionInterface):
    """Sessions live in the database behind the ``sb-access-token`` cookie, so Flask's
    signed-cookie session is never opened or saved (it would cost every request)."""

    def open_session(self, app, request):
        return None

    def save_session(self, app, session, response):
        return None


def bearer_token() -> str | None:
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer":
        return None
    return token.strip() or ""


def resolve_identity() -> None:
    g.actor = None
    g.credentials_error = None
    if request.path.startswith("/static/"):
        return
    cookie = request.cookies.get(SESSION_COOKIE)
    if not request.path.startswith("/api/"):
        # Pages know only the session cookie; an expired one is a signed-out visitor.
        if cookie:
            try:
                g.actor = service.actor_for_session(cookie)
            except Unauthorized:
                g.actor = None
        return
    token = bearer_token()
    # A browser never attaches a Bearer key on its own, so only cookie-carrying and
    # anonymous (sign-in) writes can be forged cross-site.
    if token is None:
        guard_cross_site_write(authenticated_by_cookie=cookie is not None)
    try:
        if token is not None:
            g.actor = service.actor_for_api_key(token, request.remote_addr)
        elif cookie:
            g.actor = service.actor_for_session(cookie)
    except Unauthorized as error:
        g.credentials_error = error


def current_actor():
    """The caller, or None when no credentials were sent; Unauthorized for bad credentials."""
    if g.get("credentials_error") is not None:
        raise g.credentials_error
    return g.get("actor")
