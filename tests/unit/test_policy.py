"""The permission table of decisions section 3, without an app or a database."""

from dataclasses import replace

import pytest

from loko.auth.actors import ApiKeyActor
from loko.auth.policy import (
    DELETE_PROJECT,
    EDIT_PROJECTS,
    EDIT_TRANSLATIONS,
    NO_PERMISSIONS,
    REVIEW_TRANSLATIONS,
    SESSION_ONLY,
    VIEW_TRANSLATIONS,
    Permissions,
    api_key_may,
    permissions_for,
    permissions_from_roles,
)
from loko.projects.models import Project

FULL = Permissions(True, True, True, True, True)
PROJECT_ADMIN = Permissions(True, True, True, False, True)
REVIEWER = Permissions(True, True, False, False, True)
EDITOR = Permissions(True, True, False, False)
VIEWER = Permissions(True, False, False, False)

# (organization role, project role) -> permissions; None is "no role".
ROLE_TABLE = [
    ("owner", None, FULL),
    ("owner", "admin", FULL),
    ("owner", "editor", FULL),
    ("owner", "viewer", FULL),
    ("admin", None, FULL),
    ("admin", "admin", FULL),
    ("admin", "editor", FULL),
    ("admin", "viewer", FULL),
    ("member", None, NO_PERMISSIONS),
    ("member", "admin", PROJECT_ADMIN),
    ("member", "reviewer", REVIEWER),
    ("member", "editor", EDITOR),
    ("member", "viewer", VIEWER),
    (None, None, NO_PERMISSIONS),
    (None, "admin", NO_PERMISSIONS),
    (None, "editor", NO_PERMISSIONS),
    (None, "viewer", NO_PERMISSIONS),
]


@pytest.mark.parametrize(
    ("org_role", "project_role", "expected"),
    ROLE_TABLE,
    ids=[f"org={o}-project={p}" for o, p, _ in ROLE_TABLE],
)
def test_permissions_from_roles_follow_the_table(org_role, project_role, expected):
    assert permissions_from_roles(org_role, project_role) == expected


def test_no_permissions_allow_nothing():
    for permission in (VIEW_TRANSLATIONS, EDIT_TRANSLATIONS, EDIT_PROJECTS, DELETE_PROJECT):
        assert not NO_PERMISSIONS.allows(permission)


def test_allows_names_each_flag():
    permissions = Permissions(
        can_view_translations=True, can_edit_translations=False, can_edit_projects=True, can_delete=False
    )
    assert permissions.allows(VIEW_TRANSLATIONS)
    assert not permissions.allows(EDIT_TRANSLATIONS)
    assert permissions.allows(EDIT_PROJECTS)
    assert not permissions.allows(DELETE_PROJECT)


def test_session_only_permissions_are_project_editing_deletion_and_review():
    assert {EDIT_PROJECTS, DELETE_PROJECT, REVIEW_TRANSLATIONS} == SESSION_ONLY


@pytest.mark.parametrize(
    ("scope", "expected"), [("write", replace(EDITOR, release_key=True)), ("read", VIEWER)]
)
def test_api_key_permissions_depend_on_scope(scope, expected):
    project = Project(id="p-1", organization_id="o-1")
    key = ApiKeyActor(id="k-1", name="ci", project_id="p-1", scope=scope)
    assert permissions_for(key, project) == expected


def test_api_key_never_carries_session_only_permissions():
    project = Project(id="p-1", organization_id="o-1")
    for scope in ("write", "read"):
        permissions = permissions_for(ApiKeyActor(id="k", name="ci", project_id="p-1", scope=scope), project)
        assert not any(permissions.allows(permission) for permission in SESSION_ONLY)


def test_api_key_of_another_project_has_no_permissions():
    project = Project(id="p-1", organization_id="o-1")
    key = ApiKeyActor(id="k-1", name="ci", project_id="p-2", scope="write")
    assert permissions_for(key, project) == NO_PERMISSIONS


def test_anonymous_caller_has_no_permissions():
    assert permissions_for(None, Project(id="p-1", organization_id="o-1")) == NO_PERMISSIONS


@pytest.mark.parametrize(
    ("scope", "permission", "allowed"),
    [
        ("read", VIEW_TRANSLATIONS, True),
        ("read", EDIT_TRANSLATIONS, False),
        ("write", EDIT_TRANSLATIONS, True),
        ("write", EDIT_PROJECTS, False),
    ],
)
def test_api_key_may_follows_the_key_table(scope, permission, allowed):
    assert api_key_may("p-1", scope, "p-1", permission) is allowed


def test_api_key_may_nothing_on_another_project():
    assert api_key_may("p-1", "write", "p-2", VIEW_TRANSLATIONS) is False
