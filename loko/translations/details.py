"""Key details: what a translator needs to know about a key beyond its values (a comment
for translators, a disambiguating context and the longest value its place in the product
holds). They belong to the key, not to one language; imports fill the comment and context
from files that carry them, and this use case edits all three."""

from sqlalchemy import select

from loko import events
from loko.auth import policy
from loko.database import SESSION_STATEMENTS, unit_of_work, utcnow
from loko.errors import NotFound
from loko.extensions import db
from loko.projects.service import bump_data_version, stamp_files
from loko.translations import history
from loko.translations.models import Translation
from loko.translations.service import describe

# The detail, as the API names it, and its column.
DETAIL_FIELDS = {"comment": "comment", "context": "context", "maxLength": "max_length"}
MAX_LENGTH = 8192


def details_of(translation: Translation) -> dict:
    """``{comment, context, maxLength}`` of a key (None where it has none)."""
    return {name: getattr(translation, column) for name, column in DETAIL_FIELDS.items()}


def history_text(name: str, value) -> str | None:
    """A detail as a history entry shows it: its name, then its value (None when unset)."""
    return None if value is None else f"{name}: {value}"


def update_key_details(
    actor,
    project_id: str,
    changes: dict,
    *,
    key: str | None = None,
    file_name: str | None = None,
    translation_id: str | None = None,
) -> dict:
    """Change an active key's details (``changes`` holds some of comment, context and
    maxLength; None or "" clears one), found by ``translation_id`` or by ``key`` and
    ``file_name``. Each change is one history entry (action ``updated``, language null).
    Returns the translation as the API shows it. NotFound when the key is not active here."""
    with unit_of_work():
        policy.require_permission(actor, project_id, policy.MANAGE_KEYS)
        bump_data_version(project_id, files=())
        translation = _active_key(project_id, key, file_name, translation_id)
        stamp_files(project_id, [translation.file_name])
        entries = []
        for name, column in DETAIL_FIELDS.items():
            if name not in changes:
                continue
            new = changes[name] if changes[name] != "" else None
            old = getattr(translation, column)
            if new == old:
                continue
            setattr(translation, column, new)
            entries.append(
                {
                    "translation_id": translation.id,
                    "key": translation.key,
                    "file_name": translation.file_name,
                    "action": "updated",
                    "language": None,
                    "old_value": history_text(name, old),
                    "new_value": history_text(name, new),
                }
            )
        if entries:
            translation.updated_at = utcnow()
            history.record(actor, project_id, entries)
            db.session.flush()
            events.details_changed(project_id, [translation.id], SESSION_STATEMENTS)
        db.session.flush()
        return describe([translation])[0]


def _active_key(project_id: str, key: str | None, file_name: str | None, translation_id: str | None):
    condition = (
        Translation.id == translation_id
        if translation_id is not None
        else (Translation.key == key) & (Translation.file_name == file_name)
    )
    translation = db.session.execute(
        select(Translation).where(
            condition, Translation.project_id == project_id, Translation.deleted_at.is_(None)
        )
    ).scalar_one_or_none()
    if translation is None:
        if translation_id is not None:
            raise NotFound("id: no active translation with this id in this project.")
        raise NotFound(f"key: no active translation {key!r} in the file {file_name!r}.")
    return translation
