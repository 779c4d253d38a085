"""Project and organization pages in the browser: the overview's export of reviewed values
only, the trash's words when only a language deletion is listed, an undo that lands back on
the page it was started from, and the organization's settings on a narrow screen."""

import io
import re
import zipfile
from urllib.parse import urlencode

from playwright.sync_api import expect

from tests.browser.conftest import check_accessibility, sign_up
from tests.browser.test_editor import add_keys, call, new_project


def _delete_language(page, project_id: str, code: str) -> str:
    """Delete ``code`` and return the id of the deletion, as the trash lists it."""
    call(page, "DELETE", f"/api/projects/{project_id}/languages", {"code": code})
    page.goto(f"/projects/{project_id}/trash")
    return page.locator('.operations input[name="operation"]').get_attribute("value")


def test_the_export_form_downloads_only_reviewed_values_as_the_api_does(page):
    project_id = new_project(page)
    add_keys(page, project_id, "en", {"title": "Welcome", "body": "Not reviewed yet"})
    review = {"fileName": "common", "keys": ["title"], "languages": ["en"], "state": "reviewed"}
    call(page, "POST", f"/api/projects/{project_id}/translations/review", review)
    page.goto(f"/projects/{project_id}")
    form = page.locator("form.export-form")
    form.get_by_label("Format").select_option("po")
    form.get_by_label("Only reviewed values").check()
    check_accessibility(page)
    with page.expect_download() as download:
        form.get_by_role("button", name="Download").click()
    downloaded = download.value.path().read_bytes()
    api = page.request.get(f"/api/projects/{project_id}/translations?format=po&zip=true&state=reviewed")
    assert api.ok
    assert downloaded == api.body()
    with zipfile.ZipFile(io.BytesIO(downloaded)) as archive:
        catalogs = b"".join(archive.read(name) for name in archive.namelist())
    assert b"Welcome" in catalogs and b"Not reviewed yet" not in catalogs


def test_a_trash_listing_only_a_deleted_language_says_no_keys_are_in_it(page):
    project_id = new_project(page)
    add_keys(page, project_id, "de", {"title": "Willkommen"})
    _delete_language(page, project_id, "de")
    expect(page.locator(".operations")).to_contain_text("Language German (de) deleted")
    expect(page.get_by_text("No keys in the trash.")).to_be_visible()
    expect(page.get_by_text("The trash is empty.")).to_have_count(0)
    check_accessibility(page)


def test_restoring_from_a_searched_trash_lands_back_on_that_search(page):
    project_id = new_project(page)
    add_keys(page, project_id, "de", {"title": "Willkommen"})
    _delete_language(page, project_id, "de")
    page.get_by_label("Key contains").fill("title")
    page.get_by_role("button", name="Search").click()
    expect(page).to_have_url(re.compile(r"/trash\?q=title"))
    page.get_by_role("button", name=re.compile(r"^Restore Language German")).click()
    expect(page.get_by_role("status")).to_contain_text("Undone: language de brought back")
    expect(page).to_have_url(re.compile(rf"/projects/{project_id}/trash\?q=title$"))


def test_an_undo_lands_back_on_the_page_it_was_started_from(page):
    project_id = new_project(page)
    add_keys(page, project_id, "de", {"title": "Willkommen"})
    operation = _delete_language(page, project_id, "de")
    history = f"/projects/{project_id}/history?language=de"
    page.goto(f"/projects/{project_id}/undo?" + urlencode({"operation": operation, "next": history}))
    page.get_by_role("button", name="Undo these changes").click()
    expect(page.get_by_role("status")).to_contain_text("Undone: language de brought back")
    expect(page).to_have_url(re.compile(rf"/projects/{project_id}/history\?language=de$"))


def test_the_organization_settings_fit_a_narrow_screen_with_a_provider(new_page):
    page = new_page(viewport={"width": 360, "height": 740})
    sign_up(page, "Lin", organization="Lingua")
    page.get_by_role("link", name="Settings of Lingua").click()
    page.wait_for_url(re.compile(r"/settings$"))
    page.get_by_label("Kind").select_option("deepl")
    page.get_by_label("Provider name", exact=True).fill("DeepL with a long name")
    page.get_by_label("API key", exact=True).fill("a-deepl-key-ending-in-1234")
    page.get_by_role("button", name="Add provider").click()
    expect(page.get_by_role("status")).to_have_text("Provider added.")
    expect(page.get_by_role("cell", name="DeepL with a long name", exact=True)).to_be_attached()
    check_accessibility(page, "organization-settings-narrow")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 360
