"""Pages: the trash: trashed translations searched by key and file, 50 a page; restoring one,
and deleting one permanently after a confirmation."""

from flask import current_app, request, url_for

from loko.languages.service import file_names
from loko.translations import service
from loko.translations.operations import list_operations
from loko.translations.schemas import TranslationId, TrashQuery
from loko.translations.views import translations_ui
from loko.web.pages import form_input, page_query, page_user, project_page, render_page, submit

PATH = "/projects/<uuid:project_id>/trash"
# Deletes of many keys at once, restored as a whole from the top of the trash.
REMOVALS = ("file-delete", "language-delete", "bulk-delete")
REMOVALS_SHOWN = 50
PAGE_SIZE = 50
SEARCH = ("q", "fileName")


@translations_ui.get(PATH)
def trash(project_id):
    """``?purge=<id>`` asks to confirm a permanent deletion."""
    return _page(project_page(str(project_id)), request.args, purge=request.args.get("purge"))


@translations_ui.post(PATH + "/restore")
def restore_from_trash(project_id):
    view = project_page(str(project_id))
    done = submit(
        lambda: service.restore_translation(page_user(), view.project.id, form_input(TranslationId)["id"]),
        then=_trash_url(view, request.form),
        notice="Translation restored.",
    )
    return done or _page(view, request.form)


@translations_ui.post(PATH + "/purge")
def purge_from_trash(project_id):
    view = project_page(str(project_id))
    done = submit(
        lambda: service.purge_translation(page_user(), view.project.id, form_input(TranslationId)["id"]),
        then=_trash_url(view, request.form),
        notice="Translation deleted permanently.",
    )
    return done or _page(view, request.form)


def _trash_url(view, source) -> str:
    """The trash page with the search and position the form came from."""
    kept = {name: source.get(name) for name in (*SEARCH, "offset") if source.get(name)}
    return url_for("translations_ui.trash", project_id=view.project.id, **kept)


def _page(view, source, purge=None):
    query = page_query(TrashQuery, source, (*SEARCH, "offset"), limit=PAGE_SIZE)
    search = {name: query[name] for name in SEARCH if name in query}
    translations, total = service.list_trash(
        page_user(), view.project.id, PAGE_SIZE, query["offset"], search.get("fileName"), search.get("q")
    )
    removals, _ = list_operations(page_user(), view.project.id, REMOVALS_SHOWN, kinds=REMOVALS, undoable=True)
    return render_page(
        "translations/trash.html",
        view=view,
        translations=translations,
        total=total,
        offset=query["offset"],
        size=PAGE_SIZE,
        search=search,
        purge=purge,
        purging=next((item for item in translations if item["id"] == purge), None),
        files=file_names(view.project.id),
        removals=removals,
        retention_days=current_app.config["LOKO_TRASH_RETENTION_DAYS"],
    )
