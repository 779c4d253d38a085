"""Pages: the start page, an organization's projects (and a new one), its members and
invitation links, its settings (rename, delete, and the machine translation providers, whose
forms ``machine/views.py`` answers), and the page an invitation link opens."""

from flask import Blueprint, current_app, g, redirect, request, url_for
from flask_babel import gettext

from loko.auth.actors import UserActor
from loko.auth.emails import email_available
from loko.auth.policy import DELETE_ORGANIZATION, RENAME_ORGANIZATION
from loko.auth.reveal import forget_secret, remember_secret, take_secret
from loko.auth.service import organizations_of, signup_open
from loko.auth.signin import with_session_cookie
from loko.errors import LokoError
from loko.machine import service as machine
from loko.organizations import service
from loko.organizations.models import (
    INVITATION_DAYS_DEFAULT,
    INVITATION_DAYS_MAX,
    INVITATION_NOTE_MAX,
    ORGANIZATION_ROLES,
)
from loko.organizations.schemas import (
    InvitationCreate,
    InvitationSignup,
    MemberAdd,
    MemberRole,
    OrganizationDelete,
    OrganizationRename,
)
from loko.projects.schemas import ProjectCreate
from loko.projects.service import create_project, list_projects
from loko.web.labels import label
from loko.web.pages import REFUSED, attempt, form_input, page_user, redirect_with_notice, render_page, submit
from loko.web.refusals import page_message

organizations_ui = Blueprint("organizations_ui", __name__)


@organizations_ui.get("/")
def home():
    """Signed in: the first organization's projects. Otherwise sign-in, or sign-up on a new
    installation."""
    actor = g.get("actor")
    if not isinstance(actor, UserActor):
        if signup_open(allow_signup=False):  # a new installation: nobody has an account yet
            return redirect(url_for("auth_ui.signup"))
        return redirect(url_for("auth_ui.login"))
    organizations = organizations_of(actor.id)
    if not organizations:
        return redirect(url_for("auth_ui.account"))
    return redirect(url_for("organizations_ui.organization", organization_id=organizations[0]["id"]))


@organizations_ui.route("/orgs/<uuid:organization_id>", methods=["GET", "POST"])
def organization(organization_id):
    actor, organization_id = page_user(), str(organization_id)
    organization = service.get_organization(actor, organization_id)
    if request.method == "POST":
        done = submit(
            lambda: create_project(
                actor,
                **form_input(
                    ProjectCreate,
                    drop_empty=("desc", "emoji", "source_language"),
                    extra={"organization_id": organization_id},
                ),
            ),
            then=lambda view: url_for("projects_ui.overview", project_id=view.project.id),
            notice=gettext("Project created."),
        )
        if done is not None:
            return done
    projects = list_projects(actor, organization_id)
    return render_page(
        "organizations/projects.html",
        organization=organization,
        organizations=organizations_of(actor.id),
        projects=projects,
        can_create=organization["permissions"].can_create_projects,
        form=request.form,
    )


@organizations_ui.route("/orgs/<uuid:organization_id>/members", methods=["GET", "POST"])
def members(organization_id):
    actor, organization_id = page_user(), str(organization_id)
    organization = service.get_organization(actor, organization_id)
    if request.method == "POST":
        here = url_for("organizations_ui.members", organization_id=organization_id)
        action = request.form.get("action")
        if action == "remove":
            done = submit(
                lambda: service.remove_member(actor, organization_id, request.form.get("user_id", "")),
                then=here,
                notice=gettext("Member removed."),
            )
        elif action == "role":
            done = submit(
                lambda: service.change_member_role(
                    actor, organization_id, request.form.get("user_id", ""), form_input(MemberRole)["role"]
                ),
                then=here,
                notice=gettext("Role changed."),
            )
        else:
            done = submit(
                lambda: service.add_member(actor, organization_id, **form_input(MemberAdd)),
                then=here,
                notice=gettext("Member added."),
            )
        if done is not None:
            return done
    return members_page(actor, organization)


def _invitation_purpose(organization_id: str) -> str:
    return f"invitation:{organization_id}"


def members_page(actor, organization: dict, form_for: str | None = None):
    permissions = organization["permissions"]
    roles = [r for r in ORGANIZATION_ROLES if r != "owner" or permissions.can_manage_owners]
    new_invitation = take_secret(_invitation_purpose(organization["id"])) if permissions.can_invite else None
    response = render_page(
        "organizations/members.html",
        organization=organization,
        members=service.list_members(actor, organization["id"]),
        invitations=service.list_invitations(actor, organization["id"]) if permissions.can_invite else [],
        new_invitation=new_invitation,
        roles=roles,
        role_options=[(role, label(role)) for role in roles],
        can_manage=permissions.can_manage_members,
        can_manage_owners=permissions.can_manage_owners,
        can_invite=permissions.can_invite,
        invitation_days=(INVITATION_DAYS_DEFAULT, INVITATION_DAYS_MAX),
        invitation_note_max=INVITATION_NOTE_MAX,
        invite_by_email=email_available(),
        form=request.form,
        form_for=form_for,
    )
    return forget_secret(response)


@organizations_ui.post("/orgs/<uuid:organization_id>/invitations")
def invite(organization_id):
    actor, organization_id = page_user(), str(organization_id)
    organization = service.get_organization(actor, organization_id)
    created = attempt(lambda: service.create_invitation(actor, organization_id, **_invitation_input()))
    if created is REFUSED:
        return members_page(actor, organization, form_for="invite")
    token, invitation = created
    emailed = request.form.get("email", "").strip()
    response = redirect_with_notice(
        url_for("organizations_ui.members", organization_id=organization_id) + "#invitations",
        gettext(
            "Invitation link created and e-mailed to %(email)s; it is also shown here once.", email=emailed
        )
        if emailed
        else gettext("Invitation link created: copy it now, it is shown only once."),
    )
    return remember_secret(
        response,
        _invitation_purpose(organization_id),
        {
            "url": url_for("organizations_ui.join", token=token, _external=True),
            "role": invitation["role"],
            "expires_at": invitation["expires_at"].isoformat(),
            "note": invitation["note"],
        },
    )


def _invitation_input() -> dict:
    """The form's fields through the API's schema; the number of days arrives as text."""
    days = request.form.get("expires_in_days", "").strip()
    extra = {"expires_in_days": int(days)} if days.isascii() and days.isdigit() else {}
    return form_input(InvitationCreate, drop_empty=("expires_in_days", "note", "email"), extra=extra)


@organizations_ui.post("/orgs/<uuid:organization_id>/invitations/<uuid:invitation_id>/revoke")
def revoke_invitation(organization_id, invitation_id):
    actor, organization_id = page_user(), str(organization_id)
    organization = service.get_organization(actor, organization_id)
    done = submit(
        lambda: service.revoke_invitation(actor, organization_id, str(invitation_id)),
        then=url_for("organizations_ui.members", organization_id=organization_id) + "#invitations",
        notice=gettext("Invitation revoked: its link no longer works."),
    )
    return done if done is not None else members_page(actor, organization)


@organizations_ui.get("/join")
def join():
    """An invitation link: who is signed in joins with a button; anyone else signs up here
    (also when open sign-up is off) or signs in first."""
    return join_page(request.args.get("token", ""))


@organizations_ui.post("/join")
def accept():
    actor, token = page_user(), request.form.get("token", "")
    done = submit(
        lambda: service.accept_invitation(actor, token),
        then=lambda organization: url_for(
            "organizations_ui.organization", organization_id=organization["id"]
        ),
        notice=lambda organization: gettext(
            "You joined %(name)s as %(role)s.", name=organization["name"], role=label(organization["role"])
        ),
    )
    return done if done is not None else join_page(token)


@organizations_ui.post("/join/signup")
def join_signup():
    created = {}

    def sign_up():
        data = form_input(InvitationSignup, drop_empty=("name",))
        _user, created["organization"], created["session"] = service.signup_with_invitation(
            data.pop("token"),
            **data,
            session_days=current_app.config["LOKO_SESSION_DAYS"],
            password_signin=current_app.config["LOKO_PASSWORD_SIGNIN"],
        )
        return created["organization"]

    done = submit(
        sign_up,
        then=lambda organization: url_for(
            "organizations_ui.organization", organization_id=organization["id"]
        ),
        notice=lambda organization: gettext(
            "Welcome to Loko: you joined %(name)s as %(role)s.",
            name=organization["name"],
            role=label(organization["role"]),
        ),
    )
    if done is not None:
        return with_session_cookie(done, created["session"])
    return join_page(request.form.get("token", ""))


def join_page(token: str):
    """The invitation behind ``token``, or why it cannot be used (404 unknown, 410 used,
    expired or revoked)."""
    try:
        invitation = service.invitation_details(token)
    except LokoError as error:
        return render_page(
            "organizations/join.html", error.status, problem=page_message(error.message), invitation=None
        )
    signed_in = isinstance(g.get("actor"), UserActor)
    return render_page(
        "organizations/join.html",
        invitation=invitation,
        problem=None,
        token=token,
        signed_in=signed_in,
        form=request.form,
        next=url_for("organizations_ui.join", token=token),
    )


@organizations_ui.route("/orgs/<uuid:organization_id>/settings", methods=["GET", "POST"])
def settings(organization_id):
    actor, organization_id = page_user(), str(organization_id)
    organization = service.get_organization(actor, organization_id, RENAME_ORGANIZATION)
    if request.method == "POST":
        done = submit(
            lambda: service.rename_organization(
                actor, organization_id, form_input(OrganizationRename)["name"]
            ),
            then=url_for("organizations_ui.settings", organization_id=organization_id),
            notice=gettext("Organization renamed."),
        )
        if done is not None:
            return done
    return settings_page(organization, "rename" if request.method == "POST" else None)


@organizations_ui.post("/orgs/<uuid:organization_id>/delete")
def delete(organization_id):
    actor, organization_id = page_user(), str(organization_id)
    organization = service.get_organization(actor, organization_id, DELETE_ORGANIZATION)
    done = submit(
        lambda: service.delete_organization(
            actor, organization_id, form_input(OrganizationDelete)["confirm_name"]
        ),
        then=url_for("organizations_ui.home"),
        notice=gettext("Organization “%(name)s” deleted.", name=organization["name"]),
    )
    return done if done is not None else settings_page(organization, "delete")


def settings_page(organization: dict, form_for: str | None):
    providers = None
    if organization["permissions"].can_manage_machine:
        providers = machine.list_providers(page_user(), organization["id"])
    return render_page(
        "organizations/settings.html",
        organization=organization,
        form=request.form,
        form_for=form_for,
        machine_providers=providers,
        machine_kinds=machine.KIND_LABELS,
    )
