"""Pages: the editor, its rows as an HTML fragment (the next page, or one new key) and one
key's values in every language. Editing goes through the JSON API from editor.js."""

from dataclasses import replace

from flask import request, url_for
from markupsafe import Markup, escape
from marshmallow import fields, pre_load, validate

from loko.fields import ApiSchema, CommaList, FileName, LanguageCode, no_control_characters
from loko.http import load_query
from loko.projects.service import ProjectView
from loko.translations.details import update_key_details
from loko.translations.editor import EditorFilters, editor_page, key_details
from loko.translations.schemas import TRANSLATION_ID, KeyDetailsChange
from loko.translations.views import translations_ui
from loko.web.pages import form_input, page_user, render_page, submit

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
    query = load_query(EditorQuery)
    filters = EditorFilters(
        file_name=query.get("file"),
        search=query.get("q"),
        missing=query.get("missing"),
        changed_since=query.get("since"),
        inherited=query.get("inherited", False),
        translation_id=query.get("id"),
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
    )


@translations_ui.get("/projects/<uuid:project_id>/editor/rows")
def editor_rows(project_id):
    """The rows of a page (or of one key, with ``id``) in a table, for the editor's script."""
    page = editor_page(page_user(), str(project_id), **_editor_arguments())
    return render_page("translations/_editor_fragment.html", page=page)


@translations_ui.get("/projects/<uuid:project_id>/editor/keys/<translation_id>")
def editor_key(project_id, translation_id):
    """One key's values in every language, for the editor's details dialog."""
    details = key_details(page_user(), str(project_id), translation_id)
    return render_page("translations/_editor_details.html", details=details)


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
    return _render_editor(project_id, {"filters": EditorFilters(translation_id=translation_id)})


def _details_input() -> dict:
    """The form's fields through the API's schema; a blank field clears its detail, and the
    maximum length is a number as the API takes it."""
    typed = request.form.get("maxLength", "").strip()
    max_length = None if not typed else int(typed) if typed.isdecimal() else typed
    return form_input(KeyDetailsChange, extra={"maxLength": max_length})
