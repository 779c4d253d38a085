"""Pages: a project's releases. The list (each exported by name, deletable by whoever may
name releases), naming one (now, or a given instant or operation, with an optional string
freeze), and the comparison of a release with another or with now. Every form redirects after
it succeeds."""

from flask import Blueprint, redirect, request, url_for
from flask_babel import gettext

from loko.errors import BadRequest
from loko.http import load_args
from loko.releases import service
from loko.releases.schemas import CompareQuery, ReleaseCreate
from loko.web.pages import (
    REFUSED,
    attempt,
    form_input,
    page_user,
    project_page,
    redirect_with_notice,
    render_page,
)

releases_ui = Blueprint("releases_ui", __name__)
PATH = "/projects/<uuid:project_id>/releases"


@releases_ui.route(PATH, methods=["GET", "POST"])
def releases(project_id):
    actor, project_id = page_user(), str(project_id)
    if request.method == "GET":
        return _page(actor, project_id)
    forms = {"create": create, "delete": delete}
    name = request.form.get("form", "")
    if name not in forms:
        raise BadRequest(f"form: unknown releases form {name!r}.")
    return forms[name](actor, project_id)


def create(actor, project_id: str):
    def work():
        data = form_input(ReleaseCreate, drop_empty=("asOf", "freezeFrom", "freezeUntil", "description"))
        return service.create_release(actor, project_id, data)

    created = attempt(work)
    if created is REFUSED:
        return _page(actor, project_id, form=request.form)
    return redirect_with_notice(_here(project_id), gettext("Release %(name)s created.", name=created["name"]))


def delete(actor, project_id: str):
    name = request.form.get("release", "")
    if attempt(lambda: service.delete_release(actor, project_id, name)) is REFUSED:
        return _page(actor, project_id)
    return redirect_with_notice(_here(project_id), gettext("Release %(name)s deleted.", name=name))


@releases_ui.get(PATH + "/<name>/compare")
def compare(project_id, name):
    actor, project_id = page_user(), str(project_id)
    view = project_page(project_id)
    other = load_args(CompareQuery, request.args).get("with")
    result = service.compare_releases(actor, project_id, name, other)
    return render_page("releases/compare.html", view=view, result=result, name=name, other=other)


@releases_ui.get(PATH + "/compare")
def compare_chosen(project_id):
    """The list's compare form: on to the comparison of the two choices."""
    project_id, base = str(project_id), request.args.get("from", "")
    if not base:
        raise BadRequest(gettext("from: choose a release to compare from."))
    other = request.args.get("with") or None
    arguments = {"with": other} if other else {}
    return redirect(url_for("releases_ui.compare", project_id=project_id, name=base, **arguments), code=303)


def _here(project_id: str) -> str:
    return url_for("releases_ui.releases", project_id=project_id)


def _page(actor, project_id: str, form=None):
    return render_page(
        "releases/releases.html",
        view=project_page(project_id),
        releases=service.list_releases(actor, project_id),
        values={
            name: (form or {}).get(name, "")
            for name in ("name", "asOf", "description", "freezeFrom", "freezeUntil")
        },
    )
