"""The editor's search through the memory's trigram index: the keys of a project whose key
or a value may contain a term, for the editor to check exactly as it always has.

For a term of 3 characters or more, the index gives every key whose key or value contains
the term (letters in any case: a superset of what the editor's LIKE / ILIKE match), and the
keys written since the index's watermark are added; None when the term is shorter or the
candidates are many (a common term: the editor's own walk finds a page of them at once)."""

from sqlalchemy import select

from loko.database import in_chunks
from loko.extensions import db
from loko.languages.models import ProjectLanguage
from loko.memory import index
from loko.projects.models import Project
from loko.translations.models import HistoryEntry, Translation

MIN_TERM = 3
MAX_CANDIDATES = 1_000


def candidate_keys(project_id: str, term: str) -> list[str] | None:
    """Translation ids of the project's keys out of the trash whose key or a value may
    contain ``term``; None when the index cannot narrow the search (see the module's
    docstring)."""
    if len(term) < MIN_TERM:
        return None
    organization_id = db.session.execute(
        select(Project.organization_id).where(Project.id == project_id)
    ).scalar_one_or_none()
    if organization_id is None:
        return None
    languages = db.session.scalars(
        select(ProjectLanguage.code).where(ProjectLanguage.project_id == project_id)
    ).all()
    found: set[str] = set()
    for scope in index.scopes(organization_id, [index.KEY_SCOPE, *languages]).values():
        low, high = index.id_range(scope)
        keys = index.containing_in_project(term, low, high, project_id, MAX_CANDIDATES + 1)
        if keys is None:
            return None
        found.update(keys)
        if len(found) > MAX_CANDIDATES:
            return None
    # The keys written since the watermark, no more of them than could still do: right after
    # an import the index is behind by all of it, and the walk serves a common term faster.
    recent = db.session.scalars(
        select(HistoryEntry.translation_id)
        .where(HistoryEntry.project_id == project_id, HistoryEntry.id > index.indexed_to())
        .distinct()
        .limit(MAX_CANDIDATES + 1)
    ).all()
    found.update(recent)
    if len(found) > MAX_CANDIDATES:
        return None
    return _active_keys(project_id, found)


def _active_keys(project_id: str, ids) -> list[str]:
    """Those of ``ids`` that are the project's keys out of the trash, read by primary key:
    "deleted_at IS NULL" beside the ids in one statement lets a planner without statistics
    read the partial index of every key that is not in the trash."""
    active = []
    for chunk in in_chunks(sorted(ids), 1000):
        rows = db.session.execute(
            select(Translation.id, Translation.project_id, Translation.deleted_at).where(
                Translation.id.in_(chunk)
            )
        ).all()
        active += [key for key, project, deleted_at in rows if project == project_id and deleted_at is None]
    return sorted(active)
