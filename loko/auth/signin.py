"""Signing in, shared by the API and the sign-in page: the rate limit on failures (counted
together for both, and across every process serving the installation) and the session
cookie."""

from functools import wraps

from flask import Response, after_this_request, current_app, request
from marshmallow import ValidationError
from werkzeug.exceptions import TooManyRequests

from loko.auth import service
from loko.auth.attempts import Attempt, attempt_key, attempt_store
from loko.auth.identity import SESSION_COOKIE
from loko.errors import LokoError
from loko.http import json_body

FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")
SIGN_IN_LIMIT = 10
SIGN_IN_WINDOW_SECONDS = 60
ATTEMPTS = "loko_sign_in_attempts"


def init_sign_in_limit(app) -> None:
    """Open the store of failed sign-ins that ``LOKO_RATELIMIT_STORAGE_URI`` names."""
    app.extensions[ATTEMPTS] = attempt_store(app.config["LOKO_RATELIMIT_STORAGE_URI"])


def login_rate_key() -> str:
    """One address and one email: the API and the sign-in page count together."""
    email = request.form.get("email") if request.mimetype in FORM_TYPES else json_body().get("email")
    email = service.normalize_email(email) if isinstance(email, str) else ""
    return f"{request.remote_addr}|{email}"


def sign_in_limit(view):
    """Failed sign-ins (401) through the API or the page: ten a minute for one address and
    email, then 429 with Retry-After, even for the right password."""

    @wraps(view)
    def limited(*args, **kwargs):
        if request.method != "POST":
            return view(*args, **kwargs)
        attempts = current_app.extensions[ATTEMPTS]
        attempt = attempts.reserve(attempt_key(login_rate_key()), SIGN_IN_WINDOW_SECONDS)
        if attempt.count > SIGN_IN_LIMIT:
            raise _too_many(attempt)
        failed = False

        @after_this_request
        def tell_the_limit(response):
            used = attempt.count if failed else attempt.count - 1
            response.headers.update(_limit_headers(attempt, remaining=SIGN_IN_LIMIT - used))
            return response

        try:
            response = current_app.make_response(view(*args, **kwargs))
            failed = response.status_code == 401
        except LokoError as error:
            failed = error.status == 401
            raise
        finally:
            if not failed:
                attempts.refund(attempt)
        return response

    return limited


def password_change_limit(view):
    """Refused password changes (403: a wrong current password; 400: a bad new one): ten a
    minute for one session, then 429 with Retry-After, so that a stolen session cannot
    guess the password it would need to take the account over."""

    @wraps(view)
    def limited(*args, **kwargs):
        attempts = current_app.extensions[ATTEMPTS]
        session = request.cookies.get(SESSION_COOKIE, "")
        attempt = attempts.reserve(attempt_key(f"password-change|{session}"), SIGN_IN_WINDOW_SECONDS)
        if attempt.count > SIGN_IN_LIMIT:
            seconds = attempt.retry_after()
            raise TooManyRequests(
                f"{SIGN_IN_LIMIT} refused password changes in a minute; try again in {seconds} seconds.",
                response=Response(
                    status=429, headers={"Retry-After": str(seconds), **_limit_headers(attempt, remaining=0)}
                ),
            )
        failed = False
        try:
            response = current_app.make_response(view(*args, **kwargs))
            failed = response.status_code in (400, 403)
        except (LokoError, ValidationError) as error:
            failed = getattr(error, "status", 400) in (400, 403)
            raise
        finally:
            if not failed:
                attempts.refund(attempt)
        return response

    return limited


def _limit_headers(attempt: Attempt, remaining: int) -> dict:
    return {
        "X-RateLimit-Limit": str(SIGN_IN_LIMIT),
        "X-RateLimit-Remaining": str(max(0, remaining)),
        "X-RateLimit-Reset": str(int(attempt.window_ends_at.timestamp())),
    }


def _too_many(attempt: Attempt) -> TooManyRequests:
    seconds = attempt.retry_after()
    headers = {"Retry-After": str(seconds), **_limit_headers(attempt, remaining=0)}
    return TooManyRequests(
        f"{SIGN_IN_LIMIT} failed sign-ins in a minute for this address and email; "
        f"try again in {seconds} seconds.",
        response=Response(status=429, headers=headers),
    )


def session_cookie_path() -> str:
    """The app's own path, also when a host application mounts it under a prefix: the session
    is never sent to the host's other paths."""
    return request.script_root or "/"


def with_session_cookie(response, token: str):
    response.set_cookie(
        SESSION_COOKIE,
        token,
        max_age=current_app.config["LOKO_SESSION_DAYS"] * 86400,
        httponly=True,
        samesite="Lax",
        secure=current_app.config["LOKO_COOKIE_SECURE"],
        path=session_cookie_path(),
    )
    return response


def without_session_cookie(response):
    response.delete_cookie(SESSION_COOKIE, path=session_cookie_path())
    return response
