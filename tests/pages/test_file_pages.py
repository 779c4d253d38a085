"""The files page: the list with languages and key counts, creating, renaming and deleting a
file (or one language of it, after a confirmation that says what is lost)."""

import html
import re

import pytest

from tests.pages.conftest import MEMBERS, SIGNED_OUT, alert_of, notice_of
from tests.translation_factories import ProjectApi

EDITORS = ("editor", "project_admin", "org_admin", "org_owner")


@pytest.fixture
def api(as_caller, world) -> ProjectApi:
    """The project through the REST API, as its write key."""
    return ProjectApi(as_caller("write_key"), world.project_id)


def files_page(world, suffix=""):
    return f"/projects/{world.project_id}/files{suffix}"


def text_of(response) -> str:
    """The page as a reader sees it: no tags, entities decoded, whitespace collapsed."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", response.get_data(as_text=True))).split())


def records(api) -> list[tuple[str, str]]:
    return [(record["file_name"], record["language"]) for record in api.files()]


@pytest.mark.parametrize("caller", MEMBERS)
def test_files_page_lists_files_with_languages_and_keys(page_as, world, api, caller):
    api.create("title", {"de": "Titel", "en": "Title"}, file_name="auth/login")
    api.create("body", {"en": "Body"}, file_name="auth/login")
    response = page_as(caller).get(files_page(world))
    assert response.status_code == 200
    assert "auth/login de en 2" in text_of(response)


@pytest.mark.parametrize("caller", SIGNED_OUT)
def test_files_page_sends_the_signed_out_to_sign_in(page_as, world, caller):
    assert page_as(caller).get(files_page(world)).location.startswith("/login")


def test_files_page_is_not_found_for_an_outsider(page_as, world):
    assert page_as("outsider").get(files_page(world)).status_code == 404


@pytest.mark.parametrize("caller", EDITORS)
def test_editors_are_offered_to_create_rename_and_delete_files(page_as, world, api, caller):
    api.create_files("home", "en")
    text = page_as(caller).get(files_page(world)).get_data(as_text=True)
    assert "Create file" in text
    assert "?rename=home" in text
    assert "?delete=home" in text


def test_a_viewer_is_offered_no_file_controls(page_as, world, api):
    api.create_files("home", "en")
    text = page_as("viewer").get(files_page(world)).get_data(as_text=True)
    assert "Create file" not in text
    assert "?rename=home" not in text
    assert "?delete=home" not in text


def test_creating_a_file_in_the_ticked_languages(page_as, world, api):
    api.add_language("de")
    api.add_language("en")
    browser = page_as("editor")
    response = browser.submit(files_page(world), {"fileName": "home", "languages": ["de", "en"]})
    assert response.status_code == 303
    assert notice_of(browser) == "File created."
    assert records(api) == [("home", "de"), ("home", "en")]


def test_creating_a_file_with_typed_codes_adds_those_languages(page_as, world, api):
    page_as("editor").submit(files_page(world), {"fileName": "home", "new_languages": "fr, pt-BR"})
    assert records(api) == [("home", "fr"), ("home", "pt-BR")]
    assert api.codes() == ["fr", "pt-BR"]


def test_creating_a_file_without_a_language_names_the_field(page_as, world, api):
    response = page_as("editor").submit(files_page(world), {"fileName": "home"})
    assert response.status_code == 400
    assert alert_of(response).startswith("languages:")
    assert api.files() == []


def test_a_file_name_leaving_the_folder_names_the_field_and_keeps_the_input(page_as, world, api):
    api.add_language("en")
    response = page_as("editor").submit(files_page(world), {"fileName": "../escape", "languages": ["en"]})
    assert response.status_code == 400
    assert alert_of(response).startswith("fileName:")
    assert 'value="../escape"' in response.get_data(as_text=True)
    assert api.files() == []


def test_creating_a_file_that_exists_in_those_languages_says_so(page_as, world, api):
    api.create_files("home", "en")
    response = page_as("editor").submit(files_page(world), {"fileName": "home", "languages": ["en"]})
    assert response.status_code == 409
    assert html.unescape(alert_of(response)) == "fileName: 'home' already exists in these languages."


def test_a_viewers_forged_file_creation_is_refused(page_as, world, api):
    api.add_language("en")
    response = page_as("viewer").submit(files_page(world), {"fileName": "home", "languages": ["en"]})
    assert response.status_code == 403
    assert api.files() == []


def test_the_rename_form_opens_for_a_file(page_as, world, api):
    api.create_files("home", "en")
    text = page_as("editor").get(files_page(world, "?rename=home")).get_data(as_text=True)
    assert 'name="fileName" value="home"' in text
    assert 'name="newFileName" type="text" value="home"' in text


def test_renaming_a_file_moves_every_language_and_translation(page_as, world, api):
    api.create("title", {"de": "Titel", "en": "Title"}, file_name="home")
    browser = page_as("editor")
    response = browser.submit(files_page(world, "/rename"), {"fileName": "home", "newFileName": "pages/home"})
    assert response.status_code == 303
    assert notice_of(browser) == "File renamed."
    assert records(api) == [("pages/home", "de"), ("pages/home", "en")]
    assert api.keys(fileName="pages/home") == ["title"]


def test_renaming_onto_an_existing_file_shows_the_conflict(page_as, world, api):
    api.create_files("home", "en")
    api.create_files("about", "en")
    response = page_as("editor").submit(
        files_page(world, "/rename"), {"fileName": "home", "newFileName": "about"}
    )
    assert response.status_code == 409
    assert alert_of(response).startswith("newFileName:")
    assert records(api) == [("about", "en"), ("home", "en")]


def test_a_viewers_forged_rename_is_refused(page_as, world, api):
    api.create_files("home", "en")
    response = page_as("viewer").submit(
        files_page(world, "/rename"), {"fileName": "home", "newFileName": "x"}
    )
    assert response.status_code == 403
    assert records(api) == [("home", "en")]


def test_the_file_delete_confirmation_counts_keys_and_values(page_as, world, api):
    api.create("title", {"de": "Titel", "en": "Title"}, file_name="home")
    api.create("body", {"en": "Body"}, file_name="home")
    api.trash(api.create("old", {"en": "Old"}, file_name="home")["id"])
    api.create("other", {"en": "Elsewhere"}, file_name="about")
    response = page_as("editor").get(files_page(world, "?delete=home"))
    assert response.status_code == 200
    text = text_of(response)
    assert "Its 2 keys with 3 values in 2 languages go to the trash" in text
    assert "1 key already in the trash stay there" in text


def test_the_language_version_confirmation_counts_its_values(page_as, world, api):
    api.create("title", {"de": "Titel", "en": "Title"}, file_name="home")
    api.create("body", {"de": "Text", "en": "Body"}, file_name="home")
    api.trash(api.create("old", {"de": "Alt"}, file_name="home")["id"])
    response = page_as("editor").get(files_page(world, "?delete=home&language=de"))
    assert response.status_code == 200
    assert (
        "This removes 2 values in German from this file, and 1 more of translations in the trash."
        in text_of(response)
    )


def test_the_delete_confirmation_of_an_unknown_file_is_not_found(page_as, world):
    assert page_as("editor").get(files_page(world, "?delete=nothing")).status_code == 404


def test_a_viewer_cannot_open_the_delete_confirmation(page_as, world, api):
    api.create_files("home", "en")
    assert page_as("viewer").get(files_page(world, "?delete=home")).status_code == 403


def test_deleting_a_file_removes_it_in_every_language_with_its_translations(page_as, world, api):
    api.create("title", {"de": "Titel", "en": "Title"}, file_name="home")
    api.create("other", {"en": "Elsewhere"}, file_name="about")
    browser = page_as("editor")
    response = browser.submit(files_page(world, "/delete"), {"fileName": "home", "languageCode": ""})
    assert response.status_code == 303
    assert notice_of(browser) == "File home deleted. Restore it from the Trash tab."
    assert records(api) == [("about", "en")]
    assert api.export() == {"en": {"about": {"other": "Elsewhere"}}}


def test_deleting_a_file_for_good_asks_to_type_its_name(page_as, world, api):
    api.create("title", {"en": "Title"}, file_name="home")
    api.create("body", {"en": "Body"}, file_name="home")
    browser = page_as("editor")
    form = {"fileName": "home", "languageCode": "", "permanent": "1", "confirm": "hom"}
    response = browser.submit(files_page(world, "/delete"), form)
    assert response.status_code == 400
    assert alert_of(response).startswith("confirm: type home")
    assert records(api) == [("home", "en")]
    response = browser.submit(files_page(world, "/delete"), {**form, "confirm": "home"})
    assert response.status_code == 303
    assert notice_of(browser) == "File home deleted for good."
    assert api.trash_list()["total"] == 0


def test_deleting_one_language_of_a_file_keeps_the_others(page_as, world, api):
    api.create("title", {"de": "Titel", "en": "Title"}, file_name="home")
    page_as("editor").submit(files_page(world, "/delete"), {"fileName": "home", "languageCode": "de"})
    assert records(api) == [("home", "en")]
    assert api.export() == {"en": {"home": {"title": "Title"}}}


def test_deleting_an_unknown_file_says_so(page_as, world):
    response = page_as("editor").submit(files_page(world, "/delete"), {"fileName": "nothing"})
    assert response.status_code == 404
    assert alert_of(response).startswith("fileName:")


def test_a_viewers_forged_delete_is_refused(page_as, world, api):
    api.create_files("home", "en")
    response = page_as("viewer").submit(files_page(world, "/delete"), {"fileName": "home"})
    assert response.status_code == 403
    assert records(api) == [("home", "en")]


def test_markup_in_a_file_name_renders_as_text(page_as, world, api):
    name = "<script>alert(1)</script>"
    api.create_files(name, "en")
    browser = page_as("editor")
    for path in ("", "?rename=<script>alert(1)</script>", "?delete=<script>alert(1)</script>"):
        text = browser.get(files_page(world, path)).get_data(as_text=True)
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in text
        assert "<script>alert" not in text
