"""Who may name and delete releases, and who may change source texts while a string freeze
holds: the permission table of policy.py, for every role and key scope (no app)."""

import pytest

from loko.auth.actors import ApiKeyActor
from loko.auth.policy import MANAGE_RELEASES, VIEW_RELEASES, key_permissions, permissions_from_roles

# (organization role, project role) -> (sees releases, manages them, changes frozen sources)
USERS = [
    (("owner", None), (True, True, True)),
    (("admin", None), (True, True, True)),
    (("member", "admin"), (True, True, True)),
    (("member", "reviewer"), (True, False, False)),
    (("member", "editor"), (True, False, False)),
    (("member", "viewer"), (True, False, False)),
    (("member", None), (False, False, False)),
    ((None, None), (False, False, False)),
]
KEYS = [("write", (True, True, False)), ("read", (True, False, False))]


@pytest.mark.parametrize(("roles", "expected"), USERS, ids=[f"{o}-{p}" for (o, p), _ in USERS])
def test_each_role_may_what_the_table_says(roles, expected):
    permissions = permissions_from_roles(*roles)
    assert (
        permissions.allows(VIEW_RELEASES),
        permissions.allows(MANAGE_RELEASES),
        permissions.may_change_frozen_source,
    ) == expected


@pytest.mark.parametrize(("scope", "expected"), KEYS)
def test_each_key_scope_may_what_the_table_says(scope, expected):
    permissions = key_permissions(ApiKeyActor(id="k", name="ci", project_id="p", scope=scope))
    assert (
        permissions.allows(VIEW_RELEASES),
        permissions.allows(MANAGE_RELEASES),
        permissions.may_change_frozen_source,
    ) == expected


def test_a_write_key_limited_to_languages_still_names_releases():
    key = ApiKeyActor(id="k", name="ci", project_id="p", scope="write", languages=("de",))
    assert key_permissions(key).allows(MANAGE_RELEASES)


def test_an_editor_limited_to_languages_does_not_change_frozen_sources():
    permissions = permissions_from_roles("member", "editor", frozenset({"de"}))
    assert not permissions.may_change_frozen_source
    assert not permissions.allows(MANAGE_RELEASES)
