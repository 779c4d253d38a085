"""The checks on every write, the values' review states, and what the checks found.

Every write of values records history through ``translations.history.record_rows``; that
is where ``values_written`` runs, in the same transaction and with the same statements: one
query for the project's levels, one per chunk for the touched keys' details and source
values, the checks in one pass (``loko.checks.run_many``), one set-based delete of the
touched values' issues and one insert of the new ones. A check at ``refuse`` finding
something in a written value raises ``Refused`` (a 400), and the transaction writes nothing.
"""

from collections import defaultdict
from dataclasses import dataclass

from sqlalchemy import delete, select

from loko import checks, events
from loko.checks.registry import CHECKS
from loko.database import SESSION_STATEMENTS, in_chunks, unit_of_work
from loko.extensions import db
from loko.glossary.matching import glossary_of
from loko.jobs.service import enqueue
from loko.projects.check_levels import check_levels, register_checks
from loko.projects.models import Project
from loko.quality.models import ValueIssue
from loko.translations.models import NEEDS_REVIEW, SOURCE_CHANGED, TRANSLATED, HistoryEntry
from loko.translations.operations import current_operation_id
from loko.translations.writing import Refused, written_reason, written_state

ISSUE_COLUMNS = ("translation_id", "language_code", "check_code", "project_id", "message", "fix")
WRITES = ("created", "updated")
# A write of more values than this, whose warnings no one counts, has them checked by the
# CHECK_WRITTEN job right after its commit (the checks at refuse still run in it).
CHECKED_LATER_ABOVE = 500
CHECK_WRITTEN = "checks.written"

# The project's organization's glossary revision comes with its settings (no statement more):
# ``(organization_id, revision)``, or None when the organization never had a glossary.
GLOSSARY_STAMP = (
    "g.organization_id, g.revision FROM projects p "
    "LEFT JOIN glossaries g ON g.organization_id = p.organization_id "
)


def _project_settings(statements, project_id: str) -> tuple[dict, str | None, tuple | None]:
    row = statements.fetch(
        "SELECT p.checks, p.source_language, " + GLOSSARY_STAMP + "WHERE p.id = ?",
        (project_id,),
    )
    if not row:
        return check_levels(None), None, None
    return check_levels(row[0][0]), row[0][1], _stamp(row[0][2:4])


def _stamp(columns) -> tuple | None:
    return tuple(columns) if columns[0] is not None else None


# A write of one key (a PATCH, the hot path) reads the project's settings and the key's
# details in one query; a larger one reads them apart, in a number of statements that does
# not grow with its keys.
SMALL_WRITE = 1


def _settings_with_details(statements, project_id: str, translation_ids: list[str]):
    """``_project_settings`` and ``_key_details`` of a few keys, in one query."""
    rows = statements.fetch(
        "SELECT p.checks, p.source_language, t.id, t.max_length, t.comment, v.value, "
        + GLOSSARY_STAMP
        + "LEFT JOIN translations t ON t.project_id = p.id "
        f"AND t.id IN ({_placeholders(len(translation_ids))}) "
        "LEFT JOIN translation_values v ON v.translation_id = t.id AND v.language_code = p.source_language "
        "WHERE p.id = ?",
        (*translation_ids, project_id),
    )
    if not rows:
        return check_levels(None), None, {}, None
    details = {row[2]: row[3:6] for row in rows if row[2] is not None}
    return check_levels(rows[0][0]), rows[0][1], details, _stamp(rows[0][6:8])


@dataclass(frozen=True)
class KeyBefore:
    """One key as a write of it read it, in its transaction, before writing (``key_before``):
    the project's check levels and source language, the key's id (None when it is not stored
    yet), its details, its stored values ``{language: value}``, the languages whose
    values have issues and the organization's glossary revision. Given to ``values_written``,
    which then reads none of it again."""

    levels: dict
    source: str | None
    translation_id: str | None
    max_length: int | None
    comment: str | None
    values: dict
    with_issues: frozenset
    glossary_stamp: tuple | None = None


KEY_BEFORE = (
    "SELECT p.checks, p.source_language, t.id, t.max_length, t.comment, v.language_code, v.value, "  # noqa: S608
    "EXISTS (SELECT 1 FROM value_issues i WHERE i.translation_id = v.translation_id "
    "AND i.language_code = v.language_code), "
    + GLOSSARY_STAMP
    + "LEFT JOIN translations t ON t.project_id = p.id AND t.file_name = ? "
    "AND t.key = ? AND t.deleted_at IS NULL "
    "LEFT JOIN translation_values v ON v.translation_id = t.id "
    "WHERE p.id = ?"
)


def key_before(statements, project_id: str, file_name: str, key: str) -> KeyBefore:
    """The active key ``key`` of ``file_name`` as ``KeyBefore``, with the project's settings,
    in one query: a write of one key (a PATCH) needs nothing else to check what it writes."""
    rows = statements.fetch(KEY_BEFORE, (file_name, key, project_id))
    if not rows:
        return KeyBefore(check_levels(None), None, None, None, None, {}, frozenset())
    checks, source, translation_id, max_length, comment = rows[0][:5]
    values = {row[5]: row[6] for row in rows if row[5] is not None}
    with_issues = frozenset(row[5] for row in rows if row[7])
    return KeyBefore(
        check_levels(checks),
        source,
        translation_id,
        max_length,
        comment,
        values,
        with_issues,
        _stamp(rows[0][8:10]),
    )


@dataclass(frozen=True)
class FileBefore:
    """A write of many keys of one file in one language as it read them before writing
    (``file_before``): the project's check levels, source language and glossary revision,
    ``keys`` ``{key: (translation_id, stored value or None)}`` of the file's active keys, and
    when the checks will need them, ``details`` ``{translation_id: (max_length, comment,
    source value)}`` (None when every check is off, when the language written is the
    source's: the other languages are then checked against the new source values, or when
    the write's checks run after its commit). Given to
    ``values_written``, which then reads none of it again."""

    levels: dict
    source: str | None
    glossary_stamp: tuple | None
    keys: dict
    details: dict | None


FILE_KEYS = (
    "SELECT t.key, t.id, v.value FROM translations t "
    "LEFT JOIN translation_values v ON v.translation_id = t.id AND v.language_code = ? "
    "WHERE t.project_id = ? AND t.file_name = ? AND t.deleted_at IS NULL"
)
FILE_KEYS_WITH_DETAILS = (
    "SELECT t.key, t.id, v.value, t.max_length, t.comment, s.value FROM translations t "
    "LEFT JOIN translation_values v ON v.translation_id = t.id AND v.language_code = ? "
    "LEFT JOIN translation_values s ON s.translation_id = t.id AND s.language_code = ? "
    "WHERE t.project_id = ? AND t.file_name = ? AND t.deleted_at IS NULL"
)


def _reads_details(levels: dict, source: str | None, languages) -> bool:
    """Whether a write of values in ``languages`` reads the keys' details before writing, for
    the checks: some check is on, and the source language is not written (the other
    languages would be checked against its new values)."""
    return source is not None and source not in languages and any(level != "off" for level in levels.values())


def details_wanted(project_id: str, languages, statements=SESSION_STATEMENTS) -> str | None:
    """The project's source language when a write of values in ``languages`` reads the keys'
    details before writing (``_reads_details``), else None."""
    levels, source, _stamp = _project_settings(statements, project_id)
    return source if _reads_details(levels, source, languages) else None


def file_before(statements, project_id: str, file_name: str, language: str, items: int = 0) -> FileBefore:
    """The active keys of ``file_name`` with their values in ``language`` as ``FileBefore``:
    with the details the checks need in the same read (one pass over the file's keys, not
    two). A write of more than ``CHECKED_LATER_ABOVE`` ``items`` with no check at ``refuse``
    reads none: its checks run after it commits (should it change fewer values, they are
    read for those)."""
    levels, source, stamp = _project_settings(statements, project_id)
    checked_later = items > CHECKED_LATER_ABOVE and "refuse" not in levels.values()
    if _reads_details(levels, source, (language,)) and not checked_later:
        rows = statements.fetch(FILE_KEYS_WITH_DETAILS, (language, source, project_id, file_name))
        details = {row[1]: row[3:6] for row in rows}
    else:
        rows = statements.fetch(FILE_KEYS, (language, project_id, file_name))
        details = None
    return FileBefore(levels, source, stamp, {row[0]: (row[1], row[2]) for row in rows}, details)


def _placeholders(count: int) -> str:
    return ", ".join("?" for _ in range(count))


def _key_groups(translation_ids: list[str]):
    """``(condition, parameters)`` on ``translation_id`` for each group of ``translation_ids``
    one statement takes: on PostgreSQL all of them in one array (``= ANY``, which the
    planner hashes for one scan of the table, where 20 ``IN`` lists of 5,000 made it scan
    the table 20 times), elsewhere ``IN`` lists of ``in_chunks``."""
    if not translation_ids:
        return
    if db.engine.dialect.name == "postgresql":
        yield "translation_id = ANY(?)", (list(translation_ids),)
        return
    for chunk in in_chunks(translation_ids):
        yield f"translation_id IN ({_placeholders(len(chunk))})", tuple(chunk)


def _by_language(pairs) -> dict[str, list[str]]:
    ids = defaultdict(list)
    for translation_id, language in pairs:
        ids[language].append(translation_id)
    return ids


BY_FILES = 2000  # touched keys from which reading their files' keys is cheaper than IN lists


def _key_details(statements, translation_ids: list[str], source: str | None, files=()) -> dict[str, tuple]:
    """``{translation_id: (max_length, comment, source value)}`` of these keys (and maybe
    others): one query per chunk of ids, or, for many keys of a few ``files``, one query per
    file."""
    details = {}
    head = (
        "SELECT t.id, t.max_length, t.comment, v.value FROM translations t "
        "LEFT JOIN translation_values v ON v.translation_id = t.id AND v.language_code = ? "
    )
    if files and len(translation_ids) >= BY_FILES:
        # Every key of the files: the ones not written cost less kept than sorted out.
        for project_id, file_name in files:
            rows = statements.fetch(
                head + "WHERE t.project_id = ? AND t.file_name = ? AND t.deleted_at IS NULL",
                (source or "", project_id, file_name),
            )
            details.update({row[0]: row[1:] for row in rows})
        if details.keys() >= set(translation_ids):
            return details
    for chunk in in_chunks(translation_ids):
        rows = statements.fetch(
            head + f"WHERE t.id IN ({_placeholders(len(chunk))})",
            (source or "", *chunk),
        )
        details.update((row[0], row[1:]) for row in rows)
    return details


def _dependents(statements, translation_ids: list[str], source: str, written) -> list[tuple]:
    """The other languages' values of keys whose source value a write changed (those the
    write itself wrote left out): ``(translation_id, language, value)``."""
    rows = []
    for chunk in in_chunks(translation_ids):
        rows += statements.fetch(
            "SELECT translation_id, language_code, value FROM translation_values "  # noqa: S608
            f"WHERE language_code <> ? AND translation_id IN ({_placeholders(len(chunk))})",
            (source, *chunk),
        )
    return [row for row in rows if (row[0], row[1]) not in written]


def _mark_other_languages(statements, translation_ids: list[str], source: str | None) -> None:
    """The values of these keys in every language but the source's: ``needs-review``, because
    the source changed (the latest cause, whatever sent a value to review before)."""
    for condition, ids in _key_groups(translation_ids):
        statements.execute(
            "UPDATE translation_values SET state = ?, review_reason = ? WHERE language_code <> ? "  # noqa: S608
            f"AND (state <> ? OR COALESCE(review_reason, '') <> ?) AND {condition}",
            [(NEEDS_REVIEW, SOURCE_CHANGED, source or "", NEEDS_REVIEW, SOURCE_CHANGED, *ids)],
        )


def _delete_key_issues(statements, translation_ids: list[str]) -> None:
    """Remove every issue of these keys' values."""
    for condition, ids in _key_groups(translation_ids):
        statements.execute(f"DELETE FROM value_issues WHERE {condition}", [ids])  # noqa: S608


def _set_states(statements, pairs, state: str, reason: str | None) -> None:
    for language, ids in _by_language(pairs).items():
        for condition, group in _key_groups(ids):
            statements.execute(
                "UPDATE translation_values SET state = ?, review_reason = ? WHERE language_code = ? "  # noqa: S608
                f"AND (state <> ? OR COALESCE(review_reason, '') <> ?) AND {condition}",
                [(state, reason, language, state, reason or "", *group)],
            )


# Touched values of one language up to which their issues are deleted by primary key at
# once; from there, the language's values with issues are read first (an index read), so a
# large write deletes only where there is something to delete.
DIRECT_DELETE = 1000


def _delete_issues(statements, project_id: str, pairs, direct: bool = False) -> None:
    """Remove the issues of ``(translation_id, language)`` pairs, by primary key: directly
    for a few values (the cost of a small write never grows with the project's issues) or
    when ``direct``, or those among the project's values with issues for many."""
    for language, ids in _by_language(pairs).items():
        if direct or len(ids) <= DIRECT_DELETE:
            gone = ids
        else:
            stored = statements.fetch(
                "SELECT DISTINCT translation_id FROM value_issues WHERE project_id = ? AND language_code = ?",
                (project_id, language),
            )
            touched = set(ids)
            gone = [row[0] for row in stored if row[0] in touched]
        for chunk in in_chunks(gone):
            statements.execute(
                "DELETE FROM value_issues WHERE language_code = ? "  # noqa: S608
                f"AND translation_id IN ({_placeholders(len(chunk))})",
                [(language, *chunk)],
            )


def _issue_row(translation_id, language, project_id, found: list) -> list[tuple]:
    """One row per check that found something (its messages joined; its fix kept when it
    found one thing)."""
    by_check = defaultdict(list)
    for issue in found:
        by_check[issue.check].append(issue)
    return [
        (
            translation_id,
            language,
            code,
            project_id,
            " ".join(issue.message for issue in issues),
            issues[0].fix if len(issues) == 1 else None,
        )
        for code, issues in by_check.items()
    ]


def evaluate(
    statements,
    project_id: str,
    values: list[tuple],
    levels: dict,
    source: str | None,
    details=None,
    glossary_stamp: tuple | None = None,
):
    """The issues of ``values`` ``(translation_id, key, file_name, language, value)``:
    ``(issue rows, refusing issues, warnings)``. A key not stored yet has no details;
    ``details`` (``{translation_id: (max_length, comment, source value)}``) when the caller
    has read them already; ``glossary_stamp`` the organization's glossary revision."""
    enabled = [code for code, level in levels.items() if level != "off"]
    if not enabled or not values:
        return [], [], 0
    glossary = glossary_of(statements, glossary_stamp) if "glossary" in enabled else None
    if details is None:
        files = sorted({(project_id, row[2]) for row in values if row[2] is not None})
        details = _key_details(statements, list({row[0] for row in values}), source, files)
    nothing = (None, None, None)
    target_of = checks.Target
    check = checks.checker(enabled)  # run_many's one pass, the checks looked up once
    quiet, every = check.quiet, check.every
    rows, refusals, warnings = [], [], 0
    for translation_id, key, file_name, language, value in values:
        max_length, comment, source_value = details.get(translation_id, nothing)
        if language == source:
            source_value = None
        terms = glossary.check_terms(language, source, source_value, value) if glossary else ()
        if quiet(value, source_value, max_length, terms):
            continue  # no check can find anything: no Target is made
        found = every(target_of(value, language, source_value, source, max_length, comment, terms))
        if not found:
            continue
        for issue in found:
            if levels[issue.check] == "refuse":
                refusals.append(
                    {
                        "key": key,
                        "fileName": file_name,
                        "language": language,
                        "check": issue.check,
                        "message": issue.message,
                    }
                )
            else:
                warnings += 1
        rows += _issue_row(translation_id, language, project_id, found)
    return rows, refusals, warnings


def preview(project_id: str, rows: list[tuple], statements=SESSION_STATEMENTS) -> dict:
    """What the checks would find in the values of history rows not written yet (a dry
    run): ``{refused: [{key, fileName, language, check, message}], warnings}``."""
    levels, source, stamp = _project_settings(statements, project_id)
    values = [
        (translation_id, key, file_name, language, new)
        for translation_id, key, file_name, language, action, _old, new in rows
        if language is not None and action in WRITES and new is not None
    ]
    _, refusals, warnings = evaluate(statements, project_id, values, levels, source, None, stamp)
    return {"refused": refusals, "warnings": warnings}


def values_written(
    project_id: str,
    rows: list[tuple],
    statements=SESSION_STATEMENTS,
    *,
    before: KeyBefore | None = None,
    file: FileBefore | None = None,
    details: dict | None = None,
    stated: bool = False,
    warnings_wanted: bool = False,
) -> int:
    """After a write of values, in its transaction: history rows ``(translation_id, key,
    file_name, language, action, old_value, new_value)``. Sets the written values' state,
    marks the other languages of keys whose source value changed ``needs-review``, stores
    the issues the checks find in them all; ``Refused`` when a check at ``refuse`` finds
    something in a written value. Returns the warnings found in the written values.

    A write of more than ``CHECKED_LATER_ABOVE`` values whose caller does not want the
    warnings counted (``warnings_wanted``) runs only the checks at ``refuse`` here; the
    issues of its values (and of the other languages of keys whose source it changed) are
    stored by the ``checks.written`` job right after it commits (``loko.quality.jobs``).

    ``before``: the one key the rows write, as the write read it (``key_before``).
    ``file``: the file whose keys the rows write in one language, as it read them
    (``file_before``). ``details``: the written keys' ``(max_length, comment, source
    value)`` as the write read them (when ``details_wanted`` said so).
    ``stated``: the write's own UPDATE gave the values it updated the write's state."""
    written = {}
    updated = []
    for translation_id, key, file_name, language, action, _old, new in rows:
        if language is not None and action in WRITES and new is not None:
            written[translation_id, language] = (key, file_name, new)
            if action == "updated":
                updated.append((translation_id, language))
    if not written:
        return 0
    keys = list({t for t, _language in written})
    if before is not None:
        levels, source, stamp = before.levels, before.source, before.glossary_stamp
        details = _details_after(before, written)
    elif file is not None:
        levels, source, stamp, details = file.levels, file.source, file.glossary_stamp, file.details
    elif details is not None:
        levels, source, stamp = _project_settings(statements, project_id)
    elif len(keys) <= SMALL_WRITE:
        levels, source, details, stamp = _settings_with_details(statements, project_id, keys)
    else:
        (levels, source, stamp), details = _project_settings(statements, project_id), None
    state = written_state()
    changed_sources = sorted({t for t, language in written if language == source})
    later = _checked_later(statements, written, warnings_wanted)
    if later or not changed_sources:
        dependents = []
    elif before is not None:
        dependents = [
            (t, language, value)
            for t in changed_sources
            for language, value in before.values.items()
            if language != source and (t, language) not in written
        ]
    else:
        dependents = _dependents(statements, changed_sources, source, written)
    # Every other language of a key whose source value changed waits for a review, in one
    # statement per chunk of keys (not one per language); the values this write wrote then
    # take the write's state. A value created takes the column's default, "translated".
    _mark_other_languages(statements, changed_sources, source)
    changed = set(changed_sources)
    pairs = (
        list(written)
        if state != TRANSLATED
        else updated + [(t, language) for t, language in written if t in changed and language != source]
    )
    if stated:
        # Those the write's UPDATE gave the state keep it, but for the ones marked just above.
        done = {p for p in updated if p[0] not in changed or p[1] == source}
        pairs = [p for p in pairs if p not in done]
    _set_states(statements, pairs, state, written_reason())
    values = [(t, key, name, language, value) for (t, language), (key, name, value) in written.items()]
    if later:
        _refuse_now(statements, project_id, values, levels, source, details, stamp)
        if all(level == "off" for level in levels.values()):
            return 0
        enqueue(
            CHECK_WRITTEN,
            {"projectId": project_id, "operationId": later},
            project_id=project_id,
            coalesce_key=f"{CHECK_WRITTEN}:{later}",
        )
        return 0
    if details is None and any(level != "off" for level in levels.values()):
        # The dependents are values of keys written here: one read of details serves both.
        files = sorted({(project_id, row[2]) for row in values})
        details = _key_details(statements, list({row[0] for row in values}), source, files)
    issues, refusals, warnings = evaluate(statements, project_id, values, levels, source, details, stamp)
    if refusals:
        raise Refused(refusals)
    if dependents:
        dependent_values = {(t, language): value for t, language, value in dependents}
        issues += _stored_issues(statements, project_id, (levels, source, stamp), dependent_values, details)
    if any(level != "off" for level in levels.values()):
        # A value just created has no issues yet (a removed value's went with it).
        # The keys whose source value changed have every value checked again: their issues go
        # by key; the other values written, by value. A key read before the write tells
        # which of its values have issues to delete.
        deleted = list(dict.fromkeys(p for p in updated if p[0] not in changed))
        if before is not None:
            changed_sources = changed_sources if before.with_issues else []
            deleted = [p for p in deleted if p[1] in before.with_issues]
        _delete_key_issues(statements, changed_sources)
        _delete_issues(statements, project_id, deleted)
        statements.insert(ValueIssue.__table__, ISSUE_COLUMNS, issues)
    return warnings


def _checked_later(statements, written: dict, warnings_wanted: bool) -> str | None:
    """The operation whose values the ``checks.written`` job checks after the commit, when a
    write is large and its caller counts no warnings; None to check them now."""
    if warnings_wanted or len(written) <= CHECKED_LATER_ABOVE or statements is not SESSION_STATEMENTS:
        return None
    return current_operation_id()


def _refuse_now(statements, project_id: str, values: list, levels: dict, source, details, stamp) -> None:
    """The checks at ``refuse`` over the written values (the others run after the commit)."""
    refusing = {code: level if level == "refuse" else "off" for code, level in levels.items()}
    if "refuse" not in refusing.values():
        return
    _, refusals, _ = evaluate(statements, project_id, values, refusing, source, details, stamp)
    if refusals:
        raise Refused(refusals)


def check_operation(project_id: str, operation_id: str, chunks) -> int:
    """Store the issues of the values an operation wrote, as they are now, and of the other
    languages of the keys whose source value it changed: ``chunks`` (``Paced.chunks``) cuts
    the keys into batches. Each batch is read and checked outside any write transaction;
    a short one then reads it again (on PostgreSQL after the project's row lock, which
    every write of the project takes) and stores its issues, checking again there only the
    values whose text, key details or project settings changed in between. Returns the keys
    checked."""
    pairs = db.session.execute(
        select(HistoryEntry.translation_id, HistoryEntry.language)
        .where(HistoryEntry.operation_id == operation_id, HistoryEntry.language.is_not(None))
        .distinct()
    ).all()
    db.session.commit()  # the read's transaction ends here
    languages = defaultdict(set)
    for translation_id, language in pairs:
        languages[translation_id].add(language)
    checked = 0
    for chunk in chunks(sorted(languages)):
        read = _batch(project_id, chunk, languages)
        issues = _stored_issues(SESSION_STATEMENTS, project_id, *read)
        db.session.commit()
        with unit_of_work():
            if db.engine.dialect.name == "postgresql":
                db.session.execute(select(Project.id).where(Project.id == project_id).with_for_update())
            now = _batch(project_id, chunk, languages)
            settings, values, details = now
            if settings != read[0]:
                again = values  # levels, source language or glossary changed: all again
            else:
                again = {
                    pair: value
                    for pair, value in values.items()
                    if read[1].get(pair, ABSENT) != value or read[2].get(pair[0]) != details.get(pair[0])
                }
            issues = [row for row in issues if (row[0], row[1]) in values and (row[0], row[1]) not in again]
            issues += _stored_issues(SESSION_STATEMENTS, project_id, settings, again, details)
            gone = set(read[1]) - set(values)
            _delete_issues(SESSION_STATEMENTS, project_id, set(values) | gone, direct=True)
            SESSION_STATEMENTS.insert(ValueIssue.__table__, ISSUE_COLUMNS, issues)
        checked += len(chunk)
    return checked


def _batch(project_id: str, chunk: list[str], languages: dict) -> tuple:
    """What a batch of ``check_operation`` checks, as stored now: ``((levels, source,
    glossary stamp), {(translation_id, language): value}, {translation_id: details})`` of
    every value of the keys whose source the operation wrote, and of the values it wrote of
    the others."""
    levels, source, stamp = _project_settings(SESSION_STATEMENTS, project_id)
    whole = [t for t in chunk if source in languages[t]]
    some = [(t, language) for t in chunk if source not in languages[t] for language in languages[t]]
    details = _key_details(SESSION_STATEMENTS, list(chunk), source)
    return (levels, source, stamp), _values_now(whole, some), details


def _stored_issues(statements, project_id: str, settings: tuple, values: dict, details=None) -> list[tuple]:
    """The issue rows of values already in, ``{(translation_id, language): value}``, under
    ``settings`` ``(levels, source, glossary stamp)``: a check at ``refuse`` counts as
    ``warn`` (nothing is refused: the value is in)."""
    levels, source, stamp = settings
    if not values or all(level == "off" for level in levels.values()):
        return []
    issues, _, _ = evaluate(
        statements,
        project_id,
        [(t, None, None, language, value) for (t, language), value in values.items()],
        {code: ("warn" if level == "refuse" else level) for code, level in levels.items()},
        source,
        details,
        stamp,
    )
    return issues


ABSENT = object()


def _values_now(
    translation_ids: list[str], pairs: list[tuple], statements=SESSION_STATEMENTS
) -> dict[tuple, str]:
    """``{(translation_id, language): value}`` of every value of ``translation_ids`` and of
    the ``(translation_id, language)`` ``pairs``, as stored now."""
    rows = []
    for chunk in in_chunks(translation_ids):
        rows += statements.fetch(
            "SELECT translation_id, language_code, value FROM translation_values "  # noqa: S608
            f"WHERE translation_id IN ({_placeholders(len(chunk))})",
            tuple(chunk),
        )
    for language, ids in _by_language(pairs).items():
        for chunk in in_chunks(ids):
            rows += statements.fetch(
                "SELECT translation_id, language_code, value FROM translation_values "  # noqa: S608
                f"WHERE language_code = ? AND translation_id IN ({_placeholders(len(chunk))})",
                (language, *chunk),
            )
    return {(t, language): value for t, language, value in rows}


def _details_after(before: KeyBefore, written: dict) -> dict[str, tuple]:
    """``_key_details`` of the key ``before`` read, once the write's values are in: its
    source value is the one written, if the write wrote one."""
    details = {}
    for translation_id in {t for t, _language in written}:
        source_value = written.get((translation_id, before.source))
        details[translation_id] = (
            before.max_length,
            before.comment,
            source_value[2] if source_value is not None else before.values.get(before.source),
        )
    return details


def recheck_keys(project_id: str, translation_ids: list[str], statements=SESSION_STATEMENTS) -> None:
    """Run the checks again over every value of these keys (their details changed)."""
    settings = _project_settings(statements, project_id)
    if not translation_ids or all(level == "off" for level in settings[0].values()):
        return
    values = _values_now(translation_ids, [], statements)
    issues = _stored_issues(statements, project_id, settings, values)
    _delete_issues(statements, project_id, list(values))
    statements.insert(ValueIssue.__table__, ISSUE_COLUMNS, issues)


def checks_turned_off(project_id: str, changes: dict) -> None:
    """``events.settings_changed``: the issues of the checks a project turned off go."""
    turned_off = [code for code, level in (changes.get("checks") or {}).items() if level == "off"]
    if turned_off:
        db.session.execute(
            delete(ValueIssue).where(
                ValueIssue.project_id == project_id, ValueIssue.check_code.in_(turned_off)
            )
        )


class WriteChecks:
    """The quality's listener to the writes of values (``loko.events``): it reads what a write
    of one key or one file reads before writing, then checks the values written and sets
    their review states in the write's transaction, and checks a key's values again when its
    details change."""

    key_before = staticmethod(key_before)
    file_before = staticmethod(file_before)
    values_written = staticmethod(values_written)
    details_changed = staticmethod(recheck_keys)


WRITE_CHECKS = WriteChecks()


def start_listening() -> None:
    register_checks(CHECKS)  # the project setting's codes
    events.listen_to_writes(WRITE_CHECKS)
    events.listen_to_settings(checks_turned_off)
