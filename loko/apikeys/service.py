"""Project API keys: created by signed-in project editors, shown in full only once."""

from loko.apikeys.models import ApiKey
from loko.audit import service as audit
from loko.auth import policy
from loko.auth.models import User
from loko.auth.tokens import new_api_key, token_hash
from loko.database import unit_of_work, utcnow
from loko.errors import NotFound
from loko.extensions import db

PREFIX_LENGTH = 12


def create_api_key(actor, project_id: str, name: str, scope: str = "write") -> tuple[str, ApiKey]:
    """Create a key and return ``(full_key, record)``; the full key is not stored."""
    with unit_of_work():
        policy.require_permission(actor, project_id, policy.EDIT_PROJECTS)
        key, record = issue_api_key(project_id, name, scope, created_by=actor.id)
        audit.record_for_project_id(actor, project_id, "api_key.created", _target(record), _details(record))
        return key, record


def _target(record: ApiKey) -> audit.Target:
    return audit.Target("api_key", record.id, record.name)


def _details(record: ApiKey) -> dict:
    return {"scope": record.scope, "prefix": record.prefix}


def issue_api_key(project_id: str, name: str, scope: str, created_by: str | None) -> tuple[str, ApiKey]:
    """Insert a new key for a project (inside the caller's transaction)."""
    key = new_api_key()
    record = ApiKey(
        project_id=project_id,
        name=name,
        prefix=key[:PREFIX_LENGTH],
        key_hash=token_hash(key),
        scope=scope,
        created_by=created_by,
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
    return [{"key": key, "creator": creator} for key, creator in rows]


def revoke_api_key(actor, project_id: str, key_id: str) -> None:
    """Revoke a key at once; NotFound when it is not a live key of this project."""
    with unit_of_work():
        policy.require_permission(actor, project_id, policy.EDIT_PROJECTS)
        record = db.session.get(ApiKey, key_id)
        if record is None or record.project_id != project_id or record.revoked_at is not None:
            raise NotFound("API key not found.")
        record.revoked_at = utcnow()
        audit.record_for_project_id(actor, project_id, "api_key.revoked", _target(record), _details(record))
