"""A project's API keys page: the list, a new key shown in full exactly once, revocation,
and who may do any of it (the same rules as /api/projects/{id}/keys)."""

import re

import pytest

from tests.factories import CallerClient
from tests.pages.conftest import SIGNED_OUT, alert_of, notice_of
from tests.translation_factories import ProjectApi


def keys_path(world) -> str:
    return f"/projects/{world.project_id}/keys"


def revoke_path(world, key_id) -> str:
    return f"/projects/{world.project_id}/keys/{key_id}/revoke"


def text_of(response) -> str:
    return response.get_data(as_text=True)


def listed_names(as_caller, world) -> list[str]:
    keys = as_caller("org_owner").get(f"/api/projects/{world.project_id}/keys").json["keys"]
    return [key["name"] for key in keys]


def shown_key(response) -> str:
    return re.search(r'<code id="new-key">(loko_[^<]+)</code>', text_of(response)).group(1)


def create(client, world, data):
    """Post the new-key form and open the page its redirect leads to."""
    created = client.submit(keys_path(world), data)
    assert created.status_code == 303
    assert created.location == keys_path(world)
    return client.get(created.location)


# --- who may open the page ---------------------------------------------------------------------


@pytest.mark.parametrize("caller", ["project_admin", "org_admin", "org_owner"])
def test_keys_page_opens_for_project_managers(page_as, world, caller):
    response = page_as(caller).get(keys_path(world))
    assert response.status_code == 200
    assert "<h1>API keys</h1>" in text_of(response)


@pytest.mark.parametrize("caller", ["viewer", "editor"])
def test_keys_page_is_refused_to_a_viewer_or_editor(page_as, world, caller):
    response = page_as(caller).get(keys_path(world))
    assert response.status_code == 403
    assert "write_key" not in text_of(response)


@pytest.mark.parametrize("caller", SIGNED_OUT)
def test_keys_page_sends_signed_out_callers_to_sign_in(page_as, world, caller):
    response = page_as(caller).get(keys_path(world))
    assert response.status_code == 302
    assert response.location == f"/login?next={keys_path(world)}"


def test_keys_page_does_not_reveal_a_project_to_an_outsider(page_as, world):
    assert page_as("outsider").get(keys_path(world)).status_code == 404


# --- the list ------------------------------------------------------------------------------


def test_keys_page_lists_live_keys_with_prefix_scope_and_dates(page_as, world):
    text = text_of(page_as("org_owner").get(keys_path(world)))
    for name in ("write_key", "read_key", "spare_key"):
        assert f"<strong>{name}</strong>" in text
    assert "<strong>revoked_key</strong>" not in text
    assert "<strong>other_project_key</strong>" not in text
    assert len(re.findall(r"<code[^>]*>loko_[A-Za-z0-9_-]{7}…</code>", text)) == 3
    assert '<span class="badge">read</span>' in text
    assert "<time datetime=" in text
    assert "never" in text


def test_keys_page_names_who_created_a_key(page_as, world):
    owner = page_as("org_owner")
    owner.submit(keys_path(world), {"name": "deploy"})
    text = text_of(owner.get(keys_path(world)))
    row = text.split("<strong>deploy</strong>", 1)[1].split("</tr>", 1)[0]
    assert "by Owner" in row


def test_keys_page_shows_when_a_key_was_last_used(page_as, as_caller, world):
    as_caller("read_key").get(f"/api/projects/{world.project_id}/languages")
    text = text_of(page_as("org_owner").get(keys_path(world)))
    row = text.split("<strong>read_key</strong>", 1)[1].split("</tr>", 1)[0]
    assert row.count("<time datetime=") == 2


def test_revoke_forms_ask_for_confirmation(page_as, world):
    text = text_of(page_as("org_owner").get(keys_path(world)))
    assert 'data-confirm="Revoke the key “spare_key”?' in text


def test_keys_page_shows_markup_in_key_names_as_text(page_as, world):
    owner = page_as("org_owner")
    created = create(owner, world, {"name": "<script>alert(1)</script>"})
    later = owner.get(keys_path(world))
    for response in (created, later):
        text = text_of(response)
        assert "<script>alert" not in text
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in text


# --- creating a key ----------------------------------------------------------------------------


def test_a_new_key_is_shown_once_with_a_copy_button_and_a_warning(page_as, world):
    response = create(page_as("project_admin"), world, {"name": "deploy"})
    assert response.status_code == 200
    text = text_of(response)
    assert shown_key(response).startswith("loko_")
    assert '<button type="button" data-copy="new-key">Copy key</button>' in text
    assert "it will not be shown again" in text


def test_a_new_key_never_appears_on_a_later_page_load(page_as, world):
    owner = page_as("org_owner")
    key = shown_key(create(owner, world, {"name": "deploy"}))
    later = text_of(owner.get(keys_path(world)))
    assert key not in later
    assert key[:12] in later
    assert 'id="new-key"' not in later


def test_the_page_showing_a_new_key_is_never_cached(page_as, world):
    response = create(page_as("org_owner"), world, {"name": "deploy"})
    assert response.headers["Cache-Control"] == "no-store"


def test_a_new_key_works_at_once(page_as, app, world):
    key = shown_key(create(page_as("org_owner"), world, {"name": "deploy"}))
    response = CallerClient(app, {"bearer": key}).get(f"/api/projects/{world.project_id}/languages")
    assert response.status_code == 200


def test_a_new_read_key_cannot_write(page_as, app, world):
    key = shown_key(create(page_as("org_owner"), world, {"name": "reader", "scope": "read"}))
    response = CallerClient(app, {"bearer": key}).post(
        f"/api/projects/{world.project_id}/translations",
        json={"key": "k", "fileName": "common", "values": {}},
    )
    assert response.status_code == 403


def test_a_key_with_a_blank_name_is_refused_naming_the_field(page_as, as_caller, world):
    before = listed_names(as_caller, world)
    response = page_as("org_owner").submit(keys_path(world), {"name": ""})
    assert response.status_code == 400
    assert alert_of(response).startswith("name:")
    assert 'id="new-key"' not in text_of(response)
    assert listed_names(as_caller, world) == before


def test_a_key_with_an_unknown_scope_is_refused_naming_the_field(page_as, as_caller, world):
    before = listed_names(as_caller, world)
    response = page_as("org_owner").submit(keys_path(world), {"name": "deploy", "scope": "admin"})
    assert response.status_code == 400
    assert alert_of(response).startswith("scope:")
    assert listed_names(as_caller, world) == before


def test_a_refused_key_keeps_the_typed_name(page_as, world):
    response = page_as("org_owner").submit(keys_path(world), {"name": "deploy", "scope": "admin"})
    assert 'value="deploy"' in text_of(response)


@pytest.mark.parametrize("caller", ["viewer", "editor"])
def test_a_forged_key_creation_by_a_viewer_or_editor_is_refused(page_as, as_caller, world, caller):
    response = page_as(caller).submit(keys_path(world), {"name": "forged"})
    assert response.status_code == 403
    assert "loko_" not in text_of(response)
    assert "forged" not in listed_names(as_caller, world)


def test_creating_a_key_redirects_so_a_reload_creates_no_other_key(page_as, as_caller, world):
    owner = page_as("org_owner")
    before = listed_names(as_caller, world)
    created = owner.submit(keys_path(world), {"name": "deploy"})
    assert created.status_code == 303
    assert "loko_" not in text_of(created)
    assert all("loko_" not in cookie for cookie in created.headers.getlist("Set-Cookie"))
    shown = owner.get(keys_path(world))
    reloaded = owner.get(keys_path(world))
    assert shown_key(shown).startswith("loko_")
    assert 'id="new-key"' not in text_of(reloaded)
    assert listed_names(as_caller, world) == [*before, "deploy"]


def test_a_new_key_is_shown_only_to_the_session_that_made_it(page_as, world):
    owner = page_as("org_owner")
    owner.submit(keys_path(world), {"name": "deploy"})
    other = page_as("org_admin")
    other.client.set_cookie("loko-reveal", owner.client.get_cookie("loko-reveal").value)
    assert 'id="new-key"' not in text_of(other.get(keys_path(world)))


def test_a_new_key_is_not_shown_on_another_projects_keys_page(app, page_as, world):
    from tests.factories import project_in

    owner = page_as("org_owner")
    with app.app_context():
        other_project = project_in(world.organization_id, name="Docs")
    owner.submit(keys_path(world), {"name": "deploy"})
    assert 'id="new-key"' not in text_of(owner.get(f"/projects/{other_project}/keys"))
    assert 'id="new-key"' in text_of(owner.get(keys_path(world)))


# --- revoking a key ----------------------------------------------------------------------------


def test_revoking_a_key_stops_it_at_once(page_as, as_caller, world):
    browser = page_as("project_admin")
    response = browser.submit(revoke_path(world, world.key_ids["spare_key"]))
    assert response.status_code == 303
    assert response.location == keys_path(world)
    assert notice_of(browser) == "API key revoked: it no longer works."
    assert as_caller("spare_key").get(f"/api/projects/{world.project_id}/languages").status_code == 401
    assert "<strong>spare_key</strong>" not in text_of(browser.get(keys_path(world)))


def test_revoking_a_revoked_key_shows_not_found(page_as, world):
    response = page_as("org_owner").submit(revoke_path(world, world.key_ids["revoked_key"]))
    assert response.status_code == 404
    assert alert_of(response) == "API key not found."


def test_revoking_another_projects_key_through_this_project_is_refused(page_as, as_caller, world):
    response = page_as("org_owner").submit(revoke_path(world, world.key_ids["other_project_key"]))
    assert response.status_code == 404
    assert as_caller("other_project_key").get(f"/api/projects/{world.other_project_id}").status_code == 200


@pytest.mark.parametrize("caller", ["viewer", "editor"])
def test_a_forged_revoke_by_a_viewer_or_editor_is_refused(page_as, as_caller, world, caller):
    response = page_as(caller).submit(revoke_path(world, world.key_ids["spare_key"]))
    assert response.status_code == 403
    assert as_caller("spare_key").get(f"/api/projects/{world.project_id}/languages").status_code == 200


def test_a_revoke_without_the_csrf_token_is_refused(page_as, as_caller, world):
    response = page_as("org_owner").post(revoke_path(world, world.key_ids["spare_key"]))
    assert response.status_code == 403
    assert as_caller("spare_key").get(f"/api/projects/{world.project_id}/languages").status_code == 200


def test_a_key_is_created_with_an_expiry_day_and_languages(page_as, as_caller, world):
    ProjectApi(as_caller("write_key"), world.project_id).add_language("de")
    response = page_as("org_owner").submit(
        keys_path(world), {"name": "translator", "expiresAt": "2999-12-31", "languages": "de"}
    )
    assert response.status_code == 303
    (item,) = [
        key
        for key in as_caller("org_owner").get(f"/api/projects/{world.project_id}/keys").json["keys"]
        if key["name"] == "translator"
    ]
    assert (item["expiresAt"], item["languages"]) == ("2999-12-31T00:00:00+00:00", ["de"])
    assert "languages: de" in page_as("org_owner").get(keys_path(world)).text


def test_a_key_expiring_on_a_past_day_is_refused_naming_the_field(page_as, world):
    response = page_as("org_owner").submit(keys_path(world), {"name": "late", "expiresAt": "2001-01-01"})
    assert response.status_code == 400
    assert alert_of(response) == "expiresAt: must be in the future."
