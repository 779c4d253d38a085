"""Undo: a set of history entries (one operation's, or a range by actor and time) taken back
to what was there before them, as an ordinary change recorded in the history (an operation
of its own, so an undo can be undone too).

Each value the entries touched goes back to its value before the first of them, and each
translation to its state (active or in the trash) before them; a translation they created
goes to the trash. Whatever changed again since (the current value or state is not the one
the last entry left, or a reviewer marked the value reviewed or asked for a review again
after it) is a conflict: the undo is refused and lists them all, unless the caller asks to
skip them (they are left as they are) or to include them (a value changed or reviewed since
goes back all the same, and one reviewed since then waits for a review). A dry run answers
the same without writing.
"""

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import UTC, datetime

import orjson
from sqlalchemy import case, exists, func, insert, select, tuple_, update
from sqlalchemy.orm import aliased

from loko import collector, events
from loko.auth import policy
from loko.database import (
    SESSION_STATEMENTS,
    driver_timestamp,
    execute_rows,
    in_chunks,
    insert_rows,
    read_snapshot,
    refresh_statistics,
    stream_batches,
    unit_of_work,
    utcnow,
)
from loko.errors import BadRequest, Conflict
from loko.extensions import db
from loko.files.service import ensure_file_records
from loko.languages.models import ProjectLanguage
from loko.projects.models import Project
from loko.projects.service import bump_data_version, stamp_files
from loko.translations import history, timeline
from loko.translations.models import (
    NEEDS_REVIEW,
    REVIEWED,
    UNDONE,
    HistoryEntry,
    Operation,
    Translation,
    TranslationValue,
)
from loko.translations.operations import describe as describe_operation
from loko.translations.operations import in_project, operation
from loko.translations.writing import await_review, touch_keys, update_values, written_state

# How an entry moves a key and what it leaves of a value: the history's one reading, shared
# with the point-in-time exports.
ACTIVE, TRASHED, GONE, ABSENT, MOVES = (
    timeline.ACTIVE,
    timeline.TRASHED,
    timeline.GONE,
    timeline.ABSENT,
    timeline.MOVES,
)
SINCE = {ACTIVE: "restored since", TRASHED: "moved to the trash since", GONE: "deleted for good since"}
CHANGED_SINCE = "changed since"
# A review after the last selected change of a value, by its state now.
REVIEWED_SINCE = {REVIEWED: "reviewed since", NEEDS_REVIEW: "sent back for review since"}
LISTED = 1000  # changes and conflicts listed in the answer; the counts are always complete
STRUCTURAL = ("file-delete", "language-delete")


@dataclass(frozen=True)
class OperationUndo:
    """The undo of operations whose changes the history of values does not hold (a tagging):
    ``owns(project_id, operation_id)`` says whether an operation of one of ``kinds`` is one,
    and ``undo(actor, project_id, operation, dry_run)`` answers as ``undo_changes`` does. The
    package that records such changes plugs it in from ``create_app`` (``register_undo``)."""

    kinds: tuple[str, ...]
    owns: object
    undo: object


_UNDOES: list[OperationUndo] = []


def register_undo(undo: OperationUndo) -> None:
    if undo not in _UNDOES:
        _UNDOES.append(undo)


@dataclass(frozen=True)
class Selection:
    """Which history entries to undo: one operation's, or those matching every filter given."""

    operation_id: str | None = None
    actor_type: str | None = None
    actor_id: str | None = None
    since: datetime | None = None
    until: datetime | None = None
    file_name: str | None = None
    language: str | None = None

    @classmethod
    def from_fields(cls, data: dict) -> "Selection":
        """From an undo request's fields (REST or MCP: ``operationId``, ``actorType`` ...)."""
        return cls(
            operation_id=data.get("operationId"),
            actor_type=data.get("actorType"),
            actor_id=data.get("actorId"),
            since=data.get("since"),
            until=data.get("until"),
            file_name=data.get("fileName"),
            language=data.get("language"),
        )

    def conditions(self, project_id: str) -> list:
        if self.operation_id is not None:
            return [HistoryEntry.project_id == project_id, HistoryEntry.operation_id == self.operation_id]
        filters = [
            (self.actor_type, HistoryEntry.actor_type.__eq__),
            (self.actor_id, HistoryEntry.actor_id.__eq__),
            (self.since, HistoryEntry.created_at.__ge__),
            (self.until, HistoryEntry.created_at.__lt__),
            (self.file_name, HistoryEntry.file_name.__eq__),
            (self.language, HistoryEntry.language.__eq__),
        ]
        chosen = [compare(value) for value, compare in filters if value is not None]
        if not chosen:
            raise BadRequest(
                "operationId: name an operation, or choose the changes to undo by actor, since, "
                "until, fileName or language."
            )
        return [HistoryEntry.project_id == project_id, *chosen]


@dataclass
class Plan:
    inserts: list = field(default_factory=list)  # (translation_id, language, value)
    updates: list = field(default_factory=list)  # (translation_id, language, value)
    deletes: list = field(default_factory=list)  # (translation_id, language)
    restores: list = field(default_factory=list)  # translation ids
    trashes: list = field(default_factory=list)
    history: list = field(default_factory=list)  # rows for history.record_rows
    conflicts: list = field(default_factory=list)
    # Conflicts the caller chose to include: undone all the same.
    included: list = field(default_factory=list)
    # Values reviewed since that go back all the same: they wait for a review again.
    review_again: list = field(default_factory=list)  # (translation_id, language)
    languages: list = field(default_factory=list)  # language rows to bring back
    records: dict = field(default_factory=lambda: defaultdict(set))  # file -> languages

    def change_count(self) -> int:
        return len(self.history)

    def conflict(
        self,
        file_name,
        key,
        reason,
        language=None,
        expected=None,
        current=None,
        by=None,
        at=None,
        included=False,
    ) -> None:
        (self.included if included else self.conflicts).append(
            {
                "fileName": file_name,
                "key": key,
                "language": language,
                "reason": reason,
                "expected": expected,
                "current": current,
                "by": by,
                "at": at,
            }
        )


@collector.paused()
def undo_changes(
    actor,
    project_id: str,
    selection: Selection,
    dry_run=False,
    skip_changed=False,
    include_changed=False,
) -> dict:
    """Undo the selected changes; returns what it did (or would do, on a dry run).

    canEditTranslations, and canEditProjects for a language delete (Forbidden or NotFound as
    ``policy.require_permission`` decides); for a caller limited to some languages, Forbidden
    when a change is in another language or moves a key or a file; NotFound for an unknown
    operation; Conflict for an operation already undone, deleted for good or past the trash's
    retention, and, unless ``skip_changed``, when something changed again since
    (``details.conflicts`` lists it). ``include_changed`` undoes the values changed or
    reviewed since all the same (they are listed under ``included``); what cannot go back
    (a key deleted for good, a key or language gone since) is still a conflict.
    """
    if skip_changed and include_changed:
        raise BadRequest("includeChanged: choose skipChanged or includeChanged, not both.")
    elsewhere = _undone_elsewhere(project_id, selection)
    if elsewhere is not None:
        return _undo_elsewhere(actor, project_id, selection, elsewhere, dry_run)
    if dry_run:
        read_snapshot()
        plan, chosen = _plan(actor, project_id, selection, include_changed)
        db.session.rollback()
        return _answer(plan, chosen, None, dry_run=True)
    with unit_of_work():
        bump_data_version(project_id, files=())
        plan, chosen = _plan(actor, project_id, selection, include_changed)
        if plan.languages:
            bump_data_version(project_id)  # languages come back: a shared change
        stamp_files(project_id, {row[2] for row in plan.history} | set(plan.records))
        if plan.conflicts and not skip_changed:
            raise Conflict(
                f"operationId: {len(plan.conflicts)} of these changes were changed again since; nothing "
                "was undone. details.conflicts lists them; send skipChanged: true to undo the rest and "
                "keep them, or includeChanged: true to undo them too.",
                details={"conflicts": plan.conflicts[:LISTED], "total": len(plan.conflicts)},
            )
        with operation(actor, project_id, "undo", undoes=_undoes(selection)) as details:
            _apply(actor, project_id, plan)
            details.update(_summary(plan), changes=plan.change_count() + len(plan.languages))
        events.audited(
            actor,
            project_id,
            "undo.applied",
            None,
            {"undoes": _undoes(selection), **_summary(plan), "operationId": details["operation_id"]},
        )
        if chosen is not None:
            chosen.undone_at = utcnow()
            chosen.undone_by = details["operation_id"]
            events.operation_undone(project_id, chosen.id)
    refresh_statistics({"translation_values": len(plan.inserts), "translation_history": len(plan.history)})
    return _answer(plan, chosen, details["operation_id"], dry_run=False)


def _undone_elsewhere(project_id: str, selection: Selection) -> OperationUndo | None:
    """The registered undo that takes the selected operation, if one does."""
    if selection.operation_id is None or not _UNDOES:
        return None
    kind = db.session.execute(
        select(Operation.kind).where(
            Operation.id == selection.operation_id, Operation.project_id == project_id
        )
    ).scalar()
    for undo in _UNDOES:
        if kind in undo.kinds and undo.owns(project_id, selection.operation_id):
            return undo
    return None


def _undo_elsewhere(actor, project_id: str, selection: Selection, undo: OperationUndo, dry_run: bool) -> dict:
    policy.require_permission(actor, project_id, policy.EDIT_TRANSLATIONS)
    if dry_run:
        read_snapshot()
        answer = undo.undo(actor, project_id, _chosen_operation(project_id, selection), True)
        db.session.rollback()
        return answer
    with unit_of_work():
        chosen = _chosen_operation(project_id, selection)
        answer = undo.undo(actor, project_id, chosen, False)
        events.audited(
            actor,
            project_id,
            "undo.applied",
            None,
            {"undoes": _undoes(selection), **answer["summary"], "operationId": answer["operationId"]},
        )
        chosen.undone_at = utcnow()
        chosen.undone_by = answer["operationId"]
    return answer


def _undoes(selection: Selection) -> dict:
    fields = {
        "operationId": selection.operation_id,
        "actorType": selection.actor_type,
        "actorId": selection.actor_id,
        "since": selection.since.isoformat() if selection.since else None,
        "until": selection.until.isoformat() if selection.until else None,
        "fileName": selection.file_name,
        "language": selection.language,
    }
    return {name: value for name, value in fields.items() if value is not None}


def _chosen_operation(project_id: str, selection: Selection) -> Operation | None:
    if selection.operation_id is None:
        return None
    chosen = in_project(project_id, selection.operation_id)
    shown = describe_operation(chosen)
    if chosen.undone_at is not None:
        raise Conflict("operationId: this operation has already been undone.")
    if chosen.permanent:
        raise Conflict("operationId: this operation deleted for good; it cannot be undone.")
    if not shown["undoable"]:
        raise Conflict("operationId: what this operation removed has been deleted for good since.")
    return chosen


def _plan(
    actor, project_id: str, selection: Selection, include_changed=False
) -> tuple[Plan, Operation | None]:
    permissions = policy.require_permission(actor, project_id, policy.EDIT_TRANSLATIONS)
    chosen = _chosen_operation(project_id, selection)
    conditions = selection.conditions(project_id)
    rows = _tuples(
        select(
            HistoryEntry.id,
            HistoryEntry.translation_id,
            HistoryEntry.key,
            HistoryEntry.file_name,
            HistoryEntry.language,
            HistoryEntry.action,
            HistoryEntry.old_value,
            HistoryEntry.new_value,
            HistoryEntry.operation_id,
            HistoryEntry.created_at,
        )
        .where(*conditions)
        .order_by(HistoryEntry.id)
    )
    operations = _involved_operations(project_id, chosen, {row[8] for row in rows})
    if any(item.kind == "language-delete" for item in operations):
        policy.require_permission(actor, project_id, policy.EDIT_PROJECTS)
    if permissions.languages is not None:
        policy.require_languages(permissions, {row[4] for row in rows if row[4] is not None})
    plan = Plan()
    _plan_structure(project_id, operations, plan)
    _plan_entries(project_id, conditions, rows, plan, include_changed)
    if permissions.protects_reviewed:
        policy.require_undo_of_reviewed(permissions, _reviewed_overwritten(plan))
    if permissions.languages is not None and (
        plan.restores or plan.trashes or plan.languages or plan.records or any(row[4] is None for row in rows)
    ):
        # A caller limited to some languages undoes values in those only: no key, file or
        # language comes back or goes.
        policy.require_permission(actor, project_id, policy.MANAGE_KEYS)
    return plan, chosen


def _reviewed_overwritten(plan: Plan) -> list[dict]:
    """The reviewed values the plan would change or delete: ``{key, fileName, language}``."""
    touched = {(row[0], row[1]) for row in plan.updates} | {(row[0], row[1]) for row in plan.deletes}
    if not touched:
        return []
    reviewed = set()
    for chunk in in_chunks(sorted({t for t, _language in touched})):
        reviewed.update(
            _tuples(
                select(TranslationValue.translation_id, TranslationValue.language_code).where(
                    TranslationValue.translation_id.in_(chunk), TranslationValue.state == REVIEWED
                )
            )
        )
    reviewed &= touched
    return [
        {"key": row[1], "fileName": row[2], "language": row[3]}
        for row in plan.history
        if (row[0], row[3]) in reviewed and row[4] in ("updated", "deleted")
    ]


def _tuples(statement) -> list[tuple]:
    """Every row of a Core select as plain tuples, from the driver (tens of thousands of
    history entries are read at once)."""
    return [row for batch in stream_batches(statement, {}) for row in batch]


def _involved_operations(project_id: str, chosen: Operation | None, ids: set) -> list[Operation]:
    """The file and language deletes whose removed records and languages come back too."""
    ids = {item for item in ids if item is not None}
    if chosen is not None:
        ids.add(chosen.id)
    if not ids:
        return []
    found = []
    for chunk in in_chunks(sorted(ids)):
        found += db.session.execute(
            select(Operation).where(
                Operation.project_id == project_id,
                Operation.id.in_(chunk),
                Operation.kind.in_(STRUCTURAL),
                Operation.permanent.is_(False),
            )
        ).scalars()
    return sorted(found, key=lambda item: item.created_at)


def _plan_structure(project_id: str, operations: list[Operation], plan: Plan) -> None:
    for item in operations:
        details = orjson.loads(item.details)
        if item.kind == "language-delete":
            language = details["language"]
            if db.session.get(ProjectLanguage, (project_id, language["code"])) is None:
                plan.languages.append(language)
            for file_name in details.get("files", []):
                plan.records[file_name].add(language["code"])
        else:
            plan.records[details["fileName"]].update(details.get("records", []))


def _plan_entries(project_id: str, conditions: list, rows: list[tuple], plan: Plan, include=False) -> None:
    values: dict[tuple, list] = {}  # (translation, language) -> [before, after]
    moves: dict[str, list] = {}  # translation -> [before, after]
    first: dict[str, str] = {}  # translation -> action of its first entry here
    names: dict[str, tuple] = {}  # translation -> (file name, key) of its last entry
    last_at: dict[tuple, datetime] = {}  # (translation, language) -> its last entry's time
    for _id, translation_id, key, file_name, language, action, old, new, _operation, at in rows:
        if translation_id not in first:
            first[translation_id] = action
        names[translation_id] = (file_name, key)
        if language is None:
            if action == timeline.RENAMED:
                continue  # a file rename names the key again; it moves nothing
            before, after = MOVES.get(action, (None, None))
            move = moves.get(translation_id)
            if move is None:
                moves[translation_id] = [before, after]
            else:
                move[1] = after
            continue
        last_at[translation_id, language] = at
        after = timeline.value_after(action, new)
        group = values.get((translation_id, language))
        if group is None:
            values[translation_id, language] = [timeline.value_before(action, old), after]
        else:
            group[1] = after
    if not first:
        return
    selected = select(HistoryEntry.translation_id).where(*conditions).scalar_subquery()
    created_here = _created_here(conditions) if "created" in first.values() else set()
    # A translation's state matters where it moves, was created here or gets a value back
    # (a value cannot go into a translation purged since); elsewhere a value that changed is
    # a conflict whatever the state, and an import that only changed values reads none.
    needed = set(moves) | created_here
    needed.update(
        key[0] for key, (before, after) in values.items() if before is not ABSENT and after is ABSENT
    )
    if len(needed) == len(first):
        current = {row[0]: row[1:] for row in _tuples(_CURRENT.where(Translation.id.in_(selected)))}
    else:
        current = {}
        for chunk in in_chunks(sorted(needed)):
            current.update((row[0], row[1:]) for row in _tuples(_CURRENT.where(Translation.id.in_(chunk))))
    languages = {language for _, language in values}
    stored, reviews = {}, {}
    if languages:
        statement = _VALUES.where(
            TranslationValue.translation_id.in_(selected), TranslationValue.language_code.in_(languages)
        )
        for translation_id, language, value, state, reviewed_at, reviewer in _tuples(statement):
            stored[translation_id, language] = value
            if reviewed_at is not None and state in REVIEWED_SINCE:
                reviews[translation_id, language] = (state, reviewed_at, reviewer)
    by_translation: dict[str, list] = {}
    for (translation_id, language), group in values.items():
        languages_of = by_translation.get(translation_id)
        if languages_of is None:
            by_translation[translation_id] = [(language, group)]
        else:
            languages_of.append((language, group))
    for languages_of in by_translation.values():
        if len(languages_of) > 1:
            languages_of.sort()  # the languages of a key in their order, whatever the entries'
    known = _language_codes(project_id) | {language["code"] for language in plan.languages}
    now_names = {}
    for translation_id in first:
        found = current.get(translation_id)
        if found is None and translation_id not in needed:
            found = (*names[translation_id], None)  # its state does not matter
        state = GONE if found is None else (TRASHED if found[2] is not None else ACTIVE)
        file_name, key = (found[0], found[1]) if found is not None else names[translation_id]
        now_names[translation_id] = (file_name, key)
        move = moves.get(translation_id)
        if move is not None and move[1] == GONE:
            plan.conflict(file_name, key, "deleted for good")
            continue
        if move is not None and state != move[1]:
            plan.conflict(file_name, key, SINCE[state])
            continue
        new_here = translation_id in created_here
        if state == GONE:
            if not new_here:
                plan.conflict(file_name, key, SINCE[GONE])
            continue
        changed = False
        for language, (before, after) in by_translation.get(translation_id, ()):
            value = stored.get((translation_id, language), ABSENT)
            review = reviews.get((translation_id, language))
            if value != after:
                plan.conflict(file_name, key, CHANGED_SINCE, language, after, value, included=include)
                if not include:
                    changed = True
                    continue
                if new_here:
                    continue
            elif (
                review is not None
                and _later(review[1], last_at[translation_id, language])
                and (new_here or value != before)
            ):
                # The undo would take a reviewer's word on this text away.
                reason = REVIEWED_SINCE[review[0]]
                plan.conflict(
                    file_name,
                    key,
                    reason,
                    language,
                    after,
                    value,
                    review[2],
                    _iso(review[1]),
                    included=include,
                )
                if not include:
                    changed = True
                    continue
                if new_here:
                    continue
                plan.review_again.append((translation_id, language))
            if new_here or value == before:
                continue
            elif before is ABSENT:
                plan.deletes.append((translation_id, language))
                plan.history.append((translation_id, key, file_name, language, "deleted", value, None))
            elif language not in known:
                plan.conflict(file_name, key, "language deleted for good since", language)
            elif value is ABSENT:
                plan.inserts.append((translation_id, language, before))
                plan.history.append((translation_id, key, file_name, language, "created", None, before))
                plan.records[file_name].add(language)
            else:
                plan.updates.append((translation_id, language, before))
                plan.history.append((translation_id, key, file_name, language, "updated", value, before))
        if new_here:
            if state == ACTIVE and not changed:
                plan.trashes.append(translation_id)
                plan.history.append((translation_id, key, file_name, None, "deleted", None, None))
            continue
        target = move[0] if move is not None else state
        if target == ACTIVE and state == TRASHED:
            plan.restores.append(translation_id)
        elif target == TRASHED and state == ACTIVE:
            plan.trashes.append(translation_id)
            plan.history.append((translation_id, key, file_name, None, "deleted", None, None))
    _refuse_taken_keys(project_id, plan, now_names)


_CURRENT = select(Translation.id, Translation.file_name, Translation.key, Translation.deleted_at)
_VALUES = select(
    TranslationValue.translation_id,
    TranslationValue.language_code,
    TranslationValue.value,
    TranslationValue.state,
    TranslationValue.review_changed_at,
    TranslationValue.review_changed_by,
)


def _later(reviewed_at, written_at) -> bool:
    """Whether a review came after a history entry (times as either database's driver reads
    them)."""
    if reviewed_at is None or written_at is None:
        return False
    return _aware(reviewed_at) > _aware(written_at)


def _aware(moment: datetime | str) -> datetime:
    """A stored time as the driver reads it (SQLite: naive UTC text) made a UTC datetime."""
    if isinstance(moment, str):
        moment = datetime.fromisoformat(moment)
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def _iso(moment: datetime) -> str:
    return _aware(moment).isoformat()


def _language_codes(project_id: str) -> set[str]:
    return set(
        db.session.execute(
            select(ProjectLanguage.code).where(ProjectLanguage.project_id == project_id)
        ).scalars()
    )


def _created_here(conditions: list) -> set[str]:
    """Translations created by the selected entries: their first entry ever is among them,
    and a ``created`` one is among them too."""
    firsts = (
        select(HistoryEntry.translation_id, func.min(HistoryEntry.id).label("first"))
        .where(*conditions)
        .group_by(HistoryEntry.translation_id)
        .having(func.sum(case((HistoryEntry.action == "created", 1), else_=0)) > 0)
        .subquery()
    )
    earlier = aliased(HistoryEntry)
    statement = select(firsts.c.translation_id).where(
        ~exists().where(earlier.translation_id == firsts.c.translation_id, earlier.id < firsts.c.first)
    )
    return {row[0] for row in _tuples(statement)}


def _refuse_taken_keys(project_id: str, plan: Plan, names: dict) -> None:
    """A translation comes back from the trash only while no active one holds its key."""
    if not plan.restores:
        return
    wanted = {names[translation_id]: translation_id for translation_id in plan.restores}
    freed = {names[translation_id] for translation_id in plan.trashes}
    taken = set()
    for chunk in in_chunks(list(wanted)):
        taken.update(
            tuple(row)
            for row in db.session.execute(
                select(Translation.file_name, Translation.key).where(
                    Translation.project_id == project_id,
                    Translation.deleted_at.is_(None),
                    tuple_(Translation.file_name, Translation.key).in_(chunk),
                )
            )
        )
    blocked = taken - freed
    restores = []
    for translation_id in plan.restores:
        file_name, key = names[translation_id]
        if (file_name, key) in blocked:
            plan.conflict(file_name, key, "key exists again")
        else:
            restores.append(translation_id)
            plan.history.append((translation_id, key, file_name, None, "restored", None, None))
    plan.restores = restores


def _apply(actor, project_id: str, plan: Plan) -> None:
    now = utcnow()
    stamp = driver_timestamp(now)
    if plan.languages:
        db.session.execute(
            insert(ProjectLanguage),
            [{"project_id": project_id, **language} for language in plan.languages],
        )
        # The project's last language comes back as its source language too.
        db.session.execute(
            update(Project)
            .where(Project.id == project_id, Project.source_language.is_(None))
            .values(source_language=plan.languages[0]["code"])
        )
    known = _language_codes(project_id)
    for file_name in sorted(plan.records):
        ensure_file_records(project_id, file_name, plan.records[file_name] & known)
    for chunk in in_chunks(plan.trashes):
        db.session.execute(
            update(Translation)
            .where(Translation.id.in_(chunk))
            .values(deleted_at=now, updated_at=now)
            .execution_options(synchronize_session=False)
        )
    for chunk in in_chunks(plan.restores):
        db.session.execute(
            update(Translation)
            .where(Translation.id.in_(chunk))
            .values(deleted_at=None, updated_at=now)
            .execution_options(synchronize_session=False)
        )
    execute_rows(
        "DELETE FROM translation_values WHERE translation_id = ? AND language_code = ?", plan.deletes
    )
    insert_rows(
        TranslationValue.__table__,
        ("translation_id", "language_code", "project_id", "value", "updated_at"),
        [
            (translation_id, language, project_id, value, stamp)
            for translation_id, language, value in plan.inserts
        ],
    )
    update_values(plan.updates, now, state=written_state())
    history.record_rows(actor, project_id, plan.history, now, stated=True)
    # Every translation whose values the undo wrote.
    written = {row[0] for row in plan.inserts} | {row[0] for row in plan.updates}
    touch_keys(sorted(written.union(row[0] for row in plan.deletes)), now)
    # Values reviewed since that went back all the same wait for a review again: the review
    # was of the text the undo removed (after the write paths gave the values their state).
    await_review(SESSION_STATEMENTS, [(UNDONE, t, language) for t, language in plan.review_again])


def _summary(plan: Plan) -> dict:
    return {
        "created": len(plan.inserts),
        "updated": len(plan.updates),
        "deleted": len(plan.deletes),
        "restored": len(plan.restores),
        "trashed": len(plan.trashes),
        "languages": [language["code"] for language in plan.languages],
        "conflicts": len(plan.conflicts),
        "included": len(plan.included),
    }


def _answer(plan: Plan, chosen: Operation | None, operation_id: str | None, dry_run: bool) -> dict:
    changes = [
        {
            "fileName": file_name,
            "key": key,
            "language": language,
            "action": action,
            "old_value": old,
            "new_value": new,
        }
        for _id, key, file_name, language, action, old, new in plan.history[:LISTED]
    ]
    return {
        "dryRun": dry_run,
        "undone": chosen.id if chosen is not None else None,
        "operationId": operation_id,
        "summary": _summary(plan),
        "changes": changes,
        "conflicts": plan.conflicts[:LISTED],
        "included": plan.included[:LISTED],
        "truncated": len(plan.history) > LISTED
        or len(plan.conflicts) > LISTED
        or len(plan.included) > LISTED,
    }
