"""/api/organizations/{id}/audit: the organization's audit log, newest first."""

from flask import Blueprint

from loko.audit import service
from loko.audit.schemas import AuditPage, AuditQuery
from loko.auth.identity import current_actor
from loko.http import load_query
from loko.openapi import documented

audit_api = Blueprint("audit_api", __name__)


@audit_api.get("/organizations/<uuid:organization_id>/audit")
@documented(
    "The organization's audit log, newest first, with cursor pagination (owner or admin)",
    tags=("audit",),
    auth=("session",),
    query=AuditQuery,
    responses={200: AuditPage},
    description="Sign-ins and failed sign-ins, members, roles, invitations, API keys, settings and "
    "links, repository, machine translation provider and webhook configuration, projects "
    "created and deleted, whole-project exports by an API key, glossary terms and imports, "
    "file imports, pre-translations, and languages and files deleted. `kind` filters by area, "
    "`action` by prefix; sign-ins (`auth`) are listed only when one of them asks for them. "
    "`from` and `to` take a day or a moment. Events are kept `LOKO_AUDIT_RETENTION_DAYS`.",
)
def list_audit_events(organization_id):
    query = load_query(AuditQuery)
    limit, cursor = query.pop("limit"), query.pop("cursor", None)
    events, next_cursor = service.list_events(current_actor(), str(organization_id), query, limit, cursor)
    return AuditPage().dump({"events": events, "next_cursor": next_cursor})
