"""The review queue's page: open proposals filtered and sorted, each with Accept, Reject (with
a reason) and vote buttons, a selection accepted (the best-voted of each key) or rejected in
bulk, and the undo of that bulk decision. Every form redirects after it succeeds;
proposals.js adds the keyboard (j/k to move, a to accept, r to reject)."""

from flask import Blueprint, request, url_for
from flask_babel import gettext, ngettext
from marshmallow import fields, validate

from loko.fields import ApiSchema
from loko.http import load_args, schema_instance
from loko.languages.service import language_rows
from loko.proposals import service
from loko.proposals.schemas import ProposalSettingsPatch, QueueQuery
from loko.translations.undo import Selection, undo_changes
from loko.web.pages import (
    REFUSED,
    attempt,
    form_input,
    page_user,
    project_page,
    redirect_with_notice,
    render_page,
)

proposals_ui = Blueprint("proposals_ui", __name__)
PATH = "/projects/<uuid:project_id>/proposals"


class DecisionForm(ApiSchema):
    action = fields.String(
        required=True, validate=validate.OneOf(("accept", "reject", "up", "down", "unvote"))
    )
    reason = fields.String(validate=validate.Length(max=1000))
    text = fields.String(validate=validate.Length(max=8192))
    view = fields.String(validate=validate.Length(max=2000))


class BulkForm(ApiSchema):
    action = fields.String(required=True, validate=validate.OneOf(("accept", "reject")))
    proposalId = fields.List(fields.String(validate=validate.Length(equal=36)), required=True)
    reason = fields.String(validate=validate.Length(max=1000))
    view = fields.String(validate=validate.Length(max=2000))


class UndoForm(ApiSchema):
    operationId = fields.String(required=True, validate=validate.Length(equal=36))


def _back(project_id: str, view: str | None = None, **extra) -> str:
    url = url_for("proposals_ui.queue", project_id=project_id, **extra)
    if view and not extra:
        return f"{url}?{view}"
    return url


@proposals_ui.get(PATH)
def queue(project_id):
    return _queue_page(str(project_id))


def _queue_page(project_id: str):
    actor = page_user()
    view = project_page(project_id)
    args = request.args.copy()
    args.pop("undo", None)
    # An empty filter field of the form is no filter.
    for name in [name for name, value in args.items() if value == ""]:
        args.pop(name)
    query = load_args(QueueQuery, args)
    limit, cursor = query.pop("limit"), query.pop("cursor", None)
    page = service.list_queue(actor, project_id, query, limit, cursor)
    return render_page(
        "proposals/queue.html",
        view=view,
        page=page,
        query=query,
        languages=language_rows(project_id),
        filters=request.query_string.decode(),
        undo=request.args.get("undo"),
        can_decide=view.permissions.can_review_translations,
        can_vote=view.permissions.can_propose,
        settings=service.get_settings(actor, project_id) if view.permissions.can_edit_projects else None,
    )


@proposals_ui.post(PATH + "/<uuid:proposal_id>")
def decide(project_id, proposal_id):
    actor, project_id, proposal_id = page_user(), str(project_id), str(proposal_id)
    data = attempt(lambda: form_input(DecisionForm, drop_empty=("reason", "text", "view")))
    if data is REFUSED:
        return _queue_page(project_id)
    action = data["action"]

    def work():
        if action == "accept":
            return service.accept(actor, project_id, proposal_id, data.get("text"))
        if action == "reject":
            return service.reject(actor, project_id, proposal_id, data.get("reason"))
        return service.vote(actor, project_id, proposal_id, {"up": 1, "down": -1, "unvote": 0}[action])

    result = attempt(work)
    if result is REFUSED:
        return _queue_page(project_id)
    notice = {"accept": gettext("Proposal accepted."), "reject": gettext("Proposal rejected.")}.get(
        action, gettext("Vote saved.")
    )
    return redirect_with_notice(_back(project_id, data.get("view")), notice)


@proposals_ui.post(PATH + "/bulk")
def bulk(project_id):
    actor, project_id = page_user(), str(project_id)
    data = attempt(
        lambda: form_input(
            BulkForm, drop_empty=("reason", "view"), extra={"proposalId": request.form.getlist("proposalId")}
        )
    )
    if data is REFUSED:
        return _queue_page(project_id)

    def work():
        if data["action"] == "accept":
            return service.bulk_accept(actor, project_id, {"proposalIds": data["proposalId"]})
        return service.bulk_reject(actor, project_id, data["proposalId"], data.get("reason"))

    result = attempt(work)
    if result is REFUSED:
        return _queue_page(project_id)
    if data["action"] == "accept":
        notice = ngettext(
            "Accepted %(num)s proposal (superseded %(superseded)s).",
            "Accepted %(num)s proposals (superseded %(superseded)s).",
            result["accepted"],
            superseded=result["superseded"],
        )
    else:
        notice = ngettext("Rejected %(num)s proposal.", "Rejected %(num)s proposals.", result["rejected"])
    return redirect_with_notice(
        _back(project_id, undo=result["operationId"]) if result["operationId"] else _back(project_id), notice
    )


@proposals_ui.post(PATH + "/undo")
def undo(project_id):
    actor, project_id = page_user(), str(project_id)

    def work():
        data = form_input(UndoForm)
        return undo_changes(actor, project_id, Selection(operation_id=data["operationId"]))

    result = attempt(work)
    if result is REFUSED:
        return _queue_page(project_id)
    return redirect_with_notice(
        _back(project_id), gettext("Undone: the values are back and the proposals open again.")
    )


@proposals_ui.post(PATH + "/settings")
def settings(project_id):
    """Who proposes: each language's mode (and its number of votes) and the protection of
    reviewed values, one form."""
    actor, project_id = page_user(), str(project_id)

    def work():
        codes = [row["code"] for row in language_rows(project_id)]
        languages = {}
        for code in codes:
            mode = request.form.get(f"mode-{code}")
            if mode:
                typed = request.form.get(f"votes-{code}", "").strip()
                votes = int(typed) if typed.isdecimal() else None
                languages[code] = {"mode": mode, **({"autoAcceptVotes": votes} if mode == "votes" else {})}
        data = {"protectReviewed": request.form.get("protectReviewed") == "true", "languages": languages}
        return service.update_settings(actor, project_id, schema_instance(ProposalSettingsPatch).load(data))

    result = attempt(work)
    if result is REFUSED:
        return _queue_page(project_id)
    return redirect_with_notice(_back(project_id), gettext("Proposal settings saved."))
