from flask import Blueprint

from loko.auth.identity import current_actor
from loko.auth.schemas import SuccessOut
from loko.http import load_body
from loko.openapi import documented
from loko.organizations import service
from loko.organizations.schemas import (
    MemberAdd,
    MemberEnvelope,
    MemberList,
    MemberRole,
    OrganizationCreate,
    OrganizationEnvelope,
    OrganizationList,
    OrganizationRename,
)

organizations_api = Blueprint("organizations_api", __name__)
TAGS = ("organizations",)


@organizations_api.get("/organizations")
@documented(
    "Organizations the signed-in user belongs to",
    tags=TAGS,
    auth=("session",),
    responses={200: OrganizationList},
    errors=(401, 403),
)
def list_organizations():
    return OrganizationList().dump({"organizations": service.list_organizations(current_actor())})


@organizations_api.post("/organizations")
@documented(
    "Create an organization owned by the caller",
    tags=TAGS,
    auth=("session",),
    body=OrganizationCreate,
    responses={201: OrganizationEnvelope},
    errors=(400, 401, 403),
)
def create_organization():
    data = load_body(OrganizationCreate)
    organization = service.create_organization(current_actor(), data["name"])
    return OrganizationEnvelope().dump({"organization": organization}), 201


@organizations_api.put("/organizations/<uuid:organization_id>")
@documented(
    "Rename an organization (owner or admin)",
    tags=TAGS,
    auth=("session",),
    body=OrganizationRename,
    responses={200: OrganizationEnvelope},
    errors=(400, 401, 403, 404),
)
def rename_organization(organization_id):
    name = load_body(OrganizationRename)["name"]
    organization = service.rename_organization(current_actor(), str(organization_id), name)
    return OrganizationEnvelope().dump({"organization": organization})


@organizations_api.delete("/organizations/<uuid:organization_id>")
@documented(
    "Delete an organization with all its projects (owner only)",
    tags=TAGS,
    auth=("session",),
    responses={200: SuccessOut},
    errors=(401, 403, 404),
    description="Removes its projects (with everything in them), memberships and invitations; "
    "projects of other organizations linking to its projects are unlinked.",
)
def delete_organization(organization_id):
    service.delete_organization(current_actor(), str(organization_id))
    return {"success": True}


@organizations_api.get("/organizations/<uuid:organization_id>/members")
@documented(
    "Members of an organization",
    tags=TAGS,
    auth=("session",),
    responses={200: MemberList},
    errors=(401, 403, 404),
)
def list_members(organization_id):
    members = service.list_members(current_actor(), str(organization_id))
    return MemberList().dump({"members": members})


@organizations_api.post("/organizations/<uuid:organization_id>/members")
@documented(
    "Add an existing user to an organization (owner or admin)",
    tags=TAGS,
    auth=("session",),
    body=MemberAdd,
    responses={201: MemberEnvelope},
    errors=(400, 401, 403, 404, 409),
)
def add_member(organization_id):
    data = load_body(MemberAdd)
    member = service.add_member(current_actor(), str(organization_id), data["email"], data["role"])
    return MemberEnvelope().dump({"member": member}), 201


@organizations_api.put("/organizations/<uuid:organization_id>/members/<uuid:user_id>")
@documented(
    "Change a member's organization role (owner or admin; only an owner touches owners)",
    tags=TAGS,
    auth=("session",),
    body=MemberRole,
    responses={200: MemberEnvelope},
    errors=(400, 401, 403, 404, 409),
    description="The last owner cannot stop being an owner (409).",
)
def change_member_role(organization_id, user_id):
    role = load_body(MemberRole)["role"]
    member = service.change_member_role(current_actor(), str(organization_id), str(user_id), role)
    return MemberEnvelope().dump({"member": member})


@organizations_api.delete("/organizations/<uuid:organization_id>/members/<uuid:user_id>")
@documented(
    "Remove a member (owner or admin); the last owner cannot be removed",
    tags=TAGS,
    auth=("session",),
    responses={200: SuccessOut},
    errors=(401, 403, 404, 409),
)
def remove_member(organization_id, user_id):
    service.remove_member(current_actor(), str(organization_id), str(user_id))
    return {"success": True}
