"""Organizations and their members."""

from sqlalchemy import func, update
from sqlalchemy.exc import IntegrityError

from loko.auth import policy
from loko.auth.models import User
from loko.auth.service import normalize_email, organizations_of
from loko.database import unit_of_work
from loko.errors import BadRequest, Conflict, NotFound
from loko.extensions import db
from loko.organizations.models import Organization, OrganizationMember
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
        db.session.execute(db.delete(Project).where(Project.organization_id == organization_id))
        db.session.execute(db.delete(Organization).where(Organization.id == organization_id))


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
        member.role = role
        user = db.session.get(User, user_id)
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
