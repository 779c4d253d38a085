"""/api/projects/{id}/proposals: proposals, their votes, the review queue and its decisions.
(Not /suggestions, the memory matches and machine translations offered while writing.)"""

from flask import Blueprint

from loko.auth.identity import current_actor
from loko.auth.schemas import SuccessOut
from loko.http import load_body, load_query, operation_response
from loko.openapi import documented
from loko.proposals import public, service
from loko.proposals.limits import spend_visitor_allowance
from loko.proposals.schemas import (
    AcceptIn,
    BulkAcceptIn,
    BulkRejectIn,
    DecisionOut,
    KeyProposalsQuery,
    ProposalBlockEnvelope,
    ProposalBlockList,
    ProposalCreate,
    ProposalEnvelope,
    ProposalList,
    ProposalSettingsOut,
    ProposalSettingsPatch,
    QueuePage,
    QueueQuery,
    RejectedOut,
    RejectIn,
    TextsPage,
    TextsQuery,
    VoteIn,
)

proposals_api = Blueprint("proposals_api", __name__)
BASE = "/projects/<uuid:project_id>/proposals"
ONE = BASE + "/<uuid:proposalId>"
TAGS = ("proposals",)
DECIDERS = (
    "Reviewers, project admins and the organization's owners and admins, in the languages they may "
    "review, by session (403 for an API key, or naming the languages)."
)


@proposals_api.get(BASE)
@documented(
    "The review queue: open proposals, filtered, sorted and paged",
    tags=TAGS,
    query=QueueQuery,
    responses={200: QueuePage},
    description="canViewTranslations (a read key too), and a public visitor of a public project, who "
    "reads the proposals of the languages they may propose in (the project's but its source; 404 "
    "naming another language). Open proposals of active keys; keyset paging: "
    "pass nextCursor as cursor (400 naming cursor for one of another sort). Proposals are never "
    "exported.",
)
def list_queue(project_id):
    query = load_query(QueueQuery)
    limit, cursor = query.pop("limit"), query.pop("cursor", None)
    page = service.list_queue(current_actor(), str(project_id), query, limit, cursor)
    return QueuePage().dump(page)


@proposals_api.post(BASE)
@documented(
    "Propose a text for a key in a language",
    tags=TAGS,
    body=ProposalCreate,
    responses={201: ProposalEnvelope, 200: ProposalEnvelope},
    errors=(400, 401, 403, 404, 409, 429),
    description="Contributors, editors and above, and write keys, in the languages their writes are "
    "limited to; in a public project, a signed-in person who is not a member too (a public visitor), "
    "in its languages but the source, 30 proposals and votes an hour (429 with Retry-After beyond), "
    "unless an admin blocked them (403). The same text already open (by someone else) is a +1 "
    "vote for it: 200 with "
    "created false. 409 when the text is the value already, or the caller proposed it already.",
)
def propose(project_id):
    data = load_body(ProposalCreate)
    spend_visitor_allowance(current_actor(), str(project_id))
    proposal, created = service.propose(
        current_actor(), str(project_id), data["translationId"], data["language"], data["text"]
    )
    return ProposalEnvelope().dump({"proposal": proposal, "created": created}), 201 if created else 200


@proposals_api.get(ONE)
@documented("One proposal", tags=TAGS, responses={200: ProposalEnvelope})
def get_proposal(project_id, proposalId):
    proposal = service.get_proposal(current_actor(), str(project_id), str(proposalId))
    return ProposalEnvelope().dump({"proposal": proposal})


@proposals_api.post(ONE + "/vote")
@documented(
    "Vote on an open proposal (+1, -1, 0 takes it back)",
    tags=TAGS,
    auth=("session",),
    body=VoteIn,
    responses={200: ProposalEnvelope},
    errors=(400, 401, 403, 404, 409, 429),
    description="People who may propose in the language, one vote each, never on their own proposal "
    "(403), public visitors too (within their rate limit, 429 beyond; 403 when blocked); API keys "
    "do not vote (403). In a language in the votes mode, the vote that brings the "
    "proposal to the number of net votes set accepts it. 409 for a proposal no longer open.",
)
def vote(project_id, proposalId):
    data = load_body(VoteIn)
    spend_visitor_allowance(current_actor(), str(project_id))
    proposal = service.vote(current_actor(), str(project_id), str(proposalId), data["value"])
    return ProposalEnvelope().dump({"proposal": proposal})


@proposals_api.post(ONE + "/accept")
@documented(
    "Accept a proposal (as proposed, or edited)",
    tags=TAGS,
    auth=("session",),
    body=AcceptIn,
    responses={200: DecisionOut},
    errors=(400, 401, 403, 404, 409),
    description=DECIDERS + " The text is written through the write path (checks, review state, "
    "history crediting the proposer, webhooks) and the other open proposals of the key and language "
    "are superseded: one operation (kind proposals-accept, its id in the Loko-Operation header), "
    "undone by POST history/revert, which reopens them. 409 for a proposal no longer open.",
)
def accept(project_id, proposalId):
    data = load_body(AcceptIn)
    result = service.accept(current_actor(), str(project_id), str(proposalId), data["text"])
    return operation_response(DecisionOut().dump(result), result["operationId"])


@proposals_api.post(ONE + "/reject")
@documented(
    "Reject a proposal, with an optional reason",
    tags=TAGS,
    auth=("session",),
    body=RejectIn,
    responses={200: ProposalEnvelope},
    errors=(400, 401, 403, 404, 409),
    description=DECIDERS + " 409 for a proposal no longer open.",
)
def reject(project_id, proposalId):
    data = load_body(RejectIn)
    proposal = service.reject(current_actor(), str(project_id), str(proposalId), data["reason"])
    return ProposalEnvelope().dump({"proposal": proposal})


@proposals_api.post(BASE + "/bulk-accept")
@documented(
    "Accept the best-voted open proposal of each chosen key and language",
    tags=TAGS,
    auth=("session",),
    body=BulkAcceptIn,
    responses={200: DecisionOut},
    description=DECIDERS + " Most net votes wins, then the oldest; the others are superseded. All or "
    "nothing, one operation (kind proposals-accept, its id in the Loko-Operation header), undoable as "
    "one. Keys with no open proposal are skipped and counted.",
)
def bulk_accept(project_id):
    data = load_body(BulkAcceptIn)
    result = service.bulk_accept(current_actor(), str(project_id), data)
    return operation_response(DecisionOut().dump(result), result["operationId"])


@proposals_api.post(BASE + "/bulk-reject")
@documented(
    "Reject many proposals with one reason",
    tags=TAGS,
    auth=("session",),
    body=BulkRejectIn,
    responses={200: RejectedOut},
    description=DECIDERS + " One operation (kind proposals-reject), undoable: the undo reopens them. "
    "Proposals no longer open are skipped and counted.",
)
def bulk_reject(project_id):
    data = load_body(BulkRejectIn)
    result = service.bulk_reject(current_actor(), str(project_id), data["proposalIds"], data["reason"])
    return operation_response(RejectedOut().dump(result), result["operationId"])


@proposals_api.get("/projects/<uuid:project_id>/translations/<uuid:translationId>/proposals")
@documented(
    "A key's proposals: open ones first (best-voted first), then the decided ones",
    tags=TAGS,
    query=KeyProposalsQuery,
    responses={200: ProposalList},
)
def key_proposals(project_id, translationId):
    query = load_query(KeyProposalsQuery)
    proposals = service.list_for_key(
        current_actor(), str(project_id), str(translationId), query.get("language")
    )
    return ProposalList().dump({"proposals": proposals})


@proposals_api.get("/projects/<uuid:project_id>/proposal-settings")
@documented(
    "Who proposes: each language's mode and the protection of reviewed values",
    tags=TAGS,
    responses={200: ProposalSettingsOut},
)
def get_settings(project_id):
    return ProposalSettingsOut().dump(service.get_settings(current_actor(), str(project_id)))


@proposals_api.patch("/projects/<uuid:project_id>/proposal-settings")
@documented(
    "Change who proposes: languages' modes, the protection of reviewed values",
    tags=TAGS,
    auth=("session",),
    body=ProposalSettingsPatch,
    responses={200: ProposalSettingsOut},
    description="canEditProjects, by session. A language in the votes mode needs autoAcceptVotes "
    "(400 naming it); a language the project does not have is a 404 naming it.",
)
def update_settings(project_id):
    data = load_body(ProposalSettingsPatch)
    return ProposalSettingsOut().dump(service.update_settings(current_actor(), str(project_id), data))


@proposals_api.get(BASE + "/texts")
@documented(
    "The source texts and current values of one language, to propose from",
    tags=TAGS,
    query=TextsQuery,
    responses={200: TextsPage},
    description="Whoever reads proposals: members and keys who see the translations, and a public "
    "visitor of a public project in the languages they may propose in (404 naming another one). "
    "Active keys by file and key; offset paging (nextOffset, null on the last page).",
)
def list_texts(project_id):
    query = load_query(TextsQuery)
    return TextsPage().dump(
        public.list_texts(
            current_actor(),
            str(project_id),
            query["language"],
            query.get("fileName"),
            query["limit"],
            query["offset"],
        )
    )


BLOCKS = "/projects/<uuid:project_id>/proposal-blocks"
BLOCKERS = "canEditProjects (project admins, the organization's owners and admins), by session."


@proposals_api.get(BLOCKS)
@documented(
    "The people blocked from proposing in the project",
    tags=TAGS,
    auth=("session",),
    responses={200: ProposalBlockList},
    description=BLOCKERS,
)
def list_blocks(project_id):
    return ProposalBlockList().dump({"blocks": public.list_blocks(current_actor(), str(project_id))})


@proposals_api.put(BLOCKS + "/<uuid:user_id>")
@documented(
    "Block a person from proposing and voting in the project as a public visitor",
    tags=TAGS,
    auth=("session",),
    responses={201: ProposalBlockEnvelope, 200: ProposalBlockEnvelope},
    description=BLOCKERS + " Their open proposals stay for a reviewer to decide. 200 with created "
    "false when they were blocked already; 404 naming userId for an unknown user.",
)
def block(project_id, user_id):
    found, created = public.block(current_actor(), str(project_id), str(user_id))
    return ProposalBlockEnvelope().dump({"block": found, "created": created}), 201 if created else 200


@proposals_api.delete(BLOCKS + "/<uuid:user_id>")
@documented(
    "Lift a person's block",
    tags=TAGS,
    auth=("session",),
    responses={200: SuccessOut},
    description=BLOCKERS + " 404 when the person is not blocked.",
)
def unblock(project_id, user_id):
    public.unblock(current_actor(), str(project_id), str(user_id))
    return {"success": True}
