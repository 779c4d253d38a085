"""Tags on keys: list a project's tags with how many keys carry each, read and change one
key's tags, and add or remove tags on a set of keys (named by id or chosen by a filter) in one
transaction as one operation (kind ``tag``), undoable as a whole.

Every change is set-based: for each tag one ``INSERT ... SELECT`` of the keys that lack it (or
one ``DELETE`` of those that carry it), with the same statement's selection first written to
``key_tag_changes`` under the operation's id, which is what the undo takes back.
"""

from sqlalchemy import and_, delete, exists, func, insert, literal, select, tuple_

from loko.auth import policy
from loko.database import in_chunks, unit_of_work, utcnow
from loko.errors import BadRequest, NotFound
from loko.extensions import db
from loko.fields import MAX_TAGS
from loko.projects.service import bump_data_version
from loko.tags.filters import TagFilter
from loko.tags.models import ADDED, REMOVED, KeyTag, TagChange
from loko.translations.models import Operation, Translation
from loko.translations.operations import current_operation_id, operation
from loko.translations.queries import contains_text
from loko.translations.undo import OperationUndo, register_undo

OPERATION_KIND = "tag"
LISTED = 1000


def list_tags(actor, project_id: str) -> list[dict]:
    """The project's tags, ``{name, keys}`` (the active keys carrying each), by name.
    Forbidden or NotFound as ``policy.require_permission`` decides."""
    policy.require_permission(actor, project_id, policy.VIEW_TAGS)
    rows = db.session.execute(
        select(KeyTag.tag, func.count())
        .join(Translation, Translation.id == KeyTag.translation_id)
        .where(KeyTag.project_id == project_id, Translation.deleted_at.is_(None))
        .group_by(KeyTag.tag)
        .order_by(KeyTag.tag)
    ).all()
    return [{"name": name, "keys": count} for name, count in rows]


def project_tag_names(project_id: str) -> list[str]:
    """The names of the project's tags (those on a key in the trash too), by name: one walk
    of the tags' index."""
    return list(
        db.session.execute(
            select(KeyTag.tag).where(KeyTag.project_id == project_id).distinct().order_by(KeyTag.tag)
        ).scalars()
    )


def tags_of(translation_ids: list[str]) -> dict[str, list[str]]:
    """``{translation id: its tags, by name}`` of the keys named (those with none left out)."""
    found: dict[str, list[str]] = {}
    for chunk in in_chunks(list(translation_ids)):
        for translation_id, tag in db.session.execute(
            select(KeyTag.translation_id, KeyTag.tag)
            .where(KeyTag.translation_id.in_(chunk))
            .order_by(KeyTag.translation_id, KeyTag.tag)
        ):
            found.setdefault(translation_id, []).append(tag)
    return found


def key_tags(actor, project_id: str, translation_id: str) -> dict:
    """One active key's tags: ``{translationId, key, fileName, tags}``. NotFound for a key
    that is not active in the project."""
    policy.require_permission(actor, project_id, policy.VIEW_TAGS)
    return _described(project_id, translation_id)


def change_key_tags(actor, project_id: str, translation_id: str, add=(), remove=()) -> dict:
    """Add ``add`` and remove ``remove`` on one active key, as one operation: the key as
    ``key_tags`` answers it, with ``operationId`` (None when nothing changed). Forbidden
    without canManageKeys; NotFound for a key not active here; BadRequest as ``tag_keys``."""
    result = tag_keys(actor, project_id, add=add, remove=remove, ids=[translation_id])
    return {**_described(project_id, translation_id), "operationId": result["operationId"]}


def tag_keys(
    actor,
    project_id: str,
    add=(),
    remove=(),
    ids: list[str] | None = None,
    key_filter: dict | None = None,
) -> dict:
    """Add the tags ``add`` to, and remove ``remove`` from, the active keys named by ``ids``
    or chosen by ``key_filter`` (``fileName``, ``search``, ``tags``, ``excludeTags``; every
    key of the project when empty), in one transaction as one operation (kind tag):
    ``{matched, added, removed, operationId}``. Forbidden without canManageKeys; BadRequest
    when no tag is named, a tag is both added and removed, or both ids and a filter are
    given; NotFound naming ``ids.N`` for an id that is not an active key of the project (and
    nothing is written)."""
    add, remove = tuple(dict.fromkeys(add)), tuple(dict.fromkeys(remove))
    if not add and not remove:
        raise BadRequest("add: name at least one tag to add or to remove.")
    if len(add) + len(remove) > MAX_TAGS:
        raise BadRequest(f"add: at most {MAX_TAGS} tags to add and remove in one request.")
    both = sorted(set(add) & set(remove))
    if both:
        raise BadRequest(f"remove: {both[0]!r} is both added and removed; name it once.")
    if ids is not None and key_filter:
        raise BadRequest("filter: choose the keys by ids or by a filter, not both.")
    with unit_of_work():
        policy.require_permission(actor, project_id, policy.MANAGE_TAGS)
        # Which keys a filter keeps may change: every export's ETag changes.
        bump_data_version(project_id)
        if ids is not None:
            _require_active(project_id, ids)
        keys = _chosen_keys(project_id, ids, key_filter or {})
        matched = db.session.execute(select(func.count()).select_from(keys.subquery())).scalar_one()
        with operation(actor, project_id, OPERATION_KIND, add=list(add), remove=list(remove)) as details:
            now = utcnow()
            added = sum(_add(project_id, tag, keys, now) for tag in add)
            removed = sum(_remove(project_id, tag, keys, now) for tag in remove)
            details.update(added=added, removed=removed, keys=matched, changes=added + removed)
    return {"matched": matched, "added": added, "removed": removed, "operationId": details["operation_id"]}


def _described(project_id: str, translation_id: str) -> dict:
    row = db.session.execute(
        select(Translation.key, Translation.file_name).where(
            Translation.id == translation_id,
            Translation.project_id == project_id,
            Translation.deleted_at.is_(None),
        )
    ).first()
    if row is None:
        raise NotFound("id: no active translation with this id in this project.")
    return {
        "translationId": translation_id,
        "key": row[0],
        "fileName": row[1],
        "tags": tags_of([translation_id]).get(translation_id, []),
    }


def _require_active(project_id: str, ids: list[str]) -> None:
    found = set()
    for chunk in in_chunks(list(dict.fromkeys(ids))):
        found.update(
            db.session.execute(
                select(Translation.id).where(
                    Translation.id.in_(chunk),
                    Translation.project_id == project_id,
                    Translation.deleted_at.is_(None),
                )
            ).scalars()
        )
    for index, translation_id in enumerate(ids):
        if translation_id not in found:
            raise NotFound(f"ids.{index}: no active translation with this id in this project.")


def key_conditions(project_id: str, key_filter: dict) -> list:
    """The conditions on ``Translation`` of a key filter (``fileName``, ``search`` in the
    key, and the tag filter's ``tags``/``tag``/``excludeTags``) over the project's active keys."""
    conditions = [Translation.project_id == project_id, Translation.deleted_at.is_(None)]
    if key_filter.get("fileName") is not None:
        conditions.append(Translation.file_name == key_filter["fileName"])
    if key_filter.get("search"):
        conditions.append(contains_text(Translation.key, key_filter["search"]))
    tags = TagFilter.from_query(key_filter)
    if tags:
        conditions.append(tags.condition(Translation.id))
    return conditions


def _chosen_keys(project_id: str, ids: list[str] | None, key_filter: dict):
    """A select of the chosen keys' ids (one column, ``id``)."""
    conditions = key_conditions(project_id, key_filter)
    if ids is not None:
        # Named keys were checked just before, in this transaction: a literal list reads
        # them by primary key (chunked ids never reach this far in one request's bound).
        conditions.append(Translation.id.in_(list(dict.fromkeys(ids))))
    return select(Translation.id).where(and_(*conditions))


def _add(project_id: str, tag: str, keys, now) -> int:
    lacking = keys.where(~exists().where(KeyTag.translation_id == Translation.id, KeyTag.tag == tag))
    # Counted first: an INSERT ... SELECT's rowcount is not told on every driver.
    recorded = _count(lacking.subquery())
    if not recorded:
        return 0
    at = literal(now, type_=TagChange.created_at.type)
    chosen = lacking.subquery()
    db.session.execute(
        insert(TagChange).from_select(
            ["project_id", "operation_id", "translation_id", "tag", "action", "created_at"],
            select(
                literal(project_id),
                literal(current_operation_id()),
                chosen.c.id,
                literal(tag),
                literal(ADDED),
                at,
            ),
        )
    )
    # The same selection again: the tags are not there yet, so it names the same keys.
    chosen = lacking.subquery()
    db.session.execute(
        insert(KeyTag).from_select(
            ["translation_id", "tag", "project_id", "created_at"],
            select(chosen.c.id, literal(tag), literal(project_id), at),
        )
    )
    return recorded


def add_tag_in_operation(project_id: str, tag: str, translation_ids: list[str]) -> int:
    """Add ``tag`` to the keys named (the project's), inside the caller's transaction and
    operation (an import's): the number of keys that lacked it. The caller checked
    canManageKeys."""
    added, now = 0, utcnow()
    for chunk in in_chunks(sorted(set(translation_ids))):
        keys = select(Translation.id).where(Translation.project_id == project_id, Translation.id.in_(chunk))
        added += _add(project_id, tag, keys, now)
    return added


def _count(subquery) -> int:
    return db.session.execute(select(func.count()).select_from(subquery)).scalar_one()


def _remove(project_id: str, tag: str, keys, now) -> int:
    carrying = (
        select(KeyTag.translation_id)
        .where(KeyTag.project_id == project_id, KeyTag.tag == tag, KeyTag.translation_id.in_(keys))
        .subquery()
    )
    recorded = _count(carrying)
    if not recorded:
        return 0
    db.session.execute(
        insert(TagChange).from_select(
            ["project_id", "operation_id", "translation_id", "tag", "action", "created_at"],
            select(
                literal(project_id),
                literal(current_operation_id()),
                carrying.c.translation_id,
                literal(tag),
                literal(REMOVED),
                literal(now, type_=TagChange.created_at.type),
            ),
        )
    )
    db.session.execute(
        delete(KeyTag).where(
            KeyTag.project_id == project_id, KeyTag.tag == tag, KeyTag.translation_id.in_(keys)
        )
    )
    return recorded


# -- Undo -------------------------------------------------------------------------------


def changed_tags(project_id: str, operation_id: str) -> bool:
    """Whether the operation changed tags (a tagging, or the undo of one)."""
    return (
        db.session.execute(
            select(TagChange.id)
            .where(TagChange.project_id == project_id, TagChange.operation_id == operation_id)
            .limit(1)
        ).first()
        is not None
    )


def undo_tagging(actor, project_id: str, chosen: Operation, dry_run: bool) -> dict:
    """The undo of an operation that changed tags (a tagging, or the undo of one), as the
    undo of values answers it.

    Each tag the operation added is removed, and each it removed is added back, unless it
    changed again since (it is listed as a conflict and left as it is) or, for one to add
    back, the key is gone for good. canManageKeys (Forbidden). Recorded as an operation of
    kind undo whose own undo takes the tags back again."""
    rows = db.session.execute(
        select(TagChange.translation_id, TagChange.tag, TagChange.action)
        .where(TagChange.project_id == project_id, TagChange.operation_id == chosen.id)
        .order_by(TagChange.id)
    ).all()
    policy.require_permission(actor, project_id, policy.MANAGE_TAGS)
    # (key, tag) -> [carried before, carried after]
    states: dict[tuple, list] = {}
    for translation_id, tag, action in rows:
        pair = states.setdefault((translation_id, tag), [action == REMOVED, None])
        pair[1] = action == ADDED
    present = _present(project_id, list(states))
    names = _names(project_id, sorted({translation_id for translation_id, _tag in states}))
    to_add, to_remove, conflicts, changes = [], [], [], []
    for (translation_id, tag), (before, after) in states.items():
        if before == after:
            continue
        file_name, key = names.get(translation_id, (None, None))
        if file_name is None:
            continue  # the key was deleted for good since: its tags went with it
        now_carried = (translation_id, tag) in present
        if now_carried != after:
            conflicts.append(_conflict(file_name, key, tag, after, now_carried))
        elif before:
            to_add.append((translation_id, tag))
            changes.append(_change(file_name, key, None, tag))
        else:
            to_remove.append((translation_id, tag))
            changes.append(_change(file_name, key, tag, None))
    if not dry_run:
        bump_data_version(project_id)
        with operation(actor, project_id, "undo", undoes={"operationId": chosen.id}) as details:
            now = utcnow()
            operation_id = current_operation_id()
            for chunk in in_chunks(to_remove):
                db.session.execute(delete(KeyTag).where(tuple_(KeyTag.translation_id, KeyTag.tag).in_(chunk)))
            if to_add:
                db.session.execute(
                    insert(KeyTag),
                    [
                        {"translation_id": t, "tag": tag, "project_id": project_id, "created_at": now}
                        for t, tag in to_add
                    ],
                )
            changed = [(t, tag, ADDED) for t, tag in to_add] + [(t, tag, REMOVED) for t, tag in to_remove]
            if changed:
                db.session.execute(
                    insert(TagChange),
                    [
                        {
                            "project_id": project_id,
                            "operation_id": operation_id,
                            "translation_id": t,
                            "tag": tag,
                            "action": action,
                            "created_at": now,
                        }
                        for t, tag, action in changed
                    ],
                )
            details.update(added=len(to_add), removed=len(to_remove), changes=len(changed))
        operation_id = details["operation_id"]
    else:
        operation_id = None
    return {
        "dryRun": dry_run,
        "undone": chosen.id,
        "operationId": operation_id,
        "summary": {
            "created": 0,
            "updated": len(changes),
            "deleted": 0,
            "restored": 0,
            "trashed": 0,
            "languages": [],
            "conflicts": len(conflicts),
            "included": 0,
        },
        "changes": changes[:LISTED],
        "conflicts": conflicts[:LISTED],
        "included": [],
        "truncated": len(changes) > LISTED or len(conflicts) > LISTED,
    }


def history_text(tag: str | None) -> str | None:
    """A tag as the undo lists it, as key details are: ``tag: web``."""
    return None if tag is None else f"tag: {tag}"


def _change(file_name: str, key: str, old: str | None, new: str | None) -> dict:
    return {
        "fileName": file_name,
        "key": key,
        "language": None,
        "action": "updated",
        "old_value": history_text(old),
        "new_value": history_text(new),
    }


def _conflict(file_name: str, key: str, tag: str, expected: bool, carried: bool) -> dict:
    return {
        "fileName": file_name,
        "key": key,
        "language": None,
        "reason": "changed since",
        "expected": history_text(tag) if expected else None,
        "current": history_text(tag) if carried else None,
        "by": None,
        "at": None,
    }


def _present(project_id: str, pairs: list[tuple]) -> set[tuple]:
    found = set()
    for chunk in in_chunks(pairs):
        found.update(
            tuple(row)
            for row in db.session.execute(
                select(KeyTag.translation_id, KeyTag.tag).where(
                    KeyTag.project_id == project_id, tuple_(KeyTag.translation_id, KeyTag.tag).in_(chunk)
                )
            )
        )
    return found


def _names(project_id: str, ids: list[str]) -> dict[str, tuple]:
    found = {}
    for chunk in in_chunks(ids):
        for translation_id, file_name, key in db.session.execute(
            select(Translation.id, Translation.file_name, Translation.key).where(
                Translation.project_id == project_id, Translation.id.in_(chunk)
            )
        ):
            found[translation_id] = (file_name, key)
    return found


TAG_UNDO = OperationUndo(kinds=(OPERATION_KIND, "undo"), owns=changed_tags, undo=undo_tagging)


def start_listening() -> None:
    """Plug the undo of taggings into the undo of operations."""
    register_undo(TAG_UNDO)
