"""Pages: a project's files: the list with languages and key counts, creating a file,
renaming it everywhere, and deleting it (or one language of it) after a confirmation that
says what is lost."""

from flask import Blueprint, request, url_for
from flask_babel import gettext

from loko.errors import Conflict
from loko.files import service
from loko.files.schemas import FileDelete, FileRename, FilesCreate
from loko.languages.service import project_languages
from loko.translations.queries import file_summaries
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

files_ui = Blueprint("files_ui", __name__)
PATH = "/projects/<uuid:project_id>/files"


@files_ui.get(PATH)
def files(project_id):
    """``?rename=<file>`` opens the rename form; ``?delete=<file>`` (with ``&language=<code>``
    for one language version) the confirmation."""
    view = project_page(str(project_id))
    name, language = request.args.get("delete"), request.args.get("language") or None
    removal = service.file_removal(page_user(), view.project.id, name, language) if name else None
    return _page(view, renaming=request.args.get("rename"), removal=removal)


@files_ui.post(PATH)
def create_file(project_id):
    view = project_page(str(project_id))
    done = submit(lambda: _create(view.project.id), then=_here(view), notice=gettext("File created."))
    return done or _page(view, failed="create")


@files_ui.post(PATH + "/rename")
def rename_file(project_id):
    view = project_page(str(project_id))
    done = submit(lambda: _rename(view.project.id), then=_here(view), notice=gettext("File renamed."))
    return done or _page(view, renaming=request.form.get("fileName"), failed="rename")


@files_ui.post(PATH + "/delete")
def delete_file(project_id):
    view = project_page(str(project_id))
    done = submit(lambda: _delete(view.project.id), then=_here(view), notice=_deleted)
    if done:
        return done
    name, language = request.form.get("fileName"), request.form.get("languageCode") or None
    removal = attempt(lambda: service.file_removal(page_user(), view.project.id, name, language))
    return _page(view, removal=None if removal is REFUSED else removal)


def chosen_languages() -> list[dict]:
    """The ticked languages plus the codes typed in, comma- or space-separated."""
    typed = request.form.get("new_languages", "").replace(",", " ").split()
    return [{"code": code} for code in dict.fromkeys([*request.form.getlist("languages"), *typed])]


def _create(project_id: str) -> list[dict]:
    data = form_input(FilesCreate, extra={"languages": chosen_languages()})
    created = service.create_files(page_user(), project_id, data["fileName"], data["languages"])
    if not created:  # nothing to do is no success to announce
        raise Conflict(f"fileName: {data['fileName']!r} already exists in these languages.")
    return created


def _rename(project_id: str) -> list[dict]:
    data = form_input(FileRename)
    return service.rename_file(page_user(), project_id, data["fileName"], data["newFileName"])


def _delete(project_id: str) -> dict:
    data = form_input(FileDelete, drop_empty=("languageCode",))
    name, language = data["fileName"], data.get("languageCode")
    if data["permanent"]:
        removal = service.file_removal(page_user(), project_id, name, language)
        removed = (
            removal["values"] + removal["trashed_values"]
            if language
            else removal["keys"] + removal["trashed_keys"]
        )
        if removed > 1:
            require_typed_confirmation(name)
    service.delete_file(page_user(), project_id, name, language, data["permanent"])
    return data


def _deleted(data: dict) -> str:
    what = (
        f"The {data['languageCode']} version of {data['fileName']}"
        if data.get("languageCode")
        else f"File {data['fileName']}"
    )
    if data["permanent"]:
        return f"{what} deleted for good."
    return f"{what} deleted. Restore it from the Trash tab."


def _here(view) -> str:
    return url_for("files_ui.files", project_id=view.project.id)


def _page(view, renaming=None, removal=None, failed=None):
    summaries = file_summaries(page_user(), view.project.id)
    return render_page(
        "files/files.html",
        view=view,
        files=summaries,
        languages=project_languages(view.project, stats=False),
        renaming=renaming if any(item["fileName"] == renaming for item in summaries) else None,
        removal=removal,
        failed=failed,
        form=request.form,
    )
