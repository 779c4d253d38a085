from sqlalchemy import Boolean, ForeignKey, Index, Integer, String, Text

from loko.database import UTCDateTime, id_column, utcnow
from loko.extensions import db


class Webhook(db.Model):
    """One endpoint of a project: where events go, which ones (``events``, a JSON list), and
    the secret that signs them, stored encrypted (``loko.secrets``)."""

    __tablename__ = "webhooks"

    id = id_column()
    project_id = db.Column(
        String(36), ForeignKey("projects.id", ondelete="CASCADE"), nullable=False, index=True
    )
    url = db.Column(String(2048), nullable=False)
    description = db.Column(String(500), nullable=False, default="")
    events = db.Column(Text, nullable=False)  # JSON list of event types
    enabled = db.Column(Boolean, nullable=False, default=True)
    secret_encrypted = db.Column(Text, nullable=False)
    created_at = db.Column(UTCDateTime, nullable=False, default=utcnow)
    updated_at = db.Column(UTCDateTime, nullable=False, default=utcnow)


class WebhookDelivery(db.Model):
    """One attempt at delivering a message to an endpoint, and how it went. The body is kept
    so that the message can be delivered again (same ``message_id``, a new signature)."""

    __tablename__ = "webhook_deliveries"
    __table_args__ = (Index("ix_webhook_deliveries_webhook_created", "webhook_id", "created_at"),)

    id = id_column()
    webhook_id = db.Column(String(36), ForeignKey("webhooks.id", ondelete="CASCADE"), nullable=False)
    message_id = db.Column(String(64), nullable=False)
    event_type = db.Column(String(32), nullable=False)
    body = db.Column(Text, nullable=False)
    attempt = db.Column(Integer, nullable=False)
    status_code = db.Column(Integer, nullable=True)
    duration_ms = db.Column(Integer, nullable=False)
    error = db.Column(Text, nullable=True)
    response_snippet = db.Column(Text, nullable=True)
    succeeded = db.Column(Boolean, nullable=False)
    created_at = db.Column(UTCDateTime, nullable=False, default=utcnow)
