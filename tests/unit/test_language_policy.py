"""The language limits of the permission table, without an app or a database."""

import pytest

from loko.auth.actors import ApiKeyActor, actor_from_record, actor_record
from loko.auth.policy import (
    EDIT_TRANSLATIONS,
    MANAGE_KEYS,
    key_permissions,
    languages_column,
    permissions_from_roles,
    require_languages,
    stored_languages,
)
from loko.errors import Forbidden

DE = frozenset({"de"})


@pytest.mark.parametrize("role", ["editor", "reviewer"])
def test_an_editor_or_reviewer_is_limited_to_their_languages(role):
    permissions = permissions_from_roles("member", role, DE)
    assert (permissions.languages, permissions.can_edit_translations, permissions.can_manage_keys) == (
        DE,
        True,
        False,
    )


@pytest.mark.parametrize(
    ("org_role", "project_role"),
    [("member", "admin"), ("member", "viewer"), ("owner", "editor"), ("admin", None)],
)
def test_admins_owners_and_viewers_are_never_limited(org_role, project_role):
    assert permissions_from_roles(org_role, project_role, DE).languages is None


def test_a_limited_member_may_edit_only_their_languages():
    permissions = permissions_from_roles("member", "editor", DE)
    assert (permissions.may_edit_language("de"), permissions.may_edit_language("fr")) == (True, False)


def test_key_management_is_its_own_permission():
    limited = permissions_from_roles("member", "editor", DE)
    unlimited = permissions_from_roles("member", "editor")
    assert (limited.allows(MANAGE_KEYS), limited.allows(EDIT_TRANSLATIONS)) == (False, True)
    assert unlimited.allows(MANAGE_KEYS)


def test_require_languages_names_every_language_refused():
    with pytest.raises(Forbidden) as refused:
        require_languages(permissions_from_roles("member", "editor", DE), ["fr", "de", "en"])
    assert refused.value.message == "language: you may not edit en, fr in this project."
    assert refused.value.details == {"languages": ["en", "fr"]}


def test_require_languages_lets_an_unlimited_caller_write_any_language():
    require_languages(permissions_from_roles("member", "editor"), ["fr", "de"])


def test_a_write_key_is_limited_to_its_languages():
    key = ApiKeyActor(id="k", name="ci", project_id="p", scope="write", languages=("de",))
    assert key_permissions(key).languages == DE


def test_a_read_key_s_limit_means_nothing():
    key = ApiKeyActor(id="k", name="ci", project_id="p", scope="read", languages=("de",))
    assert key_permissions(key).languages is None


def test_a_key_s_languages_survive_a_job_s_record_and_its_expiry_is_left_out():
    from datetime import UTC, datetime

    key = ApiKeyActor("k", "ci", "p", "write", ("de", "fr"), datetime(2030, 1, 1, tzinfo=UTC))
    record = actor_record(key)
    assert "expires_at" not in record
    assert actor_from_record({**record, "languages": ["de", "fr"]}) == key


@pytest.mark.parametrize(
    ("codes", "column"), [(None, None), ([], None), (["fr", "de", "fr"], '["de", "fr"]')]
)
def test_the_languages_column_is_sorted_json_or_null(codes, column):
    assert languages_column(codes) == column


def test_a_stored_column_reads_back_as_a_set():
    assert (stored_languages('["de", "fr"]'), stored_languages(None)) == (frozenset({"de", "fr"}), None)


def test_a_caller_who_writes_nothing_is_told_of_the_edit_permission_for_key_management():
    from loko.auth.actors import UserActor
    from loko.auth.policy import _granting

    with pytest.raises(Forbidden) as refused:
        _granting(
            UserActor("u", "v@example.test", "v"), MANAGE_KEYS, permissions_from_roles("member", "viewer")
        )
    assert refused.value.message == "You do not have the canEditTranslations permission on this project."
