"""/api/projects/{id}/memory (lookups) and /api/organizations/{id}/memory.tmx and
/memory/imports (TMX export and import)."""

from flask import Blueprint, Response

from loko.auth.identity import current_actor
from loko.http import allow_body_up_to, load_body, load_query
from loko.jobs.schemas import JobEnvelope
from loko.memory import service
from loko.memory.schemas import MemoryAnswer, MemoryImport, MemoryQuery
from loko.openapi import documented

memory_api = Blueprint("memory_api", __name__)
TAGS = ("translation memory",)
ORGANIZATION = "/organizations/<uuid:organization_id>/memory"


@memory_api.get("/projects/<uuid:project_id>/memory")
@documented(
    "Translation memory matches for a source text",
    tags=TAGS,
    query=MemoryQuery,
    responses={200: MemoryAnswer},
    errors=(400, 401, 403, 404, 409),
    description="Translations into `language` of texts like `text` (in the project's source "
    "language), best first, with a score of 0-100 (placeholders count as alike whatever their "
    "syntax). Whoever may see the project's translations may look up, and finds only what they "
    "may read: the values of the projects of the organization whose translations they may view "
    "(an owner or admin: every project; an API key: its own project; a role limited to some "
    "languages: those languages), and the organization's shared memory (the projects that share "
    "their values, `memory_shared`, and the TMX files imported into it) for its members and its "
    "projects' keys. 409 when the project has no source language or `language` is it.",
)
def lookup(project_id):
    query = load_query(MemoryQuery)
    answer = service.project_lookup(
        current_actor(), str(project_id), query["text"], query["language"], query["limit"], query["minScore"]
    )
    return MemoryAnswer().dump(answer)


@memory_api.get(ORGANIZATION + ".tmx")
@documented(
    "The organization's translation memory as a TMX 1.4 file (owner or admin)",
    tags=TAGS,
    auth=("session",),
    responses={200: None},
    errors=(401, 403, 404),
)
def export_tmx(organization_id):
    data = service.export_tmx(current_actor(), str(organization_id))
    return Response(
        data,
        mimetype="application/x-tmx+xml",
        headers={"Content-Disposition": 'attachment; filename="memory.tmx"'},
    )


@memory_api.post(ORGANIZATION + "/imports")
@documented(
    "Import a TMX file into the organization's translation memory (owner or admin)",
    tags=TAGS,
    auth=("session",),
    body=MemoryImport,
    responses={202: JobEnvelope},
    errors=(400, 401, 403, 404, 413),
    description="The TMX 1.4 file, base64-encoded in `file`. Answers 202 with the background job "
    "at once; its `result` is `{unitsAdded}`, or its `error` says why the file was refused (not "
    "TMX, an entity declaration or external reference, too many units). Follow it with "
    "`GET /api/organizations/{id}/memory/imports/{job}`.",
)
def import_tmx(organization_id):
    allow_body_up_to("LOKO_MAX_IMPORT_MB")
    data = load_body(MemoryImport)["file"]
    return JobEnvelope().dump(
        {"job": service.enqueue_import(current_actor(), str(organization_id), data)}
    ), 202


@memory_api.get(ORGANIZATION + "/imports/<job_id>")
@documented(
    "One TMX import of the organization (owner or admin)",
    tags=TAGS,
    auth=("session",),
    responses={200: JobEnvelope},
    errors=(401, 403, 404),
)
def import_job(organization_id, job_id):
    return JobEnvelope().dump({"job": service.import_job(current_actor(), str(organization_id), job_id)})
