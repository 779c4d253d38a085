"""Signing in, shared by the API and the sign-in page: the rate limit on failures (counted
together for both) and the session cookie."""

from flask import current_app, request

from loko.auth import service
from loko.auth.identity import SESSION_COOKIE
from loko.extensions import limiter
from loko.http import json_body

FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")
SIGN_IN_ENDPOINTS = frozenset({"auth_api.login", "auth_ui.login"})


def login_rate_key() -> str:
    """One address and one email: the API and the sign-in page count together."""
    email = request.form.get("email") if request.mimetype in FORM_TYPES else json_body().get("email")
    email = service.normalize_email(email) if isinstance(email, str) else ""
    return f"{request.remote_addr}|{email}"


# Failed sign-ins (401) through the API or the page: ten a minute, then 429.
sign_in_limit = limiter.shared_limit(
    "10/minute",
    scope="sign-in",
    key_func=login_rate_key,
    deduct_when=lambda response: response.status_code == 401,
    methods=["POST"],
)


@limiter.request_filter
def _not_sign_in() -> bool:
    """Only sign-in is rate limited: every other request skips the limiter's work."""
    return request.endpoint not in SIGN_IN_ENDPOINTS


def with_session_cookie(response, token: str):
    response.set_cookie(
        SESSION_COOKIE,
        token,
        max_age=current_app.config["LOKO_SESSION_DAYS"] * 86400,
        httponly=True,
        samesite="Lax",
        secure=current_app.config["LOKO_COOKIE_SECURE"],
        path="/",
    )
    return response
