from flask import Blueprint, current_app, url_for

from loko.auth.identity import current_actor
from loko.auth.schemas import SuccessOut
from loko.auth.signin import with_session_cookie
from loko.http import load_body
from loko.openapi import documented
from loko.organizations import service
from loko.organizations.schemas import (
    InvitationAccept,
    InvitationAccepted,
    InvitationCreate,
    InvitationCreated,
    InvitationList,
    InvitationSignedUp,
    InvitationSignup,
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


@organizations_api.post("/organizations/<uuid:organization_id>/invitations")
@documented(
    "Create a single-use invitation link to the organization (owner or admin)",
    tags=TAGS,
    auth=("session",),
    body=InvitationCreate,
    responses={201: InvitationCreated},
    errors=(400, 401, 403, 404),
    description="Whoever opens the link signs up (also when open sign-up is off) or signs in, "
    "and joins with `role`. The link expires after `expires_in_days` (1-30, default 7) and "
    "works once; it is returned only in this response (Loko keeps its hash). Only an owner "
    "may invite an owner.",
)
def create_invitation(organization_id):
    data = load_body(InvitationCreate)
    token, invitation = service.create_invitation(current_actor(), str(organization_id), **data)
    url = url_for("organizations_ui.join", token=token, _external=True)
    emailed = bool(data.get("email"))
    return InvitationCreated().dump(
        {"url": url, "token": token, "invitation": invitation, "emailed": emailed}
    ), 201


@organizations_api.get("/organizations/<uuid:organization_id>/invitations")
@documented(
    "Pending invitations of the organization (owner or admin)",
    tags=TAGS,
    auth=("session",),
    responses={200: InvitationList},
    errors=(401, 403, 404),
    description="Neither used, expired nor revoked; newest first. Links are never shown again.",
)
def list_invitations(organization_id):
    invitations = service.list_invitations(current_actor(), str(organization_id))
    return InvitationList().dump({"invitations": invitations})


@organizations_api.delete("/organizations/<uuid:organization_id>/invitations/<uuid:invitation_id>")
@documented(
    "Revoke a pending invitation; its link stops working at once (owner or admin)",
    tags=TAGS,
    auth=("session",),
    responses={200: SuccessOut},
    errors=(401, 403, 404),
)
def revoke_invitation(organization_id, invitation_id):
    service.revoke_invitation(current_actor(), str(organization_id), str(invitation_id))
    return {"success": True}


@organizations_api.post("/invitations/accept")
@documented(
    "Join an organization with an invitation link's token (signed-in user)",
    tags=TAGS,
    auth=("session",),
    body=InvitationAccept,
    responses={200: InvitationAccepted},
    errors=(400, 401, 403, 404, 409, 410),
    description="An unknown token: 404. A used, expired or revoked one: 410. Already a member: "
    "409 and the link stays unused. New people sign up with `invitation` in POST /api/auth/signup.",
)
def accept_invitation():
    token = load_body(InvitationAccept)["token"]
    organization = service.accept_invitation(current_actor(), token)
    return InvitationAccepted().dump({"organization": organization})


@organizations_api.post("/invitations/signup")
@documented(
    "Create an account with an invitation link's token, join its organization and sign in",
    tags=TAGS,
    auth=(),
    body=InvitationSignup,
    responses={201: InvitationSignedUp},
    errors=(400, 403, 404, 409, 410),
    description="403 when LOKO_PASSWORD_SIGNIN is off. Works also when open sign-up is off: "
    "the link is the permission. No organization of the user's own is created. Sets the "
    "session cookie. A taken email: 409 and the link stays unused.",
)
def signup_with_invitation():
    data = load_body(InvitationSignup)
    user, organization, session = service.signup_with_invitation(
        data.pop("token"),
        **data,
        session_days=current_app.config["LOKO_SESSION_DAYS"],
        password_signin=current_app.config["LOKO_PASSWORD_SIGNIN"],
    )
    response = current_app.json.response(
        InvitationSignedUp().dump({"user": user, "organization": organization})
    )
    response.status_code = 201
    return with_session_cookie(response, session)
