from sqlalchemy import BigInteger, ForeignKey, Index, Integer, String, Text, UniqueConstraint, text

from loko.database import UTCDateTime, id_column, utcnow
from loko.extensions import db


class MemoryUnit(db.Model):
    """One translation unit of an imported TMX file: a source text and its translation."""

    __tablename__ = "memory_units"
    __table_args__ = (
        Index("ix_memory_units_scope", "organization_id", "source_language", "target_language"),
    )

    id = id_column()
    organization_id = db.Column(
        String(36), ForeignKey("organizations.id", ondelete="CASCADE"), nullable=False
    )
    source_language = db.Column(String(35), nullable=False)
    target_language = db.Column(String(35), nullable=False)
    source = db.Column(Text, nullable=False)
    target = db.Column(Text, nullable=False)
    created_at = db.Column(UTCDateTime, nullable=False, default=utcnow)


class MemoryScope(db.Model):
    """A small number for each (organization, language) whose texts are indexed: the high
    bits of an index entry's id, so that one id range holds one scope's texts by length."""

    __tablename__ = "memory_scopes"
    __table_args__ = (UniqueConstraint("organization_id", "language_code"),)

    id = db.Column(Integer, primary_key=True, autoincrement=True)
    organization_id = db.Column(String(36), nullable=False)
    language_code = db.Column(String(35), nullable=False)


class MemoryEntry(db.Model):
    """One indexed text: a value (``translation_id``, ``language_code``) or a TMX unit's
    source (``unit_id``). ``id`` is scope, normalised length and a sequence number (see
    ``loko.memory.index``); ``digest`` finds exact matches. The trigram index over the text
    is an FTS5 table on SQLite and a pg_trgm GIN index over ``text`` on PostgreSQL."""

    __tablename__ = "memory_entries"
    __table_args__ = (
        Index(
            "uq_memory_entries_value",
            "translation_id",
            "language_code",
            unique=True,
            sqlite_where=text("translation_id IS NOT NULL"),
            postgresql_where=text("translation_id IS NOT NULL"),
        ),
        Index(
            "uq_memory_entries_unit",
            "unit_id",
            unique=True,
            sqlite_where=text("unit_id IS NOT NULL"),
            postgresql_where=text("unit_id IS NOT NULL"),
        ),
        Index("ix_memory_entries_digest", "digest", "id"),
        # Each entry's owner in one probe: lookups pass over the entries of projects their
        # caller may not read inside the index's walks (``loko.memory.index.visible``).
        Index("ix_memory_entries_owner", "id", "project_id", "unit_id"),
    )

    id = db.Column(BigInteger, primary_key=True, autoincrement=False)
    translation_id = db.Column(String(36), nullable=True)
    language_code = db.Column(String(35), nullable=False)
    project_id = db.Column(String(36), nullable=True)
    unit_id = db.Column(String(36), nullable=True)
    digest = db.Column(BigInteger, nullable=False)
    # PostgreSQL only (the GIN index is over it); SQLite keeps the text in the FTS5 table.
    text = db.Column(Text, nullable=True)


class MemoryState(db.Model):
    """How far the index has read the history of writes: every value written by a history
    entry up to ``indexed_to`` is indexed; ``settled_to`` <= ``indexed_to`` is the point
    before which no write can still commit (lookups also read the writes after it)."""

    __tablename__ = "memory_state"

    id = db.Column(Integer, primary_key=True, autoincrement=False)
    indexed_to = db.Column(BigInteger, nullable=False, server_default="0")
    settled_to = db.Column(BigInteger, nullable=False, server_default="0")
    rebuilt_at = db.Column(UTCDateTime, nullable=True)
