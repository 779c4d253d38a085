"""Pages: the start page, an organization's projects (and a new one), its members."""

from flask import Blueprint, g, redirect, request, url_for

from loko.auth.actors import UserActor
from loko.auth.service import organizations_of, signup_open
from loko.organizations import service
from loko.organizations.models import ORGANIZATION_ROLES
from loko.organizations.schemas import MemberAdd, MemberRole
from loko.projects.schemas import ProjectCreate
from loko.projects.service import create_project, list_projects
from loko.web.pages import form_input, page_user, render_page, submit

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
            notice="Project created.",
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
                notice="Member removed.",
            )
        elif action == "role":
            done = submit(
                lambda: service.change_member_role(
                    actor, organization_id, request.form.get("user_id", ""), form_input(MemberRole)["role"]
                ),
                then=here,
                notice="Role changed.",
            )
        else:
            done = submit(
                lambda: service.add_member(actor, organization_id, **form_input(MemberAdd)),
                then=here,
                notice="Member added.",
            )
        if done is not None:
            return done
    roles = [r for r in ORGANIZATION_ROLES if r != "owner" or organization["permissions"].can_manage_owners]
    return render_page(
        "organizations/members.html",
        organization=organization,
        members=service.list_members(actor, organization_id),
        roles=roles,
        role_options=[(role, role) for role in roles],
        can_manage=organization["permissions"].can_manage_members,
        can_manage_owners=organization["permissions"].can_manage_owners,
        form=request.form,
    )
