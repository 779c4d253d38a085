"""/api/projects/{id}/releases: named moments of a project's history, and their comparison.
A release's export is the export endpoint's with ``?release=<name>``."""

from flask import Blueprint

from loko.auth.identity import current_actor
from loko.auth.schemas import SuccessOut
from loko.http import load_body, load_query
from loko.openapi import documented
from loko.releases import service
from loko.releases.schemas import CompareQuery, ReleaseComparison, ReleaseCreate, ReleaseEnvelope, ReleaseList

releases_api = Blueprint("releases_api", __name__)
RELEASES = "/projects/<uuid:project_id>/releases"
RELEASE = RELEASES + "/<name>"
TAGS = ("releases",)


@releases_api.get(RELEASES)
@documented(
    "A project's releases, newest moment first",
    tags=TAGS,
    responses={200: ReleaseList},
    errors=(401, 403, 404),
    description="Whoever sees the project's translations (a read key too).",
)
def list_releases(project_id):
    return ReleaseList().dump({"releases": service.list_releases(current_actor(), str(project_id))})


@releases_api.post(RELEASES)
@documented(
    "Name a moment of the project's history",
    tags=TAGS,
    body=ReleaseCreate,
    responses={201: ReleaseEnvelope},
    errors=(400, 401, 403, 404, 409),
    description="The project's admins (the organization's owners and admins too) and write keys. "
    "`asOf` as the export takes it (an instant or an operation id), now when left out; 400 names "
    "`asOf` for an instant in the future or before the project existed, or an unknown operation; "
    "409 names `name` when the project has a release of that name. While the optional string "
    "freeze holds, the source language's texts change only for the project's admins.",
)
def create_release(project_id):
    data = load_body(ReleaseCreate)
    release = service.create_release(current_actor(), str(project_id), data)
    return ReleaseEnvelope().dump({"release": release}), 201


@releases_api.get(RELEASE)
@documented("One release", tags=TAGS, responses={200: ReleaseEnvelope}, errors=(401, 403, 404))
def get_release(project_id, name):
    return ReleaseEnvelope().dump({"release": service.get_release(current_actor(), str(project_id), name)})


@releases_api.delete(RELEASE)
@documented(
    "Delete a release",
    tags=TAGS,
    responses={200: SuccessOut},
    errors=(401, 403, 404),
    description="Who may create releases; the history it named stays, and its freeze ends.",
)
def delete_release(project_id, name):
    service.delete_release(current_actor(), str(project_id), name)
    return SuccessOut().dump({"success": True})


@releases_api.get(RELEASE + "/compare")
@documented(
    "What changed from a release to another, or to now",
    tags=TAGS,
    query=CompareQuery,
    responses={200: ReleaseComparison},
    errors=(400, 401, 403, 404),
    description="Keys added and removed, and per language the values added, removed and "
    "changed (each list up to 1,000 items, `counts` complete). 404 names `with` for an "
    "unknown other release.",
)
def compare_releases(project_id, name):
    query = load_query(CompareQuery)
    result = service.compare_releases(current_actor(), str(project_id), name, query.get("with"))
    return ReleaseComparison().dump(result)
