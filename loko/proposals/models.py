from sqlalchemy import CheckConstraint, ForeignKey, ForeignKeyConstraint, Index, Integer, String, Text, text

from loko.database import UTCDateTime, id_column, utcnow
from loko.extensions import db

PROPOSAL_STATES = ("open", "accepted", "rejected", "superseded")
OPEN, ACCEPTED, REJECTED, SUPERSEDED = PROPOSAL_STATES
# Who made a proposal: a person (or an API key), a pre-translation from a machine translation
# provider, or one from the translation memory.
ORIGINS = ("person", "machine", "memory")
MAX_TEXT = 10000
MAX_REASON = 1000
_OPEN = text("state = 'open'")


class Proposal(db.Model):
    """A text proposed for one key in one language. Open until a reviewer accepts it (its
    text, or ``accepted_text`` when edited, becomes the value), rejects it (with an optional
    reason), or another proposal of the same key and language is accepted (superseded).
    ``votes`` is the sum of its ``proposal_votes``, kept with them. ``operation_id``: the
    operation (or the single write's) that decided it, so that an undo reopens it."""

    __tablename__ = "proposals"
    __table_args__ = (
        CheckConstraint("state IN ('open', 'accepted', 'rejected', 'superseded')", name="state"),
        ForeignKeyConstraint(
            ["project_id", "language_code"],
            ["project_languages.project_id", "project_languages.code"],
            name="fk_proposals_language",
            ondelete="CASCADE",
            onupdate="CASCADE",
        ),
        # The review queue's two orders, over open proposals only.
        Index(
            "ix_proposals_open_votes",
            "project_id",
            text("votes DESC"),
            "created_at",
            "id",
            sqlite_where=_OPEN,
            postgresql_where=_OPEN,
        ),
        Index(
            "ix_proposals_open_age",
            "project_id",
            "created_at",
            "id",
            sqlite_where=_OPEN,
            postgresql_where=_OPEN,
        ),
        # One open proposal per text: the same text proposed again is a vote for it.
        Index(
            "uq_proposals_open_text",
            "translation_id",
            "language_code",
            "text_digest",
            unique=True,
            sqlite_where=_OPEN,
            postgresql_where=_OPEN,
        ),
        Index("ix_proposals_translation", "translation_id", "language_code", "created_at"),
        Index(
            "ix_proposals_operation",
            "operation_id",
            sqlite_where=text("operation_id IS NOT NULL"),
            postgresql_where=text("operation_id IS NOT NULL"),
        ),
    )

    id = id_column()
    project_id = db.Column(String(36), ForeignKey("projects.id", ondelete="CASCADE"), nullable=False)
    translation_id = db.Column(String(36), ForeignKey("translations.id", ondelete="CASCADE"), nullable=False)
    language_code = db.Column(String(35), nullable=False)
    text = db.Column(Text, nullable=False)
    # sha256 of the text (hex): open proposals are unique per key, language and text.
    text_digest = db.Column(String(64), nullable=False)
    origin = db.Column(String(16), nullable=False, server_default="person")
    author_type = db.Column(String(16), nullable=False)
    author_id = db.Column(String(36), nullable=True)
    author_name = db.Column(String(128), nullable=False)
    created_at = db.Column(UTCDateTime, nullable=False, default=utcnow)
    state = db.Column(String(16), nullable=False, server_default=OPEN)
    votes = db.Column(Integer, nullable=False, server_default="0")
    decided_at = db.Column(UTCDateTime, nullable=True)
    decided_by_type = db.Column(String(16), nullable=True)
    decided_by_id = db.Column(String(36), nullable=True)
    decided_by_name = db.Column(String(128), nullable=True)
    rejection_reason = db.Column(Text, nullable=True)
    accepted_text = db.Column(Text, nullable=True)
    operation_id = db.Column(String(36), nullable=True)


class ProposalVote(db.Model):
    """One person's vote on a proposal: +1 or -1, never on their own."""

    __tablename__ = "proposal_votes"
    __table_args__ = (CheckConstraint("value IN (-1, 1)", name="value"),)

    proposal_id = db.Column(String(36), ForeignKey("proposals.id", ondelete="CASCADE"), primary_key=True)
    user_id = db.Column(String(36), ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    value = db.Column(Integer, nullable=False)
    created_at = db.Column(UTCDateTime, nullable=False, default=utcnow)
