"""What each organization role may do in the organization itself (no app, no database)."""

import pytest

from loko.auth.policy import organization_permissions


@pytest.mark.parametrize(
    ("role", "invite", "invite_owners", "rename", "delete"),
    [
        ("owner", True, True, True, True),
        ("admin", True, False, True, False),
        ("member", False, False, False, False),
        (None, False, False, False, False),
    ],
)
def test_organization_permissions_of_each_role(role, invite, invite_owners, rename, delete):
    permissions = organization_permissions(role)
    assert permissions.can_invite is invite
    assert permissions.can_manage_owners is invite_owners
    assert permissions.can_rename is rename
    assert permissions.can_delete is delete
