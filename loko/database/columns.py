"""Column types and ids shared by every model: ``id_column`` and its UUIDv7 ``new_id``,
timezone-aware UTC timestamps (``utcnow``, ``UTCDateTime``)."""

import secrets
import time
from datetime import UTC, datetime

from sqlalchemy import DateTime, String
from sqlalchemy.types import TypeDecorator

from loko.extensions import db


def new_id() -> str:
    """A UUID version 7 (RFC 9562): the creation time in milliseconds, then 74 random
    bits. New rows land at the end of primary-key indexes, not on random pages, which
    keeps bulk inserts into large tables cheap."""
    milliseconds = time.time_ns() // 1_000_000
    random_bits = secrets.randbits(74)
    value = (milliseconds << 80) | (0x7 << 76) | ((random_bits >> 62) << 64) | (0b10 << 62)
    digits = f"{value | (random_bits & (2**62 - 1)):032x}"  # as str(uuid.UUID(int=...)) writes it
    return f"{digits[:8]}-{digits[8:12]}-{digits[12:16]}-{digits[16:20]}-{digits[20:]}"


def utcnow() -> datetime:
    return datetime.now(UTC)


class UTCDateTime(TypeDecorator):
    """A timezone-aware UTC timestamp on every database (SQLite stores naive values)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value, dialect):
        if value is not None and dialect.name == "sqlite":
            return value.astimezone(UTC).replace(tzinfo=None)
        return value

    def process_result_value(self, value, dialect):
        if value is not None and value.tzinfo is None:
            return value.replace(tzinfo=UTC)
        return value


def id_column():
    return db.Column(String(36), primary_key=True, default=new_id)
