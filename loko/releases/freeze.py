"""The string freeze: while a release's freeze holds, the project's source texts change only
for its admins (``policy.may_change_frozen_source``). Every write of values records history
(``loko.translations.history``), which asks the write guards (``events.writing_values``)
before it writes: one small indexed query,
and the project's source language only when a freeze holds."""

from sqlalchemy import bindparam, or_, select

from loko import events
from loko.auth import policy
from loko.database import SESSION_STATEMENTS, DriverQuery
from loko.projects.models import Project
from loko.releases.models import Release

# The releases whose freeze holds at :now, the one ending last first (a project has few).
FREEZE_NOW = DriverQuery(
    select(Release.name, Release.freeze_until, Project.source_language)
    .join(Project, Project.id == Release.project_id)
    .where(
        Release.project_id == bindparam("project_id"),
        Release.freeze_from.is_not(None),
        Release.freeze_from <= bindparam("now"),
        or_(Release.freeze_until.is_(None), Release.freeze_until > bindparam("now")),
    )
    .order_by(Release.freeze_until.is_(None).desc(), Release.freeze_until.desc())
)


def holding_freeze(project_id: str, now, statements=SESSION_STATEMENTS) -> tuple | None:
    """``(release name, freeze end or None, source language)`` of the freeze holding at
    ``now``, or None."""
    row = statements.query(
        FREEZE_NOW, {"project_id": project_id, "now": statements.timestamp(now)}
    ).fetchone()
    return None if row is None else tuple(row)


def check_source_writes(actor, project_id: str, languages, now, statements=SESSION_STATEMENTS) -> None:
    """Forbidden (naming the language) when ``languages`` (those a write changes values in)
    hold the source language while a freeze holds, unless policy lets ``actor`` change
    frozen source texts."""
    freeze = holding_freeze(project_id, now, statements)
    if freeze is None:
        return
    name, until, source = freeze
    if source is None or source not in set(languages):
        return
    policy.require_frozen_source_write(actor, project_id, source, name, until)


def start_guarding() -> None:
    """Guard every write of values (called by ``create_app``)."""
    events.guard_writes(check_source_writes)
