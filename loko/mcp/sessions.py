"""Sessions of MCP clients that use the ``initialize`` handshake (revisions up to
2025-11-25). A session id only names protocol state: every request is still
authenticated by its API key, and a session answers only to the key that opened it."""

from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy import delete, select, update

from loko.auth.actors import ApiKeyActor
from loko.auth.tokens import new_session_token, token_hash
from loko.database import unit_of_work, utcnow
from loko.errors import NotFound
from loko.extensions import db
from loko.mcp.models import McpSession

IDLE_LIFETIME = timedelta(hours=24)
TOUCH_RESOLUTION = timedelta(minutes=1)
NOT_FOUND = "MCP session not found or expired; send initialize to start a new one."


@dataclass(frozen=True)
class LegacySession:
    protocol_version: str


def open_session(actor: ApiKeyActor, protocol_version: str) -> str:
    """Start a session bound to the caller's key and return its ``Mcp-Session-Id``; the
    key's expired sessions are removed on the way."""
    token = new_session_token()
    now = utcnow()
    with unit_of_work():
        db.session.execute(
            delete(McpSession).where(McpSession.api_key_id == actor.id, McpSession.expires_at < now)
        )
        db.session.add(
            McpSession(
                id=token_hash(token),
                api_key_id=actor.id,
                protocol_version=protocol_version,
                created_at=now,
                expires_at=now + IDLE_LIFETIME,
                last_seen_at=now,
            )
        )
    return token


def resume_session(actor: ApiKeyActor, token: str) -> LegacySession:
    """The live session of this key named by ``token``, whose idle lifetime restarts
    (noted at most once a minute); NotFound when unknown, expired or another key's."""
    digest, now = token_hash(token), utcnow()
    row = db.session.execute(
        select(McpSession.protocol_version, McpSession.last_seen_at).where(
            McpSession.id == digest, McpSession.api_key_id == actor.id, McpSession.expires_at > now
        )
    ).first()
    if row is None:
        raise NotFound(NOT_FOUND)
    if row.last_seen_at is None or row.last_seen_at < now - TOUCH_RESOLUTION:
        with unit_of_work():
            db.session.execute(
                update(McpSession)
                .where(McpSession.id == digest)
                .values(last_seen_at=now, expires_at=now + IDLE_LIFETIME)
            )
    return LegacySession(row.protocol_version)


def end_session(actor: ApiKeyActor, token: str) -> None:
    """End a live session of this key; NotFound when unknown, expired or another key's."""
    with unit_of_work():
        ended = db.session.execute(
            delete(McpSession).where(
                McpSession.id == token_hash(token),
                McpSession.api_key_id == actor.id,
                McpSession.expires_at > utcnow(),
            )
        ).rowcount
    if not ended:
        raise NotFound(NOT_FOUND)
