"""Import: compare parsed files with the project in a few set-based queries (one per file),
then apply the difference in one transaction with history. A dry run is the same code
stopping before the write, and answers the same diff."""

import base64
import functools
import hashlib
from collections import defaultdict
from dataclasses import asdict, dataclass, field

import orjson
from sqlalchemy import bindparam, select
from sqlalchemy.orm import aliased

from loko import collector, events
from loko.audit import service as audit
from loko.auth import policy
from loko.auth.actors import actor_record
from loko.database import (
    driver_timestamp,
    execute_rows,
    in_chunks,
    insert_rows,
    new_id,
    read_snapshot,
    refresh_statistics,
    unit_of_work,
    update_rows,
    utcnow,
)
from loko.errors import BadRequest, Conflict
from loko.extensions import db
from loko.files.models import FileRecord
from loko.files.service import ensure_file_records
from loko.imports.files import ParsedFile, parse_upload
from loko.jobs.service import describe, enqueue
from loko.projects.service import bump_data_version, stamp_files
from loko.quality.service import details_wanted, preview
from loko.tags.filters import TagFilter
from loko.tags.service import add_tag_in_operation
from loko.translations import history
from loko.translations.models import REVIEWED, Translation, TranslationValue, natural_sort_key
from loko.translations.operations import operation
from loko.translations.queries import most_translated, source_language

MODES = ("upsert", "only-new", "replace-file")
REMOVED_KEYS = ("keep", "trash")
IMPORT_JOB = "import"
IMPORT_ATTEMPTS = 3
LISTED = 1000  # changes listed per kind in the answer; the counts are always complete
CHANGED_SINCE_PREVIEW = (
    "file: the project changed since the preview, so this import would now change something the "
    "preview did not show; nothing was imported. Preview the upload again."
)


class ChangedSincePreview(Conflict):
    """The project changed since the dry run an import was given the digest of
    (``ImportOptions.expected``), so it would now do something its preview did not show:
    nothing was imported."""

    def __init__(self):
        super().__init__(CHANGED_SINCE_PREVIEW)


@dataclass(frozen=True)
class ImportOptions:
    format: str | None = None
    language: str | None = None
    file_name: str | None = None
    path_template: str | None = None
    mode: str = "upsert"
    removed_keys: str = "keep"
    dry_run: bool = False
    expected: str | None = None  # the digest of a dry run this import must still match
    tag: str | None = None  # given to every key the upload names (created or already there)
    # The keys the upload speaks for (a repository that holds one tag's keys): with every tag
    # of ``within_tags`` (given to every key it names, too) and none of ``without_tags``; a
    # key outside them is never trashed, nor its values removed, for missing from the upload.
    within_tags: tuple[str, ...] = ()
    without_tags: tuple[str, ...] = ()

    @property
    def scope(self) -> TagFilter:
        return TagFilter(tuple(self.within_tags), tuple(self.without_tags))

    @property
    def tags(self) -> tuple[str, ...]:
        """The tags given to every key the upload names."""
        return tuple(dict.fromkeys([*([self.tag] if self.tag else []), *self.within_tags]))


@dataclass
class Stored:
    """An active key of a file: its id, notes and values in the imported languages."""

    id: str
    notes: tuple
    values: dict = field(default_factory=dict)


@dataclass
class Plan:
    """What an import changes: rows to write and the diff to show."""

    new_keys: list = field(default_factory=list)  # translation rows
    new_values: list = field(default_factory=list)  # (translation_id, language, value)
    changed_values: list = field(default_factory=list)
    changed_notes: list = field(default_factory=list)  # (comment, context, meta, translation_id)
    trashed_ids: list = field(default_factory=list)
    removed_values: list = field(default_factory=list)  # (translation_id, language)
    history: list = field(default_factory=list)
    files: dict = field(default_factory=dict)  # file_name -> set of languages
    created: list = field(default_factory=list)
    updated: list = field(default_factory=list)
    trashed: list = field(default_factory=list)
    removed: list = field(default_factory=list)  # values of the uploaded languages only
    conflicts: list = field(default_factory=list)
    notes: list = field(default_factory=list)  # keys whose comment, context or details change
    unchanged: int = 0
    # The stored keys' (max_length, comment, source value) for the checks, or None.
    details: dict | None = None
    # Every key the upload names, by translation id (the import's tag goes to each).
    named: list = field(default_factory=list)
    # Reviewed values left as they are (a project that protects them, a caller who may not
    # review): ``{fileName, key, language, current, incoming}``; ``incoming`` None: a removal.
    protected: list = field(default_factory=list)


KEYS_WITH_VALUES = (
    select(
        Translation.id,
        Translation.key,
        Translation.comment,
        Translation.context,
        Translation.meta,
        TranslationValue.language_code,
        TranslationValue.value,
    )
    .select_from(Translation)
    .outerjoin(
        TranslationValue,
        (TranslationValue.translation_id == Translation.id)
        & TranslationValue.language_code.in_(bindparam("languages", expanding=True)),
    )
    .where(
        Translation.project_id == bindparam("project_id"),
        Translation.file_name == bindparam("file_name"),
        Translation.deleted_at.is_(None),
    )
)


def enqueue_import(actor, project_id: str, data: bytes, options: ImportOptions) -> dict:
    """Queue the import as a background job (``imports.jobs``) after the same permission
    check as ``import_files``; the job's result is the answer ``import_files`` would give.
    The job as ``jobs.service.describe`` tells it."""
    permission = policy.VIEW_TRANSLATIONS if options.dry_run else policy.EDIT_TRANSLATIONS
    permissions = policy.require_permission(actor, project_id, permission)
    if permissions.languages is not None:
        # A caller limited to some languages is refused now, not when the job runs: the
        # upload is read and planned as its dry run would (nothing is written).
        _require_rights(actor, project_id, permissions, _planned(project_id, data, options))
        db.session.rollback()
    with unit_of_work():
        policy.require_permission(actor, project_id, permission)
        job = enqueue(
            IMPORT_JOB,
            {
                "actor": actor_record(actor),
                "options": asdict(options),
                "data": base64.b64encode(data).decode(),
            },
            project_id=project_id,
            max_attempts=IMPORT_ATTEMPTS,
        )
        return describe(job)


def _parsed(data: bytes, options: ImportOptions) -> list[ParsedFile]:
    return parse_upload(
        data,
        format=options.format,
        language=options.language,
        file_name=options.file_name,
        path_template=options.path_template,
    )


def _planned(project_id: str, data: bytes, options: ImportOptions) -> Plan:
    """The upload read and planned against what is stored (nothing written)."""
    _check_options(options)
    return _plan(project_id, _parsed(data, options), options)


def _check_options(options: ImportOptions) -> None:
    if options.mode not in MODES:
        raise BadRequest(f"mode: one of {', '.join(MODES)}.")
    if options.removed_keys not in REMOVED_KEYS:
        raise BadRequest(f"removedKeys: one of {', '.join(REMOVED_KEYS)}.")


@collector.paused()
def import_files(actor, project_id: str, data: bytes, options: ImportOptions) -> dict:
    """Import an upload (one file or a ZIP); returns the diff. Nothing is written on a dry run
    or on any error."""
    _check_options(options)
    if options.dry_run:
        read_snapshot()
        permissions = policy.require_permission(actor, project_id, policy.VIEW_TRANSLATIONS)
    else:
        permissions = policy.require_permission(actor, project_id, policy.EDIT_TRANSLATIONS)
    if options.tags:
        policy.require_permission(actor, project_id, policy.MANAGE_TAGS)
    files = _parsed(data, options)
    if options.dry_run:
        plan = _plan(project_id, files, options)
        _require_rights(actor, project_id, permissions, plan)
        _keep_reviewed(permissions, plan)
        found = preview(project_id, plan.history)
        db.session.rollback()
        return {**_answer(plan, files, options), "checks": found}
    with unit_of_work():
        policy.require_permission(actor, project_id, policy.EDIT_TRANSLATIONS)
        bump_data_version(project_id, files=())
        plan = _plan(project_id, files, options)
        _require_rights(actor, project_id, permissions, plan)
        _keep_reviewed(permissions, plan)
        stamp_files(project_id, plan.files)
        if options.expected is not None and _digest(plan) != options.expected:
            raise ChangedSincePreview()
        with operation(actor, project_id, "import", files=sorted(plan.files)) as details:
            warnings = _apply(actor, project_id, plan, first=_notes_owner(project_id, files))
            tagged = sum(add_tag_in_operation(project_id, tag, plan.named) for tag in options.tags)
            if tagged:
                bump_data_version(project_id)  # which keys a tag filter keeps changed
            details.update(_summary(plan), changes=len(plan.history) + len(plan.trashed_ids) + tagged)
        if details["operation_id"]:
            audit.record_import(actor, project_id, plan.files, _summary(plan), details["operation_id"])
            events.emit_one(
                project_id,
                events.IMPORT_FINISHED,
                {"operationId": details["operation_id"], "files": sorted(plan.files), **_summary(plan)},
            )
    refresh_statistics(
        {
            "translations": len(plan.new_keys),
            "translation_values": len(plan.new_values) + len(plan.changed_values),
            "translation_history": len(plan.history),
        }
    )
    return {
        **_answer(plan, files, options, details["operation_id"]),
        "checks": {"refused": [], "warnings": warnings},
        **({"tagged": tagged} if options.tag else {}),
    }


def _require_rights(actor, project_id: str, permissions: policy.Permissions, plan: Plan) -> None:
    """For a caller limited to some languages (a dry run answers as the import would):
    Forbidden naming the uploaded languages not theirs, or when the import would create,
    trash or change the notes of keys, which needs edit rights in every language."""
    if permissions.languages is None:
        return
    policy.require_languages(permissions, set().union(*plan.files.values()))
    if plan.new_keys or plan.trashed_ids or plan.changed_notes:
        policy.require_permission(actor, project_id, policy.MANAGE_KEYS)


def _keep_reviewed(permissions: policy.Permissions, plan: Plan) -> None:
    """Where the policy keeps reviewed values (``policy.keeps_reviewed``), take the changes and
    removals of reviewed values out of the plan and list them under ``protected``."""
    if not policy.keeps_reviewed(permissions):
        return
    touched = {(t, code) for t, code, _value in plan.changed_values} | set(plan.removed_values)
    if not touched:
        return
    reviewed = set()
    for chunk in in_chunks(sorted({t for t, _code in touched})):
        reviewed |= {
            (row[0], row[1])
            for row in db.session.execute(
                select(TranslationValue.translation_id, TranslationValue.language_code).where(
                    TranslationValue.translation_id.in_(chunk), TranslationValue.state == REVIEWED
                )
            ).all()
        }
    reviewed &= touched
    if not reviewed:
        return
    kept = [row for row in plan.history if (row[0], row[3]) in reviewed and row[4] in ("updated", "deleted")]
    for _t, key, file_name, language, _action, old, new in kept:
        incoming = {} if new is None else {"incoming": new}
        plan.protected.append(_change(file_name, key, language, current=old, **incoming))
    gone = {(row[2], row[1], row[3]) for row in kept}
    kept = set(kept)
    plan.history = [row for row in plan.history if row not in kept]
    plan.changed_values = [row for row in plan.changed_values if (row[0], row[1]) not in reviewed]
    plan.removed_values = [row for row in plan.removed_values if row not in reviewed]
    plan.updated = [c for c in plan.updated if (c["fileName"], c["key"], c["language"]) not in gone]
    plan.removed = [c for c in plan.removed if (c["fileName"], c["key"], c["language"]) not in gone]


SOURCE_VALUE = aliased(TranslationValue)
# KEYS_WITH_VALUES with what the checks read of each key (its maximum length and source value).
KEYS_WITH_DETAILS = KEYS_WITH_VALUES.add_columns(Translation.max_length, SOURCE_VALUE.value).outerjoin(
    SOURCE_VALUE,
    (SOURCE_VALUE.translation_id == Translation.id) & (SOURCE_VALUE.language_code == bindparam("source")),
)


def _stored(
    project_id: str, file_name: str, languages: list[str], details: dict | None = None, source: str = ""
) -> dict[str, Stored]:
    """The file's active keys with their values in ``languages``; with ``details``, also
    each key's ``(max_length, comment, source value)`` put there, read in the same pass."""
    parameters = {"project_id": project_id, "file_name": file_name, "languages": languages}
    if details is None:
        rows = db.session.connection().execute(KEYS_WITH_VALUES, parameters)
    else:
        rows = db.session.connection().execute(KEYS_WITH_DETAILS, {**parameters, "source": source})
    stored: dict[str, Stored] = {}
    for translation_id, key, comment, context, meta, language, value, *more in rows:
        item = stored.get(key)
        if item is None:
            item = stored[key] = Stored(translation_id, (comment, context, meta))
            if details is not None:
                details[translation_id] = (more[0], comment, more[1])
        if language is not None:
            item.values[language] = value
    return stored


def _in_scope(project_id: str, file_name: str, scope: TagFilter) -> set[str]:
    """The ids of the file's active keys that ``scope`` keeps."""
    rows = db.session.execute(
        select(Translation.id).where(
            Translation.project_id == project_id,
            Translation.file_name == file_name,
            Translation.deleted_at.is_(None),
            scope.condition(Translation.id),
        )
    )
    return set(rows.scalars())


def _notes(entry) -> tuple:
    meta = orjson.dumps(entry.meta, option=orjson.OPT_SORT_KEYS).decode() if entry.meta else None
    return (entry.comment, entry.context, meta)


def _notes_owner(project_id: str, files: list[ParsedFile]) -> str | None:
    """The language whose files decide a key's comment, context and details: the project's
    source language, or for a project without languages the upload's language with the
    most entries (a tie goes to the alphabetically first code)."""
    owner = source_language(project_id)
    if owner is None:
        counts: dict[str, int] = defaultdict(int)
        for parsed in files:
            counts[parsed.language] += len(parsed.entries)
        owner = most_translated(counts)
    return owner


def _plan(project_id: str, files: list[ParsedFile], options: ImportOptions) -> Plan:
    """The changes of an import. A key's notes (comment, context, format details) belong to
    the key, not to one language: they come from the owner language's file (see
    ``_notes_owner``) when it has the key, and otherwise from another language's file, only
    for a key that has none yet. A file without notes for a key leaves them as they are, except in
    ``replace-file`` mode. With ``removedKeys=trash`` a key is removed when it has a value in
    one of the uploaded languages and is missing from the upload: a key no uploaded language
    has translated could not have been in those files. ``replace-file`` trashes every key
    missing from the file."""
    plan = Plan()
    by_file: dict[str, list[ParsedFile]] = defaultdict(list)
    for parsed in files:
        by_file[parsed.file_name].append(parsed)
    # What the checks read of the keys, read with them when they will need it.
    source = details_wanted(project_id, {parsed.language for parsed in files})
    plan.details = {} if source is not None else None
    stamp = driver_timestamp(utcnow())
    replace = options.mode == "replace-file"
    # The owner costs a count over the project's values: asked for only when it decides
    # something (several languages of a file, or notes to place).
    owner = functools.cache(lambda: _notes_owner(project_id, files))
    for file_name in sorted(by_file):
        several = len(by_file[file_name]) > 1
        parsed_files = sorted(
            by_file[file_name], key=lambda parsed: (several and parsed.language != owner(), parsed.language)
        )
        plan.files[file_name] = {parsed.language for parsed in parsed_files}
        stored = _stored(project_id, file_name, sorted(plan.files[file_name]), plan.details, source or "")
        imported_keys: dict[str, str] = {}  # key -> translation id
        new_rows: dict[str, int] = {}  # key -> index of its row in plan.new_keys
        chosen: dict[str, tuple] = {}  # key -> (notes, from the owner language)
        for parsed in parsed_files:
            language = parsed.language
            for entry in parsed.entries:
                key, value = entry.key, entry.value
                item = stored.get(key)
                translation_id = imported_keys.get(key)
                if translation_id is None:
                    if item is None:
                        translation_id = new_id()
                        new_rows[key] = len(plan.new_keys)
                        plan.new_keys.append(
                            (translation_id, project_id, file_name, key, stamp, stamp, None, None, None)
                        )
                        if value is None:
                            plan.history.append((translation_id, key, file_name, None, "created", None, None))
                            plan.created.append(_change(file_name, key, None, value=None))
                    else:
                        translation_id = item.id
                    imported_keys[key] = translation_id
                    plan.named.append(translation_id)
                if key not in chosen:
                    notes = _notes(entry)
                    if any(part is not None for part in notes) or (
                        (several or replace) and language == owner()
                    ):
                        chosen[key] = (notes, language == owner())
                if value is None:
                    continue
                current = item.values.get(language) if item is not None else None
                if current is None:
                    plan.new_values.append((translation_id, language, value))
                    plan.history.append((translation_id, key, file_name, language, "created", None, value))
                    plan.created.append(_change(file_name, key, language, value=value))
                elif current == value:
                    plan.unchanged += 1
                elif options.mode == "only-new":
                    plan.conflicts.append(_change(file_name, key, language, current=current, incoming=value))
                else:
                    plan.changed_values.append((translation_id, language, value))
                    plan.history.append((translation_id, key, file_name, language, "updated", current, value))
                    plan.updated.append(_change(file_name, key, language, old=current, new=value))
        for key, (notes, from_owner) in chosen.items():
            item = stored.get(key)
            if item is None:
                row = plan.new_keys[new_rows[key]]
                plan.new_keys[new_rows[key]] = (*row[:6], *notes)
            elif (
                notes != item.notes
                and (replace or any(part is not None for part in notes))
                and (from_owner or all(part is None for part in item.notes))
            ):
                plan.changed_notes.append((*notes, item.id))
                plan.notes.append(
                    {"fileName": file_name, "key": key, "old": _shown(item.notes), "new": _shown(notes)}
                )
        if replace or options.removed_keys == "trash":
            missing = sorted(stored.keys() - imported_keys.keys())
            if missing and options.scope:
                kept = _in_scope(project_id, file_name, options.scope)
                missing = [key for key in missing if stored[key].id in kept]
            if missing and _speaks_for_keys(project_id, file_name, plan.files[file_name], owner()):
                for key in missing:
                    if replace or stored[key].values:
                        plan.trashed_ids.append(stored[key].id)
                        plan.trashed.append({"fileName": file_name, "key": key})
            else:
                for key in missing:
                    item = stored[key]
                    for language in sorted(item.values):
                        old = item.values[language]
                        plan.removed_values.append((item.id, language))
                        plan.history.append((item.id, key, file_name, language, "deleted", old, None))
                        plan.removed.append(_change(file_name, key, language, old=old))
    return plan


def _speaks_for_keys(project_id: str, file_name: str, uploaded: set, source: str | None) -> bool:
    """Whether an upload may move a file's keys it lacks to the trash: when it holds the
    source language's file, or every language the file has. Otherwise it speaks only for its
    own languages, and only their values of those keys are removed."""
    if source is not None and source in uploaded:
        return True
    languages = db.session.execute(
        select(FileRecord.language_code).where(
            FileRecord.project_id == project_id, FileRecord.file_name == file_name
        )
    ).scalars()
    return set(languages) <= uploaded


def _shown(notes: tuple) -> dict:
    comment, context, meta = notes
    return {"comment": comment, "context": context, "details": orjson.loads(meta) if meta else None}


def _digest(plan: Plan) -> str:
    """What an import changes, as a digest: the same for a dry run and a real run that would
    do the same."""
    changes = (plan.created, plan.updated, plan.trashed, plan.conflicts, plan.notes)
    if plan.removed:  # an upload that removes no value keeps the digest it always had
        changes += (plan.removed,)
    return hashlib.sha256(orjson.dumps(changes, option=orjson.OPT_SORT_KEYS)).hexdigest()


def _change(file_name: str, key: str, language: str | None, **values) -> dict:
    return {"fileName": file_name, "key": key, "language": language, **values}


TRANSLATION_COLUMNS = (
    "id",
    "project_id",
    "file_name",
    "key",
    "created_at",
    "updated_at",
    "comment",
    "context",
    "meta",
)
VALUE_COLUMNS = ("translation_id", "language_code", "project_id", "value", "updated_at")


def _apply(actor, project_id: str, plan: Plan, first: str | None = None) -> int:
    """Write the plan; ``first`` is named first when languages are added (a project's first
    language becomes its source language). Returns the checks' warnings in the values written."""
    now = utcnow()
    stamp = driver_timestamp(now)
    for file_name, languages in plan.files.items():
        ensure_file_records(project_id, file_name, sorted(languages, key=lambda code: (code != first, code)))
    insert_rows(
        Translation.__table__,
        (*TRANSLATION_COLUMNS, "sort_key"),
        [(*row, natural_sort_key(row[3])) for row in plan.new_keys],
    )
    insert_rows(
        TranslationValue.__table__,
        VALUE_COLUMNS,
        [(t, language, project_id, value, stamp) for t, language, value in plan.new_values],
    )
    update_rows(
        TranslationValue.__table__,
        ("value", "updated_at"),
        ("translation_id", "language_code"),
        [(value, stamp, t, language) for t, language, value in plan.changed_values],
    )
    created = {row[0] for row in plan.new_keys}
    touched = {row[0] for row in plan.new_values + plan.changed_values if row[0] not in created}
    touched.update(row[3] for row in plan.changed_notes)
    execute_rows(
        "UPDATE translations SET comment = ?, context = ?, meta = ? WHERE id = ?", plan.changed_notes
    )
    update_rows(Translation.__table__, ("updated_at",), ("id",), [(stamp, t) for t in sorted(touched)])
    execute_rows(
        "DELETE FROM translation_values WHERE translation_id = ? AND language_code = ?", plan.removed_values
    )
    warnings = history.record_rows(
        actor, project_id, plan.history, now, details=plan.details, warnings_wanted=True
    )
    history.keys_created(project_id, [(row[0], row[3], row[2]) for row in plan.new_keys], actor)
    for chunk in in_chunks(plan.trashed_ids):
        history.record_translation_event(actor, project_id, chunk, "deleted")
        execute_rows(
            "UPDATE translations SET deleted_at = ?, updated_at = ? WHERE id = ?",
            [(stamp, stamp, t) for t in chunk],
        )
    return warnings


def _summary(plan: Plan) -> dict:
    return {
        "created": len(plan.created),
        "updated": len(plan.updated),
        "unchanged": plan.unchanged,
        "trashed": len(plan.trashed),
        "removed": len(plan.removed),
        "conflicts": len(plan.conflicts),
        "notes": len(plan.notes),
        **({"protected": len(plan.protected)} if plan.protected else {}),
    }


def _answer(plan: Plan, files: list[ParsedFile], options: ImportOptions, operation_id=None) -> dict:
    lists = {
        "created": plan.created,
        "updated": plan.updated,
        "trashed": plan.trashed,
        "removed": plan.removed,
        "conflicts": plan.conflicts,
        "notes": plan.notes,
    }
    return {
        "dryRun": options.dry_run,
        "digest": _digest(plan),
        "operationId": operation_id,
        "summary": _summary(plan),
        "files": [
            {
                "fileName": parsed.file_name,
                "language": parsed.language,
                "format": parsed.format,
                "entries": len(parsed.entries),
            }
            for parsed in files
        ],
        **{name: changes[:LISTED] for name, changes in lists.items()},
        **({"protected": plan.protected[:LISTED]} if plan.protected else {}),
        "unchanged": plan.unchanged,
        "truncated": any(len(changes) > LISTED for changes in [*lists.values(), plan.protected]),
    }
