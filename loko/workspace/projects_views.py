"""Pages: a project's overview (languages, files, recent activity, export) and its settings
(details, linked project, member roles, deletion)."""

from flask import Blueprint, redirect, request, url_for

from loko.checks import registry
from loko.errors import BadRequest
from loko.exports.service import export_query, single_file_needs
from loko.formats.registry import format_module
from loko.http import load_args
from loko.languages.service import project_languages
from loko.projects import service
from loko.projects.check_levels import LEVELS, check_levels
from loko.projects.models import PROJECT_ROLES
from loko.projects.schemas import ProjectMemberSet, ProjectUpdate
from loko.quality.review import language_overview
from loko.releases.service import holding_freeze
from loko.screenshots import service as screenshots
from loko.translations.queries import file_summaries
from loko.translations.schemas import ExportQuerySchema
from loko.translations.service import list_history
from loko.web.pages import form_input, format_choices, page_user, project_page, render_page, submit

projects_ui = Blueprint("projects_ui", __name__)

RECENT_ACTIVITY = 10  # history entries on the overview


@projects_ui.get("/projects/<uuid:project_id>")
def overview(project_id):
    return _overview(str(project_id))


def _overview(project_id: str, export_error: str | None = None, chosen=None):
    actor = page_user()
    view = project_page(project_id)
    activity, _ = list_history(actor, project_id, {}, RECENT_ACTIVITY, None)
    return render_page(
        "projects/overview.html",
        status=400 if export_error else None,
        view=view,
        languages=project_languages(view.project, stats=True, inherited=True),
        quality=language_overview(project_id),
        files=file_summaries(actor, project_id),
        activity=activity,
        screenshots=screenshots.coverage(actor, project_id),
        freeze=holding_freeze(project_id),
        formats=format_choices(),
        export_error=export_error,
        chosen=chosen,
    )


@projects_ui.get("/projects/<uuid:project_id>/export")
def export(project_id):
    """The overview's export form: what it lacks is said on the form; a complete choice goes
    on to the export itself (the API's answer, a download)."""
    project_id = str(project_id)
    project_page(project_id)
    query = export_query(load_args(ExportQuerySchema, request.args))
    needs = single_file_needs(query)
    if needs:
        label = format_module(query.format).LABEL
        tick = "one file" if needs == ("fileName",) else "one language and one file"
        message = f"{label} without a ZIP is one file: tick {tick}, or tick “As a ZIP” to get all of them."
        return _overview(project_id, export_error=message, chosen=request.args)
    arguments = {name: request.args.getlist(name) for name in request.args}
    return redirect(url_for("translations_api.export_translations", project_id=project_id, **arguments))


@projects_ui.route("/projects/<uuid:project_id>/settings", methods=["GET", "POST"])
def settings(project_id):
    actor, project_id = page_user(), str(project_id)
    if request.method == "POST":
        done = settings_form(request.form.get("form", ""))(actor, project_id)
        if done is not None:
            return done
    offered = service.project_settings(actor, project_id)
    levels = check_levels(offered.view.project.checks)
    return render_page(
        "projects/settings.html",
        view=offered.view,
        settings=offered,
        roles=PROJECT_ROLES,
        checks=[
            {"code": code, "title": module.TITLE, "level": levels[code]}
            for code, module in registry.CHECKS.items()
        ],
        levels=LEVELS,
        form=request.form,
    )


def settings_form(name: str):
    """The use case behind one of the settings page's forms (its hidden ``form`` field)."""
    forms = {
        "details": save_details,
        "source": save_source_language,
        "link": save_link,
        "member": save_member_role,
        "checks": save_checks,
        "memory": save_memory,
        "public": save_public,
        "delete": delete,
    }
    if name not in forms:
        raise BadRequest(f"form: unknown settings form {name!r}.")
    return forms[name]


def settings_url(project_id: str) -> str:
    return url_for("projects_ui.settings", project_id=project_id)


def save_details(actor, project_id: str):
    return submit(
        lambda: service.update_project(actor, project_id, form_input(ProjectUpdate)),
        then=settings_url(project_id),
        notice="Settings saved.",
    )


def save_source_language(actor, project_id: str):
    """The overview's source-language form: only that field, back to the overview."""
    return submit(
        lambda: service.update_project(actor, project_id, form_input(ProjectUpdate)),
        then=url_for("projects_ui.overview", project_id=project_id),
        notice="Source language saved.",
    )


def save_memory(actor, project_id: str):
    return submit(
        lambda: service.update_project(actor, project_id, form_input(ProjectUpdate)),
        then=settings_url(project_id),
        notice="Translation memory setting saved.",
    )


def save_public(actor, project_id: str):
    return submit(
        lambda: service.update_project(actor, project_id, form_input(ProjectUpdate)),
        then=settings_url(project_id),
        notice="Public project setting saved.",
    )


def save_link(actor, project_id: str):
    return submit(
        lambda: service.update_project(actor, project_id, form_input(ProjectUpdate, extra=link_input())),
        then=settings_url(project_id),
        notice="Linked project saved.",
    )


def link_input() -> dict:
    """The link form's three selects; "No link" unlinks whatever the language selects say."""
    if not request.form.get("linked_project_id"):
        return dict.fromkeys(service.LINK_FIELDS)
    return {field: request.form.get(field) or None for field in service.LINK_FIELDS}


def save_checks(actor, project_id: str):
    """The checks form: one select per check, named ``check-<code>``."""
    levels = {
        code: request.form[f"check-{code}"] for code in registry.CHECKS if f"check-{code}" in request.form
    }
    return submit(
        lambda: service.update_project(
            actor, project_id, form_input(ProjectUpdate, extra={"checks": levels})
        ),
        then=settings_url(project_id),
        notice="Checks saved.",
    )


def save_member_role(actor, project_id: str):
    def change_role():
        codes = [code.strip() for code in request.form.get("languages", "").split(",") if code.strip()]
        data = form_input(
            ProjectMemberSet, extra={"role": request.form.get("role") or None, "languages": codes}
        )
        return service.set_member_role(actor, project_id, request.form.get("user_id", ""), **data)

    return submit(change_role, then=settings_url(project_id), notice="Project role changed.")


def delete(actor, project_id: str):
    typed = request.form.get("confirm_name", "")
    return submit(
        lambda: service.delete_project(actor, project_id, confirm_name=typed),
        then=lambda organization_id: url_for(
            "organizations_ui.organization", organization_id=organization_id
        ),
        notice=f"Project “{typed.strip()}” deleted.",
    )
