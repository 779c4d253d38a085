"""Who may do what: the permission table and the 401/403/404 rules, decided here only."""

import json
from dataclasses import dataclass, replace

from flask import g, has_app_context
from sqlalchemy import bindparam, column, func, literal_column, select, table
from sqlalchemy import table as sa_table

from loko.auth.actors import Actor, ApiKeyActor, UserActor
from loko.auth.models import User
from loko.database import DriverQuery
from loko.errors import Conflict, Forbidden, NotFound, Unauthorized
from loko.extensions import db
from loko.organizations.models import OrganizationMember
from loko.projects.models import Project, ProjectMember, ProposalBlock

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
# whoever may edit them or propose changes to them (contributors). See
# ``require_comment_edit`` and ``require_comment_removal`` for changing a comment's text and
# deleting it.
VIEW_COMMENTS = VIEW_TRANSLATIONS
WRITE_COMMENTS = "canWriteComments"
# Proposals (``loko.proposals``): read by whoever sees the translations (a read key too);
# made by whoever may edit them (a write key too) and by contributors, in the languages their
# writes are limited to; voted on by people only (a vote is one person's, never on their own
# proposal), so by session; accepted and rejected by whoever may mark the language's values
# reviewed (reviewers, project admins, the organization's owners and admins), by session.
#
# A public project (``projects.public``) also lets a signed-in person who is not its member (a
# public visitor) read its source texts, its current values and its proposals (the threads in
# the languages they may propose in: the project's languages but its source) and propose and
# vote there, within a rate limit (``loko.proposals.limits``), unless an admin of the project
# blocked them (``proposal_blocks``: 403 naming the block). Nothing else of the project is
# theirs: every other operation is refused as for a non-member (404 outside the organization).
VIEW_PROPOSALS = "canViewProposals"
# The source texts and current values of one language, as ``GET .../proposals/texts`` lists
# them: whoever reads proposals, public visitors too.
VIEW_PUBLIC_TEXTS = VIEW_PROPOSALS
PROPOSE = "canPropose"
# Blocking a person from proposing in a project (and lifting it): its admins and the
# organization's owners and admins, by session.
MANAGE_PROPOSAL_BLOCKS = EDIT_PROJECTS
VOTE_PROPOSALS = "canVoteProposals"
DECIDE_PROPOSALS = REVIEW_TRANSLATIONS
# How a language's values change for whoever may not review them (``project_languages
# .proposal_mode``): written directly (the default), only proposed, or proposed and accepted
# at a number of net votes.
PROPOSAL_MODES = ("direct", "propose", "votes")
DIRECT = literal_column("'direct'")
# The columns of project_languages the rules read (named here: the languages package's
# services ask this policy, so it imports none of them).
project_languages = table(
    "project_languages", column("project_id"), column("code"), column("proposal_mode")
).c
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

# Releases (named moments of a project's history): seen by whoever sees its translations (a
# read key too); created and deleted by its admins (and the organization's owners and
# admins), or by a write key, as a pipeline names a release when it ships one.
VIEW_RELEASES = VIEW_TRANSLATIONS
MANAGE_RELEASES = "canManageReleases"
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
    # A write key: it may name releases (``can_manage_releases``) and plan tasks
    # (``can_manage_tasks``) without being an admin.
    release_key: bool = False
    # A contributor: views, proposes and comments, never writes values.
    can_contribute: bool = False
    # The languages whose values this caller only proposes (the project's ``propose`` and
    # ``votes`` languages, for whoever may not review).
    proposal_languages: frozenset[str] = frozenset()
    # The project protects reviewed values and this caller may not review: a reviewed value
    # is changed only through a proposal.
    protects_reviewed: bool = False
    # A public visitor: a signed-in person who is not a member of this public project. They
    # read proposals and texts (``languages``: the ones they propose in) and propose and vote
    # there; ``outside``: not a member of the organization either; ``blocked``: an admin
    # blocked them from proposing.
    visitor: bool = False
    outside: bool = False
    blocked: bool = False

    @property
    def can_view_proposals(self) -> bool:
        return self.can_view_translations or self.visitor

    @property
    def can_manage_keys(self) -> bool:
        return self.can_edit_translations and self.languages is None

    @property
    def can_propose(self) -> bool:
        if self.visitor:
            return not self.blocked
        return self.can_view_translations and (self.can_contribute or self.can_edit_translations)

    @property
    def can_write_comments(self) -> bool:
        return self.can_view_translations and (self.can_contribute or self.can_edit_translations)

    def may_read_proposals_of(self, code: str) -> bool:
        """Whether proposals (and values) in ``code`` may be read: every language for a
        member or key who reads the project, a visitor's own languages for a visitor."""
        if self.visitor:
            return self.languages is not None and code in self.languages
        return self.can_view_translations

    @property
    def readable_languages(self) -> frozenset[str] | None:
        """The languages whose proposals the caller reads (None: every language)."""
        return (self.languages or frozenset()) if self.visitor else None

    def may_edit_language(self, code: str) -> bool:
        """Whether values in ``code`` may be written (and reviewed, with the review right)."""
        return (
            self.can_edit_translations
            and (self.languages is None or code in self.languages)
            and code not in self.proposal_languages
        )

    def may_propose_language(self, code: str) -> bool:
        """Whether changes to values in ``code`` may be proposed."""
        return self.can_propose and (self.languages is None or code in self.languages)

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
            MANAGE_RELEASES: self.can_manage_releases,
            MANAGE_TASKS: self.can_manage_tasks,
            PROPOSE: self.can_propose,
            VOTE_PROPOSALS: self.can_propose,
            VIEW_PROPOSALS: self.can_view_proposals,
            WRITE_COMMENTS: self.can_write_comments,
        }[permission]

    @property
    def can_manage_releases(self) -> bool:
        """A project's admins (and the organization's owners and admins), and write keys."""
        return self.can_edit_projects or self.release_key

    @property
    def can_manage_tasks(self) -> bool:
        """A project's admins (and the organization's owners and admins), and write keys (a
        pipeline plans the work of a release); see ``require_task_grant`` for what a key may
        give."""
        return self.can_edit_projects or self.release_key

    @property
    def may_change_frozen_source(self) -> bool:
        """Whether source texts may change while a release's string freeze holds: the
        project's admins and the organization's owners and admins only (no API key)."""
        return self.can_edit_projects


NO_PERMISSIONS = Permissions()
ROLE_PERMISSIONS = {
    ("org", "owner"): Permissions(True, True, True, True, True),
    ("org", "admin"): Permissions(True, True, True, True, True),
    ("project", "admin"): Permissions(True, True, True, False, True),
    ("project", "reviewer"): Permissions(True, True, False, False, True),
    ("project", "editor"): Permissions(True, True, False, False),
    ("project", "contributor"): Permissions(True, False, False, False, can_contribute=True),
    ("project", "viewer"): Permissions(True, False, False, False),
    ("key", "write"): Permissions(True, True, False, False, release_key=True),
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
        Project.protect_reviewed,
        select(func.count())
        .where(project_languages.project_id == Project.id, project_languages.proposal_mode != DIRECT)
        .correlate(Project)
        .scalar_subquery(),
        Project.public,
        Project.source_language,
        select(ProposalBlock.user_id)
        .where(ProposalBlock.project_id == Project.id, ProposalBlock.user_id == bindparam("user_id"))
        .correlate(Project)
        .exists(),
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


def proposal_languages_count():
    """The number of the project's languages whose values are only proposed by whoever may
    not review (a scalar subquery correlated with ``projects``)."""
    return (
        select(func.count())
        .where(project_languages.project_id == Project.id, project_languages.proposal_mode != DIRECT)
        .correlate(Project)
        .scalar_subquery()
    )


PROJECT_EXISTS = DriverQuery(
    select(Project.id, Project.protect_reviewed, proposal_languages_count()).where(
        Project.id == bindparam("project_id")
    )
)
VISITOR_LANGUAGES = DriverQuery(
    select(project_languages.code).where(project_languages.project_id == bindparam("project_id"))
)
PROPOSAL_LANGUAGES = DriverQuery(
    select(project_languages.code).where(
        project_languages.project_id == bindparam("project_id"), project_languages.proposal_mode != DIRECT
    )
)


def _user_roles(user_id: str, project_id: str) -> tuple | None:
    """``(org_role, project_role, languages, (protect_reviewed, proposal languages),
    (public, source language, blocked))`` of a user in a project's organization and the
    project (one query); None when the project does not exist."""
    row = USER_ROLES.run({"user_id": user_id, "project_id": project_id}).fetchone()
    if row is None:
        return None
    return (
        row[0],
        row[1],
        stored_languages(row[2]),
        (bool(row[3]), row[4]),
        (bool(row[5]), row[6], bool(row[7])),
    )


def _is_member(org_role: str | None, project_role: str | None) -> bool:
    """Whether the roles make a member of the project: one of its roles, or an owner or
    admin of its organization."""
    return org_role in ("owner", "admin") or (org_role is not None and project_role is not None)


def is_project_person(user_id_column, project_id, organization_id):
    """The SQL condition on ``user_id_column``: one of the project's people, by a role in the
    project or as an owner or admin of its organization (the people a task is given to, and
    whom a block from proposing does not reach)."""
    return user_id_column.in_(
        select(ProjectMember.user_id).where(ProjectMember.project_id == project_id)
    ) | user_id_column.in_(
        select(OrganizationMember.user_id).where(
            OrganizationMember.organization_id == organization_id,
            OrganizationMember.role.in_(("owner", "admin")),
        )
    )


# The project roles whose people translate in it: they write values or propose them.
TRANSLATING_ROLES = tuple(
    role for (kind, role), granted in ROLE_PERMISSIONS.items() if kind == "project" and granted.can_propose
)


def _translators(project_id: str, organization_id, *where):
    """The ``SELECT`` of ``project_translators``, narrowed by ``where`` on the user ids."""
    members = select(ProjectMember.user_id).where(
        ProjectMember.project_id == project_id,
        ProjectMember.role.in_(TRANSLATING_ROLES),
        *(condition(ProjectMember.user_id) for condition in where),
    )
    managers = select(OrganizationMember.user_id).where(
        OrganizationMember.organization_id == organization_id,
        OrganizationMember.role.in_(("owner", "admin")),
        *(condition(OrganizationMember.user_id) for condition in where),
    )
    return members.union(managers)


def project_translators(project_id: str, organization_id) -> set[str]:
    """The ids of the people who translate in the project (``TRANSLATING_ROLES``: they write
    or propose values) and of its organization's owners and admins: whom new keys concern."""
    return set(db.session.scalars(_translators(project_id, organization_id)))


def project_people(project_id: str, organization_id, user_ids) -> set[str]:
    """Those of ``user_ids`` who are the project's people (``is_project_person``)."""
    ids = sorted(set(user_ids))
    if not ids:
        return set()
    return set(
        db.session.scalars(
            select(User.id).where(User.id.in_(ids), is_project_person(User.id, project_id, organization_id))
        )
    )


def visitor_permissions(project_id: str, outside: bool, source: str | None, blocked: bool) -> Permissions:
    """A public visitor's permissions: proposals read and made in the project's languages but
    its source language (``blocked``: read only)."""
    codes = frozenset(row[0] for row in VISITOR_LANGUAGES.run({"project_id": project_id}).fetchall())
    return Permissions(languages=codes - {source}, visitor=True, outside=outside, blocked=blocked)


def _roles_permissions(project_id: str, roles: tuple) -> Permissions:
    """The permissions ``_user_roles``'s answer grants: a member's, a public visitor's, or
    none (whoever is in the organization and not in the private project)."""
    org_role, project_role = roles[0], roles[1]
    if not _is_member(org_role, project_role):
        public, source, blocked = roles[4]
        if public:
            return visitor_permissions(project_id, org_role is None, source, blocked)
        return NO_PERMISSIONS
    return with_project_rules(permissions_from_roles(*roles[:3]), project_id, roles[3])


_RULES_READ = "loko_project_rules_read"


def rules_read_with_key(project_id: str, protect_reviewed, proposal_languages: int) -> None:
    """The rules of an API key's project, read with the key as the request began (one query
    for both, on PostgreSQL): the request's first ``_project_rules`` of that project takes
    them instead of asking again. Only the first: a later one may follow a write of the
    request that changed them."""
    if has_app_context():
        g.setdefault(_RULES_READ, (project_id, (bool(protect_reviewed), proposal_languages)))


def _project_rules(project_id: str) -> tuple[bool, int] | None:
    """``(protect_reviewed, proposal languages)`` of an existing project, else None."""
    read = g.pop(_RULES_READ, None) if has_app_context() else None
    if read is not None and read[0] == project_id:
        return read[1]
    row = PROJECT_EXISTS.run({"project_id": project_id}).fetchone()
    return None if row is None else (bool(row[1]), row[2])


def project_has_rules(project_id: str) -> bool:
    """Whether the project protects reviewed values or has languages whose values are only
    proposed by whoever may not review (a write key's direct path leaves those to the full
    one)."""
    rules = _project_rules(project_id)
    return rules is not None and (rules[0] or bool(rules[1]))


def _project_exists(project_id: str) -> bool:
    return _project_rules(project_id) is not None


def with_project_rules(permissions: Permissions, project_id: str, rules: tuple[bool, int]) -> Permissions:
    """``permissions`` under the project's own rules for whoever may not review: the
    languages whose values they only propose, and its protection of reviewed values."""
    protect, limited = rules
    if permissions.can_review_translations or not permissions.can_edit_translations:
        return permissions
    if not protect and not limited:
        return permissions
    languages = (
        frozenset(row[0] for row in PROPOSAL_LANGUAGES.run({"project_id": project_id}).fetchall())
        if limited
        else frozenset()
    )
    return replace(permissions, proposal_languages=languages, protects_reviewed=protect)


def permissions_for(actor: Actor | None, project: Project) -> Permissions:
    """What ``actor`` may do on ``project``."""
    if isinstance(actor, ApiKeyActor):
        if actor.project_id != project.id:
            return NO_PERMISSIONS
        # The flags a key shows; the project's rules for its writes apply where they are
        # checked (``require_permission``, ``authorize``).
        return key_permissions(actor)
    if isinstance(actor, UserActor):
        roles = _user_roles(actor.id, project.id)
        if roles is None:
            return NO_PERMISSIONS
        return _roles_permissions(project.id, roles)
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
        rules = _project_rules(project_id)
        if rules is None:
            raise NotFound(PROJECT_NOT_FOUND)
        return _granting(actor, permission, with_project_rules(key_permissions(actor), project_id, rules))
    return _granting(actor, permission, _user_permissions(actor.id, project_id))


def authorize(actor: Actor | None, project_id: str, permission: str) -> tuple[Project, Permissions]:
    """``require_permission`` for callers that also need the project itself."""
    actor = require_actor(actor)
    if isinstance(actor, ApiKeyActor):
        _require_key_of(actor, project_id)
        project = db.session.get(Project, project_id)
        if project is None:
            raise NotFound(PROJECT_NOT_FOUND)
        rules = _project_rules(project_id)
        return project, _granting(
            actor, permission, with_project_rules(key_permissions(actor), project_id, rules)
        )
    permissions = _granting(actor, permission, _user_permissions(actor.id, project_id))
    return db.session.get(Project, project_id), permissions


def _require_key_of(actor: ApiKeyActor, project_id: str) -> None:
    if actor.project_id != project_id:
        raise Forbidden("This API key does not belong to this project.")


def _user_permissions(user_id: str, project_id: str) -> Permissions:
    """NotFound when the project does not exist or the user is outside its organization."""
    roles = _user_roles(user_id, project_id)
    if roles is None or (roles[0] is None and not roles[4][0]):
        raise NotFound(PROJECT_NOT_FOUND)
    return _roles_permissions(project_id, roles)


def _granting(actor: Actor, permission: str, permissions: Permissions) -> Permissions:
    if not permissions.allows(permission):
        if permissions.visitor:
            if permissions.blocked and permission in (PROPOSE, VOTE_PROPOSALS):
                raise Forbidden("An admin of this project has blocked you from proposing in it.")
            if permissions.outside:
                raise NotFound(PROJECT_NOT_FOUND)  # as for anyone outside the organization
        if isinstance(actor, ApiKeyActor) and permission in SESSION_ONLY:
            raise Forbidden("This action requires a signed-in user session; API keys cannot do it.")
        if permission == MANAGE_KEYS:
            if permissions.can_edit_translations:
                raise Forbidden(_limited_message(permissions))
            # Whoever does not write at all is told so, as for any other write.
            permission = EDIT_TRANSLATIONS
        if permission == WRITE_COMMENTS:
            permission = EDIT_TRANSLATIONS  # who writes comments: who edits (and contributors)
        if permission == EDIT_TRANSLATIONS and permissions.can_contribute:
            raise Forbidden(
                "A contributor proposes changes (POST /api/projects/{id}/proposals) and never writes values."
            )
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
    if permissions.proposal_languages:
        proposed = sorted(set(codes) & permissions.proposal_languages)
        if proposed:
            raise Forbidden(
                f"language: values in {', '.join(proposed)} change through proposals in this project; "
                "propose the text instead (POST /api/projects/{id}/proposals).",
                details={"languages": proposed, "propose": True},
            )
    if permissions.languages is None:
        return
    refused = sorted(set(codes) - permissions.languages)
    if refused:
        raise Forbidden(
            f"language: you may not edit {', '.join(refused)} in this project.",
            details={"languages": refused},
        )


def require_unreviewed(permissions: Permissions, reviewed: list[str]) -> None:
    """Forbidden when the project protects reviewed values and ``reviewed`` (the fields of the
    reviewed values a write would change) is not empty: whoever may not review proposes."""
    if permissions.protects_reviewed and reviewed:
        raise Forbidden(
            f"{', '.join(reviewed)}: the value is reviewed and this project protects reviewed values; "
            "propose the change instead (POST /api/projects/{id}/proposals).",
            details={"reviewed": reviewed, "propose": True},
        )


def keeps_reviewed(permissions: Permissions) -> bool:
    """Whether a write of many values by this caller (an import, a find and replace) leaves
    the reviewed values it would change as they are, listing them as protected: the project
    protects reviewed values and the caller may not review (the single PATCH refuses such a
    change instead, ``require_unreviewed``)."""
    return permissions.protects_reviewed


def require_undo_of_reviewed(permissions: Permissions, reviewed: list[dict]) -> None:
    """Conflict (naming the values) when an undo by a caller who may not review would
    overwrite reviewed values of a project that protects them; ``reviewed``: ``{key,
    fileName, language}`` of each."""
    if permissions.protects_reviewed and reviewed:
        named = ", ".join(f"{item['fileName']}/{item['key']} ({item['language']})" for item in reviewed[:10])
        if len(reviewed) > 10:
            named += f" and {len(reviewed) - 10} more"
        raise Conflict(
            f"values: the undo would overwrite reviewed values ({named}) and this project protects "
            "reviewed values; ask a reviewer to undo it, or propose the texts instead.",
            details={"reviewed": reviewed[:1000], "propose": True},
        )


def require_vote(actor: Actor | None, project_id: str) -> Permissions:
    """A vote is one person's: Unauthorized without credentials, Forbidden for an API key,
    then ``require_permission`` of VOTE_PROPOSALS."""
    require_user(actor)
    return require_permission(actor, project_id, VOTE_PROPOSALS)


def require_proposal_language(permissions: Permissions, code: str) -> None:
    """Forbidden unless changes in ``code`` may be proposed (the caller's language limit; a
    public visitor's languages: the project's but its source language)."""
    if not permissions.may_propose_language(code):
        raise Forbidden(f"language: you may not propose values in {code} in this project.")


def require_readable_language(permissions: Permissions, code: str) -> None:
    """NotFound (naming the language) unless proposals and values in ``code`` may be read: a
    public visitor reads their own languages' only."""
    if not permissions.may_read_proposals_of(code):
        raise NotFound(f"language: no language {code!r} to read in this project.")


def is_public_visitor(actor: Actor | None, project_id: str) -> bool:
    """Whether ``actor`` is a public visitor of the project (whose proposals and votes are
    rate limited)."""
    if not isinstance(actor, UserActor):
        return False
    roles = _user_roles(actor.id, project_id)
    return roles is not None and not _is_member(roles[0], roles[1]) and roles[4][0]


def require_decision(permissions: Permissions, codes) -> None:
    """Forbidden unless proposals in every language of ``codes`` may be accepted or
    rejected: the review right in a language whose values the caller may write."""
    refused = sorted(code for code in set(codes) if not permissions.may_review_language(code))
    if refused:
        raise Forbidden(
            f"language: you may not accept or reject proposals in {', '.join(refused)} in this project.",
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
    if not (permissions.can_write_comments and is_author(actor, author_type, author_id)):
        raise Forbidden("body: only the comment's author can change its text.")


def require_comment_removal(
    actor: Actor, permissions: Permissions, author_type: str, author_id: str | None
) -> None:
    """Forbidden unless the caller wrote the comment (and may still write comments) or may
    change the project's settings (project admins, organization owners and admins)."""
    if permissions.can_edit_projects:
        return
    if permissions.can_write_comments and is_author(actor, author_type, author_id):
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


# -- A task's temporary right --------------------------------------------------------------
#
# An assignee of an open task may do its work on its keys in its language, whatever their
# role lacks: a translate task lets them write those values, a review task lets them write
# and mark them reviewed. Nothing else widens (no other key, language or project), and the
# right ends when the task is closed (or they are no longer assigned). The tables are named
# here, not imported: the tasks package sits above the core.

TASK_TRANSLATE, TASK_REVIEW = "translate", "review"
# Tasks are made, changed, closed and reopened by a project's admins (and the organization's
# owners and admins) and by a write key, which gives no more than it has itself
# (``require_task_grant``).
MANAGE_TASKS = "canManageTasks"
VIEW_TASKS = VIEW_TRANSLATIONS
_TASKS = sa_table(
    "tasks", column("id"), column("project_id"), column("kind"), column("language_code"), column("state")
)
_TASK_KEYS = sa_table("task_keys", column("task_id"), column("translation_id"))
_TASK_ASSIGNEES = sa_table("task_assignees", column("task_id"), column("user_id"))


def _task_keys_of(user_id: str, project_id: str, language: str, kinds: tuple[str, ...], task_id=None):
    query = (
        select(_TASK_KEYS.c.translation_id)
        .join(_TASKS, _TASKS.c.id == _TASK_KEYS.c.task_id)
        .join(_TASK_ASSIGNEES, _TASK_ASSIGNEES.c.task_id == _TASKS.c.id)
        .where(
            _TASK_ASSIGNEES.c.user_id == user_id,
            _TASKS.c.project_id == project_id,
            _TASKS.c.language_code == language,
            _TASKS.c.state == "open",
            _TASKS.c.kind.in_(kinds),
        )
    )
    return query if task_id is None else query.where(_TASKS.c.id == task_id)


def _task_kinds(permission: str) -> tuple[str, ...]:
    return (TASK_REVIEW,) if permission == REVIEW_TRANSLATIONS else (TASK_TRANSLATE, TASK_REVIEW)


def _task_permissions(base: Permissions | None, language: str, review: bool) -> Permissions:
    return Permissions(
        can_view_translations=True,
        can_edit_translations=True,
        can_edit_projects=base.can_edit_projects if base else False,
        can_delete=base.can_delete if base else False,
        can_review_translations=review or bool(base and base.can_review_translations),
        languages=frozenset([language]),
    )


def require_value_work(
    actor: Actor | None, project_id: str, permission: str, languages, translation_ids
) -> Permissions:
    """``require_permission`` and ``require_languages`` for a write of values (``permission``:
    EDIT_TRANSLATIONS or REVIEW_TRANSLATIONS) of the keys ``translation_ids`` (a function
    making a select of their ids, called only when a task is asked) in ``languages``; where
    the caller's role refuses it, an open task assigned to them covering every one of those
    keys in that one language grants it. Raises as ``require_permission`` does."""
    try:
        permissions = require_permission(actor, project_id, permission)
        require_languages(permissions, languages)
        return permissions
    except Forbidden:
        codes = set(languages)
        if not isinstance(actor, UserActor) or len(codes) != 1:
            raise
        (language,) = codes
        if not tasks_cover(actor.id, project_id, language, translation_ids(), _task_kinds(permission)):
            raise
        return _task_permissions(None, language, permission == REVIEW_TRANSLATIONS)


def tasks_cover(user_id: str, project_id: str, language: str, translation_ids, kinds) -> bool:
    """Whether the keys ``translation_ids`` (a select of ids; at least one) all are in open
    tasks of ``kinds`` in ``language`` assigned to ``user_id``: one statement."""
    ids = translation_ids.subquery()
    id_column = next(iter(ids.c))
    covered = _task_keys_of(user_id, project_id, language, kinds)
    row = db.session.execute(
        select(
            select(id_column).exists(),
            select(id_column).where(id_column.not_in(covered)).exists(),
        )
    ).one()
    return bool(row[0]) and not bool(row[1])


def require_task_grant(
    actor: Actor, project_id: str, permissions: Permissions, kind: str, language: str, user_ids
) -> None:
    """What a task made or changed by ``actor`` may give its assignees. A person who manages
    tasks decides freely. A key gives no more than it has: its task's language is one it
    writes, and a review task goes only to people who may already review that language (the
    task's right would otherwise let a key hand out the review it lacks). Forbidden naming
    the language or the first such assignee (``assignees.N``)."""
    if not isinstance(actor, ApiKeyActor):
        return
    if not permissions.may_edit_language(language):
        raise Forbidden(
            f"language: this API key does not write {language!r}, so it cannot give a task in it."
        )
    if kind != TASK_REVIEW:
        return
    for index, user_id in enumerate(user_ids):
        roles = _user_roles(user_id, project_id)
        own = (
            NO_PERMISSIONS
            if roles is None or roles[0] is None
            else with_project_rules(permissions_from_roles(*roles[:3]), project_id, roles[3])
        )
        if not own.may_review_language(language):
            raise Forbidden(
                f"assignees.{index}: an API key gives a review task only to people who may already "
                f"review {language!r}."
            )


def task_permissions(
    actor: Actor | None, project_id: str, task: dict, permissions: Permissions
) -> Permissions:
    """The permissions a page filtered to one task (``task``: its ``id``, ``kind``,
    ``language``, ``state`` and ``assigneeIds``) works with: the caller's own, widened to the
    task's work in its language when they are an assignee of the open task."""
    if not isinstance(actor, UserActor) or task["state"] != "open" or actor.id not in task["assigneeIds"]:
        return permissions
    review = task["kind"] == TASK_REVIEW
    language = task["language"]
    if permissions.may_edit_language(language) and (not review or permissions.may_review_language(language)):
        return permissions
    return _task_permissions(permissions, language, review)


def require_frozen_source_write(
    actor: Actor | None, project_id: str, source: str, release: str, until
) -> None:
    """Forbidden, naming the language and the release, unless ``actor`` may change source
    texts while the release's string freeze holds (``Permissions.may_change_frozen_source``)."""
    if actor is not None and not isinstance(actor, ApiKeyActor):
        roles = _user_roles(actor.id, project_id)
        if roles is not None and permissions_from_roles(*roles[:3]).may_change_frozen_source:
            return
    end = f" until {until.isoformat() if hasattr(until, 'isoformat') else until}" if until else ""
    raise Forbidden(
        f"language: the source texts ({source}) are frozen for the release {release}{end}; only "
        "the project's admins may change them meanwhile.",
        details={"release": release, "language": source},
    )
