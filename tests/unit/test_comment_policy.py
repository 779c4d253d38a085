"""Who may change a comment's text and who may delete it (loko.auth.policy), without an
app: authors by identity, project admins for deletes."""

import pytest

from loko.auth.actors import ApiKeyActor, UserActor
from loko.auth.policy import ROLE_PERMISSIONS, require_comment_edit, require_comment_removal
from loko.errors import Forbidden

ADA = UserActor("u-ada", "ada@example.test", "Ada")
BOB = UserActor("u-bob", "bob@example.test", "Bob")
KEY = ApiKeyActor("k-1", "ci", "p-1", "write")
EDITOR = ROLE_PERMISSIONS[("project", "editor")]
VIEWER = ROLE_PERMISSIONS[("project", "viewer")]
ADMIN = ROLE_PERMISSIONS[("project", "admin")]
WRITE_KEY = ROLE_PERMISSIONS[("key", "write")]


@pytest.mark.parametrize(("actor", "permissions"), [(ADA, EDITOR), (KEY, WRITE_KEY)])
def test_the_author_changes_the_text(actor, permissions):
    require_comment_edit(actor, permissions, actor.kind, actor.id)


@pytest.mark.parametrize(
    ("actor", "permissions", "author"),
    [
        (BOB, ADMIN, ("user", "u-ada")),  # not even an admin
        (ADA, VIEWER, ("user", "u-ada")),  # no longer allowed to write comments
        (KEY, WRITE_KEY, ("user", "k-1")),  # a user and a key never share an identity
        (ADA, EDITOR, ("user", None)),
    ],
)
def test_nobody_else_changes_the_text(actor, permissions, author):
    with pytest.raises(Forbidden):
        require_comment_edit(actor, permissions, *author)


@pytest.mark.parametrize(
    ("actor", "permissions", "author"),
    [(ADA, EDITOR, ("user", "u-ada")), (KEY, WRITE_KEY, ("api_key", "k-1")), (BOB, ADMIN, ("user", "u-ada"))],
)
def test_the_author_or_an_admin_deletes(actor, permissions, author):
    require_comment_removal(actor, permissions, *author)


@pytest.mark.parametrize(
    ("actor", "permissions", "author"),
    [
        (BOB, EDITOR, ("user", "u-ada")),
        (ADA, VIEWER, ("user", "u-ada")),
        (KEY, WRITE_KEY, ("api_key", "k-2")),
    ],
)
def test_anyone_else_may_not_delete(actor, permissions, author):
    with pytest.raises(Forbidden):
        require_comment_removal(actor, permissions, *author)
