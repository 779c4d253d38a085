"""Secret tokens: generated with ``secrets``, stored and looked up only by SHA-256."""

import hashlib
import secrets

API_KEY_PREFIX = "loko_"


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_session_token() -> str:
    return secrets.token_urlsafe(32)


def new_api_key() -> str:
    return API_KEY_PREFIX + secrets.token_urlsafe(32)
