from sqlalchemy import Boolean, CheckConstraint, ForeignKey, String, Text, false

from loko.database import UTCDateTime, id_column, utcnow
from loko.extensions import db

PROVIDER_KINDS = ("deepl", "libretranslate", "openai")


class MachineProvider(db.Model):
    """One machine translation service an organization uses: its kind, where it is (``base_url``,
    None for the public service), the model (LLMs), the API key stored encrypted
    (``loko.secrets``) with its last four characters for people to recognize it, the
    instructions given to LLMs (``instruction`` for every language, ``language_instructions``
    a JSON object of language code -> instruction), and whether it is used."""

    __tablename__ = "machine_providers"
    __table_args__ = (CheckConstraint("kind IN ('deepl', 'libretranslate', 'openai')", name="kind"),)

    id = id_column()
    organization_id = db.Column(
        String(36), ForeignKey("organizations.id", ondelete="CASCADE"), nullable=False, index=True
    )
    kind = db.Column(String(32), nullable=False)
    name = db.Column(String(100), nullable=False)
    base_url = db.Column(String(2048), nullable=True)
    model = db.Column(String(200), nullable=True)
    api_key_encrypted = db.Column(Text, nullable=True)
    api_key_last4 = db.Column(String(4), nullable=True)
    instruction = db.Column(Text, nullable=False, default="")
    language_instructions = db.Column(Text, nullable=False, default="{}")
    enabled = db.Column(Boolean, nullable=False, default=True)
    # A language model that takes images: a suggestion sends it the key's screenshot.
    sees_images = db.Column(Boolean, nullable=False, default=False, server_default=false())
    created_at = db.Column(UTCDateTime, nullable=False, default=utcnow)
    updated_at = db.Column(UTCDateTime, nullable=False, default=utcnow)
