"""The trash page: trashed translations searched by key and file, 50 a page; restoring one,
and deleting one permanently after a confirmation."""

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


def trash_page(world, suffix=""):
    return f"/projects/{world.project_id}/trash{suffix}"


def text_of(response) -> str:
    """The page as a reader sees it: no tags, entities decoded, whitespace collapsed."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", response.get_data(as_text=True))).split())


def links_of(response, rel: str) -> list[str]:
    """The targets of the page's ``rel`` links (prev / next), entities decoded."""
    found = re.findall(rf'<a href="([^"]*)" rel="{rel}">', response.get_data(as_text=True))
    return [html.unescape(link) for link in found]


def trashed(api, key, values=None, file_name="common") -> str:
    translation = api.create(key, values or {"en": key.title()}, file_name=file_name)
    api.trash(translation["id"])
    return translation["id"]


def trash_keys(api) -> list[str]:
    return [item["key"] for item in api.trash_list()["translations"]]


def shown_keys(response) -> list[str]:
    return re.findall(r'<td class="key"><code>([^<]*)</code>', response.get_data(as_text=True))


@pytest.mark.parametrize("caller", MEMBERS)
def test_trash_page_lists_trashed_translations_newest_first(page_as, world, api, caller):
    trashed(api, "older")
    trashed(api, "newer", {"en": "Newer value"})
    api.create("active", {"en": "Active"})
    response = page_as(caller).get(trash_page(world))
    assert response.status_code == 200
    assert shown_keys(response) == ["newer", "older"]
    assert "en Newer value" in text_of(response)


@pytest.mark.parametrize("caller", SIGNED_OUT)
def test_trash_page_sends_the_signed_out_to_sign_in(page_as, world, caller):
    assert page_as(caller).get(trash_page(world)).location.startswith("/login")


def test_trash_page_is_not_found_for_an_outsider(page_as, world):
    assert page_as("outsider").get(trash_page(world)).status_code == 404


def test_an_empty_trash_says_so(page_as, world):
    assert "The trash is empty." in text_of(page_as("viewer").get(trash_page(world)))


@pytest.mark.parametrize("caller", EDITORS)
def test_editors_are_offered_restore_and_permanent_deletion(page_as, world, api, caller):
    translation_id = trashed(api, "title")
    text = page_as(caller).get(trash_page(world)).get_data(as_text=True)
    assert "Restore" in text
    assert f"?purge={translation_id}" in text


def test_a_viewer_is_offered_neither_restore_nor_deletion(page_as, world, api):
    translation_id = trashed(api, "title")
    text = page_as("viewer").get(trash_page(world)).get_data(as_text=True)
    assert "Restore" not in text
    assert f"?purge={translation_id}" not in text


def test_searching_finds_keys_containing_the_text(page_as, world, api):
    trashed(api, "auth.login.title")
    trashed(api, "home.title")
    response = page_as("viewer").get(trash_page(world, "?q=LOGIN"))
    assert shown_keys(response) == ["auth.login.title"]


def test_the_file_filter_shows_only_that_file(page_as, world, api):
    trashed(api, "title", file_name="home")
    trashed(api, "title", file_name="about")
    response = page_as("viewer").get(trash_page(world, "?fileName=about"))
    assert "about" in text_of(response)
    assert shown_keys(response) == ["title"]
    assert "home" not in text_of(response).split("Deleted", 1)[1]


def test_a_search_matching_nothing_says_so(page_as, world, api):
    trashed(api, "title")
    assert "Nothing in the trash matches the search." in text_of(
        page_as("viewer").get(trash_page(world, "?q=zzz"))
    )


def test_the_first_page_shows_fifty_and_links_to_the_next_with_the_search(page_as, world, api):
    api.upsert("en", {f"key.{i:03d}": "v" for i in range(60)})
    api.bulk_delete([f"key.{i:03d}" for i in range(60)])
    response = page_as("viewer").get(trash_page(world, "?q=key"))
    assert len(shown_keys(response)) == 50
    assert "1\u201350 of 60 translations in the trash matching the search" in text_of(response)
    assert links_of(response, "prev") == []
    assert links_of(response, "next") == [trash_page(world, "?offset=50&q=key")]


def test_the_last_page_shows_the_rest_and_links_back(page_as, world, api):
    api.upsert("en", {f"key.{i:03d}": "v" for i in range(60)})
    api.bulk_delete([f"key.{i:03d}" for i in range(60)])
    first = shown_keys(page_as("viewer").get(trash_page(world, "?q=key")))
    response = page_as("viewer").get(trash_page(world, "?q=key&offset=50"))
    assert len(shown_keys(response)) == 10
    assert set(first).isdisjoint(shown_keys(response))
    assert links_of(response, "prev") == [trash_page(world, "?q=key")]
    assert links_of(response, "next") == []


def test_a_malformed_offset_names_the_field(page_as, world, api):
    trashed(api, "title")
    response = page_as("viewer").get(trash_page(world, "?offset=-1"))
    assert response.status_code == 400
    assert alert_of(response).startswith("offset:")
    assert shown_keys(response) == ["title"]


def test_restoring_brings_the_translation_back_and_keeps_the_search(page_as, world, api):
    translation_id = trashed(api, "title")
    browser = page_as("editor")
    response = browser.submit(trash_page(world, "/restore"), {"id": translation_id, "q": "ti"})
    assert response.status_code == 303
    assert response.location == trash_page(world, "?q=ti")
    assert notice_of(browser) == "Translation restored."
    assert api.keys() == ["title"]
    assert trash_keys(api) == []


def test_restoring_a_key_taken_again_shows_the_conflict(page_as, world, api):
    translation_id = trashed(api, "title")
    api.create("title", {"en": "New"})
    response = page_as("editor").submit(trash_page(world, "/restore"), {"id": translation_id})
    assert response.status_code == 409
    assert "exists again" in alert_of(response)
    assert trash_keys(api) == ["title"]


def test_a_viewers_forged_restore_is_refused(page_as, world, api):
    translation_id = trashed(api, "title")
    response = page_as("viewer").submit(trash_page(world, "/restore"), {"id": translation_id})
    assert response.status_code == 403
    assert trash_keys(api) == ["title"]


def test_the_permanent_deletion_asks_for_confirmation_first(page_as, world, api):
    translation_id = trashed(api, "title", {"en": "Title", "de": "Titel"}, file_name="home")
    response = page_as("editor").get(trash_page(world, f"?purge={translation_id}"))
    assert response.status_code == 200
    assert "The key title in home and its 2 values are removed for good" in text_of(response)
    assert trash_keys(api) == ["title"]


def test_deleting_permanently_removes_the_translation_for_good(page_as, world, api):
    translation_id = trashed(api, "title")
    browser = page_as("editor")
    response = browser.submit(trash_page(world, "/purge"), {"id": translation_id})
    assert response.status_code == 303
    assert notice_of(browser) == "Translation deleted permanently."
    assert trash_keys(api) == []
    assert api.post("/translations/trash", {"id": translation_id}).status_code == 404


def test_deleting_a_translation_no_longer_in_the_trash_says_so(page_as, world, api):
    translation_id = api.create("title", {"en": "Title"})["id"]
    response = page_as("editor").submit(trash_page(world, "/purge"), {"id": translation_id})
    assert response.status_code == 404
    assert alert_of(response).startswith("id:")
    assert api.keys() == ["title"]


def test_a_viewers_forged_permanent_deletion_is_refused(page_as, world, api):
    translation_id = trashed(api, "title")
    response = page_as("viewer").submit(trash_page(world, "/purge"), {"id": translation_id})
    assert response.status_code == 403
    assert trash_keys(api) == ["title"]


def test_markup_in_keys_values_and_file_names_renders_as_text(page_as, world, api):
    translation_id = trashed(api, "<b>key</b>", {"en": "<img src=x onerror=alert(1)>"}, file_name="<i>f</i>")
    text = page_as("editor").get(trash_page(world, f"?purge={translation_id}")).get_data(as_text=True)
    assert "&lt;b&gt;key&lt;/b&gt;" in text
    assert "&lt;img src=x onerror=alert(1)&gt;" in text
    assert "&lt;i&gt;f&lt;/i&gt;" in text
    assert "<b>key" not in text
    assert "<img" not in text
    assert "<i>f" not in text


def test_a_deleted_file_is_listed_at_the_top_of_the_trash_and_restored_in_one_click(page_as, world, api):
    api.create("title", {"en": "Title", "de": "Titel"}, file_name="home")
    api.create("body", {"en": "Body"}, file_name="home")
    browser = page_as("editor")
    browser.submit(f"/projects/{world.project_id}/files/delete", {"fileName": "home", "languageCode": ""})
    text = text_of(browser.get(f"/projects/{world.project_id}/trash"))
    assert "File home deleted by" in text and "2 keys with 3 values" in text
    page = browser.get(f"/projects/{world.project_id}/trash").get_data(as_text=True)
    operation = page.split('name="operation" value="')[1].split('"')[0]
    response = browser.submit(f"/projects/{world.project_id}/undo", {"operation": operation})
    assert response.status_code == 303
    assert api.export() == {
        "de": {"home": {"title": "Titel"}},
        "en": {"home": {"body": "Body", "title": "Title"}},
    }
    assert "File home deleted by" not in text_of(browser.get(f"/projects/{world.project_id}/trash"))


def test_an_undo_that_meets_a_later_change_lists_it_and_writes_nothing(page_as, world, api):
    api.upsert("en", {"a": "A", "b": "B"})
    api.bulk_delete(["a", "b"])
    api.create("a", {"en": "New A"})
    browser = page_as("editor")
    page = browser.get(f"/projects/{world.project_id}/trash").get_data(as_text=True)
    operation = page.split('name="operation" value="')[1].split('"')[0]
    response = browser.submit(f"/projects/{world.project_id}/undo", {"operation": operation})
    assert response.status_code == 409
    assert "key exists again" in text_of(response)
    assert api.trash_list()["total"] == 2
