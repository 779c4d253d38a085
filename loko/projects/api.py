from flask import Blueprint

from loko.auth.identity import current_actor
from loko.auth.schemas import SuccessOut
from loko.http import load_body
from loko.openapi import documented
from loko.projects import service
from loko.projects.schemas import (
    ProjectCreate,
    ProjectEnvelope,
    ProjectList,
    ProjectMemberEnvelope,
    ProjectMemberSet,
    ProjectUpdate,
)

projects_api = Blueprint("projects_api", __name__)
TAGS = ("projects",)


@projects_api.get("/projects")
@documented(
    "Projects visible to the caller (an API key sees its own project)",
    tags=TAGS,
    responses={200: ProjectList},
    errors=(401,),
)
def list_projects():
    return ProjectList().dump({"projects": service.list_projects(current_actor())})


@projects_api.post("/projects")
@documented(
    "Create a project in an organization (organization owner or admin)",
    tags=TAGS,
    auth=("session",),
    body=ProjectCreate,
    responses={201: ProjectEnvelope},
    errors=(400, 401, 403, 404),
)
def create_project():
    data = load_body(ProjectCreate)
    view = service.create_project(current_actor(), **data)
    return ProjectEnvelope().dump({"project": view}), 201


@projects_api.get("/projects/<uuid:project_id>")
@documented(
    "Project info and settings; the permission flags describe the caller",
    tags=TAGS,
    responses={200: ProjectEnvelope},
)
def get_project(project_id):
    view = service.get_project(current_actor(), str(project_id))
    return ProjectEnvelope().dump({"project": view})


@projects_api.put("/projects/<uuid:project_id>")
@documented(
    "Update name, description, emoji, source language, the linked project, the memory setting and "
    "whether the project is public (canEditProjects)",
    tags=TAGS,
    auth=("session",),
    body=ProjectUpdate,
    responses={200: ProjectEnvelope},
    description="linked_project_id, linked_language_code and linked_language_target_code go "
    "together: all three to link, all three null to unlink, or none of them to keep the link. "
    "These rules depend on stored data, so the schema cannot state them; a request that breaks "
    "one is answered 400: the linked project is another project of this project's organization "
    "that the caller can see (not this project), linked_language_code is one of its languages, "
    "linked_language_target_code one of this project's, and the link closes no cycle of linked "
    "projects. source_language must be one of this project's languages (400 naming the field "
    "otherwise). The read-only Project fields (id, organization_id, created_at and the can* "
    "flags) may be sent back as fetched; they are ignored.",
)
def update_project(project_id):
    changes = load_body(ProjectUpdate)
    view = service.update_project(current_actor(), str(project_id), changes)
    return ProjectEnvelope().dump({"project": view})


@projects_api.delete("/projects/<uuid:project_id>")
@documented(
    "Delete a project and everything in it (canDelete)",
    tags=TAGS,
    auth=("session",),
    responses={200: SuccessOut},
)
def delete_project(project_id):
    service.delete_project(current_actor(), str(project_id))
    return {"success": True}


@projects_api.put("/projects/<uuid:project_id>/members/<uuid:user_id>")
@documented(
    "Set the project role of an organization member, and the languages an editor or reviewer "
    "may write (canEditProjects)",
    tags=TAGS,
    auth=("session",),
    body=ProjectMemberSet,
    responses={200: ProjectMemberEnvelope},
)
def set_member_role(project_id, user_id):
    data = load_body(ProjectMemberSet)
    member = service.set_member_role(current_actor(), str(project_id), str(user_id), **data)
    return ProjectMemberEnvelope().dump({"member": member})
