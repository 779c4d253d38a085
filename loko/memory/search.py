"""The editor's search through the memory's trigram index: the keys of a project whose key
or a value may contain a term, for the editor to check exactly as it always has.

For a term of 3 characters or more, the index gives every key whose key or value contains
the term (letters in any case: a superset of what the editor's LIKE / ILIKE match), and the
keys written since the index's watermark are added; None when the term is shorter or the
candidates are many (a common term: the editor's own walk finds a page of them at once)."""

from sqlalchemy import select

from loko.extensions import db
from loko.languages.models import ProjectLanguage
from loko.memory import index
from loko.projects.models import Project
from loko.translations.models import HistoryEntry

MIN_TERM = 3
MAX_CANDIDATES = 1_000


def candidate_keys(project_id: str, term: str) -> list[str] | None:
    """Translation ids of the project whose key or a value may contain ``term``; None when
    the index cannot narrow the search (see the module's docstring)."""
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
    recent = db.session.scalars(
        select(HistoryEntry.translation_id).where(
            HistoryEntry.project_id == project_id, HistoryEntry.id > index.indexed_to()
        )
    ).all()
    found.update(recent)
    if len(found) > MAX_CANDIDATES:
        return None
    return sorted(found)
