import re

from sqlalchemy import Boolean, ForeignKey, ForeignKeyConstraint, Index, Integer, String, Text, text

from loko.database import UTCDateTime, id_column, utcnow
from loko.extensions import db

# ``renamed``: a key's file was renamed (the entry names the key anew, its old value is the
# file's old name).
HISTORY_ACTIONS = ("created", "updated", "deleted", "restored", "purged", "renamed")
# A value's review state: written by a person or a pipeline, approved by a reviewer, or
# waiting for one (written by an agent, or its source value changed since).
VALUE_STATES = ("translated", "reviewed", "needs-review")
TRANSLATED, REVIEWED, NEEDS_REVIEW = VALUE_STATES
# Why a value waits for a review (``review_reason``; NULL for the other states, and for values
# sent to review before reasons were stored): its source value changed since, an agent (an
# MCP tool) wrote it, a pre-translation filled it, a machine translation or a memory match
# was saved as it was suggested, a person asked for a review, or an undo took it back to a
# text other than the one reviewed.
REVIEW_REASONS = (
    "source-changed",
    "agent",
    "pre-translated",
    "machine-unedited",
    "memory-unedited",
    "requested",
    "undone",
)
SOURCE_CHANGED, AGENT, PRE_TRANSLATED, MACHINE_UNEDITED, MEMORY_UNEDITED, REQUESTED, UNDONE = REVIEW_REASONS

DIGITS = re.compile(r"[0-9]+")
NUMBER_WIDTH = 10
# A sort key never outgrows what a PostgreSQL index entry holds beside its file name and key.
MAX_SORT_KEY_BYTES = 500


def natural_sort_key(key: str) -> str:
    """The key with each run of digits zero-padded to one width, so that keys sort in
    natural order (item1, item2, item10) by the database's own comparison; keys equal here
    (item01, item1) are ordered by the key itself. Cut to MAX_SORT_KEY_BYTES of UTF-8."""
    padded = DIGITS.sub(lambda digits: digits.group().rjust(NUMBER_WIDTH, "0"), key)
    encoded = padded.encode()
    if len(encoded) <= MAX_SORT_KEY_BYTES:
        return padded
    return encoded[:MAX_SORT_KEY_BYTES].decode(errors="ignore")


class Translation(db.Model):
    """A key in a file. Active while ``deleted_at`` is empty, in the trash once it is set."""

    __tablename__ = "translations"
    __table_args__ = (
        Index(
            "uq_translations_active_key",
            "project_id",
            "file_name",
            "key",
            unique=True,
            sqlite_where=text("deleted_at IS NULL"),
            postgresql_where=text("deleted_at IS NULL"),
        ),
        # The editor's order: active keys of a file in natural order (sort_key), then by key.
        Index(
            "ix_translations_active_natural",
            "project_id",
            "file_name",
            "sort_key",
            "key",
            sqlite_where=text("deleted_at IS NULL"),
            postgresql_where=text("deleted_at IS NULL"),
        ),
        # Trashed rows only: over every row, a planner without fresh statistics takes it to
        # find a file's active keys and reads the whole project for each file.
        Index(
            "ix_translations_trash",
            "project_id",
            "deleted_at",
            sqlite_where=text("deleted_at IS NOT NULL"),
            postgresql_where=text("deleted_at IS NOT NULL"),
        ),
        # Half of each page free for the next version of its keys (migration 0040): every
        # write of a key's values sets its updated_at, which no index holds, and the new
        # version then stays on its page without an entry in any index.
        {"postgresql_with": {"fillfactor": 50}},
    )

    id = id_column()
    project_id = db.Column(String(36), ForeignKey("projects.id", ondelete="CASCADE"), nullable=False)
    file_name = db.Column(String(256), nullable=False)
    key = db.Column(String(256), nullable=False)
    # natural_sort_key(key), written with the key by every insert.
    sort_key = db.Column(Text, nullable=False, server_default="")
    created_at = db.Column(UTCDateTime, nullable=False, default=utcnow)
    updated_at = db.Column(UTCDateTime, nullable=False, default=utcnow)
    deleted_at = db.Column(UTCDateTime, nullable=True)
    # From imported files: a note for translators, gettext's msgctxt, and what a format
    # needs to write the key back as it read it (JSON, owned by that format).
    comment = db.Column(Text, nullable=True)
    context = db.Column(Text, nullable=True)
    meta = db.Column(Text, nullable=True)
    # The longest value the key's place in the product holds (characters), when known.
    max_length = db.Column(Integer, nullable=True)


class TranslationValue(db.Model):
    """One translation's text in one language."""

    __tablename__ = "translation_values"
    __table_args__ = (
        ForeignKeyConstraint(
            ["project_id", "language_code"],
            ["project_languages.project_id", "project_languages.code"],
            name="fk_translation_values_language",
            ondelete="CASCADE",
            onupdate="CASCADE",
        ),
        Index("ix_translation_values_project_language", "project_id", "language_code"),
        # The values waiting for a review, per project and language.
        Index(
            "ix_translation_values_needs_review",
            "project_id",
            "language_code",
            sqlite_where=text("state = 'needs-review'"),
            postgresql_where=text("state = 'needs-review'"),
        ),
    )

    translation_id = db.Column(
        String(36), ForeignKey("translations.id", ondelete="CASCADE"), primary_key=True
    )
    language_code = db.Column(String(35), primary_key=True)
    project_id = db.Column(String(36), nullable=False)
    value = db.Column(Text, nullable=False)
    updated_at = db.Column(UTCDateTime, nullable=False, default=utcnow)
    # One of VALUE_STATES, set by the write paths (``loko.quality.service``) and by reviewers.
    state = db.Column(String(16), nullable=False, server_default=TRANSLATED)
    # When and by whom (a name) the state was last set by a review (``loko.quality.review``):
    # an undo of earlier changes lists such a value as changed since.
    review_changed_at = db.Column(UTCDateTime, nullable=True)
    review_changed_by = db.Column(String(128), nullable=True)
    # One of REVIEW_REASONS while the state is needs-review (the latest cause), else NULL.
    review_reason = db.Column(String(32), nullable=True)


class HistoryEntry(db.Model):
    """One change to one value (or to a whole translation); kept after the translation is purged."""

    __tablename__ = "translation_history"
    __table_args__ = (
        Index("ix_translation_history_project", "project_id", "id"),
        Index("ix_translation_history_translation", "translation_id", "id"),
        # The history as of a moment (``loko.translations.timeline``): a project's entries up
        # to a time, grouped by key and language, read from the index alone; and the keys'
        # own entries (no language: moves, renames, details), few, grouped by key.
        Index(
            "ix_translation_history_timeline",
            "project_id",
            "created_at",
            "translation_id",
            "language",
            "id",
        ),
        Index(
            "ix_translation_history_keyed",
            "project_id",
            "created_at",
            "translation_id",
            "action",
            "id",
            sqlite_where=text("language IS NULL"),
            postgresql_where=text("language IS NULL"),
        ),
        Index(
            "ix_translation_history_operation",
            "operation_id",
            sqlite_where=text("operation_id IS NOT NULL"),
            postgresql_where=text("operation_id IS NOT NULL"),
        ),
    )

    id = db.Column(Integer, primary_key=True, autoincrement=True)
    project_id = db.Column(String(36), ForeignKey("projects.id", ondelete="CASCADE"), nullable=False)
    translation_id = db.Column(String(36), nullable=False)
    key = db.Column(String(256), nullable=False)
    file_name = db.Column(String(256), nullable=False)
    language = db.Column(String(35), nullable=True)
    action = db.Column(String(16), nullable=False)
    old_value = db.Column(Text, nullable=True)
    new_value = db.Column(Text, nullable=True)
    actor_type = db.Column(String(16), nullable=False)
    actor_id = db.Column(String(36), nullable=True)
    actor_name = db.Column(String(128), nullable=True)
    created_at = db.Column(UTCDateTime, nullable=False, default=utcnow)
    # The bulk change (import, file or language delete, undo ...) the entry belongs to.
    operation_id = db.Column(String(36), nullable=True)


OPERATION_KINDS = (
    "import",
    "bulk-upsert",
    "bulk-delete",
    "file-delete",
    "language-delete",
    "undo",
    "pretranslate",
    "replace",
    "proposals-accept",
    "proposals-reject",
    "tag",
)


class Operation(db.Model):
    """One bulk change to a project's translations, undoable as a whole: its history
    entries carry its id. ``details`` (JSON) keeps what the history cannot: the file
    records and the language a delete removed, and counts for the listing."""

    __tablename__ = "operations"
    __table_args__ = (Index("ix_operations_project", "project_id", "created_at"),)

    id = id_column()
    project_id = db.Column(String(36), ForeignKey("projects.id", ondelete="CASCADE"), nullable=False)
    kind = db.Column(String(32), nullable=False)
    details = db.Column(Text, nullable=False, default="{}")
    # A permanent delete is listed but cannot be undone.
    permanent = db.Column(Boolean, nullable=False, default=False)
    actor_type = db.Column(String(16), nullable=False)
    actor_id = db.Column(String(36), nullable=True)
    actor_name = db.Column(String(128), nullable=True)
    created_at = db.Column(UTCDateTime, nullable=False, default=utcnow)
    undone_at = db.Column(UTCDateTime, nullable=True)
    undone_by = db.Column(String(36), nullable=True)
    # Set when the trash's retention period ended or the trash was emptied: what the
    # operation removed is gone for good.
    expired_at = db.Column(UTCDateTime, nullable=True)
