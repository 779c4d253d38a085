"""Pages: a project's languages: the list with progress, adding one, editing its code, name
or emoji, and deleting it after a confirmation that says what is lost."""

from flask import Blueprint, request, url_for
from flask_babel import gettext

from loko.languages import service
from loko.languages.codes import canonical_code
from loko.languages.schemas import LanguageCreate, LanguageDelete, LanguageUpdate
from loko.web.pages import (
    REFUSED,
    attempt,
    form_input,
    page_user,
    project_page,
    render_page,
    require_typed_confirmation,
    submit,
)

languages_ui = Blueprint("languages_ui", __name__)
PATH = "/projects/<uuid:project_id>/languages"


@languages_ui.get(PATH)
def languages(project_id):
    """``?edit=<code>`` opens a language's edit form, ``?delete=<code>`` its confirmation."""
    view = project_page(str(project_id))
    code = _stored(request.args.get("delete"))
    removal = attempt(lambda: service.language_removal(page_user(), view.project.id, code)) if code else None
    removal = None if removal is REFUSED else removal
    return _page(view, editing=_stored(request.args.get("edit")), removal=removal)


@languages_ui.post(PATH)
def add_language(project_id):
    view = project_page(str(project_id))
    done = submit(lambda: _add(view.project.id), then=_here(view), notice=gettext("Language added."))
    return done or _page(view, failed="add")


@languages_ui.post(PATH + "/edit")
def edit_language(project_id):
    view = project_page(str(project_id))
    done = submit(lambda: _edit(view.project.id), then=_here(view), notice=gettext("Language saved."))
    return done or _page(view, editing=_stored(request.form.get("currentCode")), failed="edit")


@languages_ui.post(PATH + "/delete")
def delete_language(project_id):
    view = project_page(str(project_id))
    done = submit(lambda: _delete(view.project.id), then=_here(view), notice=_deleted)
    if done:
        return done
    code = request.form.get("code", "")
    removal = attempt(lambda: service.language_removal(page_user(), view.project.id, code))
    return _page(view, removal=None if removal is REFUSED else removal)


def _delete(project_id: str) -> dict:
    data = form_input(LanguageDelete)
    if data["permanent"]:
        removal = service.language_removal(page_user(), project_id, data["code"])
        if removal["values"] + removal["trashed"] > 1:
            require_typed_confirmation(data["code"])
    service.delete_language(page_user(), project_id, data["code"], data["permanent"])
    return data


def _deleted(data: dict) -> str:
    if data["permanent"]:
        return f"Language {data['code']} deleted for good."
    return f"Language {data['code']} deleted. Restore it from the Trash tab."


def _add(project_id: str) -> list[dict]:
    data = form_input(LanguageCreate, drop_empty=("name", "emoji"))
    return service.add_language(page_user(), project_id, data["code"], data.get("name"), data.get("emoji"))


def _edit(project_id: str) -> list[dict]:
    # An emptied emoji field clears the emoji; an emptied name or code keeps the current one.
    data = form_input(LanguageUpdate, drop_empty=("code", "name"))
    return service.update_language(page_user(), project_id, data.pop("currentCode"), data)


def _stored(code: str | None) -> str | None:
    """The code as stored: canonical, or as given for a code stored before codes were checked."""
    try:
        return canonical_code(code) if code else code
    except ValueError:
        return code


def _here(view) -> str:
    return url_for("languages_ui.languages", project_id=view.project.id)


def _page(view, editing=None, removal=None, failed=None):
    languages = service.project_languages(view.project, stats=True)
    return render_page(
        "languages/languages.html",
        view=view,
        languages=languages,
        editing=next((language for language in languages if language["code"] == editing), None),
        removal=removal,
        failed=failed,
        form=request.form,
    )
