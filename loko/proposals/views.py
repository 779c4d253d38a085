"""The review queue's page: open proposals filtered and sorted, each with Accept, Reject (with
a reason) and vote buttons, a selection accepted (the best-voted of each key) or rejected in
bulk, and the undo of that bulk decision; for the project's admins, a person blocked from
proposing (and unblocked). A public visitor of a public project sees the queue of their
languages and votes, and proposes from the page of one language's source texts and current
values (``texts``). Every form redirects after it succeeds; proposals.js adds the keyboard (j/k
to move, a to accept, r to reject)."""

from flask import Blueprint, request, url_for
from flask_babel import gettext, ngettext
from marshmallow import fields, validate

from loko.fields import ApiSchema
from loko.http import load_args, schema_instance
from loko.languages.service import language_rows
from loko.projects.service import get_project_for_proposals
from loko.proposals import public, service
from loko.proposals.limits import spend_visitor_allowance
from loko.proposals.schemas import ProposalCreate, ProposalSettingsPatch, QueueQuery, TextsQuery
from loko.translations.undo import Selection, undo_changes
from loko.web.pages import (
    REFUSED,
    attempt,
    form_input,
    page_user,
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


class BlockForm(ApiSchema):
    action = fields.String(required=True, validate=validate.OneOf(("block", "unblock")))
    userId = fields.String(required=True, validate=validate.Length(equal=36))


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


def _readable_languages(view, project_id: str) -> list[dict]:
    """The project's languages whose proposals the caller reads (a visitor's own)."""
    readable = view.permissions.readable_languages
    return [row for row in language_rows(project_id) if readable is None or row["code"] in readable]


def _queue_page(project_id: str):
    actor = page_user()
    view = get_project_for_proposals(actor, project_id)
    args = request.args.copy()
    args.pop("undo", None)
    # An empty filter field of the form is no filter.
    for name in [name for name, value in args.items() if value == ""]:
        args.pop(name)
    query = load_args(QueueQuery, args)
    limit, cursor = query.pop("limit"), query.pop("cursor", None)
    page = service.list_queue(actor, project_id, query, limit, cursor)
    blocks = public.list_blocks(actor, project_id) if view.permissions.can_edit_projects else None
    return render_page(
        "proposals/queue.html",
        view=view,
        page=page,
        query=query,
        languages=_readable_languages(view, project_id),
        filters=request.query_string.decode(),
        undo=request.args.get("undo"),
        can_decide=view.permissions.can_review_translations,
        can_vote=view.permissions.can_propose,
        settings=service.get_settings(actor, project_id) if view.permissions.can_edit_projects else None,
        blocks=blocks,
        # Members are not blocked (a block is a public visitor's): no button by their names.
        unblockable=(
            {block["userId"] for block in blocks}
            | {actor.id}
            | public.members_among(
                project_id, [item["author"]["id"] for item in page["proposals"] if item["author"]]
            )
            if blocks is not None
            else set()
        ),
    )


@proposals_ui.post(PATH + "/<uuid:proposal_id>")
def decide(project_id, proposal_id):
    actor, project_id, proposal_id = page_user(), str(project_id), str(proposal_id)
    data = attempt(lambda: form_input(DecisionForm, drop_empty=("reason", "text", "view")))
    if data is REFUSED:
        return _queue_page(project_id)
    action = data["action"]

    def work():
        if action not in ("accept", "reject"):
            spend_visitor_allowance(actor, project_id)
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


@proposals_ui.post(PATH + "/blocks")
def blocks(project_id):
    """Block a person from proposing in the project, or lift the block (its admins)."""
    actor, project_id = page_user(), str(project_id)
    data = attempt(lambda: form_input(BlockForm))
    if data is REFUSED:
        return _queue_page(project_id)

    def work():
        if data["action"] == "block":
            return public.block(actor, project_id, data["userId"])[0]
        public.unblock(actor, project_id, data["userId"])
        return data

    result = attempt(work)
    if result is REFUSED:
        return _queue_page(project_id)
    if data["action"] == "block":
        notice = gettext("%(name)s may no longer propose or vote here.", name=result["name"])
    else:
        notice = gettext("The block is lifted.")
    return redirect_with_notice(_back(project_id), notice)


@proposals_ui.get(PATH + "/texts")
def texts(project_id):
    return _texts_page(str(project_id))


def _texts_page(project_id: str, language: str | None = None):
    """One language's source texts and current values, each with a form to propose a text."""
    actor = page_user()
    view = get_project_for_proposals(actor, project_id)
    languages = [
        row
        for row in _readable_languages(view, project_id)
        if row["code"] != view.project.source_language or not view.permissions.visitor
    ]
    args = request.args.copy()
    for name in [name for name, value in args.items() if value == ""]:
        args.pop(name)
    if language is not None and any(row["code"] == language for row in languages):
        args["language"] = language
    if "language" not in args and languages:
        args["language"] = languages[0]["code"]
    page = None
    if "language" in args:
        query = load_args(TextsQuery, args)
        page = public.list_texts(
            actor, project_id, query["language"], query.get("fileName"), query["limit"], query["offset"]
        )
    return render_page(
        "proposals/texts.html",
        view=view,
        languages=languages,
        page=page,
        can_propose=view.permissions.can_propose,
    )


@proposals_ui.post(PATH + "/texts")
def propose_text(project_id):
    actor, project_id = page_user(), str(project_id)
    data = attempt(lambda: form_input(ProposalCreate))
    if data is REFUSED:
        return _texts_page(project_id, request.form.get("language"))

    def work():
        spend_visitor_allowance(actor, project_id)
        return service.propose(actor, project_id, data["translationId"], data["language"], data["text"])

    result = attempt(work)
    if result is REFUSED:
        return _texts_page(project_id, data["language"])
    back = url_for("proposals_ui.texts", project_id=project_id, language=data["language"])
    return redirect_with_notice(back, gettext("Proposal sent: a reviewer decides it."))


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
