"""Organizations, their members and the invitation links that let people join them."""

from datetime import timedelta

from sqlalchemy import func, update
from sqlalchemy.exc import IntegrityError

from loko import events
from loko.auth import emails, policy
from loko.auth.models import User
from loko.auth.service import (
    PASSWORD_SIGNIN_OFF,
    create_user,
    normalize_email,
    open_session,
    organizations_of,
    user_actor,
)
from loko.auth.tokens import new_invitation_token, token_hash
from loko.database import unit_of_work, utcnow
from loko.errors import BadRequest, Conflict, Forbidden, LokoError, NotFound
from loko.extensions import db
from loko.organizations.models import (
    INVITATION_DAYS_DEFAULT,
    INVITATION_NOTE_MAX,
    Invitation,
    Organization,
    OrganizationMember,
)
from loko.projects.models import Project, ProjectMember


def list_organizations(actor) -> list[dict]:
    user = policy.require_user(actor)
    return organizations_of(user.id)


def create_organization(actor, name: str) -> dict:
    """Create an organization owned by the caller."""
    user = policy.require_user(actor)
    with unit_of_work():
        org = Organization(name=name)
        db.session.add(org)
        db.session.flush()
        db.session.add(OrganizationMember(organization_id=org.id, user_id=user.id, role="owner"))
    return {"id": org.id, "name": org.name, "role": "owner", "created_at": org.created_at}


def get_organization(actor, organization_id: str, permission: str | None = None) -> dict:
    """The organization with the caller's role and what it allows; NotFound for non-members,
    Forbidden when the role lacks ``permission`` (an organization permission of the policy)."""
    if permission is None:
        role = policy.require_organization_role(actor, organization_id)
    else:
        role = policy.require_organization_permission(actor, organization_id, permission)
    organization = db.session.get(Organization, organization_id)
    return {
        "id": organization.id,
        "name": organization.name,
        "role": role,
        "created_at": organization.created_at,
        "permissions": policy.organization_permissions(role),
    }


def rename_organization(actor, organization_id: str, name: str) -> dict:
    """Rename an organization (owner or admin); NotFound for non-members, Forbidden for members."""
    with unit_of_work():
        role = policy.require_organization_permission(actor, organization_id, policy.RENAME_ORGANIZATION)
        organization = db.session.get(Organization, organization_id)
        if organization.name != name:
            events.audited_in_organization(
                actor,
                organization_id,
                "organization.renamed",
                events.Target("organization", organization_id, name),
                {"from": organization.name, "to": name},
            )
        organization.name = name
    return {
        "id": organization.id,
        "name": organization.name,
        "role": role,
        "created_at": organization.created_at,
    }


def delete_organization(actor, organization_id: str, confirm_name: str | None = None) -> None:
    """Delete an organization with its projects, memberships and invitations (owner only);
    projects of other organizations linking to its projects are unlinked. With
    ``confirm_name`` (a typed confirmation), BadRequest unless it is the organization's name."""
    with unit_of_work():
        policy.require_organization_permission(actor, organization_id, policy.DELETE_ORGANIZATION)
        organization = db.session.get(Organization, organization_id)
        if confirm_name is not None and confirm_name.strip() != organization.name.strip():
            raise BadRequest(
                "confirm_name: type the organization's name exactly as shown to delete it; "
                "nothing was deleted."
            )
        its_projects = db.select(Project.id).where(Project.organization_id == organization_id)
        db.session.execute(
            update(Project)
            .where(Project.linked_project_id.in_(its_projects), Project.organization_id != organization_id)
            .values(
                linked_project_id=None,
                linked_language_code=None,
                linked_language_target_code=None,
                data_version=Project.data_version + 1,
            )
        )
        project_ids = list(db.session.scalars(its_projects))
        after_commit = events.projects_deleting(project_ids)
        db.session.execute(db.delete(Project).where(Project.organization_id == organization_id))
        db.session.execute(db.delete(Organization).where(Organization.id == organization_id))
    events.projects_deleted(after_commit)


def list_members(actor, organization_id: str) -> list[dict]:
    """Members of an organization; NotFound for non-members."""
    policy.require_organization_role(actor, organization_id)
    rows = db.session.execute(
        db.select(User, OrganizationMember.role)
        .join(OrganizationMember, OrganizationMember.user_id == User.id)
        .where(OrganizationMember.organization_id == organization_id)
        .order_by(func.lower(User.email))
    ).all()
    return [{"user": user, "role": role} for user, role in rows]


def add_member(actor, organization_id: str, email: str, role: str) -> dict:
    """Add an existing user; NotFound for an unknown email, Conflict when already a member,
    Forbidden when an admin tries to add an owner."""
    with unit_of_work():
        caller_role = policy.require_organization_role(actor, organization_id, "owner", "admin")
        policy.require_owner_rights(caller_role, role)
        user = db.session.execute(
            db.select(User).where(User.email == normalize_email(email))
        ).scalar_one_or_none()
        if user is None:
            raise NotFound("email: no user with this email exists.")
        db.session.add(OrganizationMember(organization_id=organization_id, user_id=user.id, role=role))
        try:
            db.session.flush()
        except IntegrityError:
            raise Conflict("email: this user is already a member of the organization.") from None
        events.audited_in_organization(
            actor, organization_id, "organization.member_added", events.user_target(user), {"role": role}
        )
    return {"user": user, "role": role}


def change_member_role(actor, organization_id: str, user_id: str, role: str) -> dict:
    """Give a member another organization role; Forbidden when an admin touches an owner's
    role, Conflict when the last owner would be left with none."""
    with unit_of_work():
        caller_role = policy.require_organization_role(actor, organization_id, "owner", "admin")
        member = db.session.get(OrganizationMember, (organization_id, user_id))
        if member is None:
            raise NotFound("This user is not a member of the organization.")
        policy.require_owner_rights(caller_role, role, member.role)
        if member.role == "owner" and role != "owner" and _owner_count(organization_id) <= 1:
            raise Conflict("The last owner of an organization cannot stop being an owner.")
        before, member.role = member.role, role
        user = db.session.get(User, user_id)
        if before != role:
            events.audited_in_organization(
                actor,
                organization_id,
                "organization.member_role_changed",
                events.user_target(user),
                {"from": before, "to": role},
            )
    return {"user": user, "role": role}


def _owner_count(organization_id: str) -> int:
    """The organization's owners, counted under a lock of its row: two owners stepping down
    at once (READ COMMITTED on PostgreSQL) must not both see the other one still there."""
    db.session.execute(db.select(Organization.id).where(Organization.id == organization_id).with_for_update())
    return db.session.execute(
        db.select(func.count()).where(
            OrganizationMember.organization_id == organization_id,
            OrganizationMember.role == "owner",
        )
    ).scalar_one()


def remove_member(actor, organization_id: str, user_id: str) -> None:
    """Remove a member; Conflict for the last owner, Forbidden when an admin removes an owner."""
    with unit_of_work():
        caller_role = policy.require_organization_role(actor, organization_id, "owner", "admin")
        member = db.session.get(OrganizationMember, (organization_id, user_id))
        if member is None:
            raise NotFound("This user is not a member of the organization.")
        if member.role == "owner":
            policy.require_owner_rights(caller_role, member.role)
            if _owner_count(organization_id) <= 1:
                raise Conflict("The last owner of an organization cannot be removed.")
        events.audited_in_organization(
            actor,
            organization_id,
            "organization.member_removed",
            events.user_target(db.session.get(User, user_id)),
            {"role": member.role},
        )
        db.session.delete(member)
        _drop_project_roles(organization_id, user_id)


def _drop_project_roles(organization_id: str, user_id: str) -> None:
    db.session.execute(
        db.delete(ProjectMember).where(
            ProjectMember.user_id == user_id,
            ProjectMember.project_id.in_(
                db.select(Project.id).where(Project.organization_id == organization_id)
            ),
        )
    )


class InvitationGone(LokoError):
    """An invitation link that was used, has expired or was revoked."""

    status = 410


INVITATION_UNKNOWN = (
    "This invitation link is not valid: check that it was copied whole, or ask for a new one."
)
INVITATION_USED = "This invitation link has already been used; ask whoever invited you for a new one."
INVITATION_EXPIRED = "This invitation link has expired; ask whoever invited you for a new one."
INVITATION_REVOKED = "This invitation link was revoked; ask whoever invited you for a new one."


def create_invitation(
    actor,
    organization_id: str,
    role: str = "member",
    expires_in_days: int = INVITATION_DAYS_DEFAULT,
    note: str | None = None,
    email: str | None = None,
) -> tuple[str, dict]:
    """Make a single-use invitation link's token (stored only as a hash), with its optional
    ``note`` (a blank one is none), and return ``(token, invitation)``; Forbidden unless the
    caller may invite as ``role``. With ``email`` the link is e-mailed to that address by a
    job queued in the same transaction (its note is the address when none is given);
    BadRequest naming ``email`` when no SMTP server is configured."""
    user = policy.require_user(actor)
    with unit_of_work():
        policy.require_invitation_rights(actor, organization_id, role)
        if email and not emails.email_available():
            raise BadRequest("email: e-mail is not set up on this server (no SMTP host); hand the link on.")
        note = note or (email[:INVITATION_NOTE_MAX] if email else None)
        token = new_invitation_token()
        now = utcnow()
        invitation = Invitation(
            organization_id=organization_id,
            role=role,
            token_hash=token_hash(token),
            created_by=user.id,
            created_at=now,
            expires_at=now + timedelta(days=expires_in_days),
            note=note or None,
        )
        db.session.add(invitation)
        db.session.flush()
        events.audited_in_organization(
            actor,
            organization_id,
            "invitation.created",
            _invitation_target(invitation),
            {"role": role, "expiresAt": invitation.expires_at.isoformat()},
        )
        creator = db.session.get(User, user.id)
        if email:
            _email_invitation(invitation, creator, email, token)
    return token, _invitation_record(invitation, creator)


def _email_invitation(invitation: Invitation, creator: User, email: str, token: str) -> None:
    organization = db.session.get(Organization, invitation.organization_id)
    inviter = creator.name or creator.email
    emails.queue_email(
        ("", email),
        f"{inviter} invites you to {organization.name} on Loko",
        [
            f"{inviter} ({creator.email}) invites you to join {organization.name} on Loko "
            f"as {invitation.role}.",
            "Open the link to sign up, or to sign in and join. It works once and expires on "
            f"{invitation.expires_at:%Y-%m-%d %H:%M} UTC.",
        ],
        emails.public_link("organizations_ui.join", token=token),
    )


def _invitation_target(invitation: Invitation) -> events.Target:
    return events.Target("invitation", invitation.id, f"Invitation as {invitation.role}")


def _invitation_record(invitation: Invitation, creator: User | None) -> dict:
    return {
        "id": invitation.id,
        "organization_id": invitation.organization_id,
        "role": invitation.role,
        "created_at": invitation.created_at,
        "expires_at": invitation.expires_at,
        "created_by": creator,
        "note": invitation.note,
    }


def _pending(now):
    return Invitation.accepted_at.is_(None) & Invitation.revoked_at.is_(None) & (Invitation.expires_at > now)


def list_invitations(actor, organization_id: str) -> list[dict]:
    """The organization's pending invitations, newest first; Forbidden for members, NotFound
    for outsiders."""
    policy.require_invitation_rights(actor, organization_id)
    rows = db.session.execute(
        db.select(Invitation, User)
        .outerjoin(User, User.id == Invitation.created_by)
        .where(Invitation.organization_id == organization_id, _pending(utcnow()))
        .order_by(Invitation.created_at.desc(), Invitation.id.desc())
    ).all()
    return [_invitation_record(invitation, creator) for invitation, creator in rows]


def revoke_invitation(actor, organization_id: str, invitation_id: str) -> None:
    """Revoke a pending invitation at once; NotFound when it is not one of the organization's
    pending invitations, Forbidden when an admin revokes an owner's invitation."""
    with unit_of_work():
        policy.require_invitation_rights(actor, organization_id)
        invitation = db.session.get(Invitation, invitation_id)
        pending = (
            invitation is not None
            and invitation.organization_id == organization_id
            and invitation.accepted_at is None
            and invitation.revoked_at is None
            and invitation.expires_at > utcnow()
        )
        if not pending:
            raise NotFound("Invitation not found, or no longer pending.")
        policy.require_invitation_rights(actor, organization_id, invitation.role)
        invitation.revoked_at = utcnow()
        events.audited_in_organization(
            actor,
            organization_id,
            "invitation.revoked",
            _invitation_target(invitation),
            {"role": invitation.role},
        )


def _usable_invitation(token: str) -> Invitation:
    """The invitation of a link's token; NotFound when unknown, InvitationGone when used,
    expired or revoked."""
    invitation = db.session.execute(
        db.select(Invitation).where(Invitation.token_hash == token_hash(token))
    ).scalar_one_or_none()
    if invitation is None:
        raise NotFound(INVITATION_UNKNOWN)
    if invitation.accepted_at is not None:
        raise InvitationGone(INVITATION_USED)
    if invitation.revoked_at is not None:
        raise InvitationGone(INVITATION_REVOKED)
    if invitation.expires_at <= utcnow():
        raise InvitationGone(INVITATION_EXPIRED)
    return invitation


def invitation_details(token: str) -> dict:
    """What an invitation link offers (the organization, the role, the expiry), for whoever
    holds the link; NotFound or InvitationGone when it cannot be used."""
    invitation = _usable_invitation(token)
    organization = db.session.get(Organization, invitation.organization_id)
    return {
        "organization": {"id": organization.id, "name": organization.name},
        "role": invitation.role,
        "expires_at": invitation.expires_at,
    }


def _use_invitation(token: str, user_id: str) -> dict:
    """Spend the invitation on ``user_id`` and make them a member (inside the caller's
    transaction); the update is conditional, so two people opening one link at once cannot
    both join."""
    invitation = _usable_invitation(token)
    if policy.organization_role(user_id, invitation.organization_id) is not None:
        raise Conflict("You are already a member of this organization; the invitation was left unused.")
    now = utcnow()
    spent = db.session.execute(
        update(Invitation)
        .where(Invitation.id == invitation.id, _pending(now))
        .values(accepted_at=now, accepted_by=user_id)
        .execution_options(synchronize_session=False)
    )
    if spent.rowcount != 1:
        raise InvitationGone(INVITATION_USED)
    db.session.add(
        OrganizationMember(organization_id=invitation.organization_id, user_id=user_id, role=invitation.role)
    )
    db.session.flush()
    user = db.session.get(User, user_id)
    events.audited_in_organization(
        user_actor(user),
        invitation.organization_id,
        "invitation.accepted",
        _invitation_target(invitation),
        {"role": invitation.role, "user": {"id": user.id, "email": user.email}},
    )
    organization = db.session.get(Organization, invitation.organization_id)
    return {"id": organization.id, "name": organization.name, "role": invitation.role}


def accept_invitation(actor, token: str) -> dict:
    """The signed-in user joins the organization of an invitation link with its role and
    returns ``{id, name, role}``; NotFound or InvitationGone for a link that cannot be used,
    Conflict when already a member."""
    user = policy.require_user(actor)
    with unit_of_work():
        return _use_invitation(token, user.id)


def signup_with_invitation(
    token: str,
    email: str,
    password: str,
    name: str | None = None,
    *,
    session_days: int,
    password_signin: bool = True,
):
    """Create an account through an invitation link (open sign-up is not needed), join its
    organization and sign in; returns ``(user, membership, session token)``. NotFound or
    InvitationGone for a link that cannot be used, Conflict on a taken email, Forbidden when
    password sign-in is turned off."""
    if not password_signin:
        raise Forbidden(PASSWORD_SIGNIN_OFF)
    with unit_of_work():
        _usable_invitation(token)
        user, _ = create_user(email, password, name, with_organization=False)
        membership = _use_invitation(token, user.id)
        session = open_session(user.id, session_days)
    return user, membership, session
