"""Who may do what: the permission table and the 401/403/404 rules, decided here only."""

import json
from dataclasses import dataclass, replace

from sqlalchemy import bindparam, select

from loko.auth.actors import Actor, ApiKeyActor, UserActor
from loko.database import DriverQuery
from loko.errors import Forbidden, NotFound, Unauthorized
from loko.extensions import db
from loko.organizations.models import OrganizationMember
from loko.projects.models import Project, ProjectMember

VIEW_TRANSLATIONS = "canViewTranslations"
EDIT_TRANSLATIONS = "canEditTranslations"
EDIT_PROJECTS = "canEditProjects"
DELETE_PROJECT = "canDelete"
# Marking values reviewed (or back to needs-review): people only. An API key's scope is
# write or read, a closed set, so no key reviews.
REVIEW_TRANSLATIONS = "canReviewTranslations"
# A project's background jobs: seen by whoever sees its translations, cancelled by whoever
# may edit them.
VIEW_JOBS = VIEW_TRANSLATIONS
CANCEL_JOBS = EDIT_TRANSLATIONS
# A project's webhooks (their URLs and secrets, their deliveries): a project setting, so by
# session only, like the other settings.
MANAGE_WEBHOOKS = EDIT_PROJECTS
# Comments on keys: read by whoever sees the translations; added, resolved and reopened by
# whoever may edit them. See ``require_comment_edit`` and ``require_comment_removal`` for
# changing a comment's text and deleting it.
VIEW_COMMENTS = VIEW_TRANSLATIONS
WRITE_COMMENTS = EDIT_TRANSLATIONS
# Machine translation suggestions for a project's keys: whoever may edit its translations
# (a write key too), as a suggestion is only a help to write one.
SUGGEST_TRANSLATIONS = EDIT_TRANSLATIONS
# The organization's glossary as a project uses it (the terms found in its texts, the MCP
# search): whoever sees the project's translations, a read key too.
VIEW_GLOSSARY = VIEW_TRANSLATIONS
# The review queue (values by review state, each with why it waits): whoever sees the
# project's translations, a read key too, in every language like every reader (a language
# limit bounds what a member writes and reviews, not what they read).
VIEW_REVIEW_QUEUE = VIEW_TRANSLATIONS
# Screenshots and the regions of keys on them: seen by whoever sees the translations (a read
# key too), uploaded, placed and deleted by whoever may edit them (a write key too).
VIEW_SCREENSHOTS = VIEW_TRANSLATIONS
MANAGE_SCREENSHOTS = EDIT_TRANSLATIONS
# A linked project's screenshots of a key a project shares with it (the same file and key,
# when none of the project's shows it): seen, and their images fetched through the project's
# own path, by whoever sees the project's screenshots, with no right on the linked project,
# as the values the project inherits are (its export and editor show them to whoever sees the
# project; the link is set by someone who may view the linked project).
VIEW_INHERITED_SCREENSHOTS = VIEW_SCREENSHOTS
# Pre-translating (filling a project's missing values from memory or a provider, as a job):
# whoever may edit its translations; the values written wait for a review.
PRETRANSLATE = EDIT_TRANSLATIONS

# Keys themselves (creating, renaming, trashing, restoring, deleting them and their details)
# and a project's files and languages: whoever may edit its translations in every language.
# A member or key limited to some languages writes values in those languages only.
MANAGE_KEYS = "canManageKeys"

# Tags on keys: seen by whoever sees the translations (a read key too); added to and removed
# from keys by whoever manages the keys (a write key too, not a member limited to some
# languages), since they choose what the exports and the other filters take.
VIEW_TAGS = VIEW_TRANSLATIONS
MANAGE_TAGS = MANAGE_KEYS

SESSION_ONLY = frozenset({EDIT_PROJECTS, DELETE_PROJECT, REVIEW_TRANSLATIONS})
PROJECT_NOT_FOUND = "Project not found."


@dataclass(frozen=True)
class Permissions:
    can_view_translations: bool = False
    can_edit_translations: bool = False
    can_edit_projects: bool = False
    can_delete: bool = False
    can_review_translations: bool = False
    # The language codes writes (values, reviews) are limited to; None: every language.
    languages: frozenset[str] | None = None

    @property
    def can_manage_keys(self) -> bool:
        return self.can_edit_translations and self.languages is None

    def may_edit_language(self, code: str) -> bool:
        """Whether values in ``code`` may be written (and reviewed, with the review right)."""
        return self.can_edit_translations and (self.languages is None or code in self.languages)

    def may_review_language(self, code: str) -> bool:
        """Whether values in ``code`` may be marked reviewed: the review right, in a language
        whose values may be written."""
        return self.can_review_translations and self.may_edit_language(code)

    def allows(self, permission: str) -> bool:
        return {
            VIEW_TRANSLATIONS: self.can_view_translations,
            EDIT_TRANSLATIONS: self.can_edit_translations,
            EDIT_PROJECTS: self.can_edit_projects,
            DELETE_PROJECT: self.can_delete,
            REVIEW_TRANSLATIONS: self.can_review_translations,
            MANAGE_KEYS: self.can_manage_keys,
        }[permission]


NO_PERMISSIONS = Permissions()
ROLE_PERMISSIONS = {
    ("org", "owner"): Permissions(True, True, True, True, True),
    ("org", "admin"): Permissions(True, True, True, True, True),
    ("project", "admin"): Permissions(True, True, True, False, True),
    ("project", "reviewer"): Permissions(True, True, False, False, True),
    ("project", "editor"): Permissions(True, True, False, False),
    ("project", "viewer"): Permissions(True, False, False, False),
    ("key", "write"): Permissions(True, True, False, False),
    ("key", "read"): Permissions(True, False, False, False),
}


# The roles whose writes can be limited to some languages: the organization's owners and
# admins and a project's admins manage the project, and viewers write nothing.
LANGUAGE_LIMITED_ROLES = ("editor", "reviewer")


def stored_languages(text: str | None) -> frozenset[str] | None:
    """A ``languages`` column (a JSON list of codes, NULL for every language) as a set."""
    return None if text is None else frozenset(json.loads(text))


def languages_column(codes) -> str | None:
    """The ``languages`` column of a limit to ``codes`` (None or empty: every language)."""
    return json.dumps(sorted(set(codes))) if codes else None


def permissions_from_roles(
    org_role: str | None, project_role: str | None, languages: frozenset[str] | None = None
) -> Permissions:
    """The permission table for a user, given their organization and project roles and the
    languages their project role is limited to (for editors and reviewers)."""
    if org_role in ("owner", "admin"):
        return ROLE_PERMISSIONS[("org", org_role)]
    if org_role is None or project_role is None:
        return NO_PERMISSIONS
    permissions = ROLE_PERMISSIONS[("project", project_role)]
    if languages is not None and project_role in LANGUAGE_LIMITED_ROLES:
        return replace(permissions, languages=languages)
    return permissions


def key_permissions(actor: ApiKeyActor) -> Permissions:
    """The permission table of an API key: its scope's, limited to its languages."""
    permissions = ROLE_PERMISSIONS[("key", actor.scope)]
    if actor.languages is not None and permissions.can_edit_translations:
        return replace(permissions, languages=frozenset(actor.languages))
    return permissions


USER_ROLES = DriverQuery(
    select(
        OrganizationMember.role.label("org_role"),
        ProjectMember.role.label("project_role"),
        ProjectMember.languages.label("languages"),
    )
    .select_from(Project)
    .outerjoin(
        OrganizationMember,
        (OrganizationMember.organization_id == Project.organization_id)
        & (OrganizationMember.user_id == bindparam("user_id")),
    )
    .outerjoin(
        ProjectMember,
        (ProjectMember.project_id == Project.id) & (ProjectMember.user_id == bindparam("user_id")),
    )
    .where(Project.id == bindparam("project_id"))
)
PROJECT_EXISTS = DriverQuery(select(Project.id).where(Project.id == bindparam("project_id")))


def _user_roles(user_id: str, project_id: str) -> tuple[str | None, str | None, frozenset | None] | None:
    """``(org_role, project_role, languages)`` of a user in a project's organization and the
    project (one query); None when the project does not exist."""
    row = USER_ROLES.run({"user_id": user_id, "project_id": project_id}).fetchone()
    return None if row is None else (row[0], row[1], stored_languages(row[2]))


def _project_exists(project_id: str) -> bool:
    return PROJECT_EXISTS.run({"project_id": project_id}).fetchone() is not None


def permissions_for(actor: Actor | None, project: Project) -> Permissions:
    """What ``actor`` may do on ``project``."""
    if isinstance(actor, ApiKeyActor):
        if actor.project_id != project.id:
            return NO_PERMISSIONS
        return key_permissions(actor)
    if isinstance(actor, UserActor):
        roles = _user_roles(actor.id, project.id)
        return permissions_from_roles(*roles) if roles is not None else NO_PERMISSIONS
    return NO_PERMISSIONS


def api_key_may(key_project_id: str, scope: str, project_id: str, permission: str) -> bool:
    """Whether a key of the project ``key_project_id`` with ``scope`` may do ``permission`` on
    the existing project ``project_id``: the rule ``require_permission`` enforces for API
    keys, answered yes or no (no for a key of another project)."""
    return key_project_id == project_id and ROLE_PERMISSIONS[("key", scope)].allows(permission)


def organization_role(user_id: str, organization_id: str) -> str | None:
    return db.session.execute(
        db.select(OrganizationMember.role).where(
            OrganizationMember.organization_id == organization_id,
            OrganizationMember.user_id == user_id,
        )
    ).scalar_one_or_none()


def require_actor(actor: Actor | None) -> Actor:
    """Raise Unauthorized when nobody is signed in and no key was given."""
    if actor is None:
        raise Unauthorized("Authentication required: send a session cookie or an API key.")
    return actor


def require_user(actor: Actor | None) -> UserActor:
    """Raise Unauthorized without credentials, Forbidden for an API key."""
    actor = require_actor(actor)
    if not isinstance(actor, UserActor):
        raise Forbidden("This endpoint requires a signed-in user session; API keys are not accepted.")
    return actor


def require_permission(actor: Actor | None, project_id: str, permission: str) -> Permissions:
    """Check ``permission`` on a project without loading it (one small query).

    Raises Unauthorized (no caller), Forbidden (another project's key, a key where a
    session is required, a member lacking the permission) or NotFound (no such project,
    or a user outside its organization: existence is not revealed).
    """
    actor = require_actor(actor)
    if isinstance(actor, ApiKeyActor):
        _require_key_of(actor, project_id)
        if not _project_exists(project_id):
            raise NotFound(PROJECT_NOT_FOUND)
        return _granting(actor, permission, key_permissions(actor))
    return _granting(actor, permission, _user_permissions(actor.id, project_id))


def authorize(actor: Actor | None, project_id: str, permission: str) -> tuple[Project, Permissions]:
    """``require_permission`` for callers that also need the project itself."""
    actor = require_actor(actor)
    if isinstance(actor, ApiKeyActor):
        _require_key_of(actor, project_id)
        project = db.session.get(Project, project_id)
        if project is None:
            raise NotFound(PROJECT_NOT_FOUND)
        return project, _granting(actor, permission, key_permissions(actor))
    permissions = _granting(actor, permission, _user_permissions(actor.id, project_id))
    return db.session.get(Project, project_id), permissions


def _require_key_of(actor: ApiKeyActor, project_id: str) -> None:
    if actor.project_id != project_id:
        raise Forbidden("This API key does not belong to this project.")


def _user_permissions(user_id: str, project_id: str) -> Permissions:
    """NotFound when the project does not exist or the user is outside its organization."""
    roles = _user_roles(user_id, project_id)
    if roles is None or roles[0] is None:
        raise NotFound(PROJECT_NOT_FOUND)
    return permissions_from_roles(*roles)


def _granting(actor: Actor, permission: str, permissions: Permissions) -> Permissions:
    if not permissions.allows(permission):
        if isinstance(actor, ApiKeyActor) and permission in SESSION_ONLY:
            raise Forbidden("This action requires a signed-in user session; API keys cannot do it.")
        if permission == MANAGE_KEYS:
            if permissions.can_edit_translations:
                raise Forbidden(_limited_message(permissions))
            # Whoever does not write at all is told so, as for any other write.
            permission = EDIT_TRANSLATIONS
        raise Forbidden(f"You do not have the {permission} permission on this project.")
    return permissions


def _limited_message(permissions: Permissions) -> str:
    return (
        f"Your edits in this project are limited to {', '.join(sorted(permissions.languages))}; "
        "creating, renaming or deleting keys, and changing key details, files or languages, "
        "needs edit rights in every language."
    )


def require_languages(permissions: Permissions, codes) -> None:
    """Forbidden (naming the languages) unless values in every language of ``codes`` may be
    written: the check of every language-scoped write, given the set of languages it
    touches."""
    if permissions.languages is None:
        return
    refused = sorted(set(codes) - permissions.languages)
    if refused:
        raise Forbidden(
            f"language: you may not edit {', '.join(refused)} in this project.",
            details={"languages": refused},
        )


def is_author(actor: Actor | None, author_type: str, author_id: str | None) -> bool:
    """Whether ``actor`` is who wrote something recorded as ``(author_type, author_id)``: the
    same user, or the same API key."""
    return actor is not None and author_id is not None and (actor.kind, actor.id) == (author_type, author_id)


def require_comment_edit(
    actor: Actor, permissions: Permissions, author_type: str, author_id: str | None
) -> None:
    """Forbidden unless the caller may write comments and wrote this one: a comment's text
    is its author's words, so nobody else changes it."""
    if not (permissions.can_edit_translations and is_author(actor, author_type, author_id)):
        raise Forbidden("body: only the comment's author can change its text.")


def require_comment_removal(
    actor: Actor, permissions: Permissions, author_type: str, author_id: str | None
) -> None:
    """Forbidden unless the caller wrote the comment (and may still write comments) or may
    change the project's settings (project admins, organization owners and admins)."""
    if permissions.can_edit_projects:
        return
    if permissions.can_edit_translations and is_author(actor, author_type, author_id):
        return
    raise Forbidden("Only the comment's author or a project admin can delete a comment.")


@dataclass(frozen=True)
class OrganizationPermissions:
    can_create_projects: bool = False
    can_manage_members: bool = False
    can_manage_owners: bool = False
    can_invite: bool = False
    can_rename: bool = False
    can_delete: bool = False
    can_manage_machine: bool = False
    can_manage_glossary: bool = False
    can_view_audit: bool = False
    can_manage_memory: bool = False


ORGANIZATION_PERMISSIONS = {
    "owner": OrganizationPermissions(
        True,
        True,
        True,
        can_invite=True,
        can_rename=True,
        can_delete=True,
        can_manage_machine=True,
        can_manage_glossary=True,
        can_view_audit=True,
        can_manage_memory=True,
    ),
    "admin": OrganizationPermissions(
        True,
        True,
        False,
        can_invite=True,
        can_rename=True,
        can_manage_machine=True,
        can_manage_glossary=True,
        can_view_audit=True,
        can_manage_memory=True,
    ),
    "member": OrganizationPermissions(),
}
RENAME_ORGANIZATION = "can_rename"
DELETE_ORGANIZATION = "can_delete"
INVITE_MEMBERS = "can_invite"
# The organization's machine translation providers (their addresses, keys and instructions):
# seen and changed by its owners and admins, by session only.
MANAGE_MACHINE = "can_manage_machine"
# The organization's glossary: read by every member (``require_organization_role``), changed
# (terms, imports) by its owners and admins, by session only.
MANAGE_GLOSSARY = "can_manage_glossary"
# The organization's audit log: read by its owners and admins, by session only.
VIEW_AUDIT = "can_view_audit"
# The organization's translation memory as a whole (TMX export and import): its owners and
# admins, by session only. Lookups are project reads (``VIEW_TRANSLATIONS``).
MANAGE_MEMORY = "can_manage_memory"
ORGANIZATION_REFUSALS = {
    RENAME_ORGANIZATION: "Only an owner or admin of the organization can rename it.",
    DELETE_ORGANIZATION: "Only an owner of the organization can delete it.",
    INVITE_MEMBERS: "Only an owner or admin of the organization can invite people or manage invitations.",
    MANAGE_MACHINE: (
        "Only an owner or admin of the organization can manage its machine translation providers."
    ),
    MANAGE_GLOSSARY: "Only an owner or admin of the organization can change its glossary.",
    VIEW_AUDIT: "Only an owner or admin of the organization can read its audit log.",
    MANAGE_MEMORY: "Only an owner or admin of the organization can export or import its translation memory.",
}


def organization_permissions(role: str | None) -> OrganizationPermissions:
    """What a member with ``role`` may do in the organization itself: owners and admins create
    projects, manage members, invite people and rename it; only owners make, unmake, remove or
    invite owners, and delete it."""
    return ORGANIZATION_PERMISSIONS.get(role, OrganizationPermissions())


def require_organization_permission(actor: Actor | None, organization_id: str, permission: str) -> str:
    """The caller's role in the organization, when it grants ``permission`` (one of
    ``RENAME_ORGANIZATION``, ``DELETE_ORGANIZATION``, ``INVITE_MEMBERS``, ``MANAGE_MACHINE``,
    ``MANAGE_GLOSSARY``, ``MANAGE_MEMORY``, ``VIEW_AUDIT``).

    Raises Unauthorized (no caller), Forbidden (an API key, or a role without it) or NotFound
    (not a member: existence is not revealed).
    """
    role = require_organization_role(actor, organization_id)
    if not getattr(organization_permissions(role), permission):
        raise Forbidden(ORGANIZATION_REFUSALS[permission])
    return role


def require_invitation_rights(actor: Actor | None, organization_id: str, role: str | None = None) -> str:
    """The caller's role, when they may invite someone as ``role`` (or manage invitations of
    that role): owners and admins invite, only owners invite owners."""
    caller_role = require_organization_permission(actor, organization_id, INVITE_MEMBERS)
    if role == "owner" and not organization_permissions(caller_role).can_manage_owners:
        raise Forbidden("Only an owner can invite an owner, or revoke an owner's invitation.")
    return caller_role


def require_owner_rights(caller_role: str, *roles_touched: str) -> None:
    """Forbidden when a caller who is not an owner makes, unmakes or removes an owner."""
    if "owner" in roles_touched and not organization_permissions(caller_role).can_manage_owners:
        raise Forbidden("Only an owner can make someone an owner, or change or remove an owner.")


def require_organization_role(actor: Actor | None, organization_id: str, *roles: str) -> str:
    """Check the user's role in an organization.

    Raises NotFound for non-members (existence is not revealed) and Forbidden when
    the role is not one of ``roles`` (any role when none are given).
    """
    user = require_user(actor)
    role = organization_role(user.id, organization_id)
    if role is None:
        raise NotFound("Organization not found.")
    if roles and role not in roles:
        raise Forbidden(f"This requires the organization role {' or '.join(roles)}.")
    return role


# -- The translation memory's reach ------------------------------------------------------
#
# A memory match shows another key's text, its source, key, file and project: a read of
# that project. So a caller's lookups (REST, the editor's suggestions, MCP, pre-translation,
# its dry run's count) read only:
# - the values of the projects whose translations the caller may view, in the languages
#   their role there may write where it is limited to some (an organization's owners and
#   admins view every project; an API key, its own project);
# - the organization's shared memory: the projects that share their values
#   (``memory_shared``) and the TMX files imported into it, for its members and for the
#   keys of its projects.


@dataclass(frozen=True)
class MemoryReach:
    """What a caller's lookups into one target language may read in one organization:
    ``projects`` (None: every project of the organization) and ``units`` (the imported TMX
    files)."""

    projects: frozenset[str] | None
    units: bool

    def everything(self) -> bool:
        return self.projects is None and self.units

    def allows_project(self, project_id: str) -> bool:
        return self.projects is None or project_id in self.projects


NO_MEMORY = MemoryReach(frozenset(), False)


def memory_reach(actor: Actor | None, organization_id: str, language: str) -> MemoryReach:
    """The memory ``actor`` may read in ``organization_id`` for lookups into ``language``."""
    if isinstance(actor, ApiKeyActor):
        owner = db.session.execute(
            select(Project.organization_id).where(Project.id == actor.project_id)
        ).scalar_one_or_none()
        if owner != organization_id:
            return NO_MEMORY
        limit = key_permissions(actor).languages
        own = {actor.project_id} if limit is None or language in limit else set()
        return MemoryReach(frozenset(own | _shared_projects(organization_id)), True)
    if isinstance(actor, UserActor):
        role = organization_role(actor.id, organization_id)
        if role is None:
            return NO_MEMORY
        if role in ("owner", "admin"):
            return MemoryReach(None, True)
        viewed = set()
        for project_id, project_role, languages in db.session.execute(
            select(ProjectMember.project_id, ProjectMember.role, ProjectMember.languages)
            .join(Project, Project.id == ProjectMember.project_id)
            .where(ProjectMember.user_id == actor.id, Project.organization_id == organization_id)
        ).all():
            permissions = permissions_from_roles(role, project_role, stored_languages(languages))
            if permissions.can_view_translations and (
                permissions.languages is None or language in permissions.languages
            ):
                viewed.add(project_id)
        return MemoryReach(frozenset(viewed | _shared_projects(organization_id)), True)
    return NO_MEMORY


def _shared_projects(organization_id: str) -> set[str]:
    return set(
        db.session.scalars(
            select(Project.id).where(
                Project.organization_id == organization_id, Project.memory_shared.is_(True)
            )
        ).all()
    )
