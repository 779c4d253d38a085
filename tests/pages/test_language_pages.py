"""The languages page: the list with progress, adding, editing and deleting a language (after
a confirmation that says what is lost), for each kind of caller."""

import html
import re

import pytest

from tests.factories import project_in
from tests.pages.conftest import MEMBERS, SIGNED_OUT, alert_of, notice_of
from tests.translation_factories import ProjectApi, link_projects

EDITORS = ("editor", "project_admin", "org_admin", "org_owner")


@pytest.fixture
def api(as_caller, world) -> ProjectApi:
    """The project through the REST API, as its write key."""
    return ProjectApi(as_caller("write_key"), world.project_id)


def languages_page(world, **params):
    query = "&".join(f"{name}={value}" for name, value in params.items())
    return f"/projects/{world.project_id}/languages" + (f"?{query}" if query else "")


def text_of(response) -> str:
    """The page as a reader sees it: no tags, entities decoded, whitespace collapsed."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", response.get_data(as_text=True))).split())


@pytest.mark.parametrize("caller", MEMBERS)
def test_languages_page_lists_languages_with_progress(page_as, world, api, caller):
    api.add_language("de")
    api.create("title", {"de": "Titel"})
    api.create("body", {})
    response = page_as(caller).get(languages_page(world))
    assert response.status_code == 200
    assert "German" in text_of(response)
    assert "1 / 2 (50.0%)" in text_of(response)


@pytest.mark.parametrize("caller", SIGNED_OUT)
def test_languages_page_sends_the_signed_out_to_sign_in(page_as, world, caller):
    assert page_as(caller).get(languages_page(world)).location.startswith("/login")


def test_languages_page_is_not_found_for_an_outsider(page_as, world):
    assert page_as("outsider").get(languages_page(world)).status_code == 404


@pytest.mark.parametrize("caller", EDITORS[1:])
def test_project_admins_are_offered_to_add_edit_and_delete_languages(page_as, world, api, caller):
    api.add_language("de")
    text = page_as(caller).get(languages_page(world)).get_data(as_text=True)
    assert "Add language" in text
    assert "?edit=de" in text
    assert "?delete=de" in text


def test_a_viewer_is_offered_no_language_controls(page_as, world, api):
    api.add_language("de")
    text = page_as("viewer").get(languages_page(world)).get_data(as_text=True)
    assert "Add language" not in text
    assert "?edit=de" not in text
    assert "?delete=de" not in text


def test_adding_a_language_by_code_fills_its_name_and_flag(page_as, world, api):
    browser = page_as("editor")
    response = browser.submit(languages_page(world), {"code": "pt-BR", "name": "", "emoji": ""})
    assert response.status_code == 303
    assert notice_of(browser) == "Language added."
    assert api.languages() == [{"code": "pt-BR", "name": "Portuguese (Brazil)", "emoji": "🇧🇷"}]


def test_adding_a_language_keeps_the_given_name_and_emoji(page_as, world, api):
    page_as("editor").submit(languages_page(world), {"code": "de", "name": "Deutsch", "emoji": "🦅"})
    assert api.languages() == [{"code": "de", "name": "Deutsch", "emoji": "🦅"}]


def test_adding_an_existing_language_shows_the_conflict(page_as, world, api):
    api.add_language("de")
    response = page_as("editor").submit(languages_page(world), {"code": "de"})
    assert response.status_code == 409
    assert alert_of(response).startswith("code:")


def test_adding_a_malformed_code_names_the_field_and_keeps_the_input(page_as, world, api):
    response = page_as("editor").submit(languages_page(world), {"code": "not a code", "name": "Mine"})
    assert response.status_code == 400
    assert alert_of(response).startswith("code:")
    assert 'value="not a code"' in response.get_data(as_text=True)
    assert api.languages() == []


def test_a_viewers_forged_language_addition_is_refused(page_as, world, api):
    response = page_as("viewer").submit(languages_page(world), {"code": "de"})
    assert response.status_code == 403
    assert api.languages() == []


def test_the_edit_form_opens_with_the_language_values(page_as, world, api):
    api.add_language("de", name="Deutsch")
    text = page_as("editor").get(languages_page(world, edit="de")).get_data(as_text=True)
    assert 'name="currentCode" value="de"' in text
    assert 'id="edit-name" name="name" type="text" value="Deutsch"' in text


def test_editing_changes_code_name_and_emoji(page_as, world, api):
    api.add_language("de")
    api.create("title", {"de": "Titel"})
    response = page_as("editor").submit(
        languages_page(world) + "/edit",
        {"currentCode": "de", "code": "de-AT", "name": "Österreichisch", "emoji": "🇦🇹"},
    )
    assert response.status_code == 303
    assert api.languages() == [{"code": "de-AT", "name": "Österreichisch", "emoji": "🇦🇹"}]
    assert api.export() == {"de-AT": {"common": {"title": "Titel"}}}


def test_emptying_the_emoji_clears_it(page_as, world, api):
    api.add_language("de-AT")
    page_as("editor").submit(
        languages_page(world) + "/edit", {"currentCode": "de-AT", "code": "de-AT", "name": "X", "emoji": ""}
    )
    assert api.languages() == [{"code": "de-AT", "name": "X", "emoji": ""}]


def test_editing_to_an_existing_code_shows_the_conflict(page_as, world, api):
    api.add_language("de")
    api.add_language("fr")
    response = page_as("editor").submit(
        languages_page(world) + "/edit", {"currentCode": "de", "code": "fr", "name": "German"}
    )
    assert response.status_code == 409
    assert alert_of(response).startswith("code:")
    assert api.codes() == ["de", "fr"]


def test_a_viewers_forged_edit_is_refused(page_as, world, api):
    api.add_language("de")
    response = page_as("viewer").submit(
        languages_page(world) + "/edit", {"currentCode": "de", "code": "fr", "name": "French"}
    )
    assert response.status_code == 403
    assert api.codes() == ["de"]


def test_the_delete_confirmation_counts_the_values_and_files_lost(page_as, world, api):
    api.add_language("en")
    api.create("title", {"de": "Titel", "en": "Title"}, file_name="home")
    api.create("body", {"de": "Text"}, file_name="home")
    api.create("login", {"de": "Anmelden"}, file_name="auth")
    api.trash(api.create("old", {"de": "Alt"}, file_name="auth")["id"])
    response = page_as("project_admin").get(languages_page(world, delete="de"))
    text = text_of(response)
    assert response.status_code == 200
    assert "Delete German ( de )?" in text
    assert "removes 3 values in this language, and 1 more of translations in the trash" in text
    assert "its version of 2 files" in text
    assert "home : 2 values" in text
    assert "auth : 1 value (1 in the trash)" in text


def test_the_delete_confirmation_of_an_unknown_language_is_not_found(page_as, world):
    assert page_as("project_admin").get(languages_page(world, delete="xx")).status_code == 404


def test_a_viewer_cannot_open_the_delete_confirmation(page_as, world, api):
    api.add_language("de")
    assert page_as("viewer").get(languages_page(world, delete="de")).status_code == 403


def test_deleting_a_language_removes_it_with_its_values(page_as, world, api):
    api.create("title", {"en": "Title", "de": "Titel"})
    browser = page_as("project_admin")
    response = browser.submit(languages_page(world) + "/delete", {"code": "de"})
    assert response.status_code == 303
    assert notice_of(browser) == "Language de deleted. Restore it from the Trash tab."
    assert api.codes() == ["en"]
    assert api.export() == {"en": {"common": {"title": "Title"}}}


def test_a_language_used_by_the_project_link_is_not_deleted(app, page_as, world, api, as_caller):
    api.add_language("en-GB")
    with app.app_context():
        main_project = project_in(world.organization_id, languages=("en",), name="Main")
    link_projects(as_caller("org_owner"), world.project_id, main_project, "en", "en-GB")
    response = page_as("project_admin").submit(languages_page(world) + "/delete", {"code": "en-GB"})
    assert response.status_code == 409
    assert "linked-project setting" in alert_of(response)
    assert api.codes() == ["en-GB"]


def test_an_editor_is_not_offered_to_delete_a_language(page_as, world, api):
    api.add_language("de")
    text = page_as("editor").get(languages_page(world)).get_data(as_text=True)
    assert "?edit=de" in text
    assert "?delete=de" not in text


def test_an_editors_forged_language_delete_is_refused(page_as, world, api):
    api.add_language("de")
    response = page_as("editor").submit(languages_page(world) + "/delete", {"code": "de"})
    assert response.status_code == 403
    assert api.codes() == ["de"]


def test_the_source_language_is_marked_and_not_deleted_while_others_remain(page_as, world, api):
    api.create("title", {"en": "Title", "de": "Titel"})
    browser = page_as("project_admin")
    assert "en source" in text_of(browser.get(languages_page(world)))
    response = browser.submit(languages_page(world) + "/delete", {"code": "en"})
    assert response.status_code == 409
    assert "source language" in alert_of(response)
    assert api.codes() == ["de", "en"]


def test_a_viewers_forged_delete_is_refused(page_as, world, api):
    api.add_language("de")
    response = page_as("viewer").submit(languages_page(world) + "/delete", {"code": "de"})
    assert response.status_code == 403
    assert api.codes() == ["de"]


def test_markup_in_a_language_name_renders_as_text(page_as, world, api):
    api.add_language("de", name="<b>bold</b>", emoji="<i>")
    text = page_as("editor").get(languages_page(world, edit="de", delete="de")).get_data(as_text=True)
    assert "&lt;b&gt;bold&lt;/b&gt;" in text
    assert "<b>bold</b>" not in text
    assert "<i>" not in text


def test_the_edit_and_delete_forms_open_for_any_spelling_of_a_code(page_as, world, api):
    api.add_language("pt-BR")
    text = text_of(page_as("editor").get(languages_page(world, edit="pt_br")))
    assert "Edit Portuguese (Brazil) ( pt-BR )" in text
    text = text_of(page_as("project_admin").get(languages_page(world, delete="PT-br")))
    assert "Portuguese (Brazil) ( pt-BR )?" in text
