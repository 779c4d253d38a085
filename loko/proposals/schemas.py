"""What the proposal endpoints take and answer."""

from marshmallow import ValidationError, fields, validate, validates_schema

from loko.auth.policy import PROPOSAL_MODES
from loko.comments.schemas import NOT_BLANK
from loko.fields import (
    MAX_BULK_ITEMS,
    ApiSchema,
    FileName,
    LanguageCode,
    UuidString,
    WholeNumber,
)
from loko.proposals.models import MAX_REASON, PROPOSAL_STATES
from loko.proposals.service import SORTS


def reason_field(**kwargs):
    return fields.String(
        allow_none=True,
        load_default=None,
        validate=validate.Length(max=MAX_REASON, error="must be at most 1,000 characters."),
        metadata={"description": "Why it is rejected, shown to its author: at most 1,000 characters."},
        **kwargs,
    )


class ProposalCreate(ApiSchema):
    translationId = UuidString(required=True, metadata={"description": "The key (an active one)."})
    language = LanguageCode(required=True, metadata={"description": "One of the project's languages."})
    text = fields.String(
        required=True,
        validate=[
            validate.Length(min=1, max=8192, error="must be 1 to 8,192 characters."),
            validate.Regexp(NOT_BLANK, error="must not be blank."),
        ],
        metadata={"description": "The proposed text: 1 to 8,192 characters, not only spaces."},
    )


class VoteIn(ApiSchema):
    value = WholeNumber(
        required=True,
        validate=validate.OneOf((1, -1, 0)),
        metadata={"description": "+1, -1, or 0 to take the vote back."},
    )


class AcceptIn(ApiSchema):
    text = fields.String(
        allow_none=True,
        load_default=None,
        validate=validate.Length(max=8192),
        metadata={
            "description": "An edit of the proposed text, written instead of it (the proposer keeps "
            "the credit); left out: the text as proposed."
        },
    )


class RejectIn(ApiSchema):
    reason = reason_field()


class PairIn(ApiSchema):
    translationId = UuidString(required=True)
    language = LanguageCode(required=True)


class BulkAcceptIn(ApiSchema):
    items = fields.List(
        fields.Nested(PairIn),
        load_default=list,
        validate=validate.Length(max=MAX_BULK_ITEMS),
        metadata={"description": "Keys and languages whose best-voted open proposal is accepted."},
    )
    proposalIds = fields.List(
        UuidString(),
        load_default=list,
        validate=validate.Length(max=MAX_BULK_ITEMS),
        metadata={
            "description": "Proposals whose keys and languages are chosen (the best-voted of each wins)."
        },
    )

    @validates_schema
    def something_chosen(self, data, **_kwargs):
        if not data.get("items") and not data.get("proposalIds"):
            raise ValidationError("Give items or proposalIds.", field_name="items")


class BulkRejectIn(ApiSchema):
    proposalIds = fields.List(
        UuidString(), required=True, validate=validate.Length(min=1, max=MAX_BULK_ITEMS)
    )
    reason = reason_field()


class QueueQuery(ApiSchema):
    language = LanguageCode(metadata={"description": "Only proposals in this language."})
    fileName = FileName()
    authorId = fields.String(
        validate=validate.Length(max=36), metadata={"description": "Only proposals by this user or API key."}
    )
    minVotes = fields.Integer(metadata={"description": "Only proposals with at least this many net votes."})
    olderThanDays = fields.Integer(
        validate=validate.Range(min=0, max=36500),
        metadata={"description": "Only proposals made at least this many days ago."},
    )
    sort = fields.String(
        load_default="votes",
        validate=validate.OneOf(SORTS),
        metadata={"description": "votes (most net votes first, then oldest; the default), oldest or newest."},
    )
    limit = fields.Integer(load_default=50, validate=validate.Range(min=1, max=500))
    cursor = fields.String(
        validate=validate.Length(max=400), metadata={"description": "The nextCursor of the previous page."}
    )


class KeyProposalsQuery(ApiSchema):
    language = LanguageCode(metadata={"description": "Only proposals in this language."})


class WhoOut(ApiSchema):
    type = fields.String(required=True, metadata={"description": "user, api_key or system"})
    id = fields.String(required=True, allow_none=True)
    name = fields.String(required=True)


class ProposalOut(ApiSchema):
    id = fields.String(required=True)
    translationId = fields.String(required=True)
    key = fields.String(required=True)
    fileName = fields.String(required=True)
    language = fields.String(required=True)
    text = fields.String(required=True)
    origin = fields.String(required=True, metadata={"description": "person, machine or memory"})
    author = fields.Nested(WhoOut, required=True)
    createdAt = fields.DateTime(required=True)
    state = fields.String(required=True, metadata={"description": ", ".join(PROPOSAL_STATES)})
    votes = fields.Integer(required=True, metadata={"description": "Net votes (+1s less -1s)."})
    myVote = fields.Integer(required=True, allow_none=True, metadata={"description": "The caller's vote."})
    currentValue = fields.String(
        required=True, allow_none=True, metadata={"description": "The key's value now."}
    )
    decidedAt = fields.DateTime(required=True, allow_none=True)
    decidedBy = fields.Nested(WhoOut, required=True, allow_none=True)
    rejectionReason = fields.String(required=True, allow_none=True)
    acceptedText = fields.String(
        required=True, allow_none=True, metadata={"description": "The edited text accepted, when edited."}
    )
    operationId = fields.String(
        required=True, allow_none=True, metadata={"description": "The operation that decided it (undo it)."}
    )


class ProposalEnvelope(ApiSchema):
    proposal = fields.Nested(ProposalOut, required=True)
    created = fields.Boolean(
        metadata={"description": "false: the same text was open already; the caller's proposal is a +1 vote."}
    )


class ProposalList(ApiSchema):
    proposals = fields.List(fields.Nested(ProposalOut), required=True)


class QueuePage(ApiSchema):
    proposals = fields.List(fields.Nested(ProposalOut), required=True)
    nextCursor = fields.String(required=True, allow_none=True)


class DecisionOut(ApiSchema):
    accepted = fields.Integer(required=True)
    written = fields.Integer(required=True, metadata={"description": "Values changed."})
    superseded = fields.Integer(required=True)
    operationId = fields.String(required=True, allow_none=True)
    proposal = fields.Nested(ProposalOut)
    skipped = fields.Integer(metadata={"description": "Keys chosen with no open proposal."})


class RejectedOut(ApiSchema):
    rejected = fields.Integer(required=True)
    skipped = fields.Integer(required=True)
    operationId = fields.String(required=True, allow_none=True)


class LanguageSetting(ApiSchema):
    mode = fields.String(
        required=True,
        validate=validate.OneOf(PROPOSAL_MODES),
        metadata={
            "description": "direct (values written as before), propose (whoever may not review only "
            "proposes) or votes (proposes, and a proposal is accepted at autoAcceptVotes net votes)."
        },
    )
    autoAcceptVotes = fields.Integer(allow_none=True, validate=validate.Range(min=1, max=1000))


class ProposalSettingsOut(ApiSchema):
    protectReviewed = fields.Boolean(required=True)
    languages = fields.Dict(keys=fields.String(), values=fields.Nested(LanguageSetting), required=True)


class ProposalSettingsPatch(ApiSchema):
    protectReviewed = fields.Boolean(
        metadata={"description": "Reviewed values change only through proposals for whoever may not review."}
    )
    languages = fields.Dict(keys=LanguageCode(), values=fields.Nested(LanguageSetting))


class TextsQuery(ApiSchema):
    language = LanguageCode(
        required=True, metadata={"description": "The language whose current values are listed."}
    )
    fileName = FileName()
    limit = fields.Integer(load_default=100, validate=validate.Range(min=1, max=500))
    offset = fields.Integer(load_default=0, validate=validate.Range(min=0, max=10_000_000))


class TextOut(ApiSchema):
    translationId = fields.String(required=True)
    key = fields.String(required=True)
    fileName = fields.String(required=True)
    source = fields.String(required=True, allow_none=True, metadata={"description": "The source text."})
    value = fields.String(
        required=True, allow_none=True, metadata={"description": "The current value in the language."}
    )


class TextsPage(ApiSchema):
    sourceLanguage = fields.String(required=True, allow_none=True)
    language = fields.String(required=True)
    items = fields.List(fields.Nested(TextOut), required=True)
    nextOffset = fields.Integer(required=True, allow_none=True)


class ProposalBlockOut(ApiSchema):
    userId = fields.String(required=True)
    name = fields.String(required=True)
    email = fields.String(required=True)
    blockedAt = fields.DateTime(required=True)


class ProposalBlockEnvelope(ApiSchema):
    block = fields.Nested(ProposalBlockOut, required=True)
    created = fields.Boolean(
        required=True, metadata={"description": "false: the person was blocked already."}
    )


class ProposalBlockList(ApiSchema):
    blocks = fields.List(fields.Nested(ProposalBlockOut), required=True)
