"""Pages: undo a bulk change (an import, a file or language delete, a bulk delete) or every
change of an actor since a time: a preview of what the undo writes, then the undo itself."""

from datetime import UTC

from flask import request, url_for
from marshmallow import fields, validate

from loko.fields import ApiSchema
from loko.translations import undo
from loko.translations.operations import get_operation
from loko.translations.views import translations_ui
from loko.web.pages import REFUSED, attempt, page_query, page_user, project_page, render_page, submit

PATH = "/projects/<uuid:project_id>/undo"
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


@translations_ui.get(PATH)
def undo_preview(project_id):
    return _page(project_page(str(project_id)), request.args)


@translations_ui.post(PATH)
def undo_apply(project_id):
    view = project_page(str(project_id))
    query = page_query(UndoPageQuery, request.form, CHOICES)
    chosen = selection(query)
    skip = request.form.get("skipChanged") == "1"
    done = submit(
        lambda: undo.undo_changes(page_user(), view.project.id, chosen, skip_changed=skip),
        then=url_for("translations_ui.trash", project_id=view.project.id)
        if "operation" in query
        else url_for("translations_ui.history", project_id=view.project.id),
        notice=lambda result: "Undone: " + describe_summary(result["summary"]) + ".",
    )
    return done or _page(view, request.form)


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


def _page(view, source):
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
    )
