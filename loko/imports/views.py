"""Pages: importing translation files into a project. The upload is checked by a dry run
whose diff the page shows; it is written only when the person confirms that diff."""

from flask import Blueprint, g, request, url_for
from flask_babel import gettext

from loko.errors import BadRequest
from loko.imports import pending
from loko.imports.schemas import ImportQuery
from loko.languages.service import project_languages
from loko.translations.operations import get_operation
from loko.web.pages import (
    REFUSED,
    accepts_upload,
    attempt,
    form_input,
    format_choices,
    page_user,
    redirect_with_notice,
    render_page,
    submit,
)

imports_ui = Blueprint("imports_ui", __name__)
PATH = "/projects/<uuid:project_id>/import"
OPTIONAL = ("format", "language", "fileName", "pathTemplate", "tag")


@imports_ui.get(PATH)
def import_page(project_id):
    """``?imported=<operation>`` shows the import just made, with a button that undoes it."""
    view = pending.open_import(page_user(), str(project_id))
    imported = request.args.get("imported")
    done = attempt(lambda: get_operation(page_user(), view.project.id, imported)) if imported else None
    return _page(view, imported=None if done is REFUSED else done)


@imports_ui.post(PATH)
@accepts_upload("LOKO_MAX_IMPORT_MB")
def preview(project_id):
    view = pending.open_import(page_user(), str(project_id))
    previewed = attempt(lambda: pending.preview_import(page_user(), view.project.id, *_upload()))
    if previewed is REFUSED:
        return _page(view, form=request.form)
    return _page(view, form=request.form, preview=previewed)


@imports_ui.post(PATH + "/confirm")
def confirm(project_id):
    view = pending.open_import(page_user(), str(project_id))
    try:
        done = submit(
            lambda: pending.confirm_import(page_user(), view.project.id, request.form.get("pending", "")),
            then=lambda diff: _imported_url(view, diff),
            notice=_imported,
        )
    except pending.PreviewChanged as changed:
        # Nothing was imported: the page shows the new preview to confirm instead.
        g.form_error, g.form_status = changed.message, 409
        return _page(view, preview=changed.preview)
    return done or _page(view)


def _imported_url(view, diff: dict) -> str:
    if diff.get("operationId"):
        return url_for("imports_ui.import_page", project_id=view.project.id, imported=diff["operationId"])
    return url_for("files_ui.files", project_id=view.project.id)


def _imported(diff: dict) -> str:
    summary = diff["summary"]
    parts = [
        gettext(
            "Imported: %(created)s created, %(updated)s updated, %(trashed)s moved to the trash",
            created=summary["created"],
            updated=summary["updated"],
            trashed=summary["trashed"],
        )
    ]
    if summary["removed"]:
        parts.append(gettext("%(count)s values removed", count=summary["removed"]))
    if summary["notes"]:
        parts.append(gettext("notes changed on %(count)s keys", count=summary["notes"]))
    if summary["conflicts"]:
        parts.append(gettext("%(count)s left as they were (conflicts)", count=summary["conflicts"]))
    return gettext("%(summary)s.", summary=gettext(", ").join(parts))


@imports_ui.post(PATH + "/cancel")
def cancel(project_id):
    view = pending.open_import(page_user(), str(project_id))
    pending.discard_pending(page_user(), view.project.id, request.form.get("pending", ""))
    return redirect_with_notice(_here(view), gettext("Import cancelled: nothing was changed."))


def _upload():
    """The posted file's bytes and the options of the form."""
    upload = request.files.get("file")
    if upload is None or not upload.filename:
        raise BadRequest(gettext("file: choose a translation file or a ZIP to import."))
    data = upload.read()
    if not data:
        raise BadRequest(gettext("file: %(name)s is empty.", name=repr(upload.filename)))
    name = upload.filename.replace("\\", "/").rsplit("/", 1)[-1]
    return data, pending.upload_options(form_input(ImportQuery, drop_empty=OPTIONAL), name, data)


def _here(view) -> str:
    return url_for("imports_ui.import_page", project_id=view.project.id)


def _page(view, form=None, preview=None, imported=None):
    """The import page; a caller limited to some languages is offered those only."""
    formats = format_choices()
    return render_page(
        "imports/import.html",
        view=view,
        formats=formats,
        format_labels=dict(formats),
        languages=[
            language
            for language in project_languages(view.project, stats=False)
            if view.permissions.may_edit_language(language["code"])
        ],
        form=form or {},
        preview=preview,
        imported=imported,
    )
