"""The rate limit of public visitors' proposals and votes: the sign-in limit's counters
(``loko.auth.attempts``, in the database or Redis as ``LOKO_RATELIMIT_STORAGE_URI`` says, so
every process of the installation counts together), per person and project."""

from flask import Response, current_app
from werkzeug.exceptions import TooManyRequests

from loko.auth import policy
from loko.auth.attempts import attempt_key
from loko.auth.signin import ATTEMPTS

VISITOR_LIMIT = 30
VISITOR_WINDOW_SECONDS = 3600


def spend_visitor_allowance(actor, project_id: str) -> None:
    """Count one proposal or vote of a public visitor of the project (members and keys are
    not counted); past ``VISITOR_LIMIT`` in the window, 429 with Retry-After."""
    if not policy.is_public_visitor(actor, project_id):
        return
    attempts = current_app.extensions[ATTEMPTS]
    attempt = attempts.reserve(
        attempt_key(f"visitor-proposal|{project_id}|{actor.id}"), VISITOR_WINDOW_SECONDS
    )
    if attempt.count > VISITOR_LIMIT:
        seconds = attempt.retry_after()
        raise TooManyRequests(
            f"{VISITOR_LIMIT} proposals and votes an hour in a project you are not a member of; "
            f"try again in {seconds} seconds.",
            response=Response(
                status=429,
                headers={
                    "Retry-After": str(seconds),
                    "X-RateLimit-Limit": str(VISITOR_LIMIT),
                    "X-RateLimit-Remaining": "0",
                    "X-RateLimit-Reset": str(int(attempt.window_ends_at.timestamp())),
                },
            ),
        )
