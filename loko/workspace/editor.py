"""The translation editor's read side: one page of active keys with their values in the
languages shown, filtered, and keyset-paginated on (fileName, key) in both directions, keys
in natural order (item2 before item10: by their stored sort key, then by the key).

A page costs the same few statements whatever the project's size or the page's position:
the keys of the page (walking the active-key index from the cursor), their values in the
languages shown (by primary key), and the values the linked project lends them.

A project linked to another (decisions §9) also shows the keys it only inherits, as its
export does: the linked project's active keys with a value in the link's source language
that this project has no active key for. Such a row has no id of its own (``id`` is
empty) until a value of it is overridden, which creates the key here.
"""

from dataclasses import dataclass, field, replace
from datetime import UTC, date, datetime, time

from sqlalchemy import and_, exists, literal, literal_column, null, or_, select, true, tuple_, union_all
from sqlalchemy.orm import aliased

from loko.auth import policy
from loko.checks.registry import CHECKS
from loko.comments.service import open_counts
from loko.errors import BadRequest, Conflict, NotFound
from loko.extensions import db
from loko.languages.service import file_names, language_rows
from loko.memory.search import candidate_keys
from loko.projects.models import Project
from loko.projects.service import Link, link_of
from loko.quality.models import ValueIssue
from loko.quality.review import set_review_state
from loko.screenshots.models import Screenshot, ScreenshotRegion
from loko.screenshots.service import row_thumbnails
from loko.tags.filters import TagFilter
from loko.tags.service import project_tag_names, tags_of
from loko.tasks.service import task_key_ids, task_of
from loko.translations.models import NEEDS_REVIEW, REVIEWED, Translation, TranslationValue, natural_sort_key
from loko.translations.queries import (
    contains_text,
    decode_cursor,
    encode_cursor,
    has_inherited_value,
    has_value,
    inherited_values,
    is_missing,
)
from loko.translations.service import patch_translation, values_of

PAGE_SIZE = 50
MAX_PAGE_SIZE = 200
# Languages shown when the viewer has not chosen: the source and the next ones by code,
# as many as fit side by side on a phone.
DEFAULT_LANGUAGES = 3


@dataclass(frozen=True)
class EditorFilters:
    """What narrows the keys; every filter given must hold (they combine with AND)."""

    file_name: str | None = None
    search: str | None = None
    missing: str | None = None
    changed_since: date | None = None
    inherited: bool = False
    translation_id: str | None = None
    # Keys with a value in a shown language that a check found wrong: ANY_CHECK, or a
    # check's code.
    issues: str | None = None
    # Keys with a value in a shown language waiting for a review.
    needs_review: bool = False
    # Keys on a screenshot ("with") or on none ("without").
    screenshots: str | None = None
    # The keys of one task (its language shown, its assignees' temporary right applied).
    task_id: str | None = None
    # Keys with every tag of ``tags.all_of`` and none of ``tags.none_of``.
    tags: TagFilter = TagFilter()  # noqa: RUF009 - frozen, shared safely


ANY_CHECK = "any"


@dataclass(frozen=True)
class ShownIssue:
    """What one check found wrong with a shown value, and the value it proposes instead."""

    check: str
    title: str
    message: str
    fix: str | None


@dataclass(frozen=True)
class EditorRow:
    id: str
    file_name: str
    key: str
    values: dict[str, str]
    inherited: dict[str, str]
    open_comments: int = 0
    # Per language shown: the value's review state, and what the checks found.
    states: dict[str, str] = field(default_factory=dict)
    issues: dict[str, list[ShownIssue]] = field(default_factory=dict)
    # The screenshot shown beside the key ({id, name, thumbnail, count}), if it is on one.
    screenshot: dict | None = None
    # The key's tags, by name.
    tags: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class EditorPage:
    """A page of the editor: the project as the caller sees it, the languages (all of the
    project's, and those shown with the source first), the files, and the rows with the
    positions of the pages before and after (None at either end)."""

    project: Project
    permissions: policy.Permissions
    languages: list[dict]
    shown: list[str]
    source: str | None
    files: list[str]
    link: Link | None
    rows: list[EditorRow]
    next_cursor: str | None
    previous_cursor: str | None
    dropped: tuple[str, ...] = ()
    # The project's tags, by name (the filter's and the bulk change's suggestions).
    tags: list[str] = field(default_factory=list)

    @property
    def language_names(self) -> dict[str, dict]:
        return {language["code"]: language for language in self.languages}

    @property
    def translated_language(self) -> str | None:
        """The language shown that the caller translates into: the first shown besides the
        source that they may edit, else the first shown besides the source."""
        targets = [code for code in self.shown if code != self.source]
        editable = [code for code in targets if self.permissions.may_edit_language(code)]
        return (editable or targets or [None])[0]


def editor_page(
    actor,
    project_id: str,
    filters: EditorFilters,
    languages: tuple[str, ...] = (),
    source: str | None = None,
    after: str | None = None,
    before: str | None = None,
    limit: int = PAGE_SIZE,
    drop_unknown: bool = False,
) -> EditorPage:
    """One page of the editor for a caller with canViewTranslations.

    ``languages`` and ``source`` choose the columns (default: the project's source
    language, then the next ones by code); ``after`` and ``before`` are the cursors of the
    neighbouring pages. BadRequest names the parameter for a language the project does not
    have, the inherited filter without a project link, a foreign cursor, or both cursors;
    with ``drop_unknown`` (a page's URL, kept from before a language was deleted or the
    link removed) those languages and that filter are left out instead, and ``dropped``
    names them.
    """
    project, permissions = policy.authorize(actor, project_id, policy.VIEW_TRANSLATIONS)
    all_languages = language_rows(project_id)
    codes = [language["code"] for language in all_languages]
    link = link_of(project)
    dropped: tuple[str, ...] = ()
    if drop_unknown:
        named = (filters.missing, source, *languages)
        dropped = tuple(dict.fromkeys(code for code in named if code is not None and code not in codes))
        languages = tuple(code for code in languages if code in codes)
        source = source if source in codes else None
        filters = replace(
            filters,
            missing=filters.missing if filters.missing in codes else None,
            inherited=filters.inherited and link is not None,
        )
    for name, code in (("missing", filters.missing), ("source", source), *(("lang", c) for c in languages)):
        if code is not None and code not in codes:
            raise BadRequest(f"{name}: the project has no language {code!r}.")
    if filters.inherited and link is None:
        raise BadRequest("inherited: this project has no linked project to inherit values from.")
    if after is not None and before is not None:
        raise BadRequest("before: give either after or before, not both.")
    if filters.issues is not None and filters.issues != ANY_CHECK and filters.issues not in CHECKS:
        raise BadRequest(f"issues: {ANY_CHECK} or the code of a check, not {filters.issues!r}.")
    task = None
    if filters.task_id is not None:
        task = task_of(project_id, filters.task_id)
        if task is None:
            raise BadRequest("task: no task with this id in this project.")
        permissions = policy.task_permissions(actor, project_id, task, permissions)
        languages = languages or (task["language"],)
    source = source or _default_source(project, codes)
    shown = _shown(codes, source, languages or _own_languages(permissions, codes, source), filters.missing)
    condition = _condition(project_id, filters, link, shown)
    # A key the linked project lends is on none of this project's screenshots.
    no_lent = filters.issues or filters.needs_review or filters.screenshots == "with"
    lent = None if no_lent else _lent_keys(project_id, filters, link)
    rows, next_cursor, previous_cursor = _keys(condition, lent, after, before, min(limit, MAX_PAGE_SIZE))
    files = file_names(project_id)
    if link is not None:
        files = sorted(set(files) | set(file_names(link.project_id)))
    return EditorPage(
        project,
        permissions,
        all_languages,
        shown,
        source,
        files,
        link,
        _with_values(project_id, rows, shown, link),
        next_cursor,
        previous_cursor,
        dropped,
        project_tag_names(project_id),
    )


def task_keys_query(project_id: str, filters: dict, language: str):
    """The ids of the project's active keys the editor's ``filters`` (``fileName``,
    ``search``, ``missing``, ``changedSince``, ``needsReview``, ``issues``, ``screenshots``)
    show with ``language`` beside the source: the keys a task made from a filter takes."""
    project = db.session.get(Project, project_id)
    codes = [language["code"] for language in language_rows(project_id)]
    source = _default_source(project, codes)
    shown = list(dict.fromkeys(code for code in (source, language) if code))
    if filters.get("issues") and filters["issues"] != ANY_CHECK and filters["issues"] not in CHECKS:
        raise BadRequest(f"filter.issues: {ANY_CHECK} or the code of a check.")
    if filters.get("missing") and filters["missing"] not in codes:
        raise BadRequest(f"filter.missing: the project has no language {filters['missing']!r}.")
    chosen = EditorFilters(
        file_name=filters.get("fileName"),
        search=filters.get("search"),
        missing=filters.get("missing"),
        changed_since=filters.get("changedSince"),
        issues=filters.get("issues"),
        needs_review=bool(filters.get("needsReview")),
        screenshots=filters.get("screenshots"),
    )
    return select(Translation.id).where(_condition(project_id, chosen, None, shown))


def _default_source(project: Project, codes: list[str]) -> str | None:
    """The project's source language setting (the first code for a project without one)."""
    if project.source_language in codes:
        return project.source_language
    return codes[0] if codes else None


def _own_languages(permissions: policy.Permissions, codes: list[str], source: str | None) -> tuple[str, ...]:
    """The columns a caller limited to some languages sees when they chose none: those they
    may edit (nothing for any other caller: the default columns)."""
    if permissions.languages is None:
        return ()
    return tuple(code for code in codes if code != source and code in permissions.languages)


def _shown(codes: list[str], source: str | None, chosen: tuple[str, ...], missing: str | None) -> list[str]:
    """The columns: the source first, then the chosen languages (by default the next ones by
    code), and the language a "missing in" filter names."""
    if not chosen:
        chosen = tuple(code for code in codes if code != source)[: DEFAULT_LANGUAGES - 1]
    shown = [source] if source else []
    shown += [code for code in dict.fromkeys(chosen) if code != source]
    if missing is not None and missing not in shown:
        shown.append(missing)
    return shown


def _condition(project_id: str, filters: EditorFilters, link: Link | None, shown: list[str]):
    # A rare search term: the memory's trigram index names the few keys to check, the
    # project's keys out of the trash, read by their ids alone (no plan walks all its keys).
    narrowed = candidate_keys(project_id, filters.search) if filters.search else None
    conditions = (
        [Translation.project_id == project_id, Translation.deleted_at.is_(None)]
        if narrowed is None
        else [Translation.id.in_(narrowed)]
    )
    if filters.issues is not None:
        conditions.append(Translation.id.in_(_with_issues(project_id, filters.issues, shown)))
    if filters.needs_review:
        conditions.append(Translation.id.in_(_needing_review(project_id, shown)))
    if filters.translation_id is not None:
        conditions.append(Translation.id == filters.translation_id)
    if filters.task_id is not None:
        conditions.append(Translation.id.in_(task_key_ids(filters.task_id)))
    if filters.file_name is not None:
        conditions.append(Translation.file_name == filters.file_name)
    if filters.search:
        value_match = exists().where(
            TranslationValue.translation_id == Translation.id,
            contains_text(TranslationValue.value, filters.search),
        )
        if narrowed is not None:
            # The ids in the subquery too: a planner may hash it, reading every value once.
            value_match = value_match.where(TranslationValue.translation_id.in_(narrowed))
        conditions.append(
            or_(contains_text(Translation.key, filters.search), value_match.correlate(Translation))
        )
    if filters.missing is not None:
        conditions.append(is_missing(filters.missing, link))
    if filters.changed_since is not None:
        conditions.append(Translation.updated_at >= datetime.combine(filters.changed_since, time.min, UTC))
    if filters.inherited:
        conditions.append(and_(~has_value(link.target), has_inherited_value(link)))
    if filters.screenshots is not None:
        # A screenshot in the trash shows no key, as the overview counts them.
        on_one = (
            select(ScreenshotRegion.id)
            .join(Screenshot, Screenshot.id == ScreenshotRegion.screenshot_id)
            .where(ScreenshotRegion.translation_id == Translation.id, Screenshot.deleted_at.is_(None))
            .exists()
            .correlate(Translation)
        )
        conditions.append(on_one if filters.screenshots == "with" else ~on_one)
    if filters.tags:
        conditions.append(filters.tags.condition(Translation.id))
    return and_(*conditions)


def _with_issues(project_id: str, check: str, shown: list[str]):
    """The keys with an issue in a shown language: a range of the value_issues index by
    project and language (any check), or by project and check."""
    query = select(ValueIssue.translation_id).where(
        ValueIssue.project_id == project_id, ValueIssue.language_code.in_(shown)
    )
    if check != ANY_CHECK:
        query = query.where(ValueIssue.check_code == check)
    return query


def _needing_review(project_id: str, shown: list[str]):
    """The keys with a value waiting for a review in a shown language, from the partial
    index of such values (its condition written as a literal, so that SQLite uses it)."""
    return select(TranslationValue.translation_id).where(
        TranslationValue.project_id == project_id,
        TranslationValue.language_code.in_(shown),
        TranslationValue.state == literal_column(f"'{NEEDS_REVIEW}'"),
    )


def _lent_keys(project_id: str, filters: EditorFilters, link: Link | None):
    """``(key, filter)`` of the keys only the linked project has, as ``Translation``-like
    aliases and the condition the filters put on them; None when none can show."""
    if (
        link is None
        or filters.translation_id is not None
        or filters.task_id is not None
        or filters.missing == link.target
        or filters.tags.all_of  # a key only the linked project has carries no tag here
    ):
        return None
    theirs, their_value = aliased(Translation), aliased(TranslationValue)
    ours = aliased(Translation)
    conditions = [
        theirs.project_id == link.project_id,
        theirs.deleted_at.is_(None),
        ~exists()
        .where(
            ours.project_id == project_id,
            ours.deleted_at.is_(None),
            ours.file_name == theirs.file_name,
            ours.key == theirs.key,
        )
        .correlate(theirs),
    ]
    if filters.file_name is not None:
        conditions.append(theirs.file_name == filters.file_name)
    if filters.search:
        conditions.append(
            or_(contains_text(theirs.key, filters.search), contains_text(their_value.value, filters.search))
        )
    if filters.changed_since is not None:
        conditions.append(theirs.updated_at >= datetime.combine(filters.changed_since, time.min, UTC))
    return theirs, their_value, and_(*conditions), link.source


def _beyond(cursor: str, name: str, table=Translation):
    """Keys after the ``after`` cursor, or before the ``before`` one, as one row-value
    comparison that both databases answer with a range of the active-key index."""
    try:
        file_name, key = decode_cursor(cursor)
    except BadRequest:
        raise BadRequest(
            f"{name}: not a page position of this editor; start again from the first page."
        ) from None
    position = tuple_(table.file_name, table.sort_key, table.key)
    cursor = tuple_(file_name, natural_sort_key(key), key)
    return position < cursor if name == "before" else position > cursor


def _select_keys(condition, lent, cursor: tuple[str, str] | None, descending: bool, limit: int):
    """Up to ``limit`` rows ``(id, file_name, key, lent)`` beyond ``cursor`` (name, value)
    in (fileName, key) order: this project's keys, and with ``lent`` the linked project's
    keys this one lacks (with their value, and no id), each side walking its own index."""

    def ordered(table, query):
        columns = (table.file_name, table.sort_key, table.key)
        return query.order_by(*(column.desc() if descending else column for column in columns)).limit(limit)

    beyond = _beyond(cursor[1], cursor[0]) if cursor else true()
    own = ordered(
        Translation,
        select(
            Translation.id, Translation.file_name, Translation.key, Translation.sort_key, null().label("lent")
        ).where(condition, beyond),
    )
    if lent is None:
        return db.session.execute(own).all()
    theirs, their_value, lent_condition, source = lent
    theirs_beyond = _beyond(cursor[1], cursor[0], theirs) if cursor else true()
    borrowed = ordered(
        theirs,
        select(
            literal("").label("id"),
            theirs.file_name,
            theirs.key,
            theirs.sort_key,
            their_value.value.label("lent"),
        )
        .join(their_value, and_(their_value.translation_id == theirs.id, their_value.language_code == source))
        .where(lent_condition, theirs_beyond),
    )
    both = union_all(select(own.subquery()), select(borrowed.subquery())).subquery()
    columns = (both.c.file_name, both.c.sort_key, both.c.key)
    return db.session.execute(
        select(both).order_by(*(column.desc() if descending else column for column in columns)).limit(limit)
    ).all()


def _keys(condition, lent, after: str | None, before: str | None, limit: int):
    """``(rows, next_cursor, previous_cursor)``: up to ``limit`` keys in (fileName, key)
    order after ``after``, or before ``before``; one statement (two when going back
    reaches the start, which then shows a full first page)."""
    if before is not None:
        found = _select_keys(condition, lent, ("before", before), True, limit + 1)
        if len(found) > limit:
            rows = found[:limit][::-1]
            return rows, encode_cursor(rows[-1].file_name, rows[-1].key), _cursor_of(rows[0])
        after = None
    found = _select_keys(condition, lent, ("after", after) if after else None, False, limit + 1)
    rows = found[:limit]
    next_cursor = _cursor_of(rows[-1]) if len(found) > limit else None
    previous_cursor = _cursor_of(rows[0]) if after is not None and rows else None
    return rows, next_cursor, previous_cursor


def _cursor_of(row) -> str:
    return encode_cursor(row.file_name, row.key)


def _with_values(project_id: str, rows, shown: list[str], link: Link | None) -> list[EditorRow]:
    """The rows with their values in the shown languages (one statement for the page), the
    linked project's values where the inheriting language has none of its own, and their
    open comments (one statement), their review states (read with the values), what the
    checks found in them (one statement) and the screenshot each key is on (one statement)."""
    ids = [row.id for row in rows if row.id]
    values: dict[str, dict[str, str]] = {row_id: {} for row_id in ids}
    states: dict[str, dict[str, str]] = {row_id: {} for row_id in ids}
    if ids and shown:
        for translation_id, code, value, state in db.session.execute(
            select(
                TranslationValue.translation_id,
                TranslationValue.language_code,
                TranslationValue.value,
                TranslationValue.state,
            ).where(TranslationValue.translation_id.in_(ids), TranslationValue.language_code.in_(shown))
        ):
            values[translation_id][code] = value
            states[translation_id][code] = state
    issues = _issues_of(ids, shown)
    inherited: dict[str, str] = {}
    if link is not None and link.target in shown:
        lacking = [row_id for row_id in ids if link.target not in values[row_id]]
        if lacking:
            inherited = inherited_values(link, lacking)
    comments = open_counts(ids)
    screenshots = row_thumbnails(project_id, ids, link.project_id if link is not None else None)
    tags = tags_of(ids) if ids else {}
    return [
        EditorRow(
            row.id,
            row.file_name,
            row.key,
            values.get(row.id, {}),
            _lent_to(row, inherited, link, shown),
            comments.get(row.id, 0),
            states.get(row.id, {}),
            issues.get(row.id, {}),
            screenshots.get(row.id),
            tags.get(row.id, []),
        )
        for row in rows
    ]


def _issues_of(ids: list[str], shown: list[str]) -> dict[str, dict[str, list[ShownIssue]]]:
    """``{id: {language: [issue]}}`` of the shown values, in the order the checks are listed,
    by primary key in one statement."""
    found: dict[str, dict[str, list[ShownIssue]]] = {}
    if not ids or not shown:
        return found
    order = {code: index for index, code in enumerate(CHECKS)}
    rows = db.session.execute(
        select(
            ValueIssue.translation_id,
            ValueIssue.language_code,
            ValueIssue.check_code,
            ValueIssue.message,
            ValueIssue.fix,
        ).where(ValueIssue.translation_id.in_(ids), ValueIssue.language_code.in_(shown))
    ).all()
    rows.sort(key=lambda row: order.get(row.check_code, len(order)))
    for translation_id, code, check, message, fix in rows:
        module = CHECKS.get(check)
        issue = ShownIssue(check, module.TITLE if module else check, message, fix)
        found.setdefault(translation_id, {}).setdefault(code, []).append(issue)
    return found


def check_titles() -> list[tuple[str, str]]:
    """Every check as ``(code, title)``, in the order the editor lists them."""
    return [(code, module.TITLE) for code, module in CHECKS.items()]


def apply_fix(actor, project_id: str, translation_id: str, language: str, check: str, expected: str) -> dict:
    """Write the value a check proposes for a value, through the same conditional write as
    an edit: the stored value must still be ``expected`` (Conflict otherwise, nothing
    written). NotFound for a key not active in the project; Conflict when the check finds
    nothing to fix in the value any more; Forbidden for a language the caller may not edit.
    Returns ``{key, fileName, language}``."""
    permissions = policy.require_permission(actor, project_id, policy.EDIT_TRANSLATIONS)
    policy.require_languages(permissions, [language])
    row = _active_key(
        select(Translation.key, Translation.file_name, ValueIssue.fix).outerjoin(
            ValueIssue,
            and_(
                ValueIssue.translation_id == Translation.id,
                ValueIssue.language_code == language,
                ValueIssue.check_code == check,
            ),
        ),
        project_id,
        translation_id,
    )
    if row.fix is None:
        raise Conflict(f"check: {check} proposes no fix for this value (any more); reload to see it now.")
    patch_translation(actor, project_id, row.key, row.file_name, {language: row.fix}, {language: expected})
    return {"key": row.key, "fileName": row.file_name, "language": language}


def review_values(
    actor, project_id: str, translation_ids: list[str], language: str, leave_out_flagged: bool = False
) -> dict:
    """Mark the values of these keys in ``language`` reviewed, through the review service
    (one call per file the keys are in). With ``leave_out_flagged``, a value the checks
    found wrong or waiting for a review (written by a machine or an agent, or its source
    changed) is left as it is. Returns ``{updated, left_out}``."""

    def named():
        return select(Translation.id).where(
            Translation.id.in_(translation_ids), Translation.project_id == project_id
        )

    policy.require_value_work(actor, project_id, policy.REVIEW_TRANSLATIONS, [language], named)
    query = select(Translation.file_name, Translation.key).where(
        Translation.id.in_(translation_ids),
        Translation.project_id == project_id,
        Translation.deleted_at.is_(None),
    )
    left_out = 0
    if leave_out_flagged:
        flagged = set(
            db.session.execute(
                union_all(
                    select(ValueIssue.translation_id).where(
                        ValueIssue.translation_id.in_(translation_ids), ValueIssue.language_code == language
                    ),
                    select(TranslationValue.translation_id).where(
                        TranslationValue.translation_id.in_(translation_ids),
                        TranslationValue.language_code == language,
                        TranslationValue.state == NEEDS_REVIEW,
                    ),
                )
            ).scalars()
        )
        left_out = len(flagged)
        query = query.where(Translation.id.not_in(flagged))
    by_file: dict[str, list[str]] = {}
    for file_name, key in db.session.execute(query):
        by_file.setdefault(file_name, []).append(key)
    updated = 0
    for file_name, keys in sorted(by_file.items()):
        updated += set_review_state(actor, project_id, file_name, keys, [language], REVIEWED)["updated"]
    return {"updated": updated, "left_out": left_out}


def _lent_to(row, inherited: dict[str, str], link: Link | None, shown: list[str]) -> dict[str, str]:
    """The value the linked project lends this row in the target language, if shown."""
    if link is None or link.target not in shown:
        return {}
    if not row.id:
        return {link.target: row.lent}
    return {link.target: inherited[row.id]} if row.id in inherited else {}


@dataclass(frozen=True)
class KeyDetails:
    """One active key with its values in every language of the project."""

    project_id: str
    id: str
    key: str
    file_name: str
    languages: list[dict]
    values: dict[str, str]
    inherited: dict[str, str]
    comment: str | None = None
    context: str | None = None
    max_length: int | None = None
    can_edit: bool = False
    # Whoever may write comments (a translator limited to some languages too).
    can_comment: bool = False
    # Whoever may propose values (contributors too) and vote on proposals (people).
    can_propose: bool = False
    can_vote: bool = False


def _active_key(query, project_id: str, translation_id: str):
    """The one row ``query`` reads of the active key ``translation_id`` of the project;
    NotFound when there is no such key."""
    row = db.session.execute(
        query.where(
            Translation.id == translation_id,
            Translation.project_id == project_id,
            Translation.deleted_at.is_(None),
        )
    ).first()
    if row is None:
        raise NotFound("id: no active translation with this id in this project.")
    return row


def key_details(actor, project_id: str, translation_id: str) -> KeyDetails:
    """An active key's values in all languages, with what the linked project lends it, and
    its details; NotFound when the key is not active in this project."""
    project, permissions = policy.authorize(actor, project_id, policy.VIEW_TRANSLATIONS)
    row = _active_key(
        select(
            Translation.id,
            Translation.key,
            Translation.file_name,
            Translation.comment,
            Translation.context,
            Translation.max_length,
        ),
        project_id,
        translation_id,
    )
    values = values_of([row.id]).get(row.id, {})
    link = link_of(project)
    inherited = {}
    if link is not None and link.target not in values:
        lent = inherited_values(link, [row.id]).get(row.id)
        if lent is not None:
            inherited[link.target] = lent
    return KeyDetails(
        project_id,
        row.id,
        row.key,
        row.file_name,
        language_rows(project_id),
        values,
        inherited,
        row.comment,
        row.context,
        row.max_length,
        permissions.can_manage_keys,
        permissions.allows(policy.WRITE_COMMENTS),
        permissions.can_propose,
        permissions.allows(policy.VOTE_PROPOSALS),  # a page's caller is a person
    )
