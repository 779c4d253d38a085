"""Secrets Loko must use again (a provider token, a webhook secret), encrypted at rest with
Fernet (AES-128-CBC and HMAC-SHA256, from ``cryptography``) under a key derived from
``LOKO_SECRET_KEY`` by HKDF; a different ``LOKO_SECRET_KEY`` cannot decrypt them."""

import base64

from cryptography.fernet import Fernet, InvalidToken
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from loko.errors import LokoError

# The derivation's label; kept as the repository integration first wrote it, so the secrets
# stored before this module was shared still decrypt.
INFO = b"loko repohost secrets v1"


class UnreadableSecret(LokoError):
    status = 409


def _fernet(secret_key: str) -> Fernet:
    key = HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=INFO).derive(secret_key.encode())
    return Fernet(base64.urlsafe_b64encode(key))


def encrypt(secret_key: str, plain: str) -> str:
    """``plain`` encrypted under a key derived from ``secret_key``."""
    return _fernet(secret_key).encrypt(plain.encode()).decode()


def decrypt(secret_key: str, token: str, what: str = "repohost: the stored token") -> str:
    """The plain secret; UnreadableSecret (409) naming ``what`` when it cannot be decrypted."""
    try:
        return _fernet(secret_key).decrypt(token.encode()).decode()
    except InvalidToken:
        raise UnreadableSecret(
            f"{what} cannot be decrypted (LOKO_SECRET_KEY changed); configure it again."
        ) from None
