"""Translations: create, upsert (one or many), trash, restore, purge, keys and history.

Every write use case runs in one transaction: it checks the permission, bumps the
project's data version (which also serialises writers of one project), writes with a
few set-based statements and records history with the actor.
"""

from collections import defaultdict
from datetime import timedelta

from sqlalchemy import func, or_, select, update

from loko import events
from loko.auth import policy
from loko.database import (
    SESSION_STATEMENTS,
    driver_timestamp,
    in_chunks,
    insert_rows,
    new_id,
    refresh_statistics,
    unit_of_work,
    utcnow,
)
from loko.errors import BadRequest, Conflict, Forbidden, NotFound
from loko.extensions import db
from loko.files.service import ensure_file_records, file_records_ahead
from loko.projects.models import Project
from loko.projects.service import (
    TurnNeeded,
    bump_at_commit,
    bump_data_version,
    stamp_at_commit,
    stamp_files,
    take_turn_alone,
)
from loko.translations import history
from loko.translations.models import (
    MACHINE_UNEDITED,
    MEMORY_UNEDITED,
    REVIEWED,
    Translation,
    TranslationValue,
    natural_sort_key,
)
from loko.translations.operations import expire_operations, operation
from loko.translations.purge import purge_translations
from loko.translations.states import Event, State, state_of, transition
from loko.translations.writing import (
    Refused,
    await_review,
    refused_message,
    touch_keys,
    update_values,
    written_state,
)

# A write that would create keys, refused to a caller limited to some languages.
KEY_CREATION_REFUSED = "creating keys needs edit rights in every language; nothing was written."

translations_table = Translation.__table__
values_table = TranslationValue.__table__


def values_of(translation_ids: list[str]) -> dict[str, dict[str, str]]:
    values = defaultdict(dict)
    for chunk in in_chunks(translation_ids):
        rows = db.session.execute(
            select(TranslationValue.translation_id, TranslationValue.language_code, TranslationValue.value)
            .where(TranslationValue.translation_id.in_(chunk))
            .order_by(TranslationValue.language_code)
        )
        for translation_id, code, value in rows:
            values[translation_id][code] = value
    return values


def describe(translations: list[Translation]) -> list[dict]:
    """Translations as the API shows them, with their values (one query for all)."""
    values = values_of([t.id for t in translations])
    return [
        {
            "id": t.id,
            "key": t.key,
            "fileName": t.file_name,
            "values": values.get(t.id, {}),
            "created_at": t.created_at,
            "updated_at": t.updated_at,
            "deleted_at": t.deleted_at,
            # Key details, shown only where a key has them.
            **{
                name: value
                for name, value in (
                    ("comment", t.comment),
                    ("context", t.context),
                    ("maxLength", t.max_length),
                )
                if value is not None
            },
        }
        for t in translations
    ]


def _active(project_id: str, file_name: str, key: str) -> Translation | None:
    return db.session.execute(
        select(Translation).where(
            Translation.project_id == project_id,
            Translation.file_name == file_name,
            Translation.key == key,
            Translation.deleted_at.is_(None),
        )
    ).scalar_one_or_none()


def _in_project(project_id: str, translation_id: str) -> Translation:
    translation = db.session.get(Translation, translation_id)
    if translation is None or translation.project_id != project_id:
        raise NotFound("id: no translation with this id in this project.")
    return translation


VALUE_COLUMNS = ("translation_id", "language_code", "project_id", "value", "updated_at")
TRANSLATION_COLUMNS = ("id", "project_id", "file_name", "key", "sort_key", "created_at", "updated_at")


def _insert_values(project_id: str, rows: list[tuple], now, statements=SESSION_STATEMENTS) -> None:
    """Insert ``(translation_id, language_code, value)`` rows."""
    stamp = statements.timestamp(now)
    statements.insert(values_table, VALUE_COLUMNS, [(t, c, project_id, v, stamp) for t, c, v in rows])


def create_translation(actor, project_id: str, key: str, file_name: str, values: dict) -> dict:
    """Create a translation with its values; Conflict when the key exists in the file,
    Forbidden for a caller limited to some languages (creating a key is not theirs)."""
    with unit_of_work():
        policy.require_permission(actor, project_id, policy.MANAGE_KEYS)
        bump_data_version(project_id, files=(file_name,))
        if _active(project_id, file_name, key) is not None:
            raise Conflict(f"key: {key!r} already exists in the file {file_name!r}.")
        ensure_file_records(project_id, file_name, values)
        now = utcnow()
        translation = Translation(
            id=new_id(),
            project_id=project_id,
            file_name=file_name,
            key=key,
            sort_key=natural_sort_key(key),
            created_at=now,
            updated_at=now,
        )
        db.session.add(translation)
        db.session.flush()
        _insert_values(project_id, [(translation.id, c, v) for c, v in values.items()], now)
        entry = {"translation_id": translation.id, "key": key, "file_name": file_name, "action": "created"}
        history.record(
            actor,
            project_id,
            [{**entry, "language": c, "new_value": v} for c, v in values.items()] or [entry],
        )
        history.keys_created(project_id, [(translation.id, key, file_name)], actor)
        return describe([translation])[0]


def patch_changes(updates: dict) -> tuple[dict, dict]:
    """A PATCH body's ``updates`` (``{code: {value, [expected]}}``) as ``({code: value},
    {code: expected})``."""
    values = {code: item["value"] for code, item in updates.items()}
    expected = {code: item["expected"] for code, item in updates.items() if "expected" in item}
    return values, expected


# A suggestion saved as it was made (``uneditedSuggestion`` of a PATCH), by its origin: why
# the value waits for a review.
UNEDITED_REASONS = {"machine": MACHINE_UNEDITED, "memory": MEMORY_UNEDITED}


def patch_reviews(updates: dict) -> dict:
    """A PATCH body's ``updates`` as ``{code: reason}`` for the languages whose value is a
    suggestion saved unedited (``uneditedSuggestion``): written, they wait for a review."""
    return {
        code: UNEDITED_REASONS[item["uneditedSuggestion"]]
        for code, item in updates.items()
        if item.get("uneditedSuggestion") is not None
    }


def patch_translation(
    actor,
    project_id: str,
    key: str,
    file_name: str,
    updates: dict,
    expected: dict | None = None,
    reviews: dict | None = None,
) -> dict:
    """Set values in several languages, creating the translation and file records as needed.

    ``expected`` (``{code: value or None}``) makes the write conditional: each named
    language's stored value must equal its expected value (None: no value yet), checked
    in the write's own transaction; otherwise Conflict, with ``{conflicts: {code:
    {expected, current}}}`` as details, and nothing is written. ``reviews`` (``{code:
    reason}``, ``patch_reviews``): the values written in these languages wait for a review,
    for that reason, set in the same transaction. Returns ``{code: {id, id_file,
    updated}}``; ``updated`` is false where the stored value already equalled the new one.
    """
    arguments = (actor, project_id, key, file_name, updates, expected, reviews)
    try:
        return _patch_once(*arguments, alone=False)
    except TurnNeeded:  # it adds a file record or a language: again, alone
        return _patch_once(*arguments, alone=True)


def _patch_once(actor, project_id, key, file_name, updates, expected, reviews, alone: bool) -> dict:
    """``patch_translation`` in one transaction; ``alone``: taking the project's writers'
    turn alone first (on PostgreSQL a PATCH takes it shared, ``bump_at_commit``)."""
    with unit_of_work():

        def named():
            return select(Translation.id).where(
                Translation.project_id == project_id,
                Translation.file_name == file_name,
                Translation.key == key,
                Translation.deleted_at.is_(None),
            )

        permissions = policy.require_value_work(actor, project_id, policy.EDIT_TRANSLATIONS, updates, named)
        if permissions.protects_reviewed:
            policy.require_unreviewed(
                permissions,
                [
                    f"updates.{code}.value"
                    for code, value, _key in _reviewed_values(project_id, file_name, [key], updates)
                    if updates[code] != value
                ],
            )
        if alone:
            take_turn_alone(project_id)
        return write_patch(
            SESSION_STATEMENTS,
            actor,
            project_id,
            key,
            file_name,
            updates,
            expected,
            may_create=permissions.can_manage_keys,
            reviews=reviews,
        )


def _reviewed_values(project_id: str, file_name: str, keys: list[str], languages) -> list[tuple]:
    """``(language, value, key)`` of the reviewed values of these active keys of the file in
    ``languages`` (one query per chunk of keys), for the protection of reviewed values."""
    found = []
    for chunk in in_chunks(keys):
        found += db.session.execute(
            select(TranslationValue.language_code, TranslationValue.value, Translation.key)
            .join(Translation, Translation.id == TranslationValue.translation_id)
            .where(
                Translation.project_id == project_id,
                Translation.file_name == file_name,
                Translation.deleted_at.is_(None),
                Translation.key.in_(chunk),
                TranslationValue.language_code.in_(list(languages)),
                TranslationValue.state == REVIEWED,
            )
        ).all()
    return found


def write_patch(
    statements,
    actor,
    project_id: str,
    key: str,
    file_name: str,
    updates: dict,
    expected: dict | None = None,
    file_records=ensure_file_records,
    may_create: bool = True,
    reviews: dict | None = None,
) -> dict:
    """The statements of ``patch_translation``, run by ``statements`` in the caller's
    transaction once the permission is checked: the hot single-value path, a handful of
    statements by the driver and no ORM objects. ``file_records(project_id, file_name,
    codes)`` gives the file's record ids per language (``ensure_file_records`` creates the
    missing ones). A key that is not there yet is created, or refused (Forbidden) unless
    ``may_create``. ``reviews``: as ``patch_translation``'s."""
    with statements.pipelined():  # the turn and the reads in one round trip
        bump_at_commit(project_id, statements, file_name, key, updates)
        if file_records is ensure_file_records:
            file_records = file_records_ahead(project_id, file_name, updates, statements) or file_records
        events.expect(project_id, statements)
        before = events.key_before(statements, project_id, file_name, key)
    translation_id, stored = before.translation_id, before.values
    if translation_id is None and not may_create:
        raise Forbidden(f"key: {key!r} is not in the file {file_name!r}, and {KEY_CREATION_REFUSED}")
    _check_expected(expected or {}, stored)
    record_ids, _ = file_records(project_id, file_name, updates)
    now = utcnow()
    created = translation_id is None
    if created:
        stamp_at_commit(project_id, (file_name,), statements)  # a new key: every language's file
        translation_id = new_id()
        stamp = statements.timestamp(now)
        statements.insert(
            translations_table,
            TRANSLATION_COLUMNS,
            [(translation_id, project_id, file_name, key, natural_sort_key(key), stamp, stamp)],
        )
    new_rows, changed_rows, entries, results = [], [], [], {}
    for code, value in updates.items():
        row = (translation_id, code, value)
        if code not in stored:
            new_rows.append(row)
            entries.append((translation_id, key, file_name, code, "created", None, value))
        elif stored[code] != value:
            changed_rows.append(row)
            entries.append((translation_id, key, file_name, code, "updated", stored[code], value))
        results[code] = {
            "id": translation_id,
            "id_file": record_ids[code],
            "updated": code not in stored or stored[code] != value,
        }
    with statements.pipelined():  # the writes in one round trip
        _insert_values(project_id, new_rows, now, statements)
        update_values(changed_rows, now, statements, state=written_state())
        if entries and not created:
            touch_keys([translation_id], now, statements)
        try:
            history.record_rows(actor, project_id, entries, now, statements, before=before, stated=True)
        except Refused as refused:
            raise BadRequest(
                refused_message(lambda item: f"updates.{item['language']}.value", refused.issues),
                details={"issues": refused.issues},
            ) from None
        if reviews:
            # After the write paths gave the values their state: the caller's reason wins.
            written = new_rows + changed_rows
            await_review(statements, [(reviews[code], t, code) for t, code, _v in written if code in reviews])
    if created and statements is SESSION_STATEMENTS:
        history.keys_created(project_id, [(translation_id, key, file_name)], actor)
    return results


def _check_expected(expected: dict, stored: dict) -> None:
    """Conflict naming every language whose stored value is not the one the caller started
    from (None: no value)."""
    conflicts = {
        code: {"expected": value, "current": stored.get(code)}
        for code, value in expected.items()
        if stored.get(code) != value
    }
    if conflicts:
        fields = "; ".join(f"updates.{code}.expected" for code in sorted(conflicts))
        raise Conflict(
            f"{fields}: not the stored value (it changed since it was read); nothing was written. "
            "details.conflicts holds the current values: send one as expected to overwrite it.",
            details={"conflicts": conflicts},
        )


def bulk_upsert(actor, project_id: str, file_name: str, language_code: str, items: list[dict]) -> dict:
    """Upsert ``[{key, value}]`` in one language of one file, all or nothing.

    Returns counts: ``created`` (values that did not exist), ``updated`` (values changed)
    and ``unchanged``.
    """
    with unit_of_work():
        permissions = policy.require_permission(actor, project_id, policy.EDIT_TRANSLATIONS)
        policy.require_languages(permissions, [language_code])
        if permissions.protects_reviewed:
            reviewed = {
                key: value
                for _code, value, key in _reviewed_values(
                    project_id, file_name, [item["key"] for item in items], [language_code]
                )
            }
            policy.require_unreviewed(
                permissions,
                [
                    f"items.{index}.value"
                    for index, item in enumerate(items)
                    if item["key"] in reviewed and reviewed[item["key"]] != item["value"]
                ][:20],
            )
        bump_data_version(project_id, files=(file_name,), languages=(language_code,))
        ensure_file_records(project_id, file_name, [language_code])
        now = utcnow()
        # The file's keys, and in the same read what the checks run here need of them.
        before = events.file_before(SESSION_STATEMENTS, project_id, file_name, language_code, len(items))
        existing = before.keys
        stamp = driver_timestamp(now)
        new_translations, new_values, changed_values, entries = [], [], [], []
        unchanged = 0
        for item in items:
            key, value = item["key"], item["value"]
            translation_id, stored = existing.get(key, (None, None))
            if translation_id is None:
                translation_id = new_id()
                new_translations.append(
                    (translation_id, project_id, file_name, key, natural_sort_key(key), stamp, stamp)
                )
            if stored is None:
                new_values.append((translation_id, language_code, value))
                entries.append((translation_id, key, file_name, language_code, "created", None, value))
            elif stored != value:
                changed_values.append((translation_id, language_code, value))
                entries.append((translation_id, key, file_name, language_code, "updated", stored, value))
            else:
                unchanged += 1
        if new_translations and not permissions.can_manage_keys:
            names = ", ".join(repr(row[3]) for row in new_translations[:3])
            raise Forbidden(f"items: {names} not in the file {file_name!r}, and {KEY_CREATION_REFUSED}")
        if new_translations:
            stamp_files(project_id, (file_name,))  # new keys: every language's file
        with operation(
            actor, project_id, "bulk-upsert", fileName=file_name, language=language_code
        ) as details:
            insert_rows(translations_table, TRANSLATION_COLUMNS, new_translations)
            _insert_values(project_id, new_values, now)
            update_values(changed_values, now, state=written_state())
            created_ids = {row[0] for row in new_translations}
            touch_keys([row[0] for row in changed_values + new_values if row[0] not in created_ids], now)
            history.record_rows(actor, project_id, entries, now, file=before, stated=True)
            history.keys_created(project_id, [(row[0], row[3], row[2]) for row in new_translations], actor)
            details.update(created=len(new_values), updated=len(changed_values), changes=len(entries))
    refresh_statistics(
        {
            "translations": len(new_translations),
            "translation_values": len(new_values) + len(changed_values),
            "translation_history": len(entries),
        }
    )
    return {"created": len(new_values), "updated": len(changed_values), "unchanged": unchanged}


def fill_missing(
    actor,
    project_id: str,
    language: str,
    values: dict[str, str],
    *,
    kind: str,
    operation_id: str | None = None,
    tally: str | None = None,
) -> dict:
    """Write ``values`` (``{translation_id: value}``) in ``language`` where the active key
    still has no value there, or an empty one, as read in this transaction after the
    project's writers are serialised: a value written meanwhile is never overwritten, it is
    skipped (as a key gone to the trash is). Recorded as an operation of ``kind`` (continued
    when ``operation_id`` names one recorded earlier), with the written values' state and
    checks as on every write path; Refused (a check at ``refuse``) writes nothing. ``tally``
    names a count of the operation's details that adds up the values written. When the
    project protects reviewed values, a reviewed value (an empty one) is never written: it is
    listed under ``protected``. Returns ``{filled: [translation ids written], skipped: count,
    protected: [translation ids], operationId}``."""
    with unit_of_work():
        policy.require_permission(actor, project_id, policy.EDIT_TRANSLATIONS)
        bump_data_version(project_id, files=())
        protect = db.session.execute(
            select(Project.protect_reviewed).where(Project.id == project_id)
        ).scalar_one_or_none()
        found = []
        for chunk in in_chunks(list(values)):
            found += db.session.execute(
                select(Translation.id, Translation.key, Translation.file_name, TranslationValue.value)
                .outerjoin(
                    TranslationValue,
                    (TranslationValue.translation_id == Translation.id)
                    & (TranslationValue.language_code == language),
                )
                .where(
                    Translation.id.in_(chunk),
                    Translation.project_id == project_id,
                    Translation.deleted_at.is_(None),
                    or_(TranslationValue.value.is_(None), TranslationValue.value == ""),
                )
                .add_columns(TranslationValue.state)
            ).all()
        protected = [row[0] for row in found if protect and row[4] == REVIEWED]
        found = [row[:4] for row in found if not (protect and row[4] == REVIEWED)]
        files = sorted({row[2] for row in found})
        stamp_files(project_id, files, languages=(language,))
        for file_name in files:
            ensure_file_records(project_id, file_name, [language])
        now = utcnow()
        new_values, emptied, entries = [], [], []
        for translation_id, key, file_name, stored in found:
            value = values[translation_id]
            if stored is None:
                new_values.append((translation_id, language, value))
                entries.append((translation_id, key, file_name, language, "created", None, value))
            else:
                emptied.append((translation_id, language, value))
                entries.append((translation_id, key, file_name, language, "updated", stored, value))
        with operation(actor, project_id, kind, operation_id=operation_id) as recorded:
            _insert_values(project_id, new_values, now)
            update_values(emptied, now)
            touch_keys([row[0] for row in found], now)
            history.record_rows(actor, project_id, entries, now)
            recorded["changes"] = len(entries)
            if tally:
                recorded[tally] = len(entries)
    refresh_statistics({"translation_values": len(entries), "translation_history": len(entries)})
    return {
        "filled": [row[0] for row in found],
        "skipped": len(values) - len(found) - len(protected),
        "protected": protected,
        "operationId": recorded["operation_id"],
    }


def write_values(project_id: str, rows: list[tuple]) -> list[tuple]:
    """Write ``(translation_id, language, value, author)`` rows to active keys, in the
    caller's transaction (which checked the permission, called ``bump_data_version(project_id,
    files=())`` first, and wraps a bulk write in an ``operation`` block): each is written as
    every write path writes, its history entry recorded with its ``author`` (an actor, or
    anything with ``kind``, ``id`` and ``name``), its checks run and its review state set.
    Rows whose value is already stored are left. Refused (a check at ``refuse``) writes
    nothing. Returns the ``(translation_id, language)`` pairs written."""
    wanted = {(t, code): (value, author) for t, code, value, author in rows}
    ids = sorted({t for t, _code in wanted})
    languages = sorted({code for _t, code in wanted})
    keys, stored = {}, {}
    for chunk in in_chunks(ids):
        for t, key, file_name in db.session.execute(
            select(Translation.id, Translation.key, Translation.file_name).where(
                Translation.id.in_(chunk),
                Translation.project_id == project_id,
                Translation.deleted_at.is_(None),
            )
        ):
            keys[t] = (key, file_name)
        for t, code, value in db.session.execute(
            select(
                TranslationValue.translation_id, TranslationValue.language_code, TranslationValue.value
            ).where(TranslationValue.translation_id.in_(chunk), TranslationValue.language_code.in_(languages))
        ):
            stored[t, code] = value
    files = sorted({file_name for _key, file_name in keys.values()})
    stamp_files(project_id, files, languages=languages)
    languages_of = defaultdict(set)
    for t, code in wanted:
        if t in keys:
            languages_of[keys[t][1]].add(code)
    for file_name in files:
        ensure_file_records(project_id, file_name, sorted(languages_of[file_name]))
    now = utcnow()
    new_rows, changed_rows, by_author, written = [], [], defaultdict(list), []
    for (t, code), (value, author) in wanted.items():
        if t not in keys or stored.get((t, code)) == value:
            continue
        key, file_name = keys[t]
        if (t, code) in stored:
            changed_rows.append((t, code, value))
            entry = (t, key, file_name, code, "updated", stored[t, code], value)
        else:
            new_rows.append((t, code, value))
            entry = (t, key, file_name, code, "created", None, value)
        by_author[(author.kind, author.id, author.name)].append((author, entry))
        written.append((t, code))
    _insert_values(project_id, new_rows, now)
    update_values(changed_rows, now, state=written_state())
    touch_keys(sorted({t for t, _code in written}), now)
    for entries in by_author.values():
        history.record_rows(
            entries[0][0], project_id, [entry for _author, entry in entries], now, stated=True
        )
    refresh_statistics({"translation_values": len(new_rows), "translation_history": len(written)})
    return written


def bulk_delete(actor, project_id: str, file_name: str, keys: list[str], permanent: bool) -> dict:
    """Trash (or purge) the active translations with these keys in a file; unknown keys are
    ignored. Returns ``{deleted}``."""
    with unit_of_work():
        policy.require_permission(actor, project_id, policy.MANAGE_KEYS)
        bump_data_version(project_id, files=(file_name,))
        ids = []
        for chunk in in_chunks(keys):
            ids += db.session.execute(
                select(Translation.id).where(
                    Translation.project_id == project_id,
                    Translation.file_name == file_name,
                    Translation.deleted_at.is_(None),
                    Translation.key.in_(chunk),
                )
            ).scalars()
        with operation(actor, project_id, "bulk-delete", permanent, fileName=file_name) as details:
            details.update(keys=len(ids), changes=len(ids))
            if permanent:
                purge_translations(actor, project_id, ids)
                return {"deleted": len(ids)}
            now = utcnow()
            for chunk in in_chunks(ids):
                history.record_translation_event(actor, project_id, chunk, "deleted")
                db.session.execute(
                    update(Translation)
                    .where(Translation.id.in_(chunk))
                    .values(deleted_at=now, updated_at=now)
                )
        return {"deleted": len(ids)}


def _apply(actor, translation: Translation, event: Event) -> State:
    """Move one translation through the life cycle and record it in history."""
    target = transition(state_of(translation.deleted_at), event)
    action = {State.TRASHED: "deleted", State.ACTIVE: "restored", State.PURGED: "purged"}[target]
    history.record(
        actor,
        translation.project_id,
        [
            {
                "translation_id": translation.id,
                "key": translation.key,
                "file_name": translation.file_name,
                "action": action,
            }
        ],
    )
    now = utcnow()
    if target is State.PURGED:
        db.session.delete(translation)
    else:
        translation.deleted_at = now if target is State.TRASHED else None
        translation.updated_at = now
    db.session.flush()
    return target


def delete_translation(actor, project_id: str, translation_id: str, permanent: bool) -> None:
    """Move a translation to the trash, or purge it; NotFound for an unknown id, Conflict
    when trashing a translation already in the trash."""
    with unit_of_work():
        policy.require_permission(actor, project_id, policy.MANAGE_KEYS)
        bump_data_version(project_id, files=())
        translation = _in_project(project_id, translation_id)
        stamp_files(project_id, [translation.file_name])
        _apply(actor, translation, Event.PURGE if permanent else Event.TRASH)


def _trashed(project_id: str, translation_id: str) -> Translation:
    translation = db.session.get(Translation, translation_id)
    if translation is None or translation.project_id != project_id or translation.deleted_at is None:
        raise NotFound("id: no translation with this id in the trash.")
    return translation


def restore_translation(actor, project_id: str, translation_id: str) -> dict:
    """Bring a translation back from the trash; NotFound when it is not there, Conflict
    when its key has been taken again."""
    with unit_of_work():
        policy.require_permission(actor, project_id, policy.MANAGE_KEYS)
        bump_data_version(project_id, files=())
        translation = _trashed(project_id, translation_id)
        stamp_files(project_id, [translation.file_name])
        if _active(project_id, translation.file_name, translation.key) is not None:
            raise Conflict(
                f"key: {translation.key!r} exists again in {translation.file_name!r}; "
                "rename or delete that translation before restoring."
            )
        _apply(actor, translation, Event.RESTORE)
        return describe([translation])[0]


def purge_translation(actor, project_id: str, translation_id: str) -> None:
    """Permanently delete a trashed translation; NotFound when it is not in the trash."""
    with unit_of_work():
        policy.require_permission(actor, project_id, policy.MANAGE_KEYS)
        bump_data_version(project_id, files=())
        translation = _trashed(project_id, translation_id)
        stamp_files(project_id, [translation.file_name])
        _apply(actor, translation, Event.PURGE)


def list_trash(actor, project_id: str, limit: int, offset: int, file_name=None, q=None) -> tuple[list, int]:
    """Trashed translations, newest deletion first, with the total before paging."""
    policy.require_permission(actor, project_id, policy.VIEW_TRANSLATIONS)
    query = select(Translation).where(
        Translation.project_id == project_id, Translation.deleted_at.is_not(None)
    )
    if file_name is not None:
        query = query.where(Translation.file_name == file_name)
    if q:
        query = query.where(Translation.key.icontains(q, autoescape=True))
    total = db.session.execute(select(func.count()).select_from(query.subquery())).scalar_one()
    page = db.session.execute(
        query.order_by(Translation.deleted_at.desc(), Translation.id).limit(limit).offset(offset)
    ).scalars()
    return describe(list(page)), total


def list_keys(actor, project_id: str, file_name=None) -> list[str]:
    policy.require_permission(actor, project_id, policy.VIEW_TRANSLATIONS)
    query = select(Translation.key).where(
        Translation.project_id == project_id, Translation.deleted_at.is_(None)
    )
    if file_name is not None:
        query = query.where(Translation.file_name == file_name)
    return sorted(set(db.session.execute(query.distinct()).scalars()))


def list_history(actor, project_id: str, filters: dict, limit: int, cursor: int | None):
    policy.require_permission(actor, project_id, policy.VIEW_TRANSLATIONS)
    return history.list_history(project_id, filters, limit, cursor)


def purge_expired_trash(actor, retention_days: int) -> int:
    """Purge translations trashed more than ``retention_days`` ago in every project (0 = never)."""
    if retention_days <= 0:
        return 0
    cutoff = utcnow() - timedelta(days=retention_days)
    with unit_of_work():
        rows = db.session.execute(
            select(Translation.project_id, Translation.id, Translation.file_name).where(
                Translation.deleted_at.is_not(None), Translation.deleted_at < cutoff
            )
        ).all()
        by_project, files = defaultdict(list), defaultdict(set)
        for project_id, translation_id, file_name in rows:
            by_project[project_id].append(translation_id)
            files[project_id].add(file_name)
        for project_id, ids in by_project.items():
            bump_data_version(project_id, files=files[project_id])
            purge_translations(actor, project_id, ids)
        # What a file or language delete kept is gone for good with them.
        expire_operations(before=cutoff)
        return len(rows)
