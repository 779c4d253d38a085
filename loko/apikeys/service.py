"""Project API keys: created by signed-in project editors, shown in full only once."""

from loko.apikeys.models import ApiKey
from loko.audit import service as audit
from loko.auth import policy
from loko.auth.models import User
from loko.auth.tokens import new_api_key, token_hash
from loko.database import unit_of_work, utcnow
from loko.errors import BadRequest, NotFound
from loko.extensions import db
from loko.projects.service import require_project_languages

PREFIX_LENGTH = 12


def create_api_key(
    actor, project_id: str, name: str, scope: str = "write", expires_at=None, languages=None
) -> tuple[str, ApiKey]:
    """Create a key and return ``(full_key, record)``; the full key is not stored. BadRequest
    for an expiry not in the future, a language limit on a read key or a language the
    project does not have."""
    with unit_of_work():
        policy.require_permission(actor, project_id, policy.EDIT_PROJECTS)
        if expires_at is not None and expires_at <= utcnow():
            raise BadRequest("expiresAt: must be in the future.")
        if languages and scope != "write":
            raise BadRequest(
                "languages: only a write key can be limited to languages (a read key writes none)."
            )
        require_project_languages(project_id, languages or [])
        key, record = issue_api_key(
            project_id, name, scope, created_by=actor.id, expires_at=expires_at, languages=languages
        )
        audit.record_for_project_id(actor, project_id, "api_key.created", _target(record), _details(record))
        return key, record


def _target(record: ApiKey) -> audit.Target:
    return audit.Target("api_key", record.id, record.name)


def _details(record: ApiKey) -> dict:
    details = {"scope": record.scope, "prefix": record.prefix}
    if record.expires_at is not None:
        details["expiresAt"] = record.expires_at.isoformat()
    if record.languages:
        details["languages"] = record.languages
    return details


def issue_api_key(
    project_id: str, name: str, scope: str, created_by: str | None, expires_at=None, languages=None
) -> tuple[str, ApiKey]:
    """Insert a new key for a project (inside the caller's transaction)."""
    key = new_api_key()
    record = ApiKey(
        project_id=project_id,
        name=name,
        prefix=key[:PREFIX_LENGTH],
        key_hash=token_hash(key),
        scope=scope,
        created_by=created_by,
        expires_at=expires_at,
        languages=policy.languages_column(languages),
    )
    db.session.add(record)
    db.session.flush()
    return key, record


def list_api_keys(actor, project_id: str) -> list[dict]:
    policy.require_permission(actor, project_id, policy.EDIT_PROJECTS)
    rows = db.session.execute(
        db.select(ApiKey, User)
        .outerjoin(User, User.id == ApiKey.created_by)
        .where(ApiKey.project_id == project_id, ApiKey.revoked_at.is_(None))
        .order_by(ApiKey.created_at, ApiKey.id)
    ).all()
    now = utcnow()
    return [
        {
            "key": key,
            "creator": creator,
            "expired": key.expires_at is not None and key.expires_at <= now,
            "languages": _sorted(policy.stored_languages(key.languages)),
        }
        for key, creator in rows
    ]


def _sorted(codes):
    return None if codes is None else sorted(codes)


def revoke_api_key(actor, project_id: str, key_id: str) -> None:
    """Revoke a key at once; NotFound when it is not a live key of this project."""
    with unit_of_work():
        policy.require_permission(actor, project_id, policy.EDIT_PROJECTS)
        record = db.session.get(ApiKey, key_id)
        if record is None or record.project_id != project_id or record.revoked_at is not None:
            raise NotFound("API key not found.")
        record.revoked_at = utcnow()
        audit.record_for_project_id(actor, project_id, "api_key.revoked", _target(record), _details(record))
