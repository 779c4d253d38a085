"""Proposals' use cases: propose a text for a key and language (the same text proposed again
is a vote for it), vote, list a key's proposals and the review queue, accept (a text as
proposed, or edited) and reject one, accept the best-voted proposal of many keys or reject
many in one operation, take back what an undone operation decided, the settings of who
proposes (a language's mode, the protection of reviewed values) and the proposals a
pre-translation makes.

An accepted text is written through the core's write path (``translations.service
.write_values``: checks, review states, history, webhooks), its history entry crediting the
proposer; the proposal keeps who accepted it. Proposals are never exported: they live in
their own tables, which no export reads."""

import base64
import hashlib
from dataclasses import dataclass
from datetime import datetime, timedelta

import orjson
from sqlalchemy import and_, bindparam, case, exists, func, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import aliased

from loko.auth import policy
from loko.auth.actors import UserActor
from loko.database import in_chunks, new_id, unit_of_work, utcnow
from loko.errors import BadRequest, Conflict, Forbidden, NotFound
from loko.extensions import db
from loko.languages.models import ProjectLanguage
from loko.projects.models import Project
from loko.projects.service import bump_data_version
from loko.proposals.models import ACCEPTED, OPEN, REJECTED, SUPERSEDED, Proposal, ProposalVote
from loko.translations.models import Translation, TranslationValue
from loko.translations.operations import current_operation_id, operation
from loko.translations.service import write_values
from loko.translations.writing import Refused

ACCEPT_KIND = "proposals-accept"
REJECT_KIND = "proposals-reject"
PROPOSAL_NOT_FOUND = "proposalId: no proposal with this id in this project."
KEY_NOT_FOUND = "translationId: no active key with this id in this project."
NOT_OPEN = "proposalId: the proposal is {state}, no longer open."
SORTS = ("votes", "oldest", "newest")
MAX_BULK = 10000


@dataclass(frozen=True)
class Credit:
    """Who a written value is credited to in its history: a proposal's author."""

    kind: str
    id: str | None
    name: str


def digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def _name(actor) -> str:
    return (actor.name or getattr(actor, "email", "") or actor.kind)[:128]


def _who(kind, actor_id, name) -> dict | None:
    return None if kind is None else {"type": kind, "id": actor_id, "name": name}


COLUMNS = (
    Proposal.id,
    Proposal.translation_id,
    Translation.key,
    Translation.file_name,
    Proposal.language_code,
    Proposal.text,
    Proposal.origin,
    Proposal.author_type,
    Proposal.author_id,
    Proposal.author_name,
    Proposal.created_at,
    Proposal.state,
    Proposal.votes,
    Proposal.decided_at,
    Proposal.decided_by_type,
    Proposal.decided_by_id,
    Proposal.decided_by_name,
    Proposal.rejection_reason,
    Proposal.accepted_text,
    Proposal.operation_id,
)


def _row_out(row, my_vote=None, current=None) -> dict:
    return {
        "id": row[0],
        "translationId": row[1],
        "key": row[2],
        "fileName": row[3],
        "language": row[4],
        "text": row[5],
        "origin": row[6],
        "author": _who(row[7], row[8], row[9]),
        "createdAt": row[10],
        "state": row[11],
        "votes": row[12],
        "decidedAt": row[13],
        "decidedBy": _who(row[14], row[15], row[16]),
        "rejectionReason": row[17],
        "acceptedText": row[18],
        "operationId": row[19],
        "myVote": my_vote,
        "currentValue": current,
    }


def _select(actor):
    """The proposals' columns with the caller's vote and the key's current value."""
    vote = aliased(ProposalVote)
    value = aliased(TranslationValue)
    user_id = actor.id if isinstance(actor, UserActor) else None
    return (
        select(*COLUMNS, vote.value, value.value)
        .join(Translation, Translation.id == Proposal.translation_id)
        .outerjoin(vote, and_(vote.proposal_id == Proposal.id, vote.user_id == user_id))
        .outerjoin(
            value,
            and_(
                value.translation_id == Proposal.translation_id, value.language_code == Proposal.language_code
            ),
        )
    )


def _one(actor, project_id: str, proposal_id: str) -> dict:
    row = db.session.execute(
        _select(actor).where(Proposal.id == proposal_id, Proposal.project_id == project_id)
    ).first()
    if row is None:
        raise NotFound(PROPOSAL_NOT_FOUND)
    return _row_out(row[:20], row[20], row[21])


def _proposal(project_id: str, proposal_id: str) -> Proposal:
    proposal = db.session.get(Proposal, proposal_id)
    if proposal is None or proposal.project_id != project_id:
        raise NotFound(PROPOSAL_NOT_FOUND)
    return proposal


def _active_key(project_id: str, translation_id: str) -> Translation:
    translation = db.session.get(Translation, translation_id)
    if translation is None or translation.project_id != project_id or translation.deleted_at is not None:
        raise NotFound(KEY_NOT_FOUND)
    return translation


def _language(project_id: str, code: str) -> ProjectLanguage:
    language = db.session.get(ProjectLanguage, (project_id, code))
    if language is None:
        raise NotFound(f"language: the project has no language {code!r}.")
    return language


def _current_value(translation_id: str, code: str) -> str | None:
    return db.session.execute(
        select(TranslationValue.value).where(
            TranslationValue.translation_id == translation_id, TranslationValue.language_code == code
        )
    ).scalar_one_or_none()


# -- Proposing and voting --------------------------------------------------------------------


def propose(actor, project_id: str, translation_id: str, language: str, text: str) -> tuple[dict, bool]:
    """A new open proposal of ``text`` for an active key in one of the project's languages;
    the same text already proposed by someone else is a +1 vote for theirs (an API key,
    which does not vote, is answered theirs). Returns ``(proposal, created)``. NotFound for
    a key or language not in the project; Conflict when the text is the value already, or
    the caller proposed it already; Forbidden as the policy says."""
    with unit_of_work():
        permissions = policy.require_permission(actor, project_id, policy.PROPOSE)
        policy.require_proposal_language(permissions, language)
        _active_key(project_id, translation_id)
        mode = _language(project_id, language)
        if _current_value(translation_id, language) == text:
            raise Conflict("text: this is the key's value already in this language.")
        same = db.session.execute(
            select(Proposal).where(
                Proposal.translation_id == translation_id,
                Proposal.language_code == language,
                Proposal.text_digest == digest(text),
                Proposal.state == OPEN,
            )
        ).scalar_one_or_none()
        if same is not None:
            if policy.is_author(actor, same.author_type, same.author_id):
                raise Conflict("text: you proposed this text already; it is open.")
            if isinstance(actor, UserActor):  # a key does not vote
                _cast(actor, same, 1)
                _maybe_auto_accept(actor, project_id, same, mode)
            return _one(actor, project_id, same.id), False
        proposal = _insert(actor, project_id, translation_id, language, text, "person")
        return _one(actor, project_id, proposal.id), True


def _insert(actor, project_id, translation_id, language, text, origin) -> Proposal:
    proposal = Proposal(
        id=new_id(),
        project_id=project_id,
        translation_id=translation_id,
        language_code=language,
        text=text,
        text_digest=digest(text),
        origin=origin,
        author_type=actor.kind,
        author_id=actor.id,
        author_name=_name(actor),
        created_at=utcnow(),
        state=OPEN,
        votes=0,
    )
    db.session.add(proposal)
    try:
        with db.session.begin_nested():
            db.session.flush()
    except IntegrityError:
        raise Conflict("text: this text was just proposed; vote for it instead.") from None
    return proposal


def _cast(actor, proposal: Proposal, value: int) -> None:
    """The caller's vote (+1, -1; 0 takes it back), and the proposal's sum again."""
    if policy.is_author(actor, proposal.author_type, proposal.author_id):
        raise Forbidden("value: nobody votes on their own proposal.")
    db.session.execute(
        ProposalVote.__table__.delete().where(
            ProposalVote.proposal_id == proposal.id, ProposalVote.user_id == actor.id
        )
    )
    if value:
        db.session.add(
            ProposalVote(proposal_id=proposal.id, user_id=actor.id, value=value, created_at=utcnow())
        )
        db.session.flush()
    total = (
        select(func.coalesce(func.sum(ProposalVote.value), 0))
        .where(ProposalVote.proposal_id == proposal.id)
        .scalar_subquery()
    )
    db.session.execute(
        update(Proposal)
        .where(Proposal.id == proposal.id)
        .values(votes=total)
        .execution_options(synchronize_session=False)
    )
    db.session.refresh(proposal, ["votes"])


def vote(actor, project_id: str, proposal_id: str, value: int) -> dict:
    """The caller's vote on an open proposal: +1, -1, or 0 to take it back; one per person,
    never on their own (Forbidden), people only (Forbidden for an API key). In a language
    that accepts at a number of net votes, the vote that reaches it accepts the proposal.
    Conflict for a proposal no longer open."""
    with unit_of_work():
        permissions = policy.require_vote(actor, project_id)
        proposal = _proposal(project_id, proposal_id)
        if not permissions.may_read_proposals_of(proposal.language_code):
            raise NotFound(PROPOSAL_NOT_FOUND)
        policy.require_proposal_language(permissions, proposal.language_code)
        if proposal.state != OPEN:
            raise Conflict(NOT_OPEN.format(state=proposal.state))
        _cast(actor, proposal, value)
        _maybe_auto_accept(actor, project_id, proposal, _language(project_id, proposal.language_code))
        return _one(actor, project_id, proposal.id)


def _maybe_auto_accept(actor, project_id: str, proposal: Proposal, language: ProjectLanguage) -> None:
    """Accept ``proposal`` when its language accepts at a number of net votes it reaches; a
    text a check refuses stays open."""
    needed = language.auto_accept_votes
    if language.proposal_mode != "votes" or not needed or proposal.votes < needed:
        return
    bump_data_version(project_id, files=())
    decider = Credit("system", None, f"{needed} votes")
    try:
        with db.session.begin_nested():
            _accept_rows(
                actor,
                project_id,
                [
                    (
                        proposal.id,
                        proposal.translation_id,
                        proposal.language_code,
                        proposal.text,
                        None,
                        _credit(proposal),
                    )
                ],
                decider,
            )
    except Refused:
        db.session.refresh(proposal)


def _credit(proposal) -> Credit:
    return Credit(proposal.author_type, proposal.author_id, proposal.author_name)


# -- Reading ---------------------------------------------------------------------------------


def list_for_key(actor, project_id: str, translation_id: str, language: str | None = None) -> list[dict]:
    """A key's proposals (open ones first, best-voted first, then the decided ones, newest
    first), in one language when given. NotFound for a key not in the project."""
    permissions = policy.require_permission(actor, project_id, policy.VIEW_PROPOSALS)
    translation = db.session.get(Translation, translation_id)
    if translation is None or translation.project_id != project_id:
        raise NotFound(KEY_NOT_FOUND)
    query = _readable(_select(actor).where(Proposal.translation_id == translation_id), permissions)
    if language is not None:
        policy.require_readable_language(permissions, language)
        query = query.where(Proposal.language_code == language)
    rows = db.session.execute(
        query.order_by(
            (Proposal.state != OPEN), Proposal.votes.desc(), Proposal.created_at.desc(), Proposal.id
        ).limit(200)
    ).all()
    return [_row_out(row[:20], row[20], row[21]) for row in rows]


def get_proposal(actor, project_id: str, proposal_id: str) -> dict:
    permissions = policy.require_permission(actor, project_id, policy.VIEW_PROPOSALS)
    found = _one(actor, project_id, proposal_id)
    if not permissions.may_read_proposals_of(found["language"]):
        raise NotFound(PROPOSAL_NOT_FOUND)
    return found


def _readable(query, permissions):
    """``query`` limited to the proposals of the languages the caller reads (a public
    visitor's own)."""
    readable = permissions.readable_languages
    return query if readable is None else query.where(Proposal.language_code.in_(sorted(readable)))


def _encode_cursor(sort: str, row) -> str:
    created = row[10].isoformat()
    payload = [sort, row[12], created, row[0]]
    return base64.urlsafe_b64encode(orjson.dumps(payload)).decode().rstrip("=")


def _decode_cursor(sort: str, cursor: str):
    try:
        padded = cursor + "=" * (-len(cursor) % 4)
        kind, votes, created, proposal_id = orjson.loads(base64.urlsafe_b64decode(padded))
        if kind != sort or not isinstance(votes, int) or not isinstance(proposal_id, str):
            raise ValueError
        return votes, datetime.fromisoformat(created), proposal_id
    except (ValueError, TypeError, orjson.JSONDecodeError):
        raise BadRequest("cursor: not a nextCursor of this listing (with this sort).") from None


def list_queue(actor, project_id: str, filters: dict, limit: int, cursor: str | None = None) -> dict:
    """The review queue: open proposals of active keys, filtered by ``language``, ``fileName``,
    ``authorId``, ``minVotes`` and ``olderThanDays``, sorted by ``sort`` (votes: most first,
    then oldest; oldest; newest), a page of ``limit`` after ``cursor`` (keyset). Returns
    ``{proposals, nextCursor}``. BadRequest for a cursor not of this listing."""
    permissions = policy.require_permission(actor, project_id, policy.VIEW_PROPOSALS)
    sort = filters.get("sort", "votes")
    query = _select(actor).where(
        Proposal.project_id == project_id, Proposal.state == OPEN, Translation.deleted_at.is_(None)
    )
    query = _readable(query, permissions)
    if filters.get("language"):
        policy.require_readable_language(permissions, filters["language"])
        query = query.where(Proposal.language_code == filters["language"])
    if filters.get("fileName"):
        # The file's keys as a set the queue's index is read against: a join would lead the
        # planner to read every proposal of the file's keys and sort them.
        in_file = select(Translation.id).where(
            Translation.project_id == project_id,
            Translation.file_name == filters["fileName"],
            Translation.deleted_at.is_(None),
        )
        query = query.where(Proposal.translation_id.in_(in_file))
    if filters.get("authorId"):
        query = query.where(Proposal.author_id == filters["authorId"])
    if filters.get("minVotes") is not None:
        query = query.where(Proposal.votes >= filters["minVotes"])
    if filters.get("olderThanDays") is not None:
        query = query.where(Proposal.created_at <= utcnow() - timedelta(days=filters["olderThanDays"]))
    if cursor:
        votes, created, last_id = _decode_cursor(sort, cursor)
        if sort == "votes":
            query = query.where(
                or_(
                    Proposal.votes < votes,
                    and_(Proposal.votes == votes, Proposal.created_at > created),
                    and_(Proposal.votes == votes, Proposal.created_at == created, Proposal.id > last_id),
                )
            )
        elif sort == "oldest":
            query = query.where(
                or_(
                    Proposal.created_at > created, and_(Proposal.created_at == created, Proposal.id > last_id)
                )
            )
        else:
            query = query.where(
                or_(
                    Proposal.created_at < created, and_(Proposal.created_at == created, Proposal.id < last_id)
                )
            )
    order = {
        "votes": (Proposal.votes.desc(), Proposal.created_at, Proposal.id),
        "oldest": (Proposal.created_at, Proposal.id),
        "newest": (Proposal.created_at.desc(), Proposal.id.desc()),
    }[sort]
    rows = db.session.execute(query.order_by(*order).limit(limit + 1)).all()
    more = len(rows) > limit
    rows = rows[:limit]
    return {
        "proposals": [_row_out(row[:20], row[20], row[21]) for row in rows],
        "nextCursor": _encode_cursor(sort, rows[-1]) if more else None,
    }


# -- Deciding --------------------------------------------------------------------------------


def _accept_rows(actor, project_id: str, chosen: list[tuple], decider=None) -> dict:
    """Accept ``(proposal_id, translation_id, language, text, accepted_text, credit)`` rows as
    one operation: their texts written (credited to their authors), the proposals accepted
    and the other open proposals of their keys and languages superseded."""
    decider = decider or actor
    now = utcnow()
    with operation(actor, project_id, ACCEPT_KIND, languages=sorted({row[2] for row in chosen})) as details:
        written = write_values(
            project_id,
            [
                (t, code, edited if edited is not None else text, credit)
                for _p, t, code, text, edited, credit in chosen
            ],
        )
        operation_id = current_operation_id()
        decided = {
            "decided_at": now,
            "decided_by_type": decider.kind,
            "decided_by_id": decider.id,
            "decided_by_name": _name(decider),
            "operation_id": operation_id,
        }
        _decide_chosen(chosen, decided)
        # The proposals decided count as changes: an accept of texts already stored is kept
        # (and undoable) all the same.
        details.update(accepted=len(chosen), written=len(written), changes=len(written) + len(chosen))
    superseded = db.session.execute(
        select(func.count()).where(
            Proposal.project_id == project_id,
            Proposal.operation_id == details["operation_id"],
            Proposal.state == SUPERSEDED,
        )
    ).scalar_one()
    return {
        "accepted": len(chosen),
        "written": len(written),
        "superseded": superseded,
        "operationId": details["operation_id"],
    }


def _decide_chosen(chosen: list[tuple], decided: dict) -> None:
    """The chosen proposals accepted and the other open proposals of their keys and
    languages superseded: one UPDATE per language and chunk of keys."""
    table = Proposal.__table__
    by_language: dict[str, dict[str, str]] = {}
    for proposal_id, translation_id, code, *_rest in chosen:
        by_language.setdefault(code, {})[translation_id] = proposal_id
    for code, winners in by_language.items():
        for chunk in in_chunks(sorted(winners)):
            ids = [winners[t] for t in chunk]
            db.session.execute(
                update(table)
                .where(
                    table.c.language_code == code,
                    table.c.translation_id.in_(chunk),
                    table.c.state == OPEN,
                )
                .values(state=case((table.c.id.in_(ids), ACCEPTED), else_=SUPERSEDED), **decided)
            )
    edited = [{"pid": row[0], "edited": row[4]} for row in chosen if row[4] is not None]
    if edited:
        db.session.execute(
            update(table).where(table.c.id == bindparam("pid")).values(accepted_text=bindparam("edited")),
            edited,
        )


def accept(actor, project_id: str, proposal_id: str, text: str | None = None) -> dict:
    """Accept an open proposal: its text (or ``text``, an edit that keeps the proposer's
    credit) becomes the key's value through the write path, and the other open proposals of
    the key and language are superseded; one operation, undoable. Forbidden unless the caller
    may review the language; Conflict for a proposal no longer open or a key in the trash;
    BadRequest when a check at refuse finds the text wrong."""
    with unit_of_work():
        permissions = policy.require_permission(actor, project_id, policy.DECIDE_PROPOSALS)
        proposal = _proposal(project_id, proposal_id)
        policy.require_decision(permissions, [proposal.language_code])
        if proposal.state != OPEN:
            raise Conflict(NOT_OPEN.format(state=proposal.state))
        if db.session.get(Translation, proposal.translation_id).deleted_at is not None:
            raise Conflict("proposalId: the key is in the trash; restore it first.")
        bump_data_version(project_id, files=())
        edited = text if text is not None and text != proposal.text else None
        result = _accept_rows(
            actor,
            project_id,
            [
                (
                    proposal.id,
                    proposal.translation_id,
                    proposal.language_code,
                    proposal.text,
                    edited,
                    _credit(proposal),
                )
            ],
        )
        return {**result, "proposal": _one(actor, project_id, proposal.id)}


def reject(actor, project_id: str, proposal_id: str, reason: str | None = None) -> dict:
    """Reject an open proposal, with an optional reason. Forbidden unless the caller may review
    the language; Conflict for a proposal no longer open."""
    with unit_of_work():
        permissions = policy.require_permission(actor, project_id, policy.DECIDE_PROPOSALS)
        proposal = _proposal(project_id, proposal_id)
        policy.require_decision(permissions, [proposal.language_code])
        if proposal.state != OPEN:
            raise Conflict(NOT_OPEN.format(state=proposal.state))
        proposal.state = REJECTED
        proposal.rejection_reason = reason
        proposal.decided_at = utcnow()
        proposal.decided_by_type, proposal.decided_by_id = actor.kind, actor.id
        proposal.decided_by_name = _name(actor)
        db.session.flush()
        return _one(actor, project_id, proposal.id)


def _selected_pairs(project_id: str, data: dict) -> list[tuple[str, str]]:
    """The ``(translation_id, language)`` pairs a bulk accept names: its ``items`` and the
    keys and languages of its ``proposalIds``."""
    pairs = [(item["translationId"], item["language"]) for item in data.get("items") or ()]
    ids = list(dict.fromkeys(data.get("proposalIds") or ()))
    for chunk in in_chunks(ids):
        pairs += db.session.execute(
            select(Proposal.translation_id, Proposal.language_code).where(
                Proposal.project_id == project_id, Proposal.id.in_(chunk)
            )
        ).all()
    return list(dict.fromkeys((row[0], row[1]) for row in pairs))


def bulk_accept(actor, project_id: str, data: dict) -> dict:
    """Accept, for each selected key and language (``items`` ``[{translationId, language}]``
    and/or the keys of ``proposalIds``), its best-voted open proposal (most net votes, then
    the oldest), superseding the others: one operation, all or nothing, undoable. Keys with no
    open proposal, or in the trash, are skipped (counted). Forbidden naming the languages the
    caller may not review; BadRequest when a check at refuse finds a text wrong."""
    with unit_of_work():
        permissions = policy.require_permission(actor, project_id, policy.DECIDE_PROPOSALS)
        pairs = _selected_pairs(project_id, data)
        policy.require_decision(permissions, {code for _t, code in pairs})
        bump_data_version(project_id, files=())
        wanted = set(pairs)
        best, credits = {}, {}
        languages = sorted({code for _t, code in pairs})
        for chunk in in_chunks(sorted({t for t, _code in pairs})):
            rows = db.session.execute(
                select(
                    Proposal.id,
                    Proposal.translation_id,
                    Proposal.language_code,
                    Proposal.text,
                    Proposal.author_type,
                    Proposal.author_id,
                    Proposal.author_name,
                )
                .join(Translation, Translation.id == Proposal.translation_id)
                .where(
                    Proposal.translation_id.in_(chunk),
                    Proposal.language_code.in_(languages),
                    Proposal.state == OPEN,
                    Proposal.project_id == project_id,
                    Translation.deleted_at.is_(None),
                )
                .add_columns(Proposal.votes, Proposal.created_at)
            ).all()
            # Sorted here: an ORDER BY would lead the planner to the queue's index.
            rows.sort(key=lambda row: (-row[7], row[8], row[0]))
            for row in rows:
                pair = (row[1], row[2])
                if pair in wanted and pair not in best:
                    author = (row[4], row[5], row[6])
                    credit = credits.get(author) or credits.setdefault(author, Credit(*author))
                    best[pair] = (row[0], row[1], row[2], row[3], None, credit)
        if not best:
            return {"accepted": 0, "written": 0, "superseded": 0, "skipped": len(pairs), "operationId": None}
        result = _accept_rows(actor, project_id, list(best.values()))
        return {**result, "skipped": len(pairs) - len(best)}


def bulk_reject(actor, project_id: str, proposal_ids: list[str], reason: str | None = None) -> dict:
    """Reject these open proposals (the others named are skipped, counted) with one reason:
    one operation, undoable (the undo reopens them). Forbidden naming the languages the
    caller may not review."""
    with unit_of_work():
        permissions = policy.require_permission(actor, project_id, policy.DECIDE_PROPOSALS)
        ids = list(dict.fromkeys(proposal_ids))
        found = []
        for chunk in in_chunks(ids):
            found += db.session.execute(
                select(Proposal.id, Proposal.language_code).where(
                    Proposal.project_id == project_id, Proposal.id.in_(chunk), Proposal.state == OPEN
                )
            ).all()
        policy.require_decision(permissions, {row[1] for row in found})
        if not found:
            return {"rejected": 0, "skipped": len(ids), "operationId": None}
        with operation(
            actor, project_id, REJECT_KIND, languages=sorted({row[1] for row in found})
        ) as details:
            operation_id = current_operation_id()
            now = utcnow()
            for chunk in in_chunks([row[0] for row in found]):
                db.session.execute(
                    update(Proposal)
                    .where(Proposal.id.in_(chunk), Proposal.state == OPEN)
                    .values(
                        state=REJECTED,
                        rejection_reason=reason,
                        decided_at=now,
                        decided_by_type=actor.kind,
                        decided_by_id=actor.id,
                        decided_by_name=_name(actor),
                        operation_id=operation_id,
                    )
                    .execution_options(synchronize_session=False)
                )
            details.update(rejected=len(found), changes=len(found))
        return {
            "rejected": len(found),
            "skipped": len(ids) - len(found),
            "operationId": details["operation_id"],
        }


def reopen_decided(project_id: str, operation_id: str) -> int:
    """The proposals an undone operation decided are open again (in the undo's transaction),
    but where the same text has been proposed again since (that one stays)."""
    again = aliased(Proposal)
    result = db.session.execute(
        update(Proposal)
        .where(
            Proposal.project_id == project_id,
            Proposal.operation_id == operation_id,
            ~exists().where(
                again.translation_id == Proposal.translation_id,
                again.language_code == Proposal.language_code,
                again.text_digest == Proposal.text_digest,
                again.state == OPEN,
            ),
        )
        .values(
            state=OPEN,
            decided_at=None,
            decided_by_type=None,
            decided_by_id=None,
            decided_by_name=None,
            rejection_reason=None,
            accepted_text=None,
            operation_id=None,
        )
        .execution_options(synchronize_session=False)
    )
    return result.rowcount


def start_listening() -> None:
    """An undo of an accept or a reject reopens what it decided (``loko.events``)."""
    from loko import events

    events.listen_to_undo(reopen_decided)


# -- Machines as proposers -------------------------------------------------------------------


def add_machine_proposals(actor, project_id: str, language: str, texts: dict[str, str], origin: str) -> dict:
    """Open proposals of ``texts`` (``{translation_id: text}``) in ``language`` by ``actor``
    with ``origin`` (machine or memory), in one transaction: a key in the trash, a text that
    is the value already or one proposed already is skipped. Returns ``{proposed, skipped}``."""
    with unit_of_work():
        policy.require_permission(actor, project_id, policy.PROPOSE)
        ids = list(texts)
        taken, active, stored = set(), set(), {}
        for chunk in in_chunks(ids):
            active |= set(
                db.session.execute(
                    select(Translation.id).where(
                        Translation.id.in_(chunk),
                        Translation.project_id == project_id,
                        Translation.deleted_at.is_(None),
                    )
                ).scalars()
            )
            taken |= set(
                db.session.execute(
                    select(Proposal.translation_id, Proposal.text_digest).where(
                        Proposal.translation_id.in_(chunk),
                        Proposal.language_code == language,
                        Proposal.state == OPEN,
                    )
                ).all()
            )
            stored.update(
                db.session.execute(
                    select(TranslationValue.translation_id, TranslationValue.value).where(
                        TranslationValue.translation_id.in_(chunk), TranslationValue.language_code == language
                    )
                ).all()
            )
        now, name = utcnow(), _name(actor)
        rows = [
            {
                "id": new_id(),
                "project_id": project_id,
                "translation_id": t,
                "language_code": language,
                "text": text,
                "text_digest": digest(text),
                "origin": origin,
                "author_type": actor.kind,
                "author_id": actor.id,
                "author_name": name,
                "created_at": now,
                "state": OPEN,
                "votes": 0,
            }
            for t, text in texts.items()
            if t in active and stored.get(t) != text and (t, digest(text)) not in taken
        ]
        if rows:
            db.session.execute(Proposal.__table__.insert(), rows)
        return {"proposed": len(rows), "skipped": len(texts) - len(rows)}


# -- Settings --------------------------------------------------------------------------------


def get_settings(actor, project_id: str) -> dict:
    """Who proposes in the project: ``protectReviewed`` and each language's ``mode`` and
    ``autoAcceptVotes`` (read by whoever sees the translations: not a public visitor)."""
    policy.require_permission(actor, project_id, policy.VIEW_TRANSLATIONS)
    return _settings(project_id)


def _settings(project_id: str) -> dict:
    project = db.session.get(Project, project_id)
    languages = db.session.execute(
        select(ProjectLanguage.code, ProjectLanguage.proposal_mode, ProjectLanguage.auto_accept_votes)
        .where(ProjectLanguage.project_id == project_id)
        .order_by(ProjectLanguage.code)
    ).all()
    return {
        "protectReviewed": bool(project.protect_reviewed),
        "languages": {code: {"mode": mode, "autoAcceptVotes": votes} for code, mode, votes in languages},
    }


def update_settings(actor, project_id: str, data: dict) -> dict:
    """Change ``protectReviewed`` and the modes of the languages named; canEditProjects (by
    session). NotFound naming a language the project does not have; BadRequest for the
    ``votes`` mode without ``autoAcceptVotes``."""
    with unit_of_work():
        policy.require_permission(actor, project_id, policy.EDIT_PROJECTS)
        if "protectReviewed" in data:
            db.session.get(Project, project_id).protect_reviewed = data["protectReviewed"]
        for code, setting in (data.get("languages") or {}).items():
            language = db.session.get(ProjectLanguage, (project_id, code))
            if language is None:
                raise NotFound(f"languages.{code}: the project has no language {code!r}.")
            votes = setting.get("autoAcceptVotes")
            if setting["mode"] == "votes" and not votes:
                raise BadRequest(f"languages.{code}.autoAcceptVotes: the votes mode needs a number of votes.")
            language.proposal_mode = setting["mode"]
            language.auto_accept_votes = votes if setting["mode"] == "votes" else None
        db.session.flush()
        return _settings(project_id)
