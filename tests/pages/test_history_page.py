"""The history page: changes newest first, filtered by key, file, language, action and actor,
50 a page with Newer/Older links; reverting a value to what it was before a change."""

import html
import re

import pytest

from tests.factories import user_id
from tests.pages.conftest import MEMBERS, SIGNED_OUT, alert_of, notice_of
from tests.translation_factories import ProjectApi

EDITORS = ("editor", "project_admin", "org_admin", "org_owner")
REVERT = 'class="small revert"'


@pytest.fixture
def api(as_caller, world) -> ProjectApi:
    """The project through the REST API, as its write key."""
    return ProjectApi(as_caller("write_key"), world.project_id)


def history_page(world, suffix=""):
    return f"/projects/{world.project_id}/history{suffix}"


def text_of(response) -> str:
    """The page as a reader sees it: no tags, entities decoded, whitespace collapsed."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", response.get_data(as_text=True))).split())


def shown_keys(response) -> list[str]:
    return re.findall(r"<td>\s*<code>([^<]*)</code>", response.get_data(as_text=True))


def link_of(response, rel: str) -> str | None:
    found = re.findall(rf'<a href="([^"]*)" rel="{rel}">', response.get_data(as_text=True))
    return html.unescape(found[0]) if found else None


def revert_path(world, entry_id) -> str:
    return history_page(world, f"/{entry_id}/revert")


def latest_entry(api, **filters) -> dict:
    return api.history(**filters)[0]


@pytest.mark.parametrize("caller", MEMBERS)
def test_history_page_shows_each_change_with_its_values_and_actor(page_as, world, api, caller):
    api.create("title", {"en": "Title"}, file_name="home")
    api.set_values("title", {"en": "Heading"}, file_name="home")
    response = page_as(caller).get(history_page(world))
    assert response.status_code == 200
    text = text_of(response)
    assert "title home · en updated Before Title After Heading API key write_key" in text
    assert "title home · en created Before — After Title API key write_key" in text
    assert "<time datetime=" in response.get_data(as_text=True)


@pytest.mark.parametrize("caller", SIGNED_OUT)
def test_history_page_sends_the_signed_out_to_sign_in(page_as, world, caller):
    assert page_as(caller).get(history_page(world)).location.startswith("/login")


def test_history_page_is_not_found_for_an_outsider(page_as, world):
    assert page_as("outsider").get(history_page(world)).status_code == 404


def test_an_empty_history_says_so(page_as, world):
    assert "No changes yet." in text_of(page_as("viewer").get(history_page(world)))


def test_the_key_filter_shows_only_that_key(page_as, world, api):
    api.create("title", {"en": "Title"})
    api.create("body", {"en": "Body"})
    assert shown_keys(page_as("viewer").get(history_page(world, "?key=body"))) == ["body"]


def test_the_file_filter_shows_only_that_file(page_as, world, api):
    api.create("title", {"en": "Title"}, file_name="home")
    api.create("body", {"en": "Body"}, file_name="about")
    assert shown_keys(page_as("viewer").get(history_page(world, "?fileName=about"))) == ["body"]


def test_the_language_filter_shows_only_that_language(page_as, world, api):
    api.create("title", {"en": "Title"})
    api.create("body", {"de": "Text"})
    assert shown_keys(page_as("viewer").get(history_page(world, "?language=de"))) == ["body"]


def test_the_action_filter_shows_only_that_action(page_as, world, api):
    api.create("title", {"en": "Title"})
    api.trash(api.create("body", {"en": "Body"})["id"])
    assert shown_keys(page_as("viewer").get(history_page(world, "?action=deleted"))) == ["body"]


def test_the_actor_filter_shows_only_that_actors_changes(page_as, world, api, as_caller):
    api.create("by_key", {"en": "Key"})
    api.as_client(as_caller("editor")).create("by_editor", {"en": "Editor"})
    editor = f"user:{user_id(world.users['editor'])}"
    response = page_as("viewer").get(history_page(world, f"?actor={editor}"))
    assert shown_keys(response) == ["by_editor"]
    assert f'<option value="{editor}" selected>editor</option>' in response.get_data(as_text=True)


def test_the_actor_filter_offers_everyone_who_changed_something(page_as, world, api, as_caller):
    api.create("by_key", {"en": "Key"})
    api.as_client(as_caller("editor")).create("by_editor", {"en": "Editor"})
    text = page_as("viewer").get(history_page(world)).get_data(as_text=True)
    assert f'<option value="user:{user_id(world.users["editor"])}">editor</option>' in text
    assert f'<option value="api_key:{world.key_ids["write_key"]}">API key write_key</option>' in text


def test_a_malformed_filter_names_the_field(page_as, world, api):
    api.create("title", {"en": "Title"})
    for query, field in (
        ("?action=moved", "action:"),
        ("?actor=someone", "actor:"),
        ("?cursor=x", "cursor:"),
    ):
        response = page_as("viewer").get(history_page(world, query))
        assert response.status_code == 400
        assert alert_of(response).startswith(field)


def test_filters_matching_nothing_say_so(page_as, world, api):
    api.create("title", {"en": "Title"})
    assert "No changes match the filters." in text_of(page_as("viewer").get(history_page(world, "?key=none")))


def test_the_first_page_shows_fifty_and_links_to_older_ones_with_the_filters(page_as, world, api):
    api.upsert("en", {f"key.{i:03d}": "v" for i in range(51)})
    response = page_as("viewer").get(history_page(world, "?language=en"))
    assert len(shown_keys(response)) == 50
    assert link_of(response, "prev") is None
    older = link_of(response, "next")
    assert re.fullmatch(re.escape(history_page(world, "?cursor=")) + r"\d+&language=en", older)
    assert shown_keys(page_as("viewer").get(older)) == ["key.000"]


def test_the_second_page_links_back_to_the_first(page_as, world, api):
    api.upsert("en", {f"key.{i:03d}": "v" for i in range(51)})
    browser = page_as("viewer")
    second = browser.get(link_of(browser.get(history_page(world, "?language=en")), "next"))
    assert link_of(second, "prev") == history_page(world, "?language=en")
    assert link_of(second, "next") is None


def test_a_later_page_links_to_the_one_before_it(page_as, world, api):
    api.upsert("en", {f"key.{i:03d}": "v" for i in range(101)})
    browser = page_as("viewer")
    second_link = link_of(browser.get(history_page(world)), "next")
    third = browser.get(link_of(browser.get(second_link), "next"))
    assert shown_keys(third) == ["key.000"]
    assert link_of(third, "prev") == second_link
    assert f'href="{history_page(world)}">Newest</a>' in third.get_data(as_text=True)


@pytest.mark.parametrize("caller", EDITORS)
def test_editors_are_offered_to_revert_an_update(page_as, world, api, caller):
    api.create("title", {"en": "Title"})
    api.set_values("title", {"en": "Heading"})
    updated = latest_entry(api, action="updated")
    text = page_as(caller).get(history_page(world)).get_data(as_text=True)
    assert f'action="{revert_path(world, updated["id"])}"' in text
    assert text.count(REVERT) == 1


def test_a_creation_offers_no_revert(page_as, world, api):
    api.create("title", {"en": "Title"})
    assert REVERT not in page_as("editor").get(history_page(world)).get_data(as_text=True)


def test_a_change_to_a_trashed_translation_offers_no_revert(page_as, world, api):
    translation_id = api.create("title", {"en": "Title"})["id"]
    api.set_values("title", {"en": "Heading"})
    api.trash(translation_id)
    assert REVERT not in page_as("editor").get(history_page(world)).get_data(as_text=True)


def test_a_viewer_is_offered_no_revert(page_as, world, api):
    api.create("title", {"en": "Title"})
    api.set_values("title", {"en": "Heading"})
    assert REVERT not in page_as("viewer").get(history_page(world)).get_data(as_text=True)


def test_reverting_writes_the_old_value_back_as_the_signed_in_user(page_as, world, api):
    api.create("title", {"en": "Title"})
    api.set_values("title", {"en": "Heading"})
    updated = latest_entry(api, action="updated")
    browser = page_as("editor")
    response = browser.submit(revert_path(world, updated["id"]), {"key": "title", "cursor": "999"})
    assert response.status_code == 303
    assert response.location == history_page(world, "?key=title&cursor=999")
    assert notice_of(browser) == "Value reverted."
    assert api.export() == {"en": {"common": {"title": "Title"}}}
    reverted = latest_entry(api)
    assert (reverted["old_value"], reverted["new_value"]) == ("Heading", "Title")
    assert reverted["actor"]["name"] == "editor"


def test_reverting_a_trashed_translation_shows_the_conflict(page_as, world, api):
    translation_id = api.create("title", {"en": "Title"})["id"]
    api.set_values("title", {"en": "Heading"})
    updated = latest_entry(api, action="updated")
    api.trash(translation_id)
    response = page_as("editor").submit(revert_path(world, updated["id"]))
    assert response.status_code == 409
    assert "is in the trash" in alert_of(response)


def test_reverting_an_entry_of_another_project_is_not_found(app, page_as, world, api):
    api.create("title", {"en": "Title"})
    api.set_values("title", {"en": "Heading"})
    updated = latest_entry(api, action="updated")
    response = page_as("outsider").submit(
        f"/projects/{world.other_project_id}/history/{updated['id']}/revert"
    )
    assert response.status_code == 404
    assert alert_of(response).startswith("entry:")
    assert api.export() == {"en": {"common": {"title": "Heading"}}}


def test_a_viewers_forged_revert_is_refused(page_as, world, api):
    api.create("title", {"en": "Title"})
    api.set_values("title", {"en": "Heading"})
    updated = latest_entry(api, action="updated")
    response = page_as("viewer").submit(revert_path(world, updated["id"]))
    assert response.status_code == 403
    assert api.export() == {"en": {"common": {"title": "Heading"}}}


def test_markup_in_keys_values_and_file_names_renders_as_text(page_as, world, api):
    api.create("<b>key</b>", {"en": "<img src=x onerror=alert(1)>"}, file_name="<i>f</i>")
    api.set_values("<b>key</b>", {"en": "<script>alert(2)</script>"}, file_name="<i>f</i>")
    text = page_as("editor").get(history_page(world)).get_data(as_text=True)
    assert "&lt;b&gt;key&lt;/b&gt;" in text
    assert "&lt;img src=x onerror=alert(1)&gt;" in text
    assert "&lt;script&gt;alert(2)&lt;/script&gt;" in text
    assert "<b>key" not in text
    assert "<img" not in text
    assert "<script>alert" not in text
    assert "<i>f" not in text


def test_a_change_of_a_keys_details_shows_what_changed_and_cannot_be_reverted(page_as, world, api):
    api.create("title", {"en": "Title"}, file_name="home")
    api.patch("/translations/details", {"key": "title", "fileName": "home", "maxLength": 20})
    response = page_as("editor").get(history_page(world))
    assert "title home updated Before — After maxLength: 20" in text_of(response)
    assert response.get_data(as_text=True).count(REVERT) == 0


def test_the_key_filter_matches_part_of_a_key_with_wildcards_taken_as_written(page_as, world, api):
    api.create("home.title", {"en": "Title"})
    api.create("home_x", {"en": "X"})
    api.create("body", {"en": "Body"})
    viewer = page_as("viewer")
    assert sorted(shown_keys(viewer.get(history_page(world, "?key=HOME")))) == ["home.title", "home_x"]
    assert shown_keys(viewer.get(history_page(world, "?key=e_"))) == ["home_x"]
    assert shown_keys(viewer.get(history_page(world, "?key=%25"))) == []


def test_a_revert_button_says_the_value_it_writes(page_as, world, api):
    api.create("title", {"en": "A rather long welcome message"})
    api.set_values("title", {"en": "Hi"})
    text = page_as("editor").get(history_page(world)).get_data(as_text=True)
    assert 'Revert to <span lang="en" dir="ltr">“A rather long welcome m…”</span>' in text
    assert 'the whole value “<span lang="en" dir="ltr">A rather long welcome message</span>”' in text
