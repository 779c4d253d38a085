"""Reviewing values (their state set by a reviewer) and reading what the checks found."""

from sqlalchemy import func, select, update

from loko.auth import policy
from loko.database import in_chunks, read_snapshot, unit_of_work, utcnow
from loko.errors import BadRequest
from loko.extensions import db
from loko.languages.models import ProjectLanguage
from loko.projects.check_levels import check_levels
from loko.projects.models import Project
from loko.projects.service import bump_data_version
from loko.quality.models import ValueIssue
from loko.translations.models import NEEDS_REVIEW, REQUESTED, REVIEWED, Translation, TranslationValue

REVIEW_STATES = (REVIEWED, NEEDS_REVIEW)


def set_review_state(
    actor, project_id: str, file_name: str, keys: list[str], languages: list[str], state: str
) -> dict:
    """Set the state of the values of ``keys`` (active keys of ``file_name``; unknown keys
    are ignored) in ``languages``, all or nothing. BadRequest for a language the project
    does not have. Returns ``{updated}``: the values whose state changed. Marking values
    reviewed takes ``canReviewTranslations`` (people only); asking for a review again
    (``needs-review``) is an edit, ``canEditTranslations``; either in the caller's languages
    only (Forbidden naming the others)."""
    if state not in REVIEW_STATES:
        raise BadRequest(f"state: one of {', '.join(REVIEW_STATES)}.")
    with unit_of_work():
        permission = policy.REVIEW_TRANSLATIONS if state == REVIEWED else policy.EDIT_TRANSLATIONS

        def named():
            return select(Translation.id).where(
                Translation.project_id == project_id,
                Translation.file_name == file_name,
                Translation.deleted_at.is_(None),
                Translation.key.in_(keys),
            )

        policy.require_value_work(actor, project_id, permission, languages, named)
        known = set(
            db.session.execute(
                select(ProjectLanguage.code).where(ProjectLanguage.project_id == project_id)
            ).scalars()
        )
        for index, code in enumerate(languages):
            if code not in known:
                raise BadRequest(f"languages.{index}: {code!r} is not a language of this project.")
        bump_data_version(project_id)
        updated, now = 0, utcnow()
        for chunk in in_chunks(keys):
            ids = (
                select(Translation.id)
                .where(
                    Translation.project_id == project_id,
                    Translation.file_name == file_name,
                    Translation.deleted_at.is_(None),
                    Translation.key.in_(chunk),
                )
                .scalar_subquery()
            )
            result = db.session.execute(
                update(TranslationValue)
                .where(
                    TranslationValue.translation_id.in_(ids),
                    TranslationValue.language_code.in_(languages),
                    TranslationValue.state != state,
                )
                .values(
                    state=state,
                    review_reason=REQUESTED if state == NEEDS_REVIEW else None,
                    review_changed_at=now,
                    review_changed_by=actor.name,
                )
                .execution_options(synchronize_session=False, preserve_rowcount=True)
            )
            updated += result.rowcount
        return {"updated": updated}


def _active_issues(project_id: str, filters: dict):
    query = (
        select(ValueIssue)
        .join(Translation, Translation.id == ValueIssue.translation_id)
        .where(ValueIssue.project_id == project_id, Translation.deleted_at.is_(None))
    )
    if filters.get("check"):
        query = query.where(ValueIssue.check_code == filters["check"])
    if filters.get("language"):
        query = query.where(ValueIssue.language_code == filters["language"])
    if filters.get("fileName"):
        query = query.where(Translation.file_name == filters["fileName"])
    return query


def issue_counts(project_id: str, filters: dict | None = None) -> list[dict]:
    """``[{language, check, issues}]``: the values with issues of each check, per language."""
    base = _active_issues(project_id, filters or {}).subquery()
    rows = db.session.execute(
        select(base.c.language_code, base.c.check_code, func.count())
        .group_by(base.c.language_code, base.c.check_code)
        .order_by(base.c.language_code, base.c.check_code)
    ).all()
    return [{"language": language, "check": check, "issues": count} for language, check, count in rows]


def needs_review_counts(project_id: str, filters: dict | None = None) -> list[dict]:
    """``[{language, values}]``: the active values waiting for a review, per language."""
    filters = filters or {}
    query = (
        select(TranslationValue.language_code, func.count())
        .join(Translation, Translation.id == TranslationValue.translation_id)
        .where(
            TranslationValue.project_id == project_id,
            TranslationValue.state == NEEDS_REVIEW,
            Translation.deleted_at.is_(None),
        )
    )
    if filters.get("language"):
        query = query.where(TranslationValue.language_code == filters["language"])
    if filters.get("fileName"):
        query = query.where(Translation.file_name == filters["fileName"])
    rows = db.session.execute(
        query.group_by(TranslationValue.language_code).order_by(TranslationValue.language_code)
    ).all()
    return [{"language": language, "values": count} for language, count in rows]


def list_issues(actor, project_id: str, filters: dict, limit: int, offset: int) -> dict:
    """What the checks found in the project's active values: the checks' levels, counts per
    language and check, needs-review counts per language, and a page of issues ``{key,
    fileName, language, check, message, fix, value, state, reason}`` ordered by file, key,
    language and check, with the total (``reason``: why the value waits for a review, as in
    ``queue.review_queue``). Filters: ``check``, ``language``, ``fileName``."""
    read_snapshot()
    policy.require_permission(actor, project_id, policy.VIEW_TRANSLATIONS)
    levels = check_levels(db.session.execute(select(Project.checks).where(Project.id == project_id)).scalar())
    issues = _active_issues(project_id, filters).subquery()
    page = db.session.execute(
        select(
            Translation.key,
            Translation.file_name,
            issues.c.language_code,
            issues.c.check_code,
            issues.c.message,
            issues.c.fix,
            TranslationValue.value,
            TranslationValue.state,
            TranslationValue.review_reason,
        )
        .select_from(issues)
        .join(Translation, Translation.id == issues.c.translation_id)
        .join(
            TranslationValue,
            (TranslationValue.translation_id == issues.c.translation_id)
            & (TranslationValue.language_code == issues.c.language_code),
        )
        .order_by(
            Translation.file_name,
            Translation.sort_key,
            Translation.key,
            issues.c.language_code,
            issues.c.check_code,
        )
        .limit(limit)
        .offset(offset)
    ).all()
    counts = issue_counts(project_id, filters)
    return {
        "levels": levels,
        "counts": counts,
        "needsReview": needs_review_counts(project_id, filters),
        "total": sum(row["issues"] for row in counts),
        "issues": [
            {
                "key": key,
                "fileName": file_name,
                "language": language,
                "check": check,
                "message": message,
                "fix": fix,
                "value": value,
                "state": state,
                "reason": reason,
            }
            for key, file_name, language, check, message, fix, value, state, reason in page
        ],
    }


def language_overview(project_id: str) -> dict[str, dict]:
    """``{language: {issues, needsReview}}``: per language, the values with issues (any
    check) and the values waiting for a review, for the project's overview page."""
    overview: dict[str, dict] = {}
    base = _active_issues(project_id, {}).subquery()
    rows = db.session.execute(
        select(base.c.language_code, func.count(func.distinct(base.c.translation_id))).group_by(
            base.c.language_code
        )
    ).all()
    for language, count in rows:
        overview.setdefault(language, {"issues": 0, "needsReview": 0})["issues"] = count
    for row in needs_review_counts(project_id):
        overview.setdefault(row["language"], {"issues": 0, "needsReview": 0})["needsReview"] = row["values"]
    return overview
