"""The editor page, its rows fragment and a key's details, for each kind of caller: who may
open them, what each sees, filters and paging through links, and markup shown as text."""

import html
import re

import pytest

from loko.translations.queries import decode_cursor
from tests.factories import project_in
from tests.pages.conftest import ALL_CALLERS, MEMBERS, SIGNED_OUT
from tests.translation_factories import ProjectApi, link_projects

EDITORS = ("editor", "project_admin", "org_admin", "org_owner")
MARKUP = "<script>alert(1)</script>"


@pytest.fixture
def api(as_caller, world) -> ProjectApi:
    """The project through the REST API, as its write key, with English and German."""
    api = ProjectApi(as_caller("write_key"), world.project_id)
    api.add_language("en")
    api.add_language("de")
    return api


def editor_url(world, path: str = "", **params) -> str:
    url = f"/projects/{world.project_id}/editor{path}"
    return url + ("?" + "&".join(f"{name}={value}" for name, value in params.items()) if params else "")


def keys_of(response) -> list[str]:
    """The keys of the rows shown, in order."""
    return [
        html.unescape(key) for key in re.findall(r'<tr data-id="[^"]+" data-key="([^"]*)"', response.text)
    ]


def link_of(response, rel: str) -> str | None:
    match = re.search(rf'<a rel="{rel}"[^>]* href="([^"]+)"', response.text)
    return html.unescape(match.group(1)) if match else None


@pytest.mark.parametrize("caller", MEMBERS)
def test_editor_shows_every_member_the_keys_with_their_values(page_as, world, api, caller):
    api.create("greeting", {"en": "Hello", "de": "Hallo"})
    response = page_as(caller).get(editor_url(world))
    assert response.status_code == 200
    assert keys_of(response) == ["greeting"]
    assert '<div class="t" lang="de" dir="ltr">Hallo</div>' in response.text


@pytest.mark.parametrize("caller", SIGNED_OUT)
def test_editor_sends_the_signed_out_to_sign_in(page_as, world, caller):
    response = page_as(caller).get(editor_url(world))
    assert response.status_code == 302
    assert response.location.startswith("/login")


def test_editor_is_not_found_for_an_outsider(page_as, world):
    assert page_as("outsider").get(editor_url(world)).status_code == 404


@pytest.mark.parametrize("caller", ALL_CALLERS)
def test_rows_fragment_is_only_for_members(page_as, world, api, caller):
    api.create("greeting", {"en": "Hello"})
    response = page_as(caller).get(editor_url(world, "/rows"))
    expected = 200 if caller in MEMBERS else 404 if caller == "outsider" else 302
    assert response.status_code == expected


def test_viewer_sees_no_edit_controls(page_as, world, api):
    api.create("greeting", {"en": "Hello"})
    text = page_as("viewer").get(editor_url(world)).text
    assert "Add key" not in text
    assert 'type="checkbox" data-select' not in text
    assert "Move selected to the trash" not in text
    assert 'aria-readonly="true"' in text
    assert 'data-can-edit="false"' in text


@pytest.mark.parametrize("caller", EDITORS)
def test_editors_get_the_edit_controls(page_as, world, api, caller):
    api.create("greeting", {"en": "Hello"})
    text = page_as(caller).get(editor_url(world)).text
    assert "Add key" in text
    assert 'type="checkbox" data-select aria-label="Select greeting"' in text
    assert "Move selected to the trash" in text
    assert 'data-can-edit="true"' in text


def test_markup_in_keys_values_and_file_names_shows_as_text(page_as, world, api):
    api.create(MARKUP, {"en": '<img src=x onerror="alert(2)">'}, file_name="<b>file</b>")
    text = page_as("editor").get(editor_url(world)).text
    assert "<script>alert(1)" not in text
    assert "<img src=x" not in text
    assert "<b>file</b>" not in text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in text
    assert "&lt;img src=x onerror=&#34;alert(2)&#34;&gt;" in text
    assert "&lt;b&gt;file&lt;/b&gt;" in text


def test_markup_in_the_details_of_a_key_shows_as_text(page_as, world, api):
    created = api.create(MARKUP, {"en": "<i>x</i>"})
    text = page_as("viewer").get(editor_url(world, f"/keys/{created['id']}")).text
    assert "<script>alert" not in text and "<i>x</i>" not in text
    assert "&lt;i&gt;x&lt;/i&gt;" in text


def test_details_of_a_key_list_every_language(page_as, world, api):
    api.add_language("fr")
    created = api.create("greeting", {"en": "Hello", "fr": "Bonjour"})
    text = page_as("viewer").get(editor_url(world, f"/keys/{created['id']}")).text
    assert "Bonjour" in text and "Hello" in text
    assert text.count("No value") == 1


def test_details_of_a_key_of_another_project_are_not_found(page_as, world, api, as_caller):
    other = ProjectApi(as_caller("other_project_key"), world.other_project_id)
    created = other.create("secret", {"en": "x"})
    assert page_as("org_owner").get(editor_url(world, f"/keys/{created['id']}")).status_code == 404


def test_a_carriage_return_in_a_value_survives_the_page(page_as, world, api):
    api.create("lines", {"en": "one\r\ntwo"})
    text = page_as("viewer").get(editor_url(world)).text
    assert '<div class="t" lang="en" dir="ltr">one&#13;\ntwo</div>' in text


def test_default_columns_are_the_source_and_the_next_languages(page_as, world, api, as_caller):
    api.add_language("fr")
    api.add_language("it")
    api.create("greeting", {"de": "Hallo", "fr": "Bonjour"})
    api.create("farewell", {"de": "Tschüss"})
    as_caller("org_owner").put(f"/api/projects/{world.project_id}", json={"source_language": "fr"})
    text = page_as("viewer").get(editor_url(world)).text
    assert re.findall(r'<th scope="col" class="lang" data-l="([^"]+)"', text) == ["fr", "de", "en"]
    assert 'data-source="fr"' in text


def test_the_source_is_the_first_language_added_not_the_most_translated(page_as, world, api):
    api.create("greeting", {"de": "Hallo"})
    text = page_as("editor").get(editor_url(world)).text
    assert 'data-source="en"' in text
    assert '<label for="new-value">English value' in text


def test_chosen_languages_are_the_columns(page_as, world, api):
    api.add_language("fr")
    text = page_as("viewer").get(editor_url(world, source="en", lang="fr")).text
    assert re.findall(r'<th scope="col" class="lang" data-l="([^"]+)"', text) == ["en", "fr"]


def test_filters_combine_in_the_query(page_as, world, api):
    api.create("home.title", {"en": "Welcome"})
    api.create("home.body", {"en": "Welcome home", "de": "Willkommen"})
    api.create("away.title", {"en": "Welcome"}, file_name="other")
    response = page_as("viewer").get(editor_url(world, q="welcome", missing="de", file="common"))
    assert keys_of(response) == ["home.title"]


def test_blank_filter_fields_are_ignored(page_as, world, api):
    api.create("greeting", {"en": "Hello"})
    response = page_as("viewer").get(editor_url(world, q="", file="", missing="", since=""))
    assert keys_of(response) == ["greeting"]


def test_a_blank_among_the_values_of_a_repeated_field_is_ignored(page_as, world, api):
    api.add_language("fr")
    text = page_as("viewer").get(editor_url(world) + "?source=en&lang=&lang=fr&lang=%20").text
    assert re.findall(r'<th scope="col" class="lang" data-l="([^"]+)"', text) == ["en", "fr"]


@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({"missing": "x1"}, "missing"),
        ({"since": "yesterday"}, "since"),
        ({"after": "not-a-cursor"}, "after"),
        ({"colour": "blue"}, "colour"),
    ],
)
def test_bad_query_parameters_are_refused_naming_the_field(page_as, world, api, params, field):
    response = page_as("viewer").get(editor_url(world, **params))
    assert response.status_code == 400
    assert field in html.unescape(response.text)


@pytest.mark.parametrize(
    "params", [{"missing": "ja"}, {"lang": "ja"}, {"source": "ja"}, {"inherited": "true"}]
)
def test_a_language_or_link_the_project_no_longer_has_is_dropped_with_a_notice(page_as, world, api, params):
    api.create("greeting", {"en": "Hello"})
    response = page_as("viewer").get(editor_url(world, **params))
    assert response.status_code == 200
    assert keys_of(response) == ["greeting"]
    if "inherited" not in params:
        assert "The language ja is no longer in this project" in html.unescape(response.text)


def test_next_and_previous_links_page_through_every_key(page_as, world, api):
    api.upsert("en", {f"key.{i:03d}": f"value {i}" for i in range(120)})
    browser = page_as("viewer")
    seen, url = [], editor_url(world)
    while url:
        response = browser.get(url)
        seen += keys_of(response)
        url = link_of(response, "next")
    assert seen == [f"key.{i:03d}" for i in range(120)]
    back = browser.get(link_of(response, "prev"))
    assert keys_of(back) == [f"key.{i:03d}" for i in range(50, 100)]


def test_next_link_keeps_the_filters_and_columns(page_as, world, api):
    api.upsert("en", {f"key.{i:03d}": f"value {i}" for i in range(60)})
    response = page_as("viewer").get(editor_url(world, q="key", source="en", lang="de"))
    next_url = link_of(response, "next")
    assert "q=key" in next_url and "source=en" in next_url and "lang=de" in next_url
    assert decode_cursor(re.search(r"after=([^&]+)", next_url).group(1)) == ("common", "key.049")


def test_rows_fragment_renders_one_new_key_with_the_columns_asked(page_as, world, api):
    created = api.create("greeting", {"en": "Hello", "de": "Hallo"})
    api.create("other", {"en": "Other"})
    response = page_as("editor").get(editor_url(world, "/rows", id=created["id"], source="en"))
    assert keys_of(response) == ["greeting"]
    assert "<html" not in response.text
    assert re.findall(r'<td class="v" data-l="([^"]+)"', response.text) == ["en", "de"]


def test_inherited_values_show_in_the_inheriting_language(app, page_as, world, api):
    with app.app_context():
        main_id = project_in(world.organization_id, languages=["en"], name="Main")
    owner = page_as("org_owner")
    ProjectApi(owner, main_id).set_values("greeting", {"en": "Colour"})
    api.add_language("en-GB")
    api.create("greeting", {"en": "Color"})
    link_projects(owner, world.project_id, main_id, "en", "en-GB")
    response = owner.get(editor_url(world, inherited="true", source="en", lang="en-GB"))
    assert keys_of(response) == ["greeting"]
    assert "data-inherited" in response.text and "Colour" in response.text


def test_editor_of_a_project_without_languages_links_to_its_languages_page(page_as, world):
    response = page_as("editor").get(editor_url(world))
    assert response.status_code == 200
    assert "This project has no languages yet" in response.text
    assert (
        f'<a href="/projects/{world.project_id}/languages">add one on the Languages page</a>' in response.text
    )


def test_editor_of_a_project_without_languages_offers_no_new_key(page_as, world):
    text = page_as("editor").get(editor_url(world)).text
    assert "data-create" not in text
    assert 'id="new-key"' not in text


# A key's details: comment, context and maximum length


def details_form(**fields):
    return {"comment": "", "context": "", "maxLength": "", **fields}


def test_the_details_of_a_key_offer_an_editor_a_form_with_its_details(page_as, world, api):
    created = api.create("greeting", {"en": "Hello"})
    api.patch(
        "/translations/details", {"key": "greeting", "fileName": "common", "comment": "Home <b>page</b>"}
    )
    text = page_as("editor").get(editor_url(world, f"/keys/{created['id']}")).text
    assert f'action="/projects/{world.project_id}/editor/keys/{created["id"]}"' in text
    assert 'name="csrf_token"' in text
    assert ">Home &lt;b&gt;page&lt;/b&gt;</textarea>" in text


def test_a_viewer_reads_the_details_without_a_form(page_as, world, api):
    created = api.create("greeting", {"en": "Hello"})
    api.patch("/translations/details", {"key": "greeting", "fileName": "common", "maxLength": 12})
    text = page_as("viewer").get(editor_url(world, f"/keys/{created['id']}")).text
    assert "<form" not in text
    assert "12 characters" in text


def test_the_details_form_saves_and_goes_back_to_the_key(page_as, world, api):
    created = api.create("greeting", {"en": "Hello"})
    browser = page_as("editor")
    response = browser.submit(
        editor_url(world, f"/keys/{created['id']}"),
        details_form(comment="On the home page", context="menu", maxLength="12"),
    )
    assert response.status_code == 303
    assert response.location == editor_url(world, id=created["id"])
    text = browser.get(editor_url(world, f"/keys/{created['id']}")).text
    assert ">On the home page</textarea>" in text
    assert 'value="menu"' in text and 'value="12"' in text
    changes = [(e["language"], e["new_value"]) for e in api.history(translationId=created["id"])[:3]]
    assert sorted(changes) == [
        (None, "comment: On the home page"),
        (None, "context: menu"),
        (None, "maxLength: 12"),
    ]


def test_blank_fields_of_the_details_form_clear_the_details(page_as, world, api):
    created = api.create("greeting", {"en": "Hello"})
    api.patch(
        "/translations/details", {"key": "greeting", "fileName": "common", "comment": "x", "maxLength": 5}
    )
    page_as("editor").submit(editor_url(world, f"/keys/{created['id']}"), details_form())
    text = page_as("viewer").get(editor_url(world, f"/keys/{created['id']}")).text
    assert "No comment, context or maximum length." in text


@pytest.mark.parametrize("max_length", ["0", "8193", "ten", "-3"])
def test_the_details_form_refuses_a_bad_maximum_length(page_as, world, api, max_length):
    created = api.create("greeting", {"en": "Hello"})
    response = page_as("editor").submit(
        editor_url(world, f"/keys/{created['id']}"), details_form(comment="kept?", maxLength=max_length)
    )
    assert response.status_code == 400
    assert "maxLength" in response.text
    text = page_as("viewer").get(editor_url(world, f"/keys/{created['id']}")).text
    assert "kept?" not in text


def test_a_forged_details_post_by_a_viewer_is_refused(page_as, world, api):
    created = api.create("greeting", {"en": "Hello"})
    response = page_as("viewer").submit(
        editor_url(world, f"/keys/{created['id']}"), details_form(comment="x")
    )
    assert response.status_code == 403
    assert "x" not in [e["new_value"] for e in api.history(translationId=created["id"])]


def test_the_details_form_without_a_csrf_token_is_refused(page_as, world, api):
    created = api.create("greeting", {"en": "Hello"})
    response = page_as("editor").post(
        editor_url(world, f"/keys/{created['id']}"), data=details_form(comment="x")
    )
    assert response.status_code in (400, 403)
    assert len(api.history(translationId=created["id"])) == 1
