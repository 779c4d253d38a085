"""/api/organizations/{id}/glossary (terms, import, export) and
/api/projects/{id}/glossary/matches."""

from flask import Blueprint, current_app

from loko.auth.identity import current_actor
from loko.auth.schemas import SuccessOut
from loko.glossary import service
from loko.glossary.schemas import (
    GlossaryExportQuery,
    GlossaryImportIn,
    GlossaryImportResultOut,
    GlossaryMatchesOut,
    GlossaryMatchesQuery,
    GlossaryTermCreate,
    GlossaryTermEnvelope,
    GlossaryTermList,
    GlossaryTermPatch,
    GlossaryTermsQuery,
)
from loko.http import allow_body_up_to, load_body, load_query
from loko.openapi import documented

glossary_api = Blueprint("glossary_api", __name__)
BASE = "/organizations/<uuid:organization_id>/glossary"
ONE = BASE + "/terms/<uuid:term_id>"
TAGS = ("glossary",)
SESSION = ("session",)


@glossary_api.get(BASE + "/terms")
@documented(
    "The organization's glossary terms (any member), a page at a time",
    tags=TAGS,
    auth=SESSION,
    query=GlossaryTermsQuery,
    responses={200: GlossaryTermList},
)
def list_terms(organization_id):
    return GlossaryTermList().dump(
        service.list_terms(current_actor(), str(organization_id), load_query(GlossaryTermsQuery))
    )


@glossary_api.post(BASE + "/terms")
@documented(
    "Add a glossary term (owner or admin)",
    tags=TAGS,
    auth=SESSION,
    body=GlossaryTermCreate,
    responses={201: GlossaryTermEnvelope},
    errors=(400, 401, 403, 404, 409),
    description="A term is unique in its language (409). A term has at most one allowed "
    "translation per language (400 naming the item otherwise: JSON Schema cannot compare items "
    "by two of their properties) and up to 50 translations; a glossary up to 10,000 terms.",
)
def create_term(organization_id):
    term = service.create_term(current_actor(), str(organization_id), load_body(GlossaryTermCreate))
    return GlossaryTermEnvelope().dump({"term": term}), 201


@glossary_api.get(ONE)
@documented("One glossary term (any member)", tags=TAGS, auth=SESSION, responses={200: GlossaryTermEnvelope})
def get_term(organization_id, term_id):
    return GlossaryTermEnvelope().dump(
        {"term": service.get_term(current_actor(), str(organization_id), str(term_id))}
    )


@glossary_api.patch(ONE)
@documented(
    "Change a glossary term (owner or admin)",
    tags=TAGS,
    auth=SESSION,
    body=GlossaryTermPatch,
    responses={200: GlossaryTermEnvelope},
    errors=(400, 401, 403, 404, 409),
    description="A term is unique in its language (409). `translations` replaces the whole list: "
    "up to 50, at most one allowed (not forbidden) translation per language (400 naming the item "
    "otherwise: JSON Schema cannot compare items by two of their properties).",
)
def update_term(organization_id, term_id):
    data = load_body(GlossaryTermPatch)
    term = service.update_term(current_actor(), str(organization_id), str(term_id), data)
    return GlossaryTermEnvelope().dump({"term": term})


@glossary_api.delete(ONE)
@documented("Delete a glossary term (owner or admin)", tags=TAGS, auth=SESSION, responses={200: SuccessOut})
def delete_term(organization_id, term_id):
    service.delete_term(current_actor(), str(organization_id), str(term_id))
    return SuccessOut().dump({"success": True})


@glossary_api.post(BASE + "/import")
@documented(
    "Import a CSV or TBX glossary file (owner or admin; dry run: the same counts, nothing written)",
    tags=TAGS,
    auth=SESSION,
    body=GlossaryImportIn,
    responses={200: GlossaryImportResultOut},
    errors=(400, 401, 403, 404, 413),
    description="One transaction: every entry is checked before anything is written, and any "
    "refusal (a line that does not parse, a term over 200 characters, an unknown language code, "
    "XML with a DTD or entities, more than 10,000 terms) is a 400 naming the line that writes "
    "nothing. `merge` adds and changes terms; `replace` also deletes those the file lacks.",
)
def import_glossary(organization_id):
    allow_body_up_to("LOKO_MAX_IMPORT_MB")
    return GlossaryImportResultOut().dump(
        service.import_glossary(current_actor(), str(organization_id), load_body(GlossaryImportIn))
    )


@glossary_api.get(BASE + "/export")
@documented(
    "Export the glossary as CSV or TBX (any member)",
    tags=TAGS,
    auth=SESSION,
    query=GlossaryExportQuery,
    responses={
        200: {
            "description": "The glossary file.",
            "content": {
                "text/csv": {"schema": {"type": "string"}},
                "application/x-tbx+xml": {"schema": {"type": "string"}},
            },
        }
    },
)
def export_glossary(organization_id):
    query = load_query(GlossaryExportQuery)
    body, media_type, name = service.export_glossary(
        current_actor(), str(organization_id), query["format"], query.get("sourceLanguage")
    )
    response = current_app.response_class(body, content_type=media_type)
    response.headers["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


@glossary_api.get("/projects/<uuid:project_id>/glossary/matches")
@documented(
    "The glossary terms found in source texts, with their translations",
    tags=TAGS,
    query=GlossaryMatchesQuery,
    responses={200: GlossaryMatchesOut},
    description="For each `text` (up to 200), the terms of the project's organization glossary in "
    "the project's source language found in it as whole words, with the expected translation in "
    "`language` and the forbidden ones. Whoever sees the project's translations, a read key too.",
)
def glossary_matches(project_id):
    query = load_query(GlossaryMatchesQuery)
    matches = service.project_matches(current_actor(), str(project_id), query["text"], query.get("language"))
    return GlossaryMatchesOut().dump({"matches": matches})
