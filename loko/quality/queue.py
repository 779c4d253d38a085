"""The review queue: the project's values by review state, check, language and file, each with
why it waits for a review (``translation_values.review_reason``)."""

from collections import defaultdict

from sqlalchemy import exists, func, literal_column, select

from loko.auth import policy
from loko.database import in_chunks, read_snapshot
from loko.errors import BadRequest
from loko.extensions import db
from loko.quality.models import ValueIssue
from loko.translations.models import REVIEW_REASONS, VALUE_STATES, Translation, TranslationValue

QUEUE_FILTERS = ("state", "reason", "check", "language", "fileName")


def _matching(project_id: str, filters: dict):
    """The conditions of the active values of the project that ``filters`` select."""
    conditions = [TranslationValue.project_id == project_id, Translation.deleted_at.is_(None)]
    state = filters.get("state")
    if state is not None:
        if state not in VALUE_STATES:
            raise BadRequest(f"state: one of {', '.join(VALUE_STATES)}.")
        # Written out, not bound: the partial index of the values waiting for a review is
        # taken for a constant only (SQLite).
        conditions.append(TranslationValue.state == literal_column(f"'{state}'"))
    if filters.get("reason") is not None:
        if filters["reason"] not in REVIEW_REASONS:
            raise BadRequest(f"reason: one of {', '.join(REVIEW_REASONS)}.")
        conditions.append(TranslationValue.review_reason == filters["reason"])
    if filters.get("language") is not None:
        conditions.append(TranslationValue.language_code == filters["language"])
    if filters.get("fileName") is not None:
        conditions.append(Translation.file_name == filters["fileName"])
    if filters.get("check") is not None:
        conditions.append(
            exists().where(
                ValueIssue.translation_id == TranslationValue.translation_id,
                ValueIssue.language_code == TranslationValue.language_code,
                ValueIssue.check_code == filters["check"],
            )
        )
    return conditions


def _checks_of(pairs: list[tuple[str, str]]) -> dict[tuple[str, str], list[str]]:
    """``{(translation_id, language): [check codes]}``: the open issues of these values."""
    found = defaultdict(list)
    wanted = set(pairs)
    for chunk in in_chunks(sorted({translation_id for translation_id, _language in pairs})):
        rows = db.session.execute(
            select(ValueIssue.translation_id, ValueIssue.language_code, ValueIssue.check_code)
            .where(ValueIssue.translation_id.in_(chunk))
            .order_by(ValueIssue.check_code)
        )
        for translation_id, language, code in rows:
            if (translation_id, language) in wanted:
                found[translation_id, language].append(code)
    return found


def review_queue(actor, project_id: str, filters: dict, limit: int, offset: int) -> dict:
    """A page of the project's active values that ``filters`` select (``state``, ``reason``,
    ``check``: with an open issue of that check, ``language``, ``fileName``), ordered by file,
    key (natural order) and language: ``{total, values: [{translationId, key, fileName,
    language, value, state, reason, checks, updatedAt}]}``; ``reason`` says why a value waits
    for a review (None in the other states, and for values sent to review before reasons were
    stored). BadRequest for an unknown state or reason; Unauthorized, Forbidden or NotFound as
    the policy decides."""
    read_snapshot()
    policy.require_permission(actor, project_id, policy.VIEW_REVIEW_QUEUE)
    conditions = _matching(project_id, filters)
    joined = (
        select(func.count())
        .select_from(TranslationValue)
        .join(Translation, Translation.id == TranslationValue.translation_id)
    )
    total = db.session.execute(joined.where(*conditions)).scalar_one()
    rows = db.session.execute(
        select(
            TranslationValue.translation_id,
            Translation.key,
            Translation.file_name,
            TranslationValue.language_code,
            TranslationValue.value,
            TranslationValue.state,
            TranslationValue.review_reason,
            TranslationValue.updated_at,
        )
        .join(Translation, Translation.id == TranslationValue.translation_id)
        .where(*conditions)
        .order_by(
            Translation.file_name, Translation.sort_key, Translation.key, TranslationValue.language_code
        )
        .limit(limit)
        .offset(offset)
    ).all()
    checks = _checks_of([(row[0], row[3]) for row in rows]) if rows else {}
    return {
        "total": total,
        "values": [
            {
                "translationId": translation_id,
                "key": key,
                "fileName": file_name,
                "language": language,
                "value": value,
                "state": state,
                "reason": reason,
                "checks": checks.get((translation_id, language), []),
                "updatedAt": updated_at,
            }
            for translation_id, key, file_name, language, value, state, reason, updated_at in rows
        ],
    }
