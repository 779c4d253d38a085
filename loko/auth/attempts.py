"""Counters of failed sign-ins, shared by every process that serves one installation: in
the database by default, in Redis when ``LOKO_RATELIMIT_STORAGE_URI`` is a ``redis://``
(or ``rediss://``, ``redis+sentinel://``, ``redis+cluster://``, ``valkey://``) URL.

A sign-in takes its place in the window before the password is checked (``reserve``, one
atomic step) and gives it back when it did not fail (``refund``). Counting after the check
instead would let every attempt of a concurrent burst pass before the first failure was
counted; this way a burst, spread over any number of processes, gets exactly the limit
through. A window starts at its first attempt and lasts ``window`` seconds."""

import hashlib
import math
import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from urllib.parse import urlsplit

from sqlalchemy import Integer, bindparam, text

from loko.database import UTCDateTime, unit_of_work, utcnow

REDIS_SCHEMES = frozenset({"redis", "rediss", "valkey", "valkeys"})
PURGE_SECONDS = 60


@dataclass(frozen=True)
class Attempt:
    """A sign-in's place in its window: ``count`` attempts so far, this one included."""

    key: str
    count: int
    window_ends_at: datetime

    def retry_after(self) -> int:
        """Whole seconds until the window ends (at least 1)."""
        return max(1, math.ceil((self.window_ends_at - utcnow()).total_seconds()))


def attempt_key(identity: str) -> str:
    """The stored name of ``identity`` (an address and an email): its SHA-256, so neither
    is ever written down."""
    return hashlib.sha256(identity.encode()).hexdigest()


# One statement on both databases: it creates the counter, counts one more in the current
# window, or starts a new window, and answers the count, under the row's lock.
RESERVE = (
    text(
        "INSERT INTO sign_in_attempts (key_hash, attempts, window_ends_at) "
        "VALUES (:key_hash, 1, :window_ends_at) "
        "ON CONFLICT (key_hash) DO UPDATE SET "
        "attempts = CASE WHEN sign_in_attempts.window_ends_at > :now "
        "THEN sign_in_attempts.attempts + 1 ELSE 1 END, "
        "window_ends_at = CASE WHEN sign_in_attempts.window_ends_at > :now "
        "THEN sign_in_attempts.window_ends_at ELSE excluded.window_ends_at END "
        "RETURNING attempts, window_ends_at"
    )
    .bindparams(bindparam("now", type_=UTCDateTime()), bindparam("window_ends_at", type_=UTCDateTime()))
    .columns(attempts=Integer(), window_ends_at=UTCDateTime())
)
REFUND = text(
    "UPDATE sign_in_attempts SET attempts = attempts - 1 "
    "WHERE key_hash = :key_hash AND window_ends_at = :window_ends_at AND attempts > 0"
).bindparams(bindparam("window_ends_at", type_=UTCDateTime()))
PURGE = text("DELETE FROM sign_in_attempts WHERE window_ends_at <= :now").bindparams(
    bindparam("now", type_=UTCDateTime())
)


class DatabaseAttempts:
    """Counters in the ``sign_in_attempts`` table of the app's database. Each process
    deletes the rows of ended windows at most once every ``purge_seconds``, along with an
    attempt (one indexed DELETE)."""

    def __init__(self, purge_seconds: float = PURGE_SECONDS):
        self.purge_seconds = purge_seconds
        self._next_purge = 0.0

    def reserve(self, key: str, window: int) -> Attempt:
        now = utcnow()
        with unit_of_work() as session:
            count, window_ends_at = session.execute(
                RESERVE, {"key_hash": key, "now": now, "window_ends_at": now + timedelta(seconds=window)}
            ).one()
            if time.monotonic() >= self._next_purge:
                self._next_purge = time.monotonic() + self.purge_seconds
                session.execute(PURGE, {"now": now})
        return Attempt(key, count, window_ends_at)

    def refund(self, attempt: Attempt) -> None:
        with unit_of_work() as session:
            session.execute(REFUND, {"key_hash": attempt.key, "window_ends_at": attempt.window_ends_at})


# Gives an attempt back only while its window lasts: a DECR on a key that has expired would
# start the next window below zero.
REDIS_REFUND = "if redis.call('exists', KEYS[1]) == 1 then return redis.call('decr', KEYS[1]) end return 0"


class RedisAttempts:
    """Counters in Redis (through the ``limits`` package's storage, which reads every form of
    Redis URL): an INCR that sets the key's expiry on the window's first attempt."""

    def __init__(self, uri: str):
        from limits.storage import storage_from_string

        self.storage = storage_from_string(uri)
        self._refund = self.storage.get_connection().register_script(REDIS_REFUND)

    def reserve(self, key: str, window: int) -> Attempt:
        name = f"loko/sign-in/{key}"
        count = self.storage.incr(name, window)
        window_ends_at = datetime.fromtimestamp(self.storage.get_expiry(name), UTC)
        return Attempt(name, count, window_ends_at)

    def refund(self, attempt: Attempt) -> None:
        self._refund([self.storage.prefixed_key(attempt.key)])


def attempt_store(uri: str | None):
    """The store ``LOKO_RATELIMIT_STORAGE_URI`` names: Redis for a Redis URL, otherwise the
    database. The default, ``memory://``, is the database too: a memory of each process's
    own would let ``loko serve --processes N`` allow N times the limit."""
    scheme = urlsplit(uri or "").scheme.lower().split("+", 1)[0]
    if scheme in REDIS_SCHEMES:
        return RedisAttempts(uri)
    return DatabaseAttempts()
