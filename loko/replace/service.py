"""Find and replace: the preview of every value a replacement changes in a project (page by
page, read in keyset batches of a few statements), and the apply of the ticked changes, each
only while its value is still the one the preview showed, in one transaction and as one
operation, through the write path of a bulk write (the checks, the review states, the history
with the actor, the webhooks' events).

A change that would break a placeholder, a markup tag or ICU syntax (``guards``), or that a
check the project sets to ``refuse`` finds wrong, is listed as refused and never written; a
value whose matching runs out of its time is listed as timed out and left as it is, and the
others go on. A replaced value waits for a review (``requested``) unless a reviewer replaced
it; an agent's (MCP) waits for one as the agent's writes do.
"""

import time
from collections import defaultdict

from sqlalchemy import and_, bindparam, exists, or_, select, tuple_
from sqlalchemy.orm import aliased

from loko.auth import policy
from loko.database import (
    SESSION_STATEMENTS,
    in_chunks,
    read_snapshot,
    refresh_statistics,
    stream_batches,
    unit_of_work,
    utcnow,
)
from loko.errors import BadRequest
from loko.extensions import db
from loko.languages.models import ProjectLanguage
from loko.projects.models import Project
from loko.projects.service import bump_data_version, stamp_files
from loko.quality.service import preview as checks_preview
from loko.replace.guards import breakage
from loko.replace.matching import VALUE_TIMEOUT, TimedOut, compile_replacement
from loko.replace.schemas import DEFAULT_PAGE
from loko.tags.filters import TagFilter
from loko.translations import history
from loko.translations.models import REQUESTED, REVIEWED, Translation, TranslationValue
from loko.translations.operations import operation
from loko.translations.queries import contains_text, decode_cursor, encode_cursor
from loko.translations.writing import (
    Refused,
    await_review,
    touch_keys,
    update_values,
    written_reason,
    written_state,
)

OPERATION_KIND = "replace"
BATCH = 2000  # values read per statement of a preview
# At most this many values may match a text for its keys to be looked up first.
RARE = 2000
# Values whose matching may run out of time in one request before the pattern is refused.
MAX_TIMEOUTS = 20
# Seconds of matching a preview page may take (it ends early, with a nextCursor) and an apply
# may take (the items left are listed as timed out, not written).
PAGE_SECONDS = 10.0
APPLY_SECONDS = 60.0
CHANGED, GONE, UNCHANGED, PROTECTED = "changed", "gone", "unchanged", "protected"
# What a replacement does to one value.
CHANGE, REFUSED, TIMED_OUT = "change", "refused", "timed-out"


def replace_text(actor, project_id: str, data: dict) -> dict:
    """A find and replace as ``ReplaceRequest`` loaded it: the preview, or the apply of its
    ``items`` (``dryRun`` false)."""
    if data["dryRun"]:
        return preview_replacement(actor, project_id, data)
    return apply_replacement(actor, project_id, data)


def _rule(data: dict):
    return compile_replacement(
        data["find"], data["replace"], data["mode"], data["matchCase"], data["wholeWord"]
    )


def preview_replacement(actor, project_id: str, data: dict) -> dict:
    """One page of the values the replacement would change, ordered by file, key and
    language: ``{changes, refused, timedOut, nextCursor}``. canViewTranslations (Forbidden or
    NotFound as ``policy.require_permission`` decides); BadRequest naming ``find`` or
    ``replace`` for a pattern or replacement that cannot run, ``languages.N`` for a language
    the project lacks (or its source without ``includeSource``), ``cursor`` for one it did not
    give."""
    permissions = policy.require_permission(actor, project_id, policy.VIEW_TRANSLATIONS)
    rule = _rule(data)
    position = _decode_cursor(data["cursor"]) if "cursor" in data else None
    read_snapshot()
    languages = _languages(project_id, permissions, data)
    keep_reviewed = policy.keeps_reviewed(permissions)
    limit = data.get("limit", DEFAULT_PAGE)
    changes, refused, timed_out = [], [], []
    condition = _condition(project_id, languages, data, rule)
    listed, next_cursor = 0, None
    deadline = time.monotonic() + PAGE_SECONDS
    for rows in _batches(condition, position):
        found = []
        for translation_id, file_name, key, language, value, state in rows:
            position = (file_name, key, language)
            named = {"translationId": translation_id, "key": key, "fileName": file_name, "language": language}
            outcome, entry = _replaced(rule, named, value, timed_out)
            if outcome == CHANGE:
                if keep_reviewed and state == REVIEWED:
                    entry["protected"] = True
                found.append(entry)
            elif outcome == REFUSED:
                refused.append(entry)
            if outcome != UNCHANGED:
                listed += 1
            if listed >= limit or time.monotonic() > deadline:
                break
        _refuse_by_checks(project_id, found, changes, refused)
        if listed >= limit or time.monotonic() > deadline:
            if _beyond(condition, position):
                next_cursor = _encode_cursor(position)
            break
    return {
        "dryRun": True,
        "changes": changes,
        "refused": refused,
        "timedOut": timed_out,
        "nextCursor": next_cursor,
    }


def apply_replacement(actor, project_id: str, data: dict) -> dict:
    """Write the replacement into the values ``items`` name, each only while it is still its
    ``expected`` value, in one transaction and as one operation (``replace``):
    ``{applied, skipped, refused, timedOut, operationId}``. Where the project protects
    reviewed values and the caller may not review (``policy.keeps_reviewed``), a reviewed value
    is left as it is and skipped as ``protected`` (it changes through a proposal).
    canEditTranslations in each item's language (Forbidden naming the others); BadRequest as
    ``preview_replacement``'s, and naming ``items.N.language`` for the source language without
    ``includeSource``.

    What the replacement makes of each expected value is worked out before the transaction
    (it depends on that value alone), so the matching never holds the project's writers."""
    rule = _rule(data)
    items = data["items"]
    _require_apply(actor, project_id, data)
    timeouts = []
    deadline = time.monotonic() + APPLY_SECONDS
    planned = [_planned(rule, item, deadline, timeouts) for item in items]
    with unit_of_work():
        permissions = _require_apply(actor, project_id, data)
        bump_data_version(project_id, files=())
        stored = _stored(project_id, items)
        keep_reviewed = policy.keeps_reviewed(permissions)
        changes, skipped, refused, timed_out = [], [], [], []
        for item, (outcome, entry) in zip(items, planned, strict=True):
            translation_id, language = item["translationId"], item["language"]
            found = stored.get((translation_id, language))
            named = {"translationId": translation_id, "language": language}
            if found is None:
                skipped.append({**named, "key": None, "fileName": None, "reason": GONE, "current": None})
                continue
            key, file_name, value, state = found
            named.update(key=key, fileName=file_name)
            if value != item["expected"]:
                skipped.append({**named, "reason": CHANGED, "current": value})
            elif keep_reviewed and state == REVIEWED and outcome in (CHANGE, REFUSED):
                skipped.append({**named, "reason": PROTECTED, "current": value})
            elif outcome == CHANGE:
                changes.append({**named, **entry})
            elif outcome == REFUSED:
                refused.append({**named, **entry})
            elif outcome == UNCHANGED:
                skipped.append({**named, "reason": UNCHANGED, "current": value})
            else:
                timed_out.append(named)
        operation_id, written = _write_checked(actor, project_id, permissions, data, changes, refused)
        if written:
            stamp_files(
                project_id,
                {change["fileName"] for change in written},
                languages={change["language"] for change in written},
            )
    refresh_statistics({"translation_values": len(written), "translation_history": len(written)})
    return {
        "dryRun": False,
        "applied": len(written),
        "skipped": skipped,
        "refused": refused,
        "timedOut": timed_out,
        "operationId": operation_id,
    }


def _require_apply(actor, project_id: str, data: dict) -> policy.Permissions:
    """canEditTranslations in the items' languages, the source language only with
    ``includeSource``."""
    items = data["items"]
    permissions = policy.require_permission(actor, project_id, policy.EDIT_TRANSLATIONS)
    policy.require_languages(permissions, {item["language"] for item in items})
    if not data["includeSource"]:
        source = db.session.execute(select(Project.source_language).where(Project.id == project_id)).scalar()
        for index, item in enumerate(items):
            if item["language"] == source:
                raise BadRequest(
                    f"items.{index}.language: {source} is the project's source language; send "
                    "includeSource: true to replace in it."
                )
    return permissions


def _planned(rule, item: dict, deadline: float, timeouts: list) -> tuple[str, dict | None]:
    """``_replaced`` of an item's expected value, or TIMED_OUT once the apply's time is spent."""
    if time.monotonic() > deadline:
        return TIMED_OUT, None
    return _replaced(rule, {"language": item["language"]}, item["expected"], timeouts)


def _replaced(rule, named: dict, value: str, timed_out: list) -> tuple[str, dict | None]:
    """What the replacement does to one value: ``(CHANGE, change)``, ``(REFUSED, change with
    its check and reason)``, ``(UNCHANGED, None)``, or ``(TIMED_OUT, None)`` with the value
    added to ``timed_out``."""
    try:
        after, count = rule.apply(value)
    except TimedOut:
        timed_out.append(named)
        _refuse_when_too_slow(timed_out)
        return TIMED_OUT, None
    if not count or after == value:
        return UNCHANGED, None
    change = {**named, "before": value, "after": after, "matches": count}
    broken = breakage(value, after, named["language"])
    if broken is None:
        return CHANGE, change
    return REFUSED, {**change, "check": broken[0], "reason": broken[1]}


def _refuse_when_too_slow(timed_out: list) -> None:
    if len(timed_out) > MAX_TIMEOUTS:
        raise BadRequest(
            f"find: the regular expression ran out of time ({VALUE_TIMEOUT} s a value) on more than "
            f"{MAX_TIMEOUTS} values; nothing was written. Simplify it (fewer nested repetitions)."
        )


def _languages(project_id: str, permissions: policy.Permissions, data: dict) -> list[str]:
    """The languages a preview searches: those asked for, each a language of the project and
    the source only with ``includeSource``; by default those the caller may edit (every one
    for a caller who edits none), the source only with ``includeSource``."""
    known = set(
        db.session.execute(
            select(ProjectLanguage.code).where(ProjectLanguage.project_id == project_id)
        ).scalars()
    )
    source = db.session.execute(select(Project.source_language).where(Project.id == project_id)).scalar()
    include_source = data["includeSource"]
    if "languages" in data:
        for index, code in enumerate(data["languages"]):
            if code not in known:
                raise BadRequest(f"languages.{index}: {code!r} is not a language of this project.")
            if code == source and not include_source:
                raise BadRequest(
                    f"languages.{index}: {code} is the project's source language; send includeSource: "
                    "true to replace in it."
                )
        return list(dict.fromkeys(data["languages"]))
    writes = permissions.can_edit_translations
    return sorted(
        code
        for code in known
        if (code != source or include_source) and (not writes or permissions.may_edit_language(code))
    )


def _condition(project_id: str, languages: list[str], data: dict, rule):
    conditions = [
        Translation.project_id == project_id,
        Translation.deleted_at.is_(None),
        TranslationValue.language_code.in_(languages),
    ]
    if data.get("fileName") is not None:
        conditions.append(Translation.file_name == data["fileName"])
    if data.get("state") is not None:
        conditions.append(TranslationValue.state == data["state"])
    if data.get("search"):
        other = aliased(TranslationValue)
        in_a_value = (
            exists()
            .where(other.translation_id == Translation.id, contains_text(other.value, data["search"]))
            .correlate(Translation)
        )
        conditions.append(contains_text(Translation.key, data["search"]) | in_a_value)
    tags = TagFilter(tuple(data.get("tags", ())), tuple(data.get("excludeTags", ())))
    if tags:
        conditions.append(tags.condition(Translation.id))
    narrowed = _may_match(project_id, languages, data, rule)
    if narrowed is not None:
        conditions.append(narrowed)
    return and_(*conditions)


# The characters beyond ASCII that a case-insensitive match (the ``regex`` module's) takes for
# an ASCII letter: LATIN CAPITAL LETTER I WITH DOT ABOVE (i), KELVIN SIGN (k) and LATIN SMALL
# LETTER LONG S (s), every one there is. An ASCII LIKE does not find them.
_FOLDED_INTO_ASCII = {"i": "\u0130", "k": "\u212a", "s": "\u017f"}


def _may_match(project_id: str, languages: list[str], data: dict, rule):
    """A condition on the value that every value the replacement changes meets, checked by the
    database before Python matches a value at all (a rare term in a million values is found
    by one scan in the database's C, not a million regular-expression calls); None when there
    is none (a regular expression, or a non-ASCII text in any case).

    The database's substring match is case-insensitive (SQLite's LIKE for ASCII letters, and
    exact for the others; PostgreSQL's ILIKE), so for text in its case, whole word or not, it
    finds a superset; for ASCII text in any case too, with the values holding a character
    that folds into one of its letters."""
    if data["mode"] != "text":
        return None
    if data["matchCase"]:
        folded = []
    elif rule.find.isascii():
        folded = [char for letter, char in _FOLDED_INTO_ASCII.items() if letter in rule.find.lower()]
    else:
        return None
    scanned = aliased(TranslationValue)

    def may_match(values):
        found = contains_text(values.value, rule.find)
        return or_(found, *(values.value.contains(char) for char in folded)) if folded else found

    # A rare term: the keys of the values that may match, found by one scan of the languages'
    # values (in their index's order, stopping after RARE), so that the keys are walked in
    # order and only theirs read; walking the keys in order and reading every value to match
    # it took 5 s for a million. A common term fills a page at once in the keys' order.
    candidates = db.session.execute(
        select(scanned.translation_id)
        .where(scanned.project_id == project_id, scanned.language_code.in_(languages), may_match(scanned))
        .limit(RARE + 1)
    ).all()
    if len(candidates) <= RARE:
        keys = sorted({row[0] for row in candidates})
        return and_(may_match(TranslationValue), Translation.id.in_(keys))
    return may_match(TranslationValue)


_POSITION = (Translation.file_name, Translation.key, TranslationValue.language_code)


def _candidates(condition):
    return (
        select(Translation.id, *_POSITION, TranslationValue.value, TranslationValue.state)
        .join(TranslationValue, TranslationValue.translation_id == Translation.id)
        .where(condition)
    )


def _batches(condition, position: tuple | None):
    """The values matching ``condition`` after ``position`` (file, key, language), in that
    order, ``BATCH`` a statement."""
    while True:
        query = _candidates(condition)
        if position is not None:
            query = query.where(tuple_(*_POSITION) > tuple_(*position))
        rows = db.session.execute(query.order_by(*_POSITION).limit(BATCH)).all()
        if rows:
            yield rows
        if len(rows) < BATCH:
            return
        position = tuple(rows[-1][1:4])


def _beyond(condition, position: tuple) -> bool:
    query = _candidates(condition).where(tuple_(*_POSITION) > tuple_(*position)).limit(1)
    return db.session.execute(query).first() is not None


def _encode_cursor(position: tuple) -> str:
    """A (file, key, language) position: the key's cursor as the queries write it, and the
    language after a ``~`` (which neither holds)."""
    file_name, key, language = position
    return f"{encode_cursor(file_name, key)}~{language}"


def _decode_cursor(cursor: str) -> tuple:
    head, _, language = cursor.partition("~")
    if not language or "\x00" in language:
        raise BadRequest(
            "cursor: not a nextCursor of this preview; leave it out to start from the first page."
        )
    try:
        file_name, key = decode_cursor(head)
    except BadRequest:
        raise BadRequest(
            "cursor: not a nextCursor of this preview; leave it out to start from the first page."
        ) from None
    return file_name, key, language


def _refuse_by_checks(project_id: str, found: list, changes: list, refused: list) -> None:
    """``found`` into ``changes``, but for those a check the project sets to ``refuse`` finds
    wrong, which go into ``refused``."""
    if not found:
        return
    rows = [
        (
            item["translationId"],
            item["key"],
            item["fileName"],
            item["language"],
            "updated",
            item["before"],
            item["after"],
        )
        for item in found
    ]
    issues = {
        (issue["fileName"], issue["key"], issue["language"]): issue
        for issue in checks_preview(project_id, rows)["refused"]
    }
    for item in found:
        issue = issues.get((item["fileName"], item["key"], item["language"]))
        if issue is None:
            changes.append(item)
        else:
            refused.append({**item, "check": issue["check"], "reason": issue["message"]})


# The items' values by the values' primary key, one language and chunk of ids a statement,
# with their keys (active, of the project) joined by theirs; read from the driver as plain
# tuples (a hundred thousand items are read at once).
STORED_VALUES = (
    select(
        TranslationValue.translation_id,
        Translation.key,
        Translation.file_name,
        TranslationValue.value,
        TranslationValue.state,
    )
    .join(Translation, Translation.id == TranslationValue.translation_id)
    .where(
        TranslationValue.translation_id.in_(bindparam("ids", expanding=True)),
        TranslationValue.language_code == bindparam("language"),
        Translation.project_id == bindparam("project_id"),
        Translation.deleted_at.is_(None),
    )
)


def _stored(project_id: str, items: list[dict]) -> dict[tuple, tuple]:
    """``{(translation_id, language): (key, file_name, value, state)}`` of the items' values of
    active keys of the project: one statement per language and chunk of ids."""
    ids = defaultdict(list)
    for item in items:
        ids[item["language"]].append(item["translationId"])
    stored = {}
    for language, translation_ids in ids.items():
        for chunk in in_chunks(translation_ids):
            parameters = {"ids": chunk, "language": language, "project_id": project_id}
            for rows in stream_batches(STORED_VALUES, parameters):
                stored.update(((row[0], language), row[1:]) for row in rows)
    return stored


def _write_checked(actor, project_id: str, permissions, data: dict, changes: list, refused: list):
    """Write ``changes`` (``_write``) in a savepoint; a change a check at ``refuse`` finds wrong
    goes into ``refused`` and the others are written again. Returns ``(operation id, the
    changes written)``."""
    while changes:
        try:
            with db.session.begin_nested():
                return _write(actor, project_id, permissions, data, changes), changes
        except Refused as error:
            issues = {(issue["fileName"], issue["key"], issue["language"]): issue for issue in error.issues}
            kept = []
            for change in changes:
                issue = issues.get((change["fileName"], change["key"], change["language"]))
                if issue is None:
                    kept.append(change)
                else:
                    refused.append({**change, "check": issue["check"], "reason": issue["message"]})
            if len(kept) == len(changes):
                raise
            changes = kept
    return None, []


def _write(actor, project_id: str, permissions, data: dict, changes: list) -> str | None:
    now = utcnow()
    rows = [(change["translationId"], change["language"], change["after"]) for change in changes]
    entries = [
        (c["translationId"], c["key"], c["fileName"], c["language"], "updated", c["before"], c["after"])
        for c in changes
    ]
    languages = sorted({change["language"] for change in changes})
    with operation(
        actor, project_id, OPERATION_KIND, find=data["find"], mode=data["mode"], languages=languages
    ) as details:
        update_values(rows, now, state=written_state())
        touch_keys(sorted({row[0] for row in rows}), now)
        history.record_rows(actor, project_id, entries, now, stated=True)
        if written_reason() is None:
            # After the write path gave the values their state: a person who does not review
            # has the values replaced wait for a reviewer.
            await_review(
                SESSION_STATEMENTS,
                [
                    (REQUESTED, t, language)
                    for t, language, _value in rows
                    if not permissions.may_review_language(language)
                ],
            )
        details.update(updated=len(rows), changes=len(rows))
    return details["operation_id"]
