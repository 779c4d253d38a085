"""A project's overview and settings pages: what each caller sees, what the forms change,
and what they refuse (the same rules as PUT/DELETE /api/projects/{id})."""

import html
import re

import pytest

from tests.factories import add_languages, project_in, user_id
from tests.pages.conftest import MEMBERS, SIGNED_OUT, alert_of, notice_of


def overview_path(world) -> str:
    return f"/projects/{world.project_id}"


def settings_path(world) -> str:
    return f"/projects/{world.project_id}/settings"


def text_of(response) -> str:
    return response.get_data(as_text=True)


def project_record(as_caller, project_id) -> dict:
    return as_caller("org_owner").get(f"/api/projects/{project_id}").json["project"]


def add_translation(as_caller, world, key, values, file_name="common"):
    response = as_caller("write_key").post(
        f"/api/projects/{world.project_id}/translations",
        json={"key": key, "fileName": file_name, "values": values},
    )
    assert response.status_code == 201, response.json


def export_links(response) -> list[str]:
    hrefs = re.findall(r'href="([^"]*/api/projects/[^"]*/translations\?[^"]*)"', text_of(response))
    return [html.unescape(href) for href in hrefs]


@pytest.fixture
def translated(as_caller, world):
    """``hello`` in en and de, ``bye`` in en only, both in the file ``common``; ``title`` in
    en in the file ``home``."""
    add_translation(as_caller, world, "hello", {"en": "Hello", "de": "Hallo"})
    add_translation(as_caller, world, "bye", {"en": "Bye"})
    add_translation(as_caller, world, "title", {"en": "Home"}, file_name="home")


@pytest.fixture
def linkable(app, world):
    """The world's project speaks en-GB; ``Main`` in the same organization speaks en and de."""
    with app.app_context():
        add_languages(world.project_id, "en-GB")
        return project_in(world.organization_id, ("en", "de"), name="Main")


def link_form(source="en", target="en-GB", linked=None, **extra):
    return {
        "form": "link",
        "linked_project_id": linked,
        "linked_language_code": source,
        "linked_language_target_code": target,
        **extra,
    }


# --- overview -----------------------------------------------------------------------------


@pytest.mark.parametrize("caller", MEMBERS)
def test_every_member_opens_the_overview(page_as, world, caller):
    response = page_as(caller).get(overview_path(world))
    assert response.status_code == 200
    assert "<h1>Web app</h1>" in text_of(response)


@pytest.mark.parametrize("caller", SIGNED_OUT)
@pytest.mark.parametrize("page", ["", "/settings"])
def test_project_pages_send_signed_out_callers_to_sign_in(page_as, world, caller, page):
    response = page_as(caller).get(overview_path(world) + page)
    assert response.status_code == 302
    assert response.location.startswith("/login?next=")


@pytest.mark.parametrize("page", ["", "/settings"])
def test_project_pages_do_not_reveal_a_project_to_an_outsider(page_as, world, page):
    response = page_as("outsider").get(overview_path(world) + page)
    assert response.status_code == 404
    assert "Web app" not in text_of(response)


def test_overview_shows_each_language_with_its_progress(page_as, world, translated):
    text = text_of(page_as("viewer").get(overview_path(world)))
    assert re.search(r"<code>de</code>.*?1 / 3 \(33\.3%\)", text, re.S)
    assert re.search(r"<code>en</code>.*?3 / 3 \(100\.0%\)", text, re.S)
    assert 'aria-label="German translated"' in text


def test_overview_lists_files_with_their_key_counts(page_as, world, translated):
    text = text_of(page_as("viewer").get(overview_path(world)))
    assert re.search(r"<code>common</code></td>\s*<td>2</td>", text)
    assert re.search(r"<code>home</code></td>\s*<td>1</td>", text)


def test_overview_shows_who_changed_what_recently(page_as, world, translated):
    text = text_of(page_as("viewer").get(overview_path(world)))
    activity = text.split('id="activity-heading"', 1)[1]
    assert "write_key" in activity
    assert "API key" in activity
    assert "created" in activity
    assert "<code>title</code>" in activity
    assert "<time datetime=" in activity


def test_overview_shows_only_the_ten_latest_changes(page_as, as_caller, world):
    for number in range(12):
        add_translation(as_caller, world, f"key{number:02}", {"en": "x"})
    activity = text_of(page_as("viewer").get(overview_path(world))).split('id="activity-heading"', 1)[1]
    assert activity.count("<time datetime=") == 10
    assert "<code>key11</code>" in activity
    assert "<code>key01</code>" not in activity


def test_overview_links_the_full_history(page_as, world):
    text = text_of(page_as("viewer").get(overview_path(world)))
    assert f'href="/projects/{world.project_id}/history"' in text


def test_overview_of_an_empty_project_says_there_is_nothing_yet(page_as, world):
    text = text_of(page_as("viewer").get(overview_path(world)))
    assert "No languages yet" in text
    assert "No files yet." in text
    assert "Nothing has changed yet." in text


def test_overview_offers_json_json_zip_and_po_zip_of_all_languages(page_as, world, translated):
    links = export_links(page_as("viewer").get(overview_path(world)))
    base = f"/api/projects/{world.project_id}/translations?"
    assert base + "format=json" in links
    assert base + "format=json&zip=true" in links
    assert base + "format=po&zip=true" in links


def test_overview_offers_each_language_as_json_and_as_zips(page_as, world, translated):
    links = export_links(page_as("viewer").get(overview_path(world)))
    base = f"/api/projects/{world.project_id}/translations?"
    assert base + "format=json&language=de" in links
    assert base + "format=json&zip=true&language=de" in links
    assert base + "format=po&zip=true&language=de" in links


@pytest.mark.parametrize(
    "wanted, mimetype",
    [
        ("format=json&zip=true", "application/zip"),
        ("format=po&zip=true&language=de", "application/zip"),
        ("format=json&language=de", "application/json"),
        ("format=po&language=de&fileName=common", "text/x-gettext-translation"),
    ],
)
def test_export_links_download_with_the_session_cookie(page_as, world, translated, wanted, mimetype):
    viewer = page_as("viewer")
    link = next(
        href for href in export_links(viewer.get(overview_path(world))) if href.endswith("?" + wanted)
    )
    response = viewer.get(link)
    assert response.status_code == 200
    assert response.mimetype == mimetype


def test_overview_offers_one_po_file_per_file_and_language(page_as, world, translated):
    links = export_links(page_as("viewer").get(overview_path(world)))
    per_file = [link for link in links if "fileName=" in link]
    base = f"/api/projects/{world.project_id}/translations?format=po"
    assert sorted(per_file) == sorted(
        [
            base + "&language=de&fileName=common",
            base + "&language=en&fileName=common",
            base + "&language=en&fileName=home",
        ]
    )


@pytest.mark.parametrize("caller", ["viewer", "editor"])
def test_overview_shows_no_settings_or_keys_to_a_viewer_or_editor(page_as, world, caller):
    text = text_of(page_as(caller).get(overview_path(world)))
    assert f"/projects/{world.project_id}/settings" not in text
    assert f"/projects/{world.project_id}/keys" not in text


@pytest.mark.parametrize("caller", ["project_admin", "org_admin", "org_owner"])
def test_overview_shows_the_settings_tab_to_project_managers(page_as, world, caller):
    text = text_of(page_as(caller).get(overview_path(world)))
    assert f'href="/projects/{world.project_id}/settings"' in text
    assert f'href="/projects/{world.project_id}/keys"' in text


def test_overview_shows_markup_in_names_and_values_as_text(page_as, as_caller, world):
    as_caller("org_owner").put(
        f"/api/projects/{world.project_id}",
        json={"name": "<script>x</script>", "desc": "<img src=x onerror=alert(1)>", "emoji": "<b>"},
    )
    add_translation(as_caller, world, "<i>key</i>", {"en": "v"}, file_name="<u>file</u>")
    text = text_of(page_as("viewer").get(overview_path(world)))
    assert "<script>x" not in text
    assert "<img src=x" not in text
    assert "<i>key" not in text
    assert "<u>file" not in text
    assert "&lt;script&gt;x&lt;/script&gt;" in text
    assert "&lt;img src=x onerror=alert(1)&gt;" in text
    assert "&lt;i&gt;key&lt;/i&gt;" in text


# --- settings: who may open them -------------------------------------------------------------


@pytest.mark.parametrize("caller", ["viewer", "editor"])
def test_settings_are_refused_to_a_viewer_or_editor(page_as, world, caller):
    response = page_as(caller).get(settings_path(world))
    assert response.status_code == 403
    assert response.mimetype == "text/html"
    assert 'name="name"' not in text_of(response)


@pytest.mark.parametrize("caller", ["project_admin", "org_admin", "org_owner"])
def test_settings_open_for_project_managers(page_as, world, caller):
    response = page_as(caller).get(settings_path(world))
    assert response.status_code == 200
    assert 'value="Web app"' in text_of(response)


def test_settings_tab_is_marked_current_on_the_settings_page(page_as, world):
    text = text_of(page_as("org_owner").get(settings_path(world)))
    assert f'<a href="/projects/{world.project_id}/settings" aria-current="page">Settings</a>' in text


# --- settings: details ---------------------------------------------------------------------


def test_settings_save_name_description_and_emoji(page_as, as_caller, world):
    browser = page_as("project_admin")
    response = browser.submit(
        settings_path(world), {"form": "details", "name": "Storefront", "desc": "The shop", "emoji": "🛒"}
    )
    assert response.status_code == 303
    assert response.location == settings_path(world)
    assert notice_of(browser) == "Settings saved."
    project = project_record(as_caller, world.project_id)
    assert (project["name"], project["desc"], project["emoji"]) == ("Storefront", "The shop", "🛒")


def test_settings_clear_the_description_when_it_is_emptied(page_as, as_caller, world):
    as_caller("org_owner").put(f"/api/projects/{world.project_id}", json={"desc": "Old"})
    page_as("org_owner").submit(settings_path(world), {"form": "details", "name": "Web app", "desc": ""})
    assert project_record(as_caller, world.project_id)["desc"] == ""


def test_settings_with_a_blank_name_name_the_field_and_change_nothing(page_as, as_caller, world):
    response = page_as("org_owner").submit(
        settings_path(world), {"form": "details", "name": "", "desc": "New"}
    )
    assert response.status_code == 400
    assert alert_of(response).startswith("name:")
    assert project_record(as_caller, world.project_id)["desc"] == ""


def test_settings_with_a_name_over_32_characters_are_refused(page_as, as_caller, world):
    response = page_as("org_owner").submit(settings_path(world), {"form": "details", "name": "x" * 33})
    assert response.status_code == 400
    assert alert_of(response).startswith("name:")
    assert project_record(as_caller, world.project_id)["name"] == "Web app"


def test_settings_keep_what_was_typed_after_an_error(page_as, world):
    response = page_as("org_owner").submit(
        settings_path(world), {"form": "details", "name": "", "desc": "Typed text"}
    )
    assert ">Typed text</textarea>" in text_of(response)


@pytest.mark.parametrize("caller", ["viewer", "editor"])
def test_a_forged_settings_post_by_a_viewer_or_editor_is_refused(page_as, as_caller, world, caller):
    response = page_as(caller).submit(settings_path(world), {"form": "details", "name": "Forged"})
    assert response.status_code == 403
    assert response.mimetype == "text/html"
    assert project_record(as_caller, world.project_id)["name"] == "Web app"


def test_an_unknown_settings_form_is_a_bad_request(page_as, as_caller, world):
    response = page_as("org_owner").submit(settings_path(world), {"form": "other", "name": "Changed"})
    assert response.status_code == 400
    assert project_record(as_caller, world.project_id)["name"] == "Web app"


def test_settings_show_markup_in_the_name_as_text(page_as, as_caller, world):
    as_caller("org_owner").put(f"/api/projects/{world.project_id}", json={"name": '"><script>x</script>'})
    text = text_of(page_as("org_owner").get(settings_path(world)))
    assert "<script>x" not in text
    assert 'value="&#34;&gt;&lt;script&gt;x&lt;/script&gt;"' in text


# --- settings: linked project ------------------------------------------------------------------


def test_link_form_sets_the_three_link_fields_together(page_as, as_caller, world, linkable):
    browser = page_as("org_owner")
    response = browser.submit(settings_path(world), link_form(linked=linkable))
    assert response.status_code == 303
    assert notice_of(browser) == "Linked project saved."
    project = project_record(as_caller, world.project_id)
    assert project["linked_project_id"] == linkable
    assert (project["linked_language_code"], project["linked_language_target_code"]) == ("en", "en-GB")


def test_settings_describe_the_current_link(page_as, world, linkable):
    page_as("org_owner").submit(settings_path(world), link_form(linked=linkable))
    text = text_of(page_as("org_owner").get(settings_path(world)))
    assert "Now: <code>en-GB</code> inherits <code>en</code> of" in text
    assert f'<option value="{linkable}" selected>' in text


def test_no_link_option_unlinks(page_as, as_caller, world, linkable):
    browser = page_as("org_owner")
    browser.submit(settings_path(world), link_form(linked=linkable))
    browser.submit(settings_path(world), link_form(linked=""))
    project = project_record(as_caller, world.project_id)
    assert project["linked_project_id"] is None
    assert project["linked_language_code"] is None
    assert project["linked_language_target_code"] is None


def test_link_to_a_language_the_linked_project_lacks_shows_the_rule(page_as, as_caller, world, linkable):
    response = page_as("org_owner").submit(settings_path(world), link_form(source="fr", linked=linkable))
    assert response.status_code == 400
    assert alert_of(response).startswith("linked_language_code:")
    assert project_record(as_caller, world.project_id)["linked_project_id"] is None


def test_link_to_a_target_this_project_lacks_shows_the_rule(page_as, world, linkable):
    response = page_as("org_owner").submit(settings_path(world), link_form(target="de", linked=linkable))
    assert response.status_code == 400
    assert alert_of(response).startswith("linked_language_target_code:")


def test_link_without_its_languages_shows_that_all_three_go_together(page_as, world, linkable):
    response = page_as("org_owner").submit(
        settings_path(world), link_form(source="", target="", linked=linkable)
    )
    assert response.status_code == 400
    assert "are set together" in alert_of(response)


def test_link_that_would_make_a_cycle_shows_the_rule(page_as, as_caller, app, world, linkable):
    with app.app_context():
        add_languages(linkable, "en-GB")
    as_caller("org_owner").put(
        f"/api/projects/{linkable}",
        json={
            "linked_project_id": world.project_id,
            "linked_language_code": "en-GB",
            "linked_language_target_code": "en-GB",
        },
    )
    response = page_as("org_owner").submit(settings_path(world), link_form(linked=linkable))
    assert response.status_code == 400
    assert "cycle" in alert_of(response)
    assert project_record(as_caller, world.project_id)["linked_project_id"] is None


def test_link_choices_are_the_organizations_other_projects_with_their_languages(page_as, world, linkable):
    text = text_of(page_as("org_owner").get(settings_path(world)))
    link_select = text.split('name="linked_project_id"', 1)[1].split("</select>", 1)[0]
    assert f'value="{linkable}"' in link_select
    assert f'value="{world.project_id}"' not in link_select
    assert f'value="{world.other_project_id}"' not in link_select
    source_select = text.split('name="linked_language_code"', 1)[1].split("</select>", 1)[0]
    assert '<optgroup label="Main">' in source_select
    assert 'value="de"' in source_select
    target_select = text.split('name="linked_language_target_code"', 1)[1].split("</select>", 1)[0]
    assert 'value="en-GB"' in target_select


def test_link_choices_leave_out_projects_a_project_admin_cannot_open(page_as, world, linkable):
    text = text_of(page_as("project_admin").get(settings_path(world)))
    assert f'value="{linkable}"' not in text
    assert "no other project you can open" in text


def test_link_choices_show_markup_in_project_names_as_text(page_as, app, world):
    with app.app_context():
        project_in(world.organization_id, ("en",), name="<b>Main</b>")
    text = text_of(page_as("org_owner").get(settings_path(world)))
    assert "<b>Main" not in text
    assert '<optgroup label="&lt;b&gt;Main&lt;/b&gt;">' in text


# --- settings: member roles ------------------------------------------------------------------


def test_settings_list_members_with_their_project_roles(page_as, world):
    text = text_of(page_as("org_owner").get(settings_path(world)))
    viewer_id = user_id(world.users["viewer"])
    viewer_select = text.split(f'id="role-{viewer_id}"', 1)[1].split("</select>", 1)[0]
    assert '<option value="viewer" selected>' in viewer_select
    assert "owner@example.test" in text
    assert "full access" in text
    assert f'id="role-{user_id(world.users["org_owner"])}"' not in text


def test_changing_a_member_role_grants_its_permissions(page_as, as_caller, world):
    browser = page_as("project_admin")
    response = browser.submit(
        settings_path(world), {"form": "member", "user_id": user_id(world.users["viewer"]), "role": "editor"}
    )
    assert response.status_code == 303
    assert notice_of(browser) == "Project role changed."
    assert as_caller("viewer").get(f"/api/projects/{world.project_id}").json["project"]["canEditTranslations"]


def test_role_none_takes_the_project_away_from_a_member(page_as, world):
    page_as("org_owner").submit(
        settings_path(world), {"form": "member", "user_id": user_id(world.users["viewer"]), "role": ""}
    )
    assert page_as("viewer").get(overview_path(world)).status_code == 403


def test_an_unknown_role_is_refused_naming_the_field(page_as, as_caller, world):
    response = page_as("org_owner").submit(
        settings_path(world), {"form": "member", "user_id": user_id(world.users["viewer"]), "role": "boss"}
    )
    assert response.status_code == 400
    assert alert_of(response).startswith("role:")
    assert (
        not as_caller("viewer")
        .get(f"/api/projects/{world.project_id}")
        .json["project"]["canEditTranslations"]
    )


def test_a_role_for_someone_outside_the_organization_is_refused(page_as, world):
    response = page_as("org_owner").submit(
        settings_path(world),
        {"form": "member", "user_id": user_id(world.users["outsider"]), "role": "editor"},
    )
    assert response.status_code == 404
    assert "not a member" in alert_of(response)
    assert page_as("outsider").get(overview_path(world)).status_code == 404


def test_a_forged_role_change_by_an_editor_is_refused(page_as, as_caller, world):
    response = page_as("editor").submit(
        settings_path(world), {"form": "member", "user_id": user_id(world.users["editor"]), "role": "admin"}
    )
    assert response.status_code == 403
    assert not as_caller("editor").get(f"/api/projects/{world.project_id}").json["project"]["canEdit"]


# --- settings: deleting the project -----------------------------------------------------------


@pytest.mark.parametrize(
    "caller, shown", [("project_admin", False), ("org_admin", True), ("org_owner", True)]
)
def test_delete_is_offered_only_to_those_who_may_delete(page_as, world, caller, shown):
    text = text_of(page_as(caller).get(settings_path(world)))
    assert ("Delete this project" in text) is shown
    assert ('value="delete"' in text) is shown


def test_delete_with_a_wrong_name_is_refused_and_deletes_nothing(page_as, world):
    response = page_as("org_owner").submit(settings_path(world), {"form": "delete", "confirm_name": "Web ap"})
    assert response.status_code == 400
    assert alert_of(response).startswith("confirm_name:")
    assert page_as("viewer").get(overview_path(world)).status_code == 200


def test_delete_without_a_typed_name_is_refused(page_as, world):
    response = page_as("org_owner").submit(settings_path(world), {"form": "delete"})
    assert response.status_code == 400
    assert page_as("viewer").get(overview_path(world)).status_code == 200


def test_delete_with_the_typed_name_returns_to_the_projects_page(page_as, as_caller, world):
    browser = page_as("org_admin")
    response = browser.submit(settings_path(world), {"form": "delete", "confirm_name": "Web app"})
    assert response.status_code == 303
    assert response.location == f"/orgs/{world.organization_id}"
    assert notice_of(browser) == "Project “Web app” deleted."
    assert as_caller("org_owner").get(f"/api/projects/{world.project_id}").status_code == 404
    assert f"/projects/{world.project_id}" not in text_of(browser.get(response.location))


def test_a_forged_delete_by_a_project_admin_is_refused(page_as, world):
    response = page_as("project_admin").submit(
        settings_path(world), {"form": "delete", "confirm_name": "Web app"}
    )
    assert response.status_code == 403
    assert page_as("viewer").get(overview_path(world)).status_code == 200


# The source language


def test_the_overview_marks_the_source_language_and_offers_to_change_it(page_as, app, world):
    with app.app_context():
        add_languages(world.project_id, "ja", "de")
    text = text_of(page_as("org_owner").get(overview_path(world)))
    assert '<code>ja</code> <span class="badge">source</span>' in text
    assert '<option value="ja" selected>' in text
    assert 'name="form" value="source"' in text


def test_the_overview_form_changes_the_source_language_and_comes_back(page_as, as_caller, app, world):
    with app.app_context():
        add_languages(world.project_id, "ja", "de")
    browser = page_as("org_owner")
    response = browser.submit(settings_path(world), {"form": "source", "source_language": "de"})
    assert response.status_code == 303
    assert response.location == overview_path(world)
    assert notice_of(browser) == "Source language saved."
    assert project_record(as_caller, world.project_id)["source_language"] == "de"


def test_an_editor_sees_the_source_language_without_a_form(page_as, app, world):
    with app.app_context():
        add_languages(world.project_id, "ja")
    text = text_of(page_as("editor").get(overview_path(world)))
    assert 'name="form" value="source"' not in text
    assert "Source language: <code>ja</code>" in text


def test_settings_save_the_source_language_with_the_details(page_as, as_caller, app, world):
    with app.app_context():
        add_languages(world.project_id, "ja", "de")
    browser = page_as("org_owner")
    assert '<option value="ja" selected>' in text_of(browser.get(settings_path(world)))
    response = browser.submit(
        settings_path(world), {"form": "details", "name": "Web app", "source_language": "de"}
    )
    assert response.status_code == 303
    assert project_record(as_caller, world.project_id)["source_language"] == "de"


def test_settings_refuse_a_source_that_is_not_a_language_of_the_project(page_as, as_caller, app, world):
    with app.app_context():
        add_languages(world.project_id, "ja")
    response = page_as("org_owner").submit(
        settings_path(world), {"form": "details", "name": "Web app", "source_language": "fr"}
    )
    assert response.status_code == 400
    assert alert_of(response).startswith("source_language:")
    assert project_record(as_caller, world.project_id)["source_language"] == "ja"


def test_settings_of_a_project_without_languages_say_the_first_one_becomes_the_source(page_as, world):
    text = text_of(page_as("org_owner").get(settings_path(world)))
    assert "The first language added to the project becomes its source language." in text
