"""The audit log: writing an event in the caller's transaction (``record`` and its variants
for a project's and for a user's organizations), reading an organization's log, and deleting
the events older than the retention.

Details never hold a secret: the callers pass names, roles, field names and addresses without
their credentials (``safe_url``), and ``record`` drops any key whose name speaks of a
password, token, secret or key value before writing (``scrubbed``)."""

from datetime import timedelta
from urllib.parse import urlsplit, urlunsplit

import orjson
from flask import current_app, has_request_context, request
from sqlalchemy import bindparam, func, insert, literal, select, text

from loko import events
from loko.audit.models import KINDS_APART, AuditEvent
from loko.auth import policy
from loko.auth.actors import ApiKeyActor, SystemActor, UserActor
from loko.database import DriverQuery, driver_execute, driver_timestamp, unit_of_work, utcnow, write_gate
from loko.events import Target, user_target  # noqa: F401 - the callers' audit.user_target
from loko.extensions import db
from loko.organizations.models import OrganizationMember
from loko.projects.models import Project

AUDIT = AuditEvent.__table__
MAX_LABEL = 320
MAX_TEXT = 200
MAX_DETAILS = 4000
FILES_NAMED = 20  # an import's files named in its event; the others are counted
# Details' keys that would name a secret; such an entry is never written.
SECRET_WORDS = ("password", "token", "secret", "apikey", "api_key", "hash", "encrypted", "credential")


def project_target(project) -> Target:
    return Target("project", project.id, project.name)


def safe_url(url: str | None) -> str | None:
    """``url`` without its user, password, query and fragment (where credentials hide)."""
    if not url:
        return url
    try:
        parts = urlsplit(url)
        host = parts.hostname or ""
        port = f":{parts.port}" if parts.port else ""
    except ValueError:
        return None
    if ":" in host:
        host = f"[{host}]"
    return urlunsplit((parts.scheme, host + port, parts.path, "", ""))


def scrubbed(details):
    """``details`` without the entries whose key names a secret, and with long texts cut."""
    if isinstance(details, dict):
        return {
            str(key): scrubbed(value)
            for key, value in details.items()
            if not any(word in str(key).lower().replace("-", "_") for word in SECRET_WORDS)
        }
    if isinstance(details, list | tuple):
        return [scrubbed(value) for value in details]
    if isinstance(details, str) and len(details) > MAX_TEXT:
        return details[: MAX_TEXT - 1] + "…"
    return details


def _details_json(details: dict | None) -> str:
    text = orjson.dumps(scrubbed(details or {}), default=str).decode()
    if len(text) > MAX_DETAILS:
        return orjson.dumps({"truncated": True}).decode()
    return text


def _actor_columns(actor) -> dict:
    if isinstance(actor, UserActor):
        return {"actor_type": "user", "actor_id": actor.id, "actor_name": actor.email}
    if isinstance(actor, ApiKeyActor):
        return {"actor_type": "api_key", "actor_id": actor.id, "actor_name": actor.name}
    if isinstance(actor, SystemActor):
        return {"actor_type": "system", "actor_id": actor.id, "actor_name": actor.name}
    return {"actor_type": "anonymous", "actor_id": None, "actor_name": None}


def _client_address() -> str | None:
    """The address of the request being answered (after the trusted proxy's rewrite), if any."""
    if not has_request_context():
        return None
    return (request.remote_addr or "")[:45] or None


def _values(actor, action: str, target: Target | None, details: dict | None) -> dict:
    target = target or Target(None, None, None)
    return {
        "created_at": utcnow(),
        "action": action,
        **_actor_columns(actor),
        "target_type": target.type,
        "target_id": target.id,
        "target_label": (target.label or "")[:MAX_LABEL] or None,
        "ip_address": _client_address(),
        "details": _details_json(details),
    }


def record(actor, organization_id: str, action: str, target: Target | None = None, details=None) -> None:
    """Write one event of ``organization_id`` in the caller's transaction: ``actor`` (a user,
    an API key, Loko itself, or None for an anonymous caller) did ``action`` (``area.verb``,
    e.g. ``organization.member_role_changed``) to ``target``; ``details`` is a small dict."""
    db.session.execute(
        insert(AUDIT).values(organization_id=organization_id, **_values(actor, action, target, details))
    )


def record_for_project(actor, project, action: str, target: Target | None = None, details=None) -> None:
    """``record`` in the organization of ``project`` (a Project), naming the project in the
    details."""
    details = {"project": {"id": project.id, "name": project.name}, **(details or {})}
    record(actor, project.organization_id, action, target or project_target(project), details)


def record_for_project_id(actor, project_id: str, action: str, target: Target | None = None, details=None):
    """``record_for_project`` for a project known by its id (loaded from the session)."""
    record_for_project(actor, db.session.get(Project, project_id), action, target, details)


def record_for_user(actor, user_id: str, action: str, target: Target | None = None, details=None) -> None:
    """``record`` once in each organization ``user_id`` belongs to (one INSERT ... SELECT);
    nothing when they belong to none."""
    values = _values(actor, action, target, details)
    columns = ["organization_id", *values]
    chosen = select(
        OrganizationMember.organization_id,
        *(literal(value, AUDIT.c[name].type) for name, value in values.items()),
    ).where(OrganizationMember.user_id == user_id)
    db.session.execute(insert(AUDIT).from_select(columns, chosen))


def record_term(actor, term, action: str, fields=None) -> None:
    """A glossary term (a GlossaryTerm) created, changed (``fields``: the names of the fields
    given) or deleted, in its organization."""
    details = {"term": term.term, "language": term.language}
    if fields is not None:
        details["fields"] = sorted(fields)
    record(actor, term.organization_id, action, Target("glossary_term", term.id, term.term), details)


def record_import(actor, project_id: str, files: dict, summary: dict, operation_id: str) -> None:
    """A file import that changed something: its files (``{file name: languages}``, the first
    ``FILES_NAMED`` by name), its summary and the operation that undoes it."""
    named = sorted(files)[:FILES_NAMED]
    details = {
        "files": [{"fileName": name, "languages": sorted(files[name])} for name in named],
        "fileCount": len(files),
        **summary,
        "operationId": operation_id,
    }
    record_for_project_id(actor, project_id, "import.files", details=details)


class Auditor:
    """The audit log's listener to the audited actions of the core and the foundations
    (``loko.events``): a project's settings and members, a file or a language deleted, an
    undo, an organization's members and invitations, sign-ins."""

    @staticmethod
    def in_project(actor, project, action: str, target: Target | None, details: dict | None) -> None:
        if isinstance(project, str):
            record_for_project_id(actor, project, action, target, details)
        else:
            record_for_project(actor, project, action, target, details)

    in_organization = staticmethod(record)
    for_user = staticmethod(record_for_user)


AUDITOR = Auditor()


def start_listening() -> None:
    events.listen_to_audited(AUDITOR)


# The columns an export's event sets, in order; its organization and label come from the
# project's row. Compiled once and run on the driver: the export is a hot path.
EXPORT_COLUMNS = (
    "created_at",
    "action",
    "actor_type",
    "actor_id",
    "actor_name",
    "target_type",
    "target_id",
    "ip_address",
    "details",
)
_EXPORT_SELECT = select(
    Project.organization_id,
    Project.name,
    *(bindparam(name, type_=AUDIT.c[name].type) for name in EXPORT_COLUMNS),
).where(Project.id == bindparam("project_id"))
EXPORT_EVENT = DriverQuery(
    insert(AUDIT).from_select(["organization_id", "target_label", *EXPORT_COLUMNS], _EXPORT_SELECT)
)
# On PostgreSQL, run as a transaction of its own (autocommit) whose commit does not wait for
# the disk: PostgreSQL's WAL writer flushes it within a fraction of a second.
EXPORT_EVENT_UNSYNCED = DriverQuery(
    insert(AUDIT).from_select(
        ["organization_id", "target_label", *EXPORT_COLUMNS],
        _EXPORT_SELECT.where(text("set_config('synchronous_commit', 'off', true) = 'off'")),
    )
)


def record_full_export(actor, project_id: str, details: dict) -> None:
    """An export of a whole project by an API key: one INSERT ... SELECT in a transaction of
    its own, as the export reads in a snapshot that is never committed. On PostgreSQL its
    commit does not wait for the disk (a crash in the next fraction of a second may lose the
    event), so that the export does not wait either."""
    values = _values(actor, "export.full", Target("project", project_id, None), details)
    parameters = {name: values[name] for name in EXPORT_COLUMNS} | {"project_id": project_id}
    parameters["created_at"] = driver_timestamp(values["created_at"])
    if db.engine.dialect.name == "postgresql":
        with db.engine.connect() as connection:
            connection.execution_options(isolation_level="AUTOCOMMIT")
            driver_execute(connection, *EXPORT_EVENT_UNSYNCED.arguments(connection.dialect, parameters))
        return
    across = current_app.config["LOKO_PROCESSES"] > 1
    with write_gate(db.engine, across), db.engine.connect() as connection:
        connection.execution_options(loko_write=True)
        with connection.begin():
            driver_execute(connection, *EXPORT_EVENT.arguments(connection.dialect, parameters))


# Reading


def _filtered(statement, organization_id: str, filters: dict):
    statement = statement.where(AuditEvent.organization_id == organization_id)
    if filters.get("kind"):
        statement = statement.where(AuditEvent.action.startswith(filters["kind"] + ".", autoescape=True))
    elif not filters.get("action"):
        for kind in KINDS_APART:
            statement = statement.where(~AuditEvent.action.startswith(kind + ".", autoescape=True))
    if filters.get("action"):
        statement = statement.where(AuditEvent.action.startswith(filters["action"], autoescape=True))
    if filters.get("actor"):
        statement = statement.where(AuditEvent.actor_id == filters["actor"])
    if filters.get("targetType"):
        statement = statement.where(AuditEvent.target_type == filters["targetType"])
    if filters.get("from") is not None:
        statement = statement.where(AuditEvent.created_at >= filters["from"])
    if filters.get("to") is not None:
        statement = statement.where(AuditEvent.created_at < filters["to"])
    return statement


def describe(event: AuditEvent) -> dict:
    return {
        "id": event.id,
        "action": event.action,
        "actor": {"type": event.actor_type, "id": event.actor_id, "name": event.actor_name},
        "target": {"type": event.target_type, "id": event.target_id, "label": event.target_label}
        if event.target_type
        else None,
        "ipAddress": event.ip_address,
        "details": orjson.loads(event.details),
        "createdAt": event.created_at,
    }


def list_events(
    actor, organization_id: str, filters: dict, limit: int, cursor: int | None = None
) -> tuple[list[dict], str | None]:
    """The organization's events, newest first, ``limit`` at a time after ``cursor`` (the id
    of the last event of the previous page); returns them and the next page's cursor.
    NotFound for non-members, Forbidden for members and API keys."""
    policy.require_organization_permission(actor, organization_id, policy.VIEW_AUDIT)
    statement = _filtered(select(AuditEvent), organization_id, filters)
    if cursor is not None:
        statement = statement.where(AuditEvent.id < cursor)
    rows = list(db.session.scalars(statement.order_by(AuditEvent.id.desc()).limit(limit + 1)))
    next_cursor = str(rows[limit - 1].id) if len(rows) > limit else None
    return [describe(event) for event in rows[:limit]], next_cursor


MAX_ACTORS = 200


def list_actors(actor, organization_id: str) -> list[dict]:
    """Who appears in the organization's log, ``{type, id, name}`` by name (at most
    ``MAX_ACTORS``), for the page's filter; Forbidden or NotFound as ``list_events``."""
    policy.require_organization_permission(actor, organization_id, policy.VIEW_AUDIT)
    rows = db.session.execute(
        select(AuditEvent.actor_type, AuditEvent.actor_id, func.max(AuditEvent.actor_name))
        .where(AuditEvent.organization_id == organization_id, AuditEvent.actor_id.is_not(None))
        .group_by(AuditEvent.actor_type, AuditEvent.actor_id)
        .order_by(func.max(AuditEvent.actor_name))
        .limit(MAX_ACTORS)
    ).all()
    return [{"type": kind, "id": actor_id, "name": name} for kind, actor_id, name in rows]


def prune(kept: timedelta) -> int:
    """Delete the events older than ``kept``, in one statement; how many."""
    with unit_of_work():
        return db.session.execute(AUDIT.delete().where(AUDIT.c.created_at < utcnow() - kept)).rowcount
