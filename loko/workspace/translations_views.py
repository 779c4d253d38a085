"""Pages of translations: the editor (its rows as an HTML fragment, one key's values in every
language, its details), the trash, the history and undo. Editing goes through the JSON API
from editor.js; every form here posts, then redirects."""

from dataclasses import replace
from datetime import UTC
from urllib.parse import parse_qsl, urlencode

from flask import Blueprint, current_app, request, url_for
from flask_babel import gettext, lazy_gettext
from markupsafe import Markup, escape
from marshmallow import fields, pre_load, validate
from werkzeug.datastructures import MultiDict

from loko.auth.views import _is_local_path
from loko.comments.service import list_comments
from loko.fields import ApiSchema, CommaList, FileName, LanguageCode, TagList, TagName, no_control_characters
from loko.http import load_args, load_query
from loko.languages.service import file_names, project_languages
from loko.projects.service import ProjectView
from loko.proposals.service import list_for_key as key_proposals
from loko.screenshots.service import key_screenshots
from loko.tags.filters import TagFilter
from loko.translations import revert, service, undo
from loko.translations.details import update_key_details
from loko.translations.history import history_actors, newer_cursor
from loko.translations.models import HISTORY_ACTIONS
from loko.translations.operations import get_operation, list_operations
from loko.translations.schemas import (
    TRANSLATION_ID,
    HistoryQuery,
    KeyDetailsChange,
    TranslationId,
    TrashQuery,
)
from loko.web.pages import (
    REFUSED,
    attempt,
    form_input,
    page_query,
    page_user,
    project_page,
    render_page,
    submit,
)
from loko.workspace.editor import (
    ANY_CHECK,
    EditorFilters,
    apply_fix,
    check_titles,
    editor_page,
    key_details,
    review_values,
)

translations_ui = Blueprint("translations_ui", __name__)


# -- editor --------------------------------------------------------------------------

CURSOR = [validate.Length(min=1, max=2000), no_control_characters]


class EditorQuery(ApiSchema):
    """The editor's query parameters; blank form fields count as not given."""

    file = FileName()
    q = fields.String(validate=[validate.Length(min=1, max=256), no_control_characters])
    missing = LanguageCode()
    since = fields.Date()
    inherited = fields.Boolean()
    source = LanguageCode()
    lang = CommaList(LanguageCode())
    after = fields.String(validate=CURSOR)
    before = fields.String(validate=CURSOR)
    id = fields.String(validate=TRANSLATION_ID)
    issues = fields.String(validate=[validate.Length(min=1, max=32), no_control_characters])
    review = fields.String(validate=validate.OneOf(["needed"]))
    shots = fields.String(validate=validate.OneOf(["with", "without"]))
    task = fields.String(validate=TRANSLATION_ID)
    tag = TagName()
    tags = TagList("Keys with every one of these tags.")
    excludeTags = TagList("Keys with none of these tags.")

    @pre_load
    def leave_out_blank_fields(self, data, **kwargs):
        """The filter form sends every field, empty or not."""
        loaded = {}
        for name, value in data.items():
            values = [item for item in (value if isinstance(value, list) else [value]) if item.strip()]
            if values:
                loaded[name] = values if len(values) > 1 else values[0]
        return loaded


def _editor_arguments() -> dict:
    """The page's query loaded by EditorQuery, as editor_page's arguments."""
    return _arguments_of(load_query(EditorQuery))


def _arguments_of(query: dict) -> dict:
    filters = EditorFilters(
        file_name=query.get("file"),
        search=query.get("q"),
        missing=query.get("missing"),
        changed_since=query.get("since"),
        inherited=query.get("inherited", False),
        translation_id=query.get("id"),
        issues=query.get("issues"),
        needs_review="review" in query,
        screenshots=query.get("shots"),
        task_id=query.get("task"),
        tags=TagFilter.from_query(query),
    )
    return {
        "filters": filters,
        "languages": query.get("lang", ()),
        "source": query.get("source"),
        "after": query.get("after"),
        "before": query.get("before"),
        "drop_unknown": True,
    }


def _links(filters: EditorFilters, page) -> dict:
    """The query of this view (filters and the columns shown), for the pager and the
    fragment URLs, so every page shows the same columns."""
    params = {
        "file": filters.file_name,
        "q": filters.search,
        "missing": filters.missing,
        "since": filters.changed_since.isoformat() if filters.changed_since else None,
        "inherited": "true" if filters.inherited else None,
        "issues": filters.issues,
        "review": "needed" if filters.needs_review else None,
        "shots": filters.screenshots,
        "task": filters.task_id,
        **filters.tags.as_query(),
        "source": page.source,
        "lang": page.shown[1:],
    }
    return {name: value for name, value in params.items() if value}


def _kept_filters(filters: EditorFilters, page) -> EditorFilters:
    """The filters the page applied: a language it dropped (no longer in the project) and
    the inherited filter without a link are left out of its links and its form."""
    return replace(
        filters,
        missing=None if filters.missing in page.dropped else filters.missing,
        inherited=filters.inherited and page.link is not None,
    )


@translations_ui.app_template_filter("cell_text")
def cell_text(value: str) -> Markup:
    """A value escaped for a cell, its carriage returns kept (an HTML parser turns a raw
    one into a line feed, and the editor compares values exactly)."""
    return Markup(str(escape(value)).replace("\r", "&#13;"))  # noqa: S704 - escaped above


@translations_ui.get("/projects/<uuid:project_id>/editor")
def editor(project_id):
    return _render_editor(project_id, _editor_arguments())


def _render_editor(project_id, arguments: dict):
    page = editor_page(page_user(), str(project_id), **arguments)
    filters = _kept_filters(arguments["filters"], page)
    params = _links(filters, page)
    return render_page(
        "translations/editor.html",
        view=ProjectView(page.project, page.permissions),
        page=page,
        filters=filters,
        params=params,
        rows_url=url_for("translations_ui.editor_rows", project_id=project_id, **params),
        checks=check_titles(),
        any_check=ANY_CHECK,
        view_query=urlencode(params, doseq=True),
        **_replace_scope(filters, page),
    )


# The editor's filters a find and replace cannot narrow by, as the dialog names them.
NOT_REPLACE_FILTERS = {
    "missing": lazy_gettext("missing in"),
    "changed_since": lazy_gettext("changed since"),
    "inherited": lazy_gettext("inherited"),
    "issues": lazy_gettext("check issues"),
    "screenshots": lazy_gettext("screenshots"),
}


def _replace_scope(filters: EditorFilters, page) -> dict:
    """The find and replace dialog's filter (the editor's, as ``ReplaceRequest`` takes it: the
    file, the search, the review state, the tags, and the languages shown that the caller
    edits, but the source), what it covers in words, and the filters it leaves out."""
    body = {}
    if filters.file_name:
        body["fileName"] = filters.file_name
    if filters.search:
        body["search"] = filters.search
    if filters.needs_review:
        body["state"] = "needs-review"
    if filters.tags.all_of:
        body["tags"] = list(filters.tags.all_of)
    if filters.tags.none_of:
        body["excludeTags"] = list(filters.tags.none_of)
    sources = {page.source, page.project.source_language}
    languages = [
        code for code in page.shown if code not in sources and page.permissions.may_edit_language(code)
    ]
    if languages:
        body["languages"] = languages
    names = page.language_names
    narrowed = bool(body.keys() - {"languages"})
    shown = ", ".join(names[code]["name"] for code in languages)
    if languages and narrowed:
        scope = gettext(
            "In the values in %(languages)s of the keys this view's filters show.", languages=shown
        )
    elif languages:
        scope = gettext("In the values in %(languages)s.", languages=shown)
    elif narrowed:
        scope = gettext(
            "In the values in every language you edit but the source of the keys this view's filters show."
        )
    else:
        scope = gettext("In the values in every language you edit but the source.")
    ignored = [name for field, name in NOT_REPLACE_FILTERS.items() if getattr(filters, field)]
    return {"replace_filter": body, "replace_scope": scope, "replace_ignored": ignored}


@translations_ui.get("/projects/<uuid:project_id>/editor/rows")
def editor_rows(project_id):
    """The rows of a page (or of one key, with ``id``) in a table, for the editor's script."""
    arguments = _editor_arguments()
    page = editor_page(page_user(), str(project_id), **arguments)
    view_query = urlencode(_links(_kept_filters(arguments["filters"], page), page), doseq=True)
    return render_page("translations/_editor_fragment.html", page=page, view_query=view_query)


EDITOR_VIEW_FIELDS = (
    "file",
    "q",
    "missing",
    "since",
    "inherited",
    "issues",
    "review",
    "task",
    "tags",
    "excludeTags",
    "source",
    "lang",
)


def _back_to_editor(project_id: str) -> str:
    """The editor view a value's form was posted from (its ``view`` field: the filters and
    the columns shown, nothing else), to go back to once the form is done."""
    kept = [
        (name, value)
        for name, value in parse_qsl(request.form.get("view", ""), keep_blank_values=False)
        if name in EDITOR_VIEW_FIELDS
    ]
    url = url_for("translations_ui.editor", project_id=project_id)
    return f"{url}?{urlencode(kept)}" if kept else url


@translations_ui.post("/projects/<uuid:project_id>/editor/fix")
def fix_value(project_id):
    """A value's "Apply fix" form: the fix a check proposes, written as an edit on condition
    that the value is still the one shown; back to the same view, or it with the refusal."""
    actor, project_id = page_user(), str(project_id)
    form = form_input(FixForm)
    done = submit(
        lambda: apply_fix(actor, project_id, form["id"], form["language"], form["check"], form["expected"]),
        then=_back_to_editor(project_id),
        notice=lambda fixed: f"Fix applied to {fixed['key']} in {fixed['language']}.",
    )
    return done or _render_editor(project_id, _view_arguments())


@translations_ui.post("/projects/<uuid:project_id>/editor/review")
def review_shown(project_id):
    """ "Mark reviewed": the values of one key (or of every key shown) in one language."""
    actor, project_id = page_user(), str(project_id)
    form = form_input(ReviewForm, extra={"id": request.form.getlist("id")})
    done = submit(
        lambda: review_values(actor, project_id, form["id"], form["language"], "skip" in form),
        then=_back_to_editor(project_id),
        notice=_reviewed_notice,
    )
    return done or _render_editor(project_id, _view_arguments())


def _reviewed_notice(result: dict) -> str:
    notice = f"Values marked reviewed: {result['updated']}."
    if result["left_out"]:
        notice += f" Left out for a review one by one: {result['left_out']}."
    return notice


def _view_arguments() -> dict:
    """The editor's arguments for the view a form came from."""
    return _arguments_of(load_args(EditorQuery, MultiDict(parse_qsl(request.form.get("view", "")))))


class FixForm(ApiSchema):
    id = fields.String(required=True, validate=TRANSLATION_ID)
    language = LanguageCode(required=True)
    check = fields.String(required=True, validate=validate.Length(min=1, max=32))
    expected = fields.String(required=True, validate=validate.Length(max=8192))


class ReviewForm(ApiSchema):
    id = fields.List(
        fields.String(validate=TRANSLATION_ID), required=True, validate=validate.Length(min=1, max=200)
    )
    language = LanguageCode(required=True)
    # "flagged": leave out the values with open issues or waiting for a review.
    skip = fields.String(validate=validate.OneOf(["flagged"]))


@translations_ui.get("/projects/<uuid:project_id>/editor/keys/<translation_id>")
def editor_key(project_id, translation_id):
    """One key's values in every language, its details and its comments, for the editor's
    details dialog."""
    actor, project_id = page_user(), str(project_id)
    details = key_details(actor, project_id, translation_id)
    comments = list_comments(actor, project_id, translation_id)
    screenshots = key_screenshots(actor, project_id, translation_id)
    proposals = key_proposals(actor, project_id, translation_id)
    # The thread's forms are for whoever may comment, not only for who may edit the key.
    thread = replace(details, can_edit=details.can_comment)
    return render_page(
        "translations/_editor_details.html",
        details=details,
        thread=thread,
        comments=comments,
        screenshots=screenshots,
        proposals=proposals,
    )


@translations_ui.post("/projects/<uuid:project_id>/editor/keys/<translation_id>")
def save_key_details(project_id, translation_id):
    """The details panel's form: a key's comment, context and maximum length; back to the
    editor showing that key, or that view with the refusal."""
    actor, project_id = page_user(), str(project_id)
    done = submit(
        lambda: update_key_details(actor, project_id, _details_input(), translation_id=translation_id),
        then=url_for("translations_ui.editor", project_id=project_id, id=translation_id),
        notice=lambda translation: f"Details of {translation['key']} saved.",
    )
    if done is not None:
        return done
    return editor_of_key(project_id, translation_id)


def editor_of_key(project_id: str, translation_id: str):
    """The editor showing one key, with the refusal of the form just posted about it."""
    return _render_editor(project_id, {"filters": EditorFilters(translation_id=translation_id)})


def _details_input() -> dict:
    """The form's fields through the API's schema; a blank field clears its detail, and the
    maximum length is a number as the API takes it."""
    typed = request.form.get("maxLength", "").strip()
    max_length = None if not typed else int(typed) if typed.isdecimal() else typed
    return form_input(KeyDetailsChange, extra={"maxLength": max_length})


# -- history -------------------------------------------------------------------------

HISTORY_PATH = "/projects/<uuid:project_id>/history"
HISTORY_PAGE_SIZE = 50
FILTERS = ("key", "fileName", "language", "action", "actor")


class HistoryPageQuery(HistoryQuery):
    """The API's history filters plus the actor, as ``<type>:<id>`` (``system:`` for Loko)."""

    actor = fields.String(
        validate=validate.Regexp(r"^(user|api_key):[0-9A-Za-z-]{1,36}$|^system:$", error="Not an actor.")
    )


@translations_ui.get(HISTORY_PATH)
def history(project_id):
    return _history_page(project_page(str(project_id)), request.args)


@translations_ui.post(HISTORY_PATH + "/<int:entry_id>/revert")
def revert_entry(project_id, entry_id):
    view = project_page(str(project_id))
    done = submit(
        lambda: revert.revert_history_entry(page_user(), view.project.id, entry_id),
        then=_history_url(view, request.form),
        notice="Value reverted.",
    )
    return done or _history_page(view, request.form)


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


def _history_page(view, source):
    actor, project_id = page_user(), view.project.id
    query = page_query(HistoryPageQuery, source, (*FILTERS, "cursor"), limit=HISTORY_PAGE_SIZE)
    filters, cursor = service_filters(query), query.get("cursor")
    entries, older = revert.list_history_with_reverts(actor, project_id, filters, HISTORY_PAGE_SIZE, cursor)
    return render_page(
        "translations/history.html",
        view=view,
        entries=entries,
        chosen={name: query[name] for name in FILTERS if name in query},
        cursor=cursor,
        older=older,
        newer=newer_cursor(actor, project_id, filters, HISTORY_PAGE_SIZE, cursor) if cursor else None,
        actions=HISTORY_ACTIONS,
        actors=history_actors(actor, project_id),
        languages=project_languages(view.project, stats=False),
        files=file_names(project_id),
    )


# -- trash ---------------------------------------------------------------------------

TRASH_PATH = "/projects/<uuid:project_id>/trash"
# Deletes of many keys at once, restored as a whole from the top of the trash.
REMOVALS = ("file-delete", "language-delete", "bulk-delete")
REMOVALS_SHOWN = 50
TRASH_PAGE_SIZE = 50
SEARCH = ("q", "fileName")


@translations_ui.get(TRASH_PATH)
def trash(project_id):
    """``?purge=<id>`` asks to confirm a permanent deletion."""
    return _trash_page(project_page(str(project_id)), request.args, purge=request.args.get("purge"))


@translations_ui.post(TRASH_PATH + "/restore")
def restore_from_trash(project_id):
    view = project_page(str(project_id))
    done = submit(
        lambda: service.restore_translation(page_user(), view.project.id, form_input(TranslationId)["id"]),
        then=_trash_url(view, request.form),
        notice="Translation restored.",
    )
    return done or _trash_page(view, request.form)


@translations_ui.post(TRASH_PATH + "/purge")
def purge_from_trash(project_id):
    view = project_page(str(project_id))
    done = submit(
        lambda: service.purge_translation(page_user(), view.project.id, form_input(TranslationId)["id"]),
        then=_trash_url(view, request.form),
        notice="Translation deleted permanently.",
    )
    return done or _trash_page(view, request.form)


def _trash_url(view, source) -> str:
    """The trash page with the search and position the form came from."""
    kept = {name: source.get(name) for name in (*SEARCH, "offset") if source.get(name)}
    return url_for("translations_ui.trash", project_id=view.project.id, **kept)


def _trash_page(view, source, purge=None):
    query = page_query(TrashQuery, source, (*SEARCH, "offset"), limit=TRASH_PAGE_SIZE)
    search = {name: query[name] for name in SEARCH if name in query}
    translations, total = service.list_trash(
        page_user(),
        view.project.id,
        TRASH_PAGE_SIZE,
        query["offset"],
        search.get("fileName"),
        search.get("q"),
    )
    removals, _ = list_operations(page_user(), view.project.id, REMOVALS_SHOWN, kinds=REMOVALS, undoable=True)
    return render_page(
        "translations/trash.html",
        view=view,
        translations=translations,
        total=total,
        offset=query["offset"],
        size=TRASH_PAGE_SIZE,
        search=search,
        purge=purge,
        purging=next((item for item in translations if item["id"] == purge), None),
        files=file_names(view.project.id),
        removals=removals,
        retention_days=current_app.config["LOKO_TRASH_RETENTION_DAYS"],
    )


# -- undo ----------------------------------------------------------------------------

UNDO_PATH = "/projects/<uuid:project_id>/undo"
CHOICES = ("operation", "actor", "since", "until")


class UndoPageQuery(ApiSchema):
    """One operation, or an actor (``<type>:<id>``, as the history page names it) and a time
    range in UTC."""

    operation = fields.String(validate=validate.Length(min=1, max=64))
    actor = fields.String(
        validate=validate.Regexp(r"^(user|api_key):[0-9A-Za-z-]{1,36}$|^system:$", error="Not an actor.")
    )
    since = fields.AwareDateTime(format="iso", default_timezone=UTC)
    until = fields.AwareDateTime(format="iso", default_timezone=UTC)


def selection(query: dict) -> undo.Selection | None:
    if "operation" in query:
        return undo.Selection(operation_id=query["operation"])
    if not query:
        return None
    kind, _, actor_id = query.get("actor", "").partition(":")
    return undo.Selection(
        actor_type=kind or None,
        actor_id=actor_id or None,
        since=query.get("since"),
        until=query.get("until"),
    )


@translations_ui.get(UNDO_PATH)
def undo_preview(project_id):
    return _undo_page(project_page(str(project_id)), request.args)


@translations_ui.post(UNDO_PATH)
def undo_apply(project_id):
    view = project_page(str(project_id))
    query = page_query(UndoPageQuery, request.form, CHOICES)
    chosen = selection(query)
    changed = request.form.get("changed", "skip" if request.form.get("skipChanged") == "1" else "")
    done = submit(
        lambda: undo.undo_changes(
            page_user(),
            view.project.id,
            chosen,
            skip_changed=changed == "skip",
            include_changed=changed == "include",
        ),
        then=_started_from(request.form)
        or (
            url_for("translations_ui.trash", project_id=view.project.id)
            if "operation" in query
            else url_for("translations_ui.history", project_id=view.project.id)
        ),
        notice=lambda result: "Undone: " + describe_summary(result["summary"]) + ".",
    )
    return done or _undo_page(view, request.form)


def _started_from(source) -> str | None:
    """The page an undo was started from (its ``next``, as ``url_for`` writes a path), when
    it is a path of this site: an undo lands back there."""
    target = source.get("next", "")
    return target if _is_local_path(target) else None


def describe_summary(summary: dict) -> str:
    parts = [
        (summary["restored"], "key restored", "keys restored"),
        (summary["trashed"], "key moved to the trash", "keys moved to the trash"),
        (summary["created"], "value written back", "values written back"),
        (summary["updated"], "value changed back", "values changed back"),
        (summary["deleted"], "value removed", "values removed"),
    ]
    said = [f"{count} {one if count == 1 else many}" for count, one, many in parts if count]
    if summary["languages"]:
        said.insert(0, "language " + ", ".join(summary["languages"]) + " brought back")
    return ", ".join(said) or "nothing left to change"


def _undo_page(view, source):
    actor, project_id = page_user(), view.project.id
    query = page_query(UndoPageQuery, source, CHOICES)
    chosen = selection(query)
    preview, operation = None, None
    if chosen is not None:
        if chosen.operation_id is not None:
            operation = attempt(lambda: get_operation(actor, project_id, chosen.operation_id))
            operation = None if operation is REFUSED else operation
        if operation is not None or chosen.operation_id is None:
            preview = attempt(lambda: undo.undo_changes(actor, project_id, chosen, dry_run=True))
            preview = None if preview is REFUSED else preview
    return render_page(
        "translations/undo.html",
        view=view,
        query=query,
        operation=operation,
        preview=preview,
        describe_summary=describe_summary,
        started_from=_started_from(source),
    )
