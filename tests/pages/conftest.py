"""Page tests: each kind of caller opens and posts the web app's pages through Flask's test
client, with the CSRF token a real browser would have been given."""

import re
from urllib.parse import unquote

import pytest

from loko.web.csrf import CSRF_FIELD, token_for
from tests.factories import CallerClient

# Every caller of the permission table. API keys are not page credentials: a page sees
# such a caller as signed out.
SIGNED_OUT = ("anonymous", "unknown_key", "revoked_key", "other_project_key", "read_key", "write_key")
MEMBERS = ("viewer", "editor", "project_admin", "org_admin", "org_owner")
ALL_CALLERS = (*SIGNED_OUT, *MEMBERS, "outsider")


class PageClient(CallerClient):
    """A caller's browser: its session cookie, and its CSRF token on every form post."""

    def __init__(self, app, credentials: dict):
        super().__init__(app, credentials)
        self.app = app

    def csrf_token(self) -> str:
        session = self.client.get_cookie("sb-access-token")
        basis = f"session:{session.value}" if session else f"browser:{self.browser_cookie()}"
        with self.app.test_request_context():
            return token_for(basis)

    def browser_cookie(self) -> str:
        cookie = self.client.get_cookie("loko-csrf")
        if cookie is None:
            self.client.get("/login")
            cookie = self.client.get_cookie("loko-csrf")
        return cookie.value

    def submit(self, path: str, data: dict | None = None, **kwargs):
        """Post a form as the page would, CSRF token included."""
        return self.post(path, data={CSRF_FIELD: self.csrf_token(), **(data or {})}, **kwargs)


@pytest.fixture
def page_as(app, world):
    """``page_as("editor").get("/projects/...")``: that caller's browser."""

    def make(name: str) -> PageClient:
        return PageClient(app, world.credentials[name])

    return make


def alert_of(response) -> str | None:
    """The error message a page shows (its role="alert" banner), or None."""
    match = re.search(r'role="alert">([^<]*)<', response.get_data(as_text=True))
    return match.group(1) if match else None


def notice_of(client) -> str | None:
    """The notice the next page will show after a successful form."""
    cookie = client.client.get_cookie("loko-notice")
    return None if cookie is None else unquote(cookie.value)
