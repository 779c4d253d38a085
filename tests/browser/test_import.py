"""Importing a file through the import page in the browser: the dry run's diff, then the
confirmation; and exporting it again from the overview's form."""

import re

import orjson
from playwright.sync_api import expect

from tests.browser.conftest import check_accessibility, create_project, sign_up


def json_file(name: str, document: dict) -> dict:
    return {"name": name, "mimeType": "application/json", "buffer": orjson.dumps(document)}


def upload(page, file: dict, language: str = "en") -> None:
    page.get_by_label("File", exact=True).set_input_files(file)
    page.get_by_label("Language", exact=True).fill(language)
    page.get_by_role("button", name="Check the import").click()
    expect(page.get_by_role("heading", name="What this import would change")).to_be_visible()


def test_a_json_file_is_checked_then_imported(page):
    sign_up(page, "Ada")
    project_id = create_project(page, "Storefront")
    page.get_by_role("link", name="Import", exact=True).click()
    expect(page.get_by_role("heading", name="Import", exact=True)).to_be_visible()
    check_accessibility(page, "import")

    upload(page, json_file("home.json", {"title": "Welcome", "body": "Hello"}))
    expect(page.get_by_role("row", name="home title en Welcome")).to_be_visible()
    expect(page.get_by_role("row", name="home body en Hello")).to_be_visible()
    check_accessibility(page, "import-diff")

    page.get_by_role("button", name="Confirm import").click()
    page.wait_for_url(re.compile(rf"/projects/{project_id}/import\?imported="))
    expect(page.get_by_role("status")).to_have_text("Imported: 2 created, 0 updated, 0 moved to the trash.")
    expect(page.get_by_role("button", name="Undo this import")).to_be_visible()
    page.get_by_role("link", name="Files", exact=True).click()
    expect(page.get_by_role("row", name="home")).to_contain_text("en")


def test_a_changed_file_shows_old_and_new_values_and_can_be_cancelled(page):
    sign_up(page, "Grace")
    project_id = create_project(page, "Storefront")
    page.goto(f"/projects/{project_id}/import")
    upload(page, json_file("home.json", {"title": "Welcome"}))
    page.get_by_role("button", name="Confirm import").click()
    expect(page.get_by_role("status")).to_contain_text("Imported: 1 created")

    page.goto(f"/projects/{project_id}/import")
    page.get_by_label("Move them to the trash").check()
    upload(page, json_file("home.json", {"body": "Hello", "title": "Hi"}))
    expect(page.locator(".change")).to_contain_text("Welcome")
    expect(page.locator(".change")).to_contain_text("Hi")
    check_accessibility(page)

    page.get_by_role("button", name="Cancel").click()
    expect(page.get_by_role("status")).to_have_text("Import cancelled: nothing was changed.")
    page.goto(f"/projects/{project_id}/import")
    upload(page, json_file("home.json", {"title": "Welcome"}))
    expect(page.get_by_text("Nothing would change")).to_be_visible()
    expect(page.get_by_role("button", name="Confirm import")).to_have_count(0)


def test_a_file_that_does_not_parse_is_shown_as_the_error(page):
    sign_up(page, "Margaret")
    project_id = create_project(page, "Storefront")
    page.goto(f"/projects/{project_id}/import")
    page.get_by_label("File", exact=True).set_input_files(
        {"name": "home.json", "mimeType": "application/json", "buffer": b'{"title": '}
    )
    page.get_by_label("Language", exact=True).fill("en")
    page.get_by_role("button", name="Check the import").click()
    expect(page.get_by_role("alert")).to_contain_text("is not a valid json file")
    check_accessibility(page, "import-error")


def test_the_overview_exports_an_import_in_another_format(page):
    sign_up(page, "Barbara")
    project_id = create_project(page, "Storefront")
    page.goto(f"/projects/{project_id}/import")
    upload(page, json_file("home.json", {"title": "Welcome"}))
    page.get_by_role("button", name="Confirm import").click()
    expect(page.get_by_role("status")).to_contain_text("Imported: 1 created")

    page.goto(f"/projects/{project_id}")
    form = page.locator("form.export-form")
    form.get_by_label("Format").select_option(label="Gettext PO")
    check_accessibility(page, "overview-export")
    with page.expect_download() as download:
        form.get_by_role("button", name="Download").click()
    assert download.value.suggested_filename == "storefront-po.zip"
