"""The trash and the history in the browser: restoring and deleting for good, filtering the
history and reverting a value. Translations are written through the REST API from the page,
as the editor's own scripts do."""

import re

from playwright.sync_api import expect

from tests.browser.conftest import check_accessibility, create_project, sign_up


def api(page, method: str, path: str, body: dict) -> dict:
    """Call the project's REST API with the page's session and CSRF token."""
    token = page.locator('meta[name="csrf-token"]').get_attribute("content")
    response = page.request.fetch(path, method=method, data=body, headers={"X-CSRF-Token": token})
    assert response.ok, response.text()
    return response.json()


def create(page, project_id: str, key: str, values: dict, file_name: str = "common") -> str:
    body = {"key": key, "fileName": file_name, "values": values}
    return api(page, "POST", f"/api/projects/{project_id}/translations", body)["translation"]["id"]


def trash(page, project_id: str, translation_id: str) -> None:
    api(page, "DELETE", f"/api/projects/{project_id}/translations", {"id": translation_id})


def test_the_trash_restores_and_deletes_for_good(page):
    sign_up(page, "Ada")
    project_id = create_project(page, "Storefront")
    trash(page, project_id, create(page, project_id, "home.title", {"en": "Welcome"}))
    trash(page, project_id, create(page, project_id, "home.body", {"en": "Hello <b>there</b>"}))
    page.goto(f"/projects/{project_id}/trash")
    expect(page.get_by_role("row")).to_have_count(3)
    check_accessibility(page, "trash")

    page.get_by_label("Key contains").fill("title")
    page.get_by_role("button", name="Search").click()
    expect(page.get_by_role("row")).to_have_count(2)
    page.get_by_role("button", name="Restore home.title").click()
    expect(page.get_by_role("status")).to_have_text("Translation restored.")
    expect(page).to_have_url(re.compile(r"/trash\?q=title$"))
    expect(page.get_by_text("Nothing in the trash matches the search.")).to_be_visible()

    page.get_by_role("link", name="Clear").click()
    page.get_by_role("link", name="Delete permanently home.body").click()
    expect(page.locator(".confirm")).to_contain_text("its 1 value are removed for good")
    check_accessibility(page)
    page.get_by_role("button", name="Delete permanently").click()
    expect(page.get_by_role("status")).to_have_text("Translation deleted permanently.")
    expect(page.get_by_text("The trash is empty.")).to_be_visible()


def test_the_history_filters_and_reverts_a_value(page):
    sign_up(page, "Grace")
    project_id = create_project(page, "Storefront")
    create(page, project_id, "home.title", {"en": "Welcome", "de": "Willkommen"})
    body = {"key": "home.title", "fileName": "common", "updates": {"en": {"value": "Hi"}}}
    api(page, "PATCH", f"/api/projects/{project_id}/translations", body)
    page.goto(f"/projects/{project_id}/history")
    expect(page.get_by_role("row")).to_have_count(4)
    check_accessibility(page, "history")

    page.get_by_label("Action").select_option("updated")
    page.get_by_role("button", name="Filter").click()
    expect(page.get_by_role("row")).to_have_count(2)
    page.get_by_role("button", name=re.compile(r"^Revert to “Welcome”\s+for home\.title in en$")).click()
    expect(page.get_by_role("status")).to_have_text("Value reverted.")
    expect(page).to_have_url(re.compile(r"/history\?action=updated$"))
    newest = page.get_by_role("row").nth(1)
    expect(newest.locator(".value-old")).to_have_text("Hi")
    expect(newest.locator(".value-new")).to_have_text("Welcome")
    expect(newest).to_contain_text("Grace")

    page.get_by_label("By").select_option(label="Grace")
    page.get_by_label("Language").select_option("de")
    page.get_by_role("button", name="Filter").click()
    expect(page.get_by_text("No changes match the filters.")).to_be_visible()


def test_the_history_reads_well_dark_and_narrow(new_page):
    page = new_page(viewport={"width": 360, "height": 740}, color_scheme="dark")
    sign_up(page, "Margaret")
    project_id = create_project(page, "Mobile")
    create(page, project_id, "checkout.confirm", {"en": "A long value " * 20})
    body = {"key": "checkout.confirm", "fileName": "common", "updates": {"en": {"value": "Short"}}}
    api(page, "PATCH", f"/api/projects/{project_id}/translations", body)
    page.goto(f"/projects/{project_id}/history")
    check_accessibility(page, "history-dark-narrow")
    page.goto(f"/projects/{project_id}/trash")
    check_accessibility(page, "trash-dark-narrow")
