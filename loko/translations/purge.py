"""Deleting translations for good. Their history stays: each gets a ``purged`` entry first,
and values go with their translation by cascade."""

from sqlalchemy import Select

from loko.database import in_chunks
from loko.extensions import db
from loko.translations import history
from loko.translations.models import Translation


def purge_translations(actor, project_id: str, translations: list[str] | Select) -> None:
    """Delete ``translations``, ids or a select of ids, inside the caller's transaction."""
    batches = [translations] if isinstance(translations, Select) else in_chunks(translations)
    for batch in batches:
        history.record_translation_event(actor, project_id, batch, "purged")
        db.session.execute(db.delete(Translation).where(Translation.id.in_(batch)))
