from sqlalchemy import ForeignKey, String

from loko.database import UTCDateTime, utcnow
from loko.extensions import db


class McpSession(db.Model):
    """A session opened by an MCP client with ``initialize`` (protocol revisions up to
    2025-11-25). Kept in the database so every ``loko serve`` process can resume it;
    ``id`` is the SHA-256 of the ``Mcp-Session-Id`` token, never the token itself."""

    __tablename__ = "mcp_sessions"

    id = db.Column(String(64), primary_key=True)
    api_key_id = db.Column(
        String(36), ForeignKey("api_keys.id", ondelete="CASCADE"), nullable=False, index=True
    )
    protocol_version = db.Column(String(32), nullable=False)
    created_at = db.Column(UTCDateTime, nullable=False, default=utcnow)
    expires_at = db.Column(UTCDateTime, nullable=False)
    last_seen_at = db.Column(UTCDateTime, nullable=True)
