"""Who may read an organization's audit log: its owners and admins (no database)."""

import pytest

from loko.auth.policy import organization_permissions


@pytest.mark.parametrize(
    ("role", "allowed"), [("owner", True), ("admin", True), ("member", False), (None, False)]
)
def test_owners_and_admins_read_the_audit_log(role, allowed):
    assert organization_permissions(role).can_view_audit is allowed
