"""Secrets Loko must use again (a provider token, a webhook secret), encrypted at rest with
Fernet (AES-128-CBC and HMAC-SHA256, from ``cryptography``) under a key derived from
``LOKO_SECRET_KEY`` by HKDF; a different ``LOKO_SECRET_KEY`` cannot decrypt them.
``cryptography`` is loaded by the first secret encrypted or read."""

import base64

from loko.errors import LokoError

# The derivation's label; kept as the repository integration first wrote it, so the secrets
# stored before this module was shared still decrypt.
INFO = b"loko repohost secrets v1"


class UnreadableSecret(LokoError):
    status = 409


def fernet(secret_key: str, info: bytes = INFO):
    """A Fernet under the key HKDF derives from ``secret_key`` for the purpose ``info``."""
    from cryptography.fernet import Fernet
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.kdf.hkdf import HKDF

    key = HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=info).derive(secret_key.encode())
    return Fernet(base64.urlsafe_b64encode(key))


def encrypt(secret_key: str, plain: str) -> str:
    """``plain`` encrypted under a key derived from ``secret_key``."""
    return fernet(secret_key).encrypt(plain.encode()).decode()


def decrypt(secret_key: str, token: str, what: str = "repohost: the stored token") -> str:
    """The plain secret; UnreadableSecret (409) naming ``what`` when it cannot be decrypted."""
    from cryptography.fernet import InvalidToken

    try:
        return fernet(secret_key).decrypt(token.encode()).decode()
    except InvalidToken:
        raise UnreadableSecret(
            f"{what} cannot be decrypted (LOKO_SECRET_KEY changed); configure it again."
        ) from None
