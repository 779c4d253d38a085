"""Projects: listing, creation, settings (with the linked-project rules), deletion, roles."""

from contextlib import nullcontext
from dataclasses import dataclass

from sqlalchemy import func, update

from loko import events
from loko.auth import policy
from loko.auth.actors import ApiKeyActor
from loko.auth.models import User
from loko.database import SESSION_STATEMENTS, transaction_info, unit_of_work, utcnow, with_commit
from loko.errors import BadRequest, NotFound
from loko.extensions import db
from loko.files.models import language_version_name, wide_version_name
from loko.languages.catalog import flag_emoji, language_name
from loko.languages.models import ProjectLanguage
from loko.organizations.models import Organization, OrganizationMember
from loko.projects.check_levels import merged_levels
from loko.projects.models import LINK_FIELDS, Project, ProjectMember

SETTINGS_FIELDS = ("name", "desc", "emoji", "source_language", "memory_shared", "public", *LINK_FIELDS)


@dataclass(frozen=True)
class Link:
    """A linked project: this project's language ``target`` inherits ``source`` of the
    project ``project_id``."""

    project_id: str
    source: str
    target: str


def link_of(project) -> Link | None:
    """The project's link, if it has one (``project`` is a Project or a row with its
    ``linked_*`` columns)."""
    if not project.linked_project_id:
        return None
    return Link(project.linked_project_id, project.linked_language_code, project.linked_language_target_code)


@dataclass(frozen=True)
class ProjectView:
    """A project as one caller sees it: its record plus that caller's permission flags."""

    project: Project
    permissions: policy.Permissions


def list_projects(actor, organization_id: str | None = None) -> list[ProjectView]:
    """Projects the caller can view (of one organization, when given): an API key sees its
    own project."""
    actor = policy.require_actor(actor)
    if isinstance(actor, ApiKeyActor):
        candidates = db.select(Project).where(Project.id == actor.project_id)
    else:
        candidates = (
            db.select(Project)
            .join(OrganizationMember, OrganizationMember.organization_id == Project.organization_id)
            .where(OrganizationMember.user_id == actor.id)
        )
    if organization_id is not None:
        candidates = candidates.where(Project.organization_id == organization_id)
    projects = db.session.execute(candidates.order_by(func.lower(Project.name), Project.id)).scalars()
    views = [ProjectView(p, policy.permissions_for(actor, p)) for p in projects]
    return [view for view in views if view.permissions.can_view_translations]


def create_project(
    actor,
    organization_id: str,
    name: str,
    desc: str = "",
    emoji: str = "",
    source_language: str | None = None,
) -> ProjectView:
    """Create a project (with its source language as its first language, when given);
    NotFound outside the organization, Forbidden unless owner or admin."""
    with unit_of_work():
        policy.require_organization_role(actor, organization_id, "owner", "admin")
        project = insert_project(organization_id, name, desc, emoji)
        if source_language is not None:
            code = source_language
            db.session.add(
                ProjectLanguage(
                    project_id=project.id, code=code, name=language_name(code), emoji=flag_emoji(code)
                )
            )
            project.source_language = code
            db.session.flush()
        events.audited(actor, project, "project.created", details={"sourceLanguage": source_language})
    return ProjectView(project, policy.permissions_for(actor, project))


def insert_project(organization_id: str, name: str, desc: str = "", emoji: str = "") -> Project:
    """Add a project to an existing organization (inside the caller's transaction);
    NotFound for an unknown organization."""
    if db.session.get(Organization, organization_id) is None:
        raise NotFound("Organization not found.")
    project = Project(organization_id=organization_id, name=name, desc=desc, emoji=emoji)
    db.session.add(project)
    db.session.flush()
    return project


# A change confined to named files (``bump_data_version`` with ``files``): before the bump,
# ``shared_version`` takes the data version unless the last bump was confined too.
SHARED_BUMP = "UPDATE projects SET data_version = data_version + 1, data_updated_at = ? WHERE id = ?"
SCOPED_BUMP = (
    "UPDATE projects SET shared_version = CASE WHEN data_version = scoped_version "
    "THEN shared_version ELSE data_version END, data_version = data_version + 1, "
    "scoped_version = data_version + 1, data_updated_at = ? WHERE id = ?"
)
STAMP_FILE = (
    "INSERT INTO file_versions (project_id, file_name, version) "
    "SELECT id, ?, data_version FROM projects WHERE id = ? "
    "ON CONFLICT (project_id, file_name) DO UPDATE SET version = excluded.version"
)


# A change confined to some languages' values of a file (``stamp_files`` with
# ``languages``) leaves the file's wide row as it stands, and writes it when it is not there
# (a file not written since these rows came) with the file's own version as it was, so that
# the other languages keep theirs. Once a process has seen the row there already, it no
# longer asks (a row missing all the same reads as the file's own version, which holds every
# change: it costs precision, never a stale export).
WIDE_BASELINE = (
    "INSERT INTO file_versions (project_id, file_name, version) "
    "SELECT id, ?, COALESCE((SELECT version FROM file_versions WHERE project_id = projects.id "
    "AND file_name = ?), 0) FROM projects WHERE id = ? "
    "ON CONFLICT (project_id, file_name) DO NOTHING RETURNING version"
)
WIDE_BASELINE_UNREAD = WIDE_BASELINE.removesuffix(" RETURNING version")
_WIDE_SEEN: set[tuple[str, str]] = set()
MOST_WIDE_SEEN = 100_000


# PostgreSQL: the writers of a project take turns by a transaction-level advisory lock (the
# first number, PROJECT_TURNS, names Loko's project locks; the second is the project id's
# hash). A PATCH of one key takes it shared (``bump_at_commit``), with a lock on its key
# (KEY_TURNS); every other write takes it alone (``bump_data_version``), before any row, so
# that it waits for the PATCHes in flight and they for it, and no two writers deadlock.
PROJECT_TURNS, KEY_TURNS = 1_0100_1, 1_0100_2
ALONE = "SELECT pg_advisory_xact_lock(?, hashtext(?))"
SHARED = "SELECT pg_advisory_xact_lock_shared(?, hashtext(?))"
_TURNS = "project_turns"


class TurnNeeded(Exception):
    """A PATCH taking its turn shared found it must change more than its key (a file record
    or a language to add): it starts again, alone (``patch_translation``)."""


def _turns(statements) -> dict | None:
    """The turns this transaction holds, ``{project_id: ALONE or SHARED}``, on PostgreSQL
    through the session; None elsewhere (SQLite writers take turns for the whole file)."""
    if statements is not SESSION_STATEMENTS or db.engine.dialect.name != "postgresql":
        return None
    return transaction_info().setdefault(_TURNS, {})


def take_turn_alone(project_id: str, statements=SESSION_STATEMENTS) -> None:
    """Take the project's writers' turn alone, unless this transaction holds it already; a
    transaction holding it shared may not (TurnNeeded): two such transactions would wait for
    each other."""
    turns = _turns(statements)
    if turns is None or turns.get(project_id) == ALONE:
        return
    if turns.get(project_id) == SHARED:
        raise TurnNeeded(f"the write of project {project_id} changes more than one key")
    statements.execute(ALONE, [(PROJECT_TURNS, project_id)])
    turns[project_id] = ALONE


def bump_at_commit(project_id: str, statements, file_name: str, key: str, languages) -> None:
    """``bump_data_version(project_id, statements, files=(file_name,), languages=languages)``
    for a PATCH of one key. On PostgreSQL it takes the project's turn shared with the other
    PATCHes and locks the key (two PATCHes of one key take turns, so the one that reads it
    second sees the first one's value, and its ``expected`` precondition holds); the bump
    itself is sent with the COMMIT (``with_commit``), so the project's row is locked only
    while the server commits. A transaction holding the turn alone bumps at once."""
    turns = _turns(statements)
    if turns is None or turns.get(project_id) == ALONE:
        bump_data_version(project_id, statements, files=(file_name,), languages=languages)
        return
    if project_id not in turns:
        statements.execute(SHARED, [(PROJECT_TURNS, project_id)])
        turns[project_id] = SHARED
    statements.execute(ALONE, [(KEY_TURNS, f"{project_id}/{file_name}/{key}")])
    with_commit(SCOPED_BUMP, (utcnow(), project_id))
    for sql, parameters in _stamp_statements(project_id, (file_name,), languages):
        with_commit(sql, parameters)


def stamp_at_commit(project_id: str, files, statements=SESSION_STATEMENTS) -> None:
    """``stamp_files(project_id, files, statements)``, sent with the COMMIT when the
    transaction's bump is (``bump_at_commit``)."""
    turns = _turns(statements)
    if turns is None or turns.get(project_id) != SHARED:
        stamp_files(project_id, files, statements)
        return
    for sql, parameters in _stamp_statements(project_id, files, None):
        with_commit(sql, parameters)


def bump_data_version(project_id: str, statements=SESSION_STATEMENTS, files=None, languages=None) -> None:
    """Mark the project's data as changed (the export ETag names this version).

    Every write use case calls it first: on PostgreSQL the row lock it takes also
    serialises concurrent writers of one project, so they cannot deadlock on each other.

    Without ``files`` the change may touch anything an export reads (a shared change):
    every export's ETag changes. With ``files`` (file names; may be empty, then the caller
    names its files with ``stamp_files`` once it knows them) the change is confined to the
    keys, values and records of the files it names: only an export of the whole project or
    of one of those files changes. With ``languages`` too, it is confined to those
    languages' values of those files (no key created, trashed or described): an export of
    those files in other languages keeps its ETag, and its kept ZIP members stay; a caller
    that then creates a key calls ``stamp_files`` without them. A use case that changes
    anything else (languages, the project's settings or link) bumps without ``files``, as
    every other ``data_version`` increment counts as shared.
    """
    bump = SHARED_BUMP if files is None else SCOPED_BUMP
    bumped = statements.bumped
    if bumped is not None:
        # Writes that share a transaction (a group commit) need one bump of each kind: the
        # versions are new for the state they commit together.
        confined = None if languages is None else tuple(sorted(set(languages)))
        mark = (bump, project_id, None if files is None else tuple(sorted(set(files))), confined)
        if mark in bumped:
            return
        bumped.add(mark)
    # The turn and the bump in one round trip (on PostgreSQL; a no-op elsewhere).
    with nullcontext() if statements.pipelining() else statements.pipelined():
        take_turn_alone(project_id, statements)
        statements.execute(bump, [(statements.timestamp(utcnow()), project_id)])
        if files:
            stamp_files(project_id, files, statements, languages)


def stamp_files(project_id: str, files, statements=SESSION_STATEMENTS, languages=None) -> None:
    """Note that a change, after its ``bump_data_version``, touches the files named
    ``files``: their version becomes the project's data version (one executemany), with
    their wide version (``wide_version_name``) or, when the change is confined to the
    values of ``languages``, those languages' versions (``language_version_name``)."""
    rows, baselines = _stamp_rows(project_id, files, languages)
    for baseline in baselines:
        if not statements.fetch(WIDE_BASELINE, baseline):  # there already
            if len(_WIDE_SEEN) >= MOST_WIDE_SEEN:
                _WIDE_SEEN.clear()
            _WIDE_SEEN.add((project_id, baseline[1]))
    statements.execute(STAMP_FILE, rows)


def _stamp_statements(project_id: str, files, languages) -> list[tuple[str, tuple]]:
    """``stamp_files``'s statements, each with its parameters, to send with the COMMIT: the
    wide rows' baselines written when missing (unread), then the stamps."""
    rows, baselines = _stamp_rows(project_id, files, languages)
    return [(WIDE_BASELINE_UNREAD, baseline) for baseline in baselines] + [(STAMP_FILE, row) for row in rows]


def _stamp_rows(project_id: str, files, languages) -> tuple[list[tuple], list[tuple]]:
    """The ``STAMP_FILE`` rows of ``stamp_files`` and the ``WIDE_BASELINE`` rows it may need."""
    rows, baselines = [], []
    for file_name in sorted(set(files)):
        rows.append((file_name, project_id))
        wide = wide_version_name(file_name)
        if wide is None:
            continue
        names = [language_version_name(file_name, code) for code in sorted(set(languages or ()))]
        if languages is None or None in names:
            rows.append((wide, project_id))
            continue
        rows += [(name, project_id) for name in names]
        if (project_id, file_name) not in _WIDE_SEEN:
            baselines.append((wide, file_name, project_id))
    return rows, baselines


def get_project(actor, project_id: str) -> ProjectView:
    project, permissions = policy.authorize(actor, project_id, policy.VIEW_TRANSLATIONS)
    return ProjectView(project, permissions)


def get_project_for_proposals(actor, project_id: str) -> ProjectView:
    """The project as its proposals' pages show it: to whoever reads its proposals, a public
    visitor too (``policy.VIEW_PROPOSALS``)."""
    project, permissions = policy.authorize(actor, project_id, policy.VIEW_PROPOSALS)
    return ProjectView(project, permissions)


def update_project(actor, project_id: str, changes: dict) -> ProjectView:
    """Change name, description, emoji, the source language, the link and the checks'
    levels; BadRequest when a link rule is broken, the source language is not one of the
    project's or a check or level is unknown."""
    with unit_of_work():
        project, permissions = policy.authorize(actor, project_id, policy.EDIT_PROJECTS)
        bump_data_version(project.id)
        db.session.refresh(project)
        if any(field in changes for field in LINK_FIELDS):
            _check_link(actor, project, changes)
        if "source_language" in changes:
            _check_source_language(project, changes["source_language"])
        _audit_settings(actor, project, changes)
        for field in SETTINGS_FIELDS:
            if field in changes:
                setattr(project, field, changes[field])
        if changes.get("checks"):
            project.checks = merged_levels(project.checks, changes["checks"])
        events.settings_changed(project.id, changes)
    return ProjectView(project, permissions)


def _audit_settings(actor, project: Project, changes: dict) -> None:
    """Record what ``changes`` changes: the settings (with the checks' levels) and the link."""
    changed = {
        field: {"from": getattr(project, field), "to": changes[field]}
        for field in SETTINGS_FIELDS
        if field not in LINK_FIELDS and field in changes and getattr(project, field) != changes[field]
    }
    checks = {code: level for code, level in (changes.get("checks") or {}).items()}
    if changed or checks:
        details = {"changes": changed} | ({"checks": checks} if checks else {})
        events.audited(actor, project, "project.settings_changed", details=details)
    link = {field: changes[field] for field in LINK_FIELDS if field in changes}
    if link and any(getattr(project, field) != value for field, value in link.items()):
        before = {field: getattr(project, field) for field in LINK_FIELDS}
        action = "project.unlinked" if link.get("linked_project_id") is None else "project.linked"
        events.audited(actor, project, action, details={"from": before, "to": link})


def _check_link(actor, project: Project, changes: dict) -> None:
    missing = [field for field in LINK_FIELDS if field not in changes]
    values = [changes.get(field) for field in LINK_FIELDS]
    if missing or (any(v is None for v in values) and any(v is not None for v in values)):
        raise BadRequest(
            "linked_project_id, linked_language_code and linked_language_target_code "
            "are set together: give all three, or all three as null to unlink."
        )
    linked_id, source_code, target_code = values
    if linked_id is None:
        return
    if linked_id == project.id:
        raise BadRequest("linked_project_id: a project cannot be linked to itself.")
    linked = db.session.get(Project, linked_id)
    if (
        linked is None
        or linked.organization_id != project.organization_id
        or not policy.permissions_for(actor, linked).can_view_translations
    ):
        raise BadRequest("linked_project_id: no such project in this project's organization.")
    if not _has_language(linked.id, source_code):
        raise BadRequest(f"linked_language_code: {source_code!r} is not a language of the linked project.")
    if not _has_language(project.id, target_code):
        raise BadRequest(f"linked_language_target_code: {target_code!r} is not a language of this project.")
    seen = {project.id}
    cursor = linked
    while cursor is not None and cursor.linked_project_id is not None:
        if cursor.linked_project_id in seen:
            raise BadRequest("linked_project_id: this link would create a cycle of linked projects.")
        seen.add(cursor.linked_project_id)
        cursor = db.session.get(Project, cursor.linked_project_id)


def _check_source_language(project: Project, code: str | None) -> None:
    """BadRequest unless ``code`` is one of the project's languages (None is accepted only as
    fetched: for a project without a source language)."""
    if code is None:
        if project.source_language is not None:
            raise BadRequest("source_language: choose one of the project's languages.")
    elif not _has_language(project.id, code):
        raise BadRequest(f"source_language: {code!r} is not a language of this project.")


def _has_language(project_id: str, code: str) -> bool:
    return db.session.get(ProjectLanguage, (project_id, code)) is not None


def delete_project(actor, project_id: str, confirm_name: str | None = None) -> str:
    """Delete a project and everything in it; projects linking to it are unlinked. Returns
    its organization's id. With ``confirm_name`` (a typed confirmation), BadRequest unless
    it is the project's name."""
    with unit_of_work():
        project, _ = policy.authorize(actor, project_id, policy.DELETE_PROJECT)
        organization_id = project.organization_id
        if confirm_name is not None and confirm_name.strip() != project.name.strip():
            raise BadRequest(
                "confirm_name: type the project's name exactly as shown to delete it; nothing was deleted."
            )
        db.session.execute(
            update(Project)
            .where(Project.linked_project_id == project_id)
            .values(
                linked_project_id=None,
                linked_language_code=None,
                linked_language_target_code=None,
                data_version=Project.data_version + 1,
            )
        )
        events.audited(actor, project, "project.deleted")
        after_commit = events.projects_deleting([project_id])
        db.session.execute(db.delete(Project).where(Project.id == project_id))
    events.projects_deleted(after_commit)
    return organization_id


UNCHANGED = object()


def set_member_role(actor, project_id: str, user_id: str, role: str | None, languages=UNCHANGED) -> dict:
    """Give an organization member a project role (None removes it), an editor or reviewer
    limited to ``languages`` (None or empty: every language; left out: as it was; another
    role drops the limit). NotFound for non-members, BadRequest for a language the project
    does not have."""
    with unit_of_work():
        project, _ = policy.authorize(actor, project_id, policy.EDIT_PROJECTS)
        user = db.session.get(User, user_id)
        if user is None or policy.organization_role(user_id, project.organization_id) is None:
            raise NotFound("This user is not a member of the project's organization.")
        member = db.session.get(ProjectMember, (project_id, user_id))
        before = member.role if member is not None else None
        if languages is not UNCHANGED:
            require_project_languages(project_id, languages or [])
        if role is None:
            if member is not None:
                db.session.delete(member)
            if before is not None:
                events.audited(
                    actor,
                    project,
                    "project.member_role_changed",
                    events.user_target(user),
                    {"from": before, "to": None},
                )
            return {"user": user, "role": None, "languages": None}
        if member is None:
            member = ProjectMember(project_id=project_id, user_id=user_id, role=role)
            db.session.add(member)
        member.role = role
        limit_before = member.languages
        if role not in policy.LANGUAGE_LIMITED_ROLES:
            member.languages = None
        elif languages is not UNCHANGED:
            member.languages = policy.languages_column(languages)
        limit = policy.stored_languages(member.languages)
        if before != role or limit_before != member.languages:
            details = {"from": before, "to": role}
            if limit_before != member.languages:
                details["languages"] = None if limit is None else sorted(limit)
            events.audited(actor, project, "project.member_role_changed", events.user_target(user), details)
    return {"user": user, "role": role, "languages": None if limit is None else sorted(limit)}


def require_project_languages(project_id: str, codes, field: str = "languages") -> None:
    """BadRequest naming the first of ``codes`` the project does not have."""
    known = set(
        db.session.execute(
            db.select(ProjectLanguage.code).where(ProjectLanguage.project_id == project_id)
        ).scalars()
    )
    for index, code in enumerate(codes):
        if code not in known:
            raise BadRequest(f"{field}.{index}: {code!r} is not a language of this project.")


@dataclass(frozen=True)
class ProjectSettings:
    """What the settings of a project offer to change: the project, the projects it may be
    linked to (each with its languages), its own languages and the organization's members
    with their project roles."""

    view: ProjectView
    languages: list[dict]
    link_candidates: list[dict]
    members: list[dict]


def project_settings(actor, project_id: str) -> ProjectSettings:
    """The settings of a project, for a caller with canEditProjects (Forbidden otherwise)."""
    project, permissions = policy.authorize(actor, project_id, policy.EDIT_PROJECTS)
    candidates = _link_candidates(actor, project)
    languages = _languages_of([project.id, *(candidate["id"] for candidate in candidates)])
    for candidate in candidates:
        candidate["languages"] = languages.get(candidate["id"], [])
    return ProjectSettings(
        view=ProjectView(project, permissions),
        languages=languages.get(project.id, []),
        link_candidates=candidates,
        members=_members_with_roles(project),
    )


def _link_candidates(actor, project: Project) -> list[dict]:
    """The organization's other projects the caller can view (the link rules allow no other)."""
    rows = db.session.execute(
        db.select(Project.id, Project.name, Project.emoji, ProjectMember.role)
        .outerjoin(
            ProjectMember, (ProjectMember.project_id == Project.id) & (ProjectMember.user_id == actor.id)
        )
        .where(Project.organization_id == project.organization_id, Project.id != project.id)
    ).all()
    org_role = policy.organization_role(actor.id, project.organization_id)
    visible = [
        {"id": row.id, "name": row.name, "emoji": row.emoji}
        for row in rows
        if policy.permissions_from_roles(org_role, row.role).can_view_translations
    ]
    return sorted(visible, key=lambda candidate: (candidate["name"].lower(), candidate["id"]))


def _languages_of(project_ids: list[str]) -> dict[str, list[dict]]:
    """``{project id: [{code, name}]}`` sorted by code, in one query."""
    rows = db.session.execute(
        db.select(ProjectLanguage.project_id, ProjectLanguage.code, ProjectLanguage.name).where(
            ProjectLanguage.project_id.in_(project_ids)
        )
    ).all()
    languages: dict[str, list[dict]] = {}
    for project_id, code, name in sorted(rows):
        languages.setdefault(project_id, []).append({"code": code, "name": name})
    return languages


def _members_with_roles(project: Project) -> list[dict]:
    """The organization's members, each with their organization role and project role."""
    rows = db.session.execute(
        db.select(User, OrganizationMember.role, ProjectMember.role, ProjectMember.languages)
        .join(OrganizationMember, OrganizationMember.user_id == User.id)
        .outerjoin(
            ProjectMember, (ProjectMember.user_id == User.id) & (ProjectMember.project_id == project.id)
        )
        .where(OrganizationMember.organization_id == project.organization_id)
        .order_by(func.lower(User.email), User.id)
    ).all()
    return [
        {
            "user": user,
            "org_role": org_role,
            "project_role": project_role,
            "full_access": policy.permissions_from_roles(org_role, None).can_edit_projects,
            "languages": sorted(policy.stored_languages(languages) or ()),
        }
        for user, org_role, project_role, languages in rows
    ]
