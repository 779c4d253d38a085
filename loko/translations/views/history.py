"""Pages: the history: every change, newest first, filtered by key, file, language, action
and actor, 50 a page; reverting a value to what it was before a change."""

from flask import request, url_for
from marshmallow import fields, validate

from loko.languages.service import file_names, project_languages
from loko.translations import revert
from loko.translations.history import history_actors, newer_cursor
from loko.translations.models import HISTORY_ACTIONS
from loko.translations.schemas import HistoryQuery
from loko.translations.views import translations_ui
from loko.web.pages import page_query, page_user, project_page, render_page, submit

PATH = "/projects/<uuid:project_id>/history"
PAGE_SIZE = 50
FILTERS = ("key", "fileName", "language", "action", "actor")


class HistoryPageQuery(HistoryQuery):
    """The API's history filters plus the actor, as ``<type>:<id>`` (``system:`` for Loko)."""

    actor = fields.String(
        validate=validate.Regexp(r"^(user|api_key):[0-9A-Za-z-]{1,36}$|^system:$", error="Not an actor.")
    )


@translations_ui.get(PATH)
def history(project_id):
    return _page(project_page(str(project_id)), request.args)


@translations_ui.post(PATH + "/<int:entry_id>/revert")
def revert_entry(project_id, entry_id):
    view = project_page(str(project_id))
    done = submit(
        lambda: revert.revert_history_entry(page_user(), view.project.id, entry_id),
        then=_history_url(view, request.form),
        notice="Value reverted.",
    )
    return done or _page(view, request.form)


def _history_url(view, source) -> str:
    """The history page with the filters and position the form came from."""
    kept = {name: source.get(name) for name in (*FILTERS, "cursor") if source.get(name)}
    return url_for("translations_ui.history", project_id=view.project.id, **kept)


def service_filters(query: dict) -> dict:
    """The page's filters as ``list_history`` takes them: the key matched in part, as the
    editor's search does, and the actor split into type and id."""
    filters = {name: query[name] for name in FILTERS[:-1] if name in query and name != "key"}
    if "key" in query:
        filters["keyContains"] = query["key"]
    if "actor" in query:
        kind, _, actor_id = query["actor"].partition(":")
        filters |= {"actorType": kind, "actorId": actor_id or None}
    return filters


def _page(view, source):
    actor, project_id = page_user(), view.project.id
    query = page_query(HistoryPageQuery, source, (*FILTERS, "cursor"), limit=PAGE_SIZE)
    filters, cursor = service_filters(query), query.get("cursor")
    entries, older = revert.list_history_with_reverts(actor, project_id, filters, PAGE_SIZE, cursor)
    return render_page(
        "translations/history.html",
        view=view,
        entries=entries,
        chosen={name: query[name] for name in FILTERS if name in query},
        cursor=cursor,
        older=older,
        newer=newer_cursor(actor, project_id, filters, PAGE_SIZE, cursor) if cursor else None,
        actions=HISTORY_ACTIONS,
        actors=history_actors(actor, project_id),
        languages=project_languages(view.project, stats=False),
        files=file_names(project_id),
    )
