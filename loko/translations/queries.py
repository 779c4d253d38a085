"""Read-side translation queries for agents: search, missing values, one translation by
key, per-file counts and a project overview.

Each query checks canViewTranslations, then reads with a few set-based statements; pages
are keyset-paginated on (fileName, key), which is unique among active translations, with
an opaque cursor. Values a linked project lends this one (decisions §9) count as present.
"""

import base64
import binascii

import orjson
from sqlalchemy import and_, exists, func, or_, select, true
from sqlalchemy.orm import aliased

from loko.auth import policy
from loko.errors import BadRequest, NotFound
from loko.extensions import db
from loko.files.service import file_records
from loko.languages.service import active_translation_count, project_languages
from loko.projects.models import Project
from loko.projects.service import Link, link_of
from loko.translations import history
from loko.translations.models import Translation, TranslationValue
from loko.translations.service import describe, values_of

DEFAULT_PAGE = 50
MAX_PAGE = 200
RECENT_HISTORY = 10
SOURCE_LANGUAGE_RULE = (
    "The project's source language setting: the language its keys are written in, chosen "
    "in the project's settings (by default its first language). None while the project "
    "has no languages."
)


def contains_text(column, text: str):
    """Case-insensitive substring match. SQLite's LIKE already ignores the case of ASCII
    letters (and matches other letters in their exact case), so it needs no lower() on
    every row; PostgreSQL's ILIKE folds every letter."""
    if db.session.get_bind().dialect.name == "sqlite":
        return column.contains(text, autoescape=True)
    return column.icontains(text, autoescape=True)


def encode_cursor(file_name: str, key: str) -> str:
    return base64.urlsafe_b64encode(orjson.dumps([file_name, key])).decode().rstrip("=")


def decode_cursor(cursor: str) -> tuple[str, str]:
    """The (fileName, key) position a cursor names; BadRequest for anything else."""
    try:
        position = orjson.loads(base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)))
    except (binascii.Error, ValueError, orjson.JSONDecodeError):
        position = None
    if not (
        isinstance(position, list)
        and len(position) == 2
        and all(isinstance(part, str) and "\x00" not in part for part in position)
    ):
        raise BadRequest("cursor: not a cursor returned by this tool; omit it to start from the beginning.")
    return position[0], position[1]


def _active(project_id: str):
    return and_(Translation.project_id == project_id, Translation.deleted_at.is_(None))


def _after(cursor: str | None):
    if cursor is None:
        return true()
    file_name, key = decode_cursor(cursor)
    return or_(
        Translation.file_name > file_name, and_(Translation.file_name == file_name, Translation.key > key)
    )


def _page(query, limit: int) -> tuple[list, str | None]:
    rows = db.session.execute(query.order_by(Translation.file_name, Translation.key).limit(limit + 1)).all()
    next_cursor = encode_cursor(rows[limit - 1].file_name, rows[limit - 1].key) if len(rows) > limit else None
    return rows[:limit], next_cursor


def has_inherited_value(link: Link):
    """True for a translation of this project whose (file, key) has a value in the linked
    project's source language."""
    theirs, their_value = aliased(Translation), aliased(TranslationValue)
    return (
        exists()
        .where(
            theirs.project_id == link.project_id,
            theirs.deleted_at.is_(None),
            theirs.file_name == Translation.file_name,
            theirs.key == Translation.key,
            their_value.translation_id == theirs.id,
            their_value.language_code == link.source,
        )
        .correlate(Translation)
    )


def has_value(language: str):
    """True for a translation with its own value in ``language``."""
    return (
        exists()
        .where(TranslationValue.translation_id == Translation.id, TranslationValue.language_code == language)
        .correlate(Translation)
    )


def is_missing(language: str, link: Link | None):
    """True for a translation with no value in ``language``, neither its own nor one the
    linked project lends it."""
    condition = ~has_value(language)
    if link is not None and link.target == language:
        condition = and_(condition, ~has_inherited_value(link))
    return condition


def _lent_values(link: Link, project_id: str) -> int:
    """How many (file, key) values of the linked project appear under the target language
    of this one: every active one in the source language that this project does not
    override, also for keys this project does not have."""
    theirs, their_value = aliased(Translation), aliased(TranslationValue)
    overridden = (
        exists()
        .where(
            _active(project_id),
            Translation.file_name == theirs.file_name,
            Translation.key == theirs.key,
            has_value(link.target),
        )
        .correlate(theirs)
    )
    return db.session.execute(
        select(func.count())
        .select_from(theirs)
        .join(
            their_value,
            and_(their_value.translation_id == theirs.id, their_value.language_code == link.source),
        )
        .where(theirs.project_id == link.project_id, theirs.deleted_at.is_(None), ~overridden)
    ).scalar_one()


def inherited_values(link: Link, translation_ids: list[str]) -> dict[str, str]:
    """The linked project's source value for each of these translations that has one."""
    theirs, their_value = aliased(Translation), aliased(TranslationValue)
    rows = db.session.execute(
        select(Translation.id, their_value.value)
        .join(
            theirs,
            and_(
                theirs.project_id == link.project_id,
                theirs.deleted_at.is_(None),
                theirs.file_name == Translation.file_name,
                theirs.key == Translation.key,
            ),
        )
        .join(
            their_value,
            and_(their_value.translation_id == theirs.id, their_value.language_code == link.source),
        )
        .where(Translation.id.in_(translation_ids))
    ).all()
    return dict(rows)


def search_translations(
    actor,
    project_id: str,
    query: str,
    language: str | None = None,
    file_name: str | None = None,
    limit: int = DEFAULT_PAGE,
    cursor: str | None = None,
) -> dict:
    """Active translations whose key or a value contains ``query`` (case-insensitive; on
    SQLite only ASCII letters fold). ``language`` limits the value match to one language.
    BadRequest for a foreign cursor."""
    policy.require_permission(actor, project_id, policy.VIEW_TRANSLATIONS)
    needle = query.lower()

    def matches(column):
        # The exact-case arm finds non-ASCII text on SQLite, whose lower() folds ASCII only.
        return or_(column.icontains(query, autoescape=True), column.contains(query, autoescape=True))

    value_match = exists().where(
        TranslationValue.translation_id == Translation.id, matches(TranslationValue.value)
    )
    if language is not None:
        value_match = value_match.where(TranslationValue.language_code == language)
    found = select(Translation.id, Translation.file_name, Translation.key).where(
        _active(project_id), or_(matches(Translation.key), value_match.correlate(Translation)), _after(cursor)
    )
    if file_name is not None:
        found = found.where(Translation.file_name == file_name)
    rows, next_cursor = _page(found, limit)
    values = values_of([row.id for row in rows])
    results = []
    for row in rows:
        own = values.get(row.id, {})
        matched = ["key"] if needle in row.key.lower() or query in row.key else []
        matched += [
            code
            for code, value in own.items()
            if (language is None or code == language) and (needle in value.lower() or query in value)
        ]
        results.append(
            {"id": row.id, "key": row.key, "fileName": row.file_name, "values": own, "matched": matched}
        )
    return {"query": query, "results": results, "next_cursor": next_cursor}


def source_language(project_id: str) -> str | None:
    """See SOURCE_LANGUAGE_RULE."""
    return db.session.execute(select(Project.source_language).where(Project.id == project_id)).scalar()


def most_translated(counts: dict[str, int]) -> str | None:
    """The code with the highest count in ``{code: count}`` (see SOURCE_LANGUAGE_RULE)."""
    counted = [(code, count) for code, count in counts.items() if count]
    return min(counted, key=lambda item: (-item[1], item[0]))[0] if counted else None


def missing_translations(
    actor,
    project_id: str,
    language: str,
    file_name: str | None = None,
    source: str | None = None,
    limit: int = DEFAULT_PAGE,
    cursor: str | None = None,
) -> dict:
    """Active keys with no value in ``language`` (nor one inherited through the project
    link), each with its ``source`` text and its other values as context. ``source``
    defaults to the project's source language. BadRequest when ``source`` is ``language``."""
    project, _ = policy.authorize(actor, project_id, policy.VIEW_TRANSLATIONS)
    if source == language:
        raise BadRequest("source_language: must differ from language.")
    source = source or source_language(project_id)
    if source == language:
        source = None
    link = link_of(project)
    condition = and_(_active(project_id), is_missing(language, link))
    if file_name is not None:
        condition = and_(condition, Translation.file_name == file_name)
    total = db.session.execute(select(func.count()).select_from(Translation).where(condition)).scalar_one()
    rows, next_cursor = _page(
        select(
            Translation.id,
            Translation.file_name,
            Translation.key,
            Translation.comment,
            Translation.max_length,
        ).where(condition, _after(cursor)),
        limit,
    )
    values = values_of([row.id for row in rows])
    items = []
    for row in rows:
        own = values.get(row.id, {})
        items.append(
            {
                "id": row.id,
                "key": row.key,
                "fileName": row.file_name,
                "source": own.get(source) if source else None,
                "context": {code: value for code, value in own.items() if code != source},
                "comment": row.comment,
                "maxLength": row.max_length,
            }
        )
    return {
        "language": language,
        "source_language": source,
        "total": total,
        "missing": items,
        "next_cursor": next_cursor,
    }


def translation_by_key(actor, project_id: str, key: str, file_name: str) -> dict:
    """The active translation with its values, each value's review state and why it waits
    for a review (``states``: ``{code: {state, reason}}``), the value inherited through the
    project link (if any) and its most recent history; NotFound when there is none."""
    project, _ = policy.authorize(actor, project_id, policy.VIEW_TRANSLATIONS)
    translation = db.session.execute(
        select(Translation).where(
            _active(project_id), Translation.file_name == file_name, Translation.key == key
        )
    ).scalar_one_or_none()
    if translation is None:
        raise NotFound(f"key: no active translation {key!r} in the file {file_name!r}.")
    found = describe([translation])[0]
    link = link_of(project)
    inherited = {}
    if link is not None and link.target not in found["values"]:
        value = inherited_values(link, [translation.id]).get(translation.id)
        if value is not None:
            inherited[link.target] = value
    entries, _ = history.list_history(project_id, {"translationId": translation.id}, RECENT_HISTORY, None)
    details = {
        "comment": translation.comment,
        "context": translation.context,
        "maxLength": translation.max_length,
    }
    states = {
        code: {"state": state, "reason": reason}
        for code, state, reason in db.session.execute(
            select(TranslationValue.language_code, TranslationValue.state, TranslationValue.review_reason)
            .where(TranslationValue.translation_id == translation.id)
            .order_by(TranslationValue.language_code)
        )
    }
    return {**found, **details, "states": states, "inherited": inherited, "history": entries}


def file_summaries(actor, project_id: str) -> list[dict]:
    """Each file with its languages and its number of active keys, sorted by name."""
    policy.require_permission(actor, project_id, policy.VIEW_TRANSLATIONS)
    return _file_summaries(project_id)


def _file_summaries(project_id: str) -> list[dict]:
    records = file_records(project_id)
    counts = dict(
        db.session.execute(
            select(Translation.file_name, func.count())
            .where(_active(project_id))
            .group_by(Translation.file_name)
        ).all()
    )
    languages: dict[str, list[str]] = {name: [] for name in counts}
    for record in records:
        languages.setdefault(record["file_name"], []).append(record["language"])
    return [
        {"fileName": name, "languages": sorted(codes), "keys": counts.get(name, 0)}
        for name, codes in sorted(languages.items())
    ]


def project_context(actor, project_id: str) -> dict:
    """What an agent needs before translating: the project, its languages with progress,
    files, source language, link and counts."""
    project, permissions = policy.authorize(actor, project_id, policy.VIEW_TRANSLATIONS)
    languages = project_languages(project, stats=True)
    files = _file_summaries(project_id)
    link = link_of(project)
    filled = 0
    if link is not None:
        filled = db.session.execute(
            select(func.count())
            .select_from(Translation)
            .where(_active(project_id), ~has_value(link.target), has_inherited_value(link))
        ).scalar_one()
    for language in languages:
        language["inherited"] = filled if link is not None and language["code"] == link.target else 0
        language["missing"] = language["total"] - language["translated"] - language["inherited"]
    trashed = db.session.execute(
        select(func.count())
        .select_from(Translation)
        .where(Translation.project_id == project_id, Translation.deleted_at.is_not(None))
    ).scalar_one()
    keys = active_translation_count(project_id)
    return {
        "project": {
            "id": project.id,
            "name": project.name,
            "description": project.desc,
            "emoji": project.emoji,
        },
        "source_language": project.source_language,
        "source_language_rule": SOURCE_LANGUAGE_RULE,
        "languages": languages,
        "files": files,
        "link": None
        if link is None
        else {
            "project_id": link.project_id,
            "project_name": db.session.get(Project, link.project_id).name,
            "source_language": link.source,
            "target_language": link.target,
            "inherited_values": _lent_values(link, project_id),
        },
        "counts": {
            "keys": keys,
            "files": len(files),
            "languages": len(languages),
            "values": sum(language["translated"] for language in languages),
            "trashed": trashed,
        },
        "permissions": {
            "canViewTranslations": permissions.can_view_translations,
            "canEditTranslations": permissions.can_edit_translations,
        },
    }
