from sqlalchemy import Boolean, CheckConstraint, ForeignKey, Index, Integer, String, Text, UniqueConstraint

from loko.database import UTCDateTime, id_column, utcnow
from loko.extensions import db

MAX_TERM = 200
MAX_NOTE = 1000
MAX_TERMS = 10_000  # per organization
MAX_TRANSLATIONS = 50  # per term
# TBX-Basic's picklist for partOfSpeech.
PARTS_OF_SPEECH = ("noun", "verb", "adjective", "adverb", "properNoun", "other")


class Glossary(db.Model):
    """An organization's glossary: ``revision`` grows with every change to its terms, so a
    process keeps the glossary it read while the revision stays the same."""

    __tablename__ = "glossaries"

    organization_id = db.Column(
        String(36), ForeignKey("organizations.id", ondelete="CASCADE"), primary_key=True
    )
    revision = db.Column(Integer, nullable=False, default=0)
    updated_at = db.Column(UTCDateTime, nullable=False, default=utcnow)


class GlossaryTerm(db.Model):
    """A term in ``language`` (matched against the source texts of projects whose source
    language it is). ``forbidden``: the term itself must not be used in source texts."""

    __tablename__ = "glossary_terms"
    __table_args__ = (
        UniqueConstraint("organization_id", "language", "term", name="uq_glossary_terms_term"),
        CheckConstraint(
            "part_of_speech IS NULL OR part_of_speech IN "
            "('noun', 'verb', 'adjective', 'adverb', 'properNoun', 'other')",
            name="part_of_speech",
        ),
        Index("ix_glossary_terms_listing", "organization_id", "term"),
    )

    id = id_column()
    organization_id = db.Column(
        String(36), ForeignKey("organizations.id", ondelete="CASCADE"), nullable=False
    )
    language = db.Column(String(35), nullable=False)
    term = db.Column(String(MAX_TERM), nullable=False)
    part_of_speech = db.Column(String(16), nullable=True)
    note = db.Column(Text, nullable=False, default="")
    case_sensitive = db.Column(Boolean, nullable=False, default=False)
    forbidden = db.Column(Boolean, nullable=False, default=False)
    created_at = db.Column(UTCDateTime, nullable=False, default=utcnow)
    updated_at = db.Column(UTCDateTime, nullable=False, default=utcnow)


class GlossaryTranslation(db.Model):
    """A term's translation in ``language``: the expected one (at most one per language), or
    a ``forbidden`` one that must not be used for the term."""

    __tablename__ = "glossary_translations"
    __table_args__ = (UniqueConstraint("term_id", "language", "text", name="uq_glossary_translations_text"),)

    id = id_column()
    term_id = db.Column(
        String(36), ForeignKey("glossary_terms.id", ondelete="CASCADE"), nullable=False, index=True
    )
    language = db.Column(String(35), nullable=False)
    text = db.Column(String(MAX_TERM), nullable=False)
    forbidden = db.Column(Boolean, nullable=False, default=False)
    position = db.Column(Integer, nullable=False, default=0)
