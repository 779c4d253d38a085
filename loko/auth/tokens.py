"""Secret tokens: generated with ``secrets``, stored and looked up only by SHA-256."""

import hashlib
import secrets

API_KEY_PREFIX = "loko_"


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def bearer_key(header: str) -> str | None:
    """The API key of an ``Authorization: Bearer`` header, parsed as the identity step does
    (for the answers given before Flask); None when it holds no API key."""
    scheme, _, token = header.partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token.startswith(API_KEY_PREFIX):
        return None
    return token


def new_session_token() -> str:
    return secrets.token_urlsafe(32)


def new_api_key() -> str:
    return API_KEY_PREFIX + secrets.token_urlsafe(32)


def new_invitation_token() -> str:
    return secrets.token_urlsafe(32)
