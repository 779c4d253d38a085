"""Releases: a name for a moment of a project's history (``v1.2``: now, or a given instant
or operation). Its export by name is the project as it was then, read from the history
(``loko.translations.timeline``), so it never changes; two releases (or one and now) are
compared key by key and language by language. A release may hold a string freeze
(``loko.releases.freeze``)."""

from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from loko import events
from loko.auth import policy
from loko.auth.actors import actor_summary
from loko.database import SESSION_STATEMENTS, unit_of_work, utcnow
from loko.errors import BadRequest, Conflict, NotFound
from loko.extensions import db
from loko.projects.models import Project
from loko.releases import freeze
from loko.releases.models import Release
from loko.translations import timeline
from loko.translations.models import Translation, TranslationValue
from loko.translations.timeline import Moment

LISTED = 1000  # changes listed per kind in a comparison; the counts are always complete


def describe(release: Release) -> dict:
    """A release as the API shows it."""
    now = utcnow()
    frozen = (
        release.freeze_from is not None
        and release.freeze_from <= now
        and (release.freeze_until is None or release.freeze_until > now)
    )
    return {
        "id": release.id,
        "name": release.name,
        "description": release.description,
        "at": release.at,
        "operationId": release.operation_id,
        "freezeFrom": release.freeze_from,
        "freezeUntil": release.freeze_until,
        "frozen": frozen,
        "tag": release.tag,
        "createdAt": release.created_at,
        "createdBy": {
            "type": release.created_by_type,
            "id": release.created_by_id,
            "name": release.created_by_name,
        },
    }


def _project(project_id: str) -> Project:
    project = db.session.get(Project, project_id)
    if project is None:
        raise NotFound(policy.PROJECT_NOT_FOUND)
    return project


def _named(project_id: str, name: str, field: str = "name") -> Release:
    release = db.session.execute(
        select(Release).where(Release.project_id == project_id, Release.name == name)
    ).scalar_one_or_none()
    if release is None:
        raise NotFound(f"{field}: this project has no release named {name!r}.")
    return release


def create_release(actor, project_id: str, data: dict, tag: str | None = None) -> dict:
    """Name the moment ``data["asOf"]`` (an instant or an operation id; now when left out)
    ``data["name"]``, with an optional description and string freeze. canManageReleases
    (Forbidden or NotFound as ``policy.require_permission`` decides); BadRequest as
    ``timeline.resolve_moment`` decides, and for a freeze ending before it begins; Conflict
    when the project has a release of that name."""
    with unit_of_work():
        policy.require_permission(actor, project_id, policy.MANAGE_RELEASES)
        project = _project(project_id)
        if data.get("asOf"):
            moment = timeline.resolve_moment(project_id, project.created_at, data["asOf"])
        else:
            now = utcnow()
            moment = Moment(now, timeline.latest_entry(project_id, now))
        freeze_from, freeze_until = data.get("freezeFrom"), data.get("freezeUntil")
        if freeze_until is not None and freeze_from is None:
            freeze_from = utcnow()
        if freeze_from is not None and freeze_until is not None and freeze_until <= freeze_from:
            raise BadRequest("freezeUntil: the freeze must end after it begins.")
        if db.session.execute(
            select(Release.id).where(Release.project_id == project_id, Release.name == data["name"])
        ).first():
            raise Conflict(f"name: this project already has a release named {data['name']!r}.")
        summary = actor_summary(actor)
        release = Release(
            project_id=project_id,
            name=data["name"],
            description=data.get("description") or "",
            at=moment.at,
            operation_id=moment.operation_id,
            entry_id=moment.entry_id,
            freeze_from=freeze_from,
            freeze_until=freeze_until,
            tag=tag,
            created_at=utcnow(),
            created_by_type=summary["type"],
            created_by_id=summary["id"],
            created_by_name=summary["name"],
        )
        db.session.add(release)
        try:
            db.session.flush()
        except IntegrityError:
            raise Conflict(f"name: this project already has a release named {data['name']!r}.") from None
        events.audited(
            actor,
            project_id,
            "release.created",
            events.Target("release", release.id, release.name),
            {"at": moment.stamp},
        )
        return describe(release)


def list_releases(actor, project_id: str) -> list[dict]:
    """The project's releases, newest moment first. canViewTranslations."""
    policy.require_permission(actor, project_id, policy.VIEW_RELEASES)
    rows = db.session.execute(
        select(Release).where(Release.project_id == project_id).order_by(Release.at.desc(), Release.name)
    ).scalars()
    return [describe(row) for row in rows]


def get_release(actor, project_id: str, name: str) -> dict:
    """One release; NotFound naming ``name`` when there is none."""
    policy.require_permission(actor, project_id, policy.VIEW_RELEASES)
    return describe(_named(project_id, name))


def delete_release(actor, project_id: str, name: str) -> None:
    """Delete a release (and its freeze); the history it named stays. canManageReleases;
    NotFound naming ``name``."""
    with unit_of_work():
        policy.require_permission(actor, project_id, policy.MANAGE_RELEASES)
        release = _named(project_id, name)
        db.session.delete(release)
        events.audited(actor, project_id, "release.deleted", events.Target("release", release.id, name))


def release_moment(project_id: str, name: str) -> Moment:
    """The moment a release names (for its export; the caller checked access). NotFound
    naming ``release``."""
    release = _named(project_id, name, field="release")
    return Moment(release.at, release.entry_id, release.operation_id)


def holding_freeze(project_id: str) -> dict | None:
    """``{release, until}`` of the string freeze holding now, or None (for the overview)."""
    held = freeze.holding_freeze(project_id, utcnow(), SESSION_STATEMENTS)
    if held is None:
        return None
    until = held[1]
    if isinstance(until, str):  # SQLite's driver reads the stored text
        until = datetime.fromisoformat(until)
    if until is not None and until.tzinfo is None:
        until = until.replace(tzinfo=UTC)
    return {"release": held[0], "until": until}


@dataclass(frozen=True)
class Side:
    """One side of a comparison: a release, or the project now (``release`` None)."""

    release: Release | None

    def label(self) -> dict:
        if self.release is None:
            return {"release": None, "at": None}
        return {"release": self.release.name, "at": self.release.at}


def _present(project_id: str) -> tuple[set, dict]:
    keys = {
        tuple(row)
        for row in db.session.execute(
            select(Translation.file_name, Translation.key).where(
                Translation.project_id == project_id, Translation.deleted_at.is_(None)
            )
        )
    }
    values = {
        (file_name, key, language): value
        for file_name, key, language, value in db.session.execute(
            select(
                Translation.file_name, Translation.key, TranslationValue.language_code, TranslationValue.value
            )
            .join(TranslationValue, TranslationValue.translation_id == Translation.id)
            .where(Translation.project_id == project_id, Translation.deleted_at.is_(None))
        )
    }
    return keys, values


def _state(project_id: str, side: Side) -> tuple[set, dict]:
    if side.release is None:
        return _present(project_id)
    at = side.release.at
    return timeline.keys_at(project_id, at), timeline.values_at(project_id, at)


def compare_releases(actor, project_id: str, name: str, other: str | None = None) -> dict:
    """What changed from the release ``name`` to the release ``other`` (the project now when
    None): keys added and removed, and per language the values added, removed and changed.
    canViewTranslations; NotFound naming ``name`` or ``with``."""
    policy.require_permission(actor, project_id, policy.VIEW_RELEASES)
    base = Side(_named(project_id, name))
    target = Side(_named(project_id, other, field="with") if other is not None else None)
    keys_before, values_before = _state(project_id, base)
    keys_after, values_after = _state(project_id, target)
    added_keys = sorted(keys_after - keys_before)
    removed_keys = sorted(keys_before - keys_after)
    languages: dict[str, dict[str, list]] = {}

    def of(language: str) -> dict:
        return languages.setdefault(language, {"added": [], "removed": [], "changed": []})

    for entry in sorted(values_after.keys() | values_before.keys()):
        file_name, key, language = entry
        old, new = values_before.get(entry), values_after.get(entry)
        if old == new:
            continue
        item = {"fileName": file_name, "key": key, "old": old, "new": new}
        kind = "added" if old is None else "removed" if new is None else "changed"
        of(language)[kind].append(item)
    return {
        "from": base.label(),
        "to": target.label(),
        "keys": {
            "added": [{"fileName": f, "key": k} for f, k in added_keys[:LISTED]],
            "removed": [{"fileName": f, "key": k} for f, k in removed_keys[:LISTED]],
            "addedCount": len(added_keys),
            "removedCount": len(removed_keys),
        },
        "languages": {
            language: {
                **{kind: items[:LISTED] for kind, items in changes.items()},
                "counts": {kind: len(items) for kind, items in changes.items()},
            }
            for language, changes in sorted(languages.items())
        },
        "truncated": max(
            [len(added_keys), len(removed_keys)]
            + [len(items) for changes in languages.values() for items in changes.values()]
        )
        > LISTED,
    }
