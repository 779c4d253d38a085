"""Pages: an organization's audit log, with the filters of /api/organizations/{id}/audit as
a GET form (owners and admins)."""

from flask import Blueprint, current_app, request
from flask_babel import lazy_gettext

from loko.audit import service
from loko.audit.models import TARGET_TYPES
from loko.audit.schemas import AuditQuery
from loko.auth.policy import VIEW_AUDIT
from loko.organizations.service import get_organization
from loko.web.pages import page_query, page_user, render_page

audit_ui = Blueprint("audit_ui", __name__)
FILTERS = ("kind", "action", "actor", "targetType", "from", "to")
PAGE_SIZE = 50
# The actions' areas, for the page's action filter (a prefix); sign-ins are listed only when
# chosen here.
ACTION_AREAS = (
    ("auth.", lazy_gettext("Sign-ins and sign-outs")),
    ("organization.", lazy_gettext("Organization members and settings")),
    ("invitation.", lazy_gettext("Invitations")),
    ("project.", lazy_gettext("Projects, their settings, links and roles")),
    ("api_key.", lazy_gettext("API keys")),
    ("repository.", lazy_gettext("Repository integration")),
    ("machine_provider.", lazy_gettext("Machine translation providers")),
    ("webhook.", lazy_gettext("Webhooks")),
    ("export.", lazy_gettext("Exports by API keys")),
    ("glossary.", lazy_gettext("Glossary terms and imports")),
    ("import.", lazy_gettext("File imports")),
    ("pretranslation.", lazy_gettext("Pre-translations")),
    ("undo.", lazy_gettext("Undos")),
    ("language.", lazy_gettext("Languages deleted")),
    ("file.", lazy_gettext("Files deleted")),
)


# What each target type is called on the page.
TARGET_LABELS = {
    "user": lazy_gettext("User"),
    "organization": lazy_gettext("Organization"),
    "invitation": lazy_gettext("Invitation"),
    "project": lazy_gettext("Project"),
    "api_key": lazy_gettext("API key"),
    "repository": lazy_gettext("Repository"),
    "machine_provider": lazy_gettext("Machine translation provider"),
    "webhook": lazy_gettext("Webhook"),
    "glossary_term": lazy_gettext("Glossary term"),
    "language": lazy_gettext("Language"),
    "file": lazy_gettext("File"),
}


@audit_ui.get("/orgs/<uuid:organization_id>/audit")
def audit_log(organization_id):
    actor, organization_id = page_user(), str(organization_id)
    organization = get_organization(actor, organization_id, VIEW_AUDIT)
    query = page_query(AuditQuery, request.args, (*FILTERS, "cursor"), limit=PAGE_SIZE)
    cursor = query.pop("cursor", None)
    query.pop("limit")
    events, older = service.list_events(actor, organization_id, query, PAGE_SIZE, cursor)
    chosen = {name: request.args[name] for name in FILTERS if name in query}
    return render_page(
        "audit/log.html",
        organization=organization,
        events=events,
        chosen=chosen,
        cursor=cursor,
        older=older,
        actors=service.list_actors(actor, organization_id),
        areas=ACTION_AREAS,
        target_types=TARGET_TYPES,
        target_labels=TARGET_LABELS,
        retention_days=current_app.config["LOKO_AUDIT_RETENTION_DAYS"],
    )
