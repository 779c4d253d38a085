"""Reverting a value: a history entry's old value written back as an ordinary change, so the
revert is itself recorded in history with its actor."""

from sqlalchemy import select

from loko.auth import policy
from loko.errors import Conflict, NotFound
from loko.extensions import db
from loko.translations.models import HistoryEntry, Translation, TranslationValue
from loko.translations.service import list_history, patch_translation

# History ids are 32-bit integers: a larger one names no entry (and would overflow the
# database's integer parameter).
MAX_ENTRY_ID = 2**31 - 1


def has_old_value(entry: dict) -> bool:
    """Whether an entry (as ``list_history`` describes it) changed a value that existed
    before: a ``created`` entry, or one about a whole translation, has nothing to go back to."""
    return entry["language"] is not None and entry["old_value"] is not None


def list_history_with_reverts(actor, project_id: str, filters: dict, limit: int, cursor: int | None):
    """``list_history`` (same arguments, errors and result), each entry marked
    ``revertible`` when it has an old value and its translation is still active."""
    entries, next_cursor = list_history(actor, project_id, filters, limit, cursor)
    return _mark_revertible(project_id, entries), next_cursor


def _mark_revertible(project_id: str, entries: list[dict]) -> list[dict]:
    """One query for the whole page."""
    ids = {entry["translation_id"] for entry in entries if has_old_value(entry)}
    active = set()
    if ids:
        active = set(
            db.session.execute(
                select(Translation.id).where(
                    Translation.project_id == project_id,
                    Translation.id.in_(ids),
                    Translation.deleted_at.is_(None),
                )
            ).scalars()
        )
    for entry in entries:
        entry["revertible"] = has_old_value(entry) and entry["translation_id"] in active
    return entries


def revert_history_entry(actor, project_id: str, entry_id: int) -> dict:
    """Write a history entry's old value back through ``patch_translation`` (same results).

    Forbidden or NotFound as ``policy.require_permission`` decides (canEditTranslations);
    NotFound for an entry of another project; Conflict when the entry has no old value, or
    its translation has been purged or is in the trash.
    """
    policy.require_permission(actor, project_id, policy.EDIT_TRANSLATIONS)
    entry = db.session.get(HistoryEntry, entry_id) if 0 < entry_id <= MAX_ENTRY_ID else None
    if entry is None or entry.project_id != project_id:
        raise NotFound("entry: no history entry with this id in this project.")
    if entry.language is None or entry.old_value is None:
        raise Conflict("entry: this change has no earlier value to go back to.")
    translation = db.session.get(Translation, entry.translation_id)
    if translation is None:
        raise Conflict(f"entry: the translation {entry.key!r} has been deleted permanently.")
    if translation.deleted_at is not None:
        raise Conflict(f"entry: the translation {entry.key!r} is in the trash; restore it first.")
    current = db.session.get(TranslationValue, (translation.id, entry.language))
    # Written only if the value is still the one read here, so that a change made in between
    # is not overwritten unseen. The key and file are the translation's current ones: the
    # file may have been renamed since the entry was written.
    try:
        return patch_translation(
            actor,
            project_id,
            translation.key,
            translation.file_name,
            {entry.language: entry.old_value},
            {entry.language: None if current is None else current.value},
        )
    except Conflict:
        raise Conflict(
            "entry: the translation changed meanwhile; reload the history and try again."
        ) from None
