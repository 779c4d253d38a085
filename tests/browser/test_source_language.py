"""A project's source language in a real browser: the editor's new-key form asks for the
value in the source language (the first language added, whatever the order by code), and a
key's details (comment, maximum length) are edited in the editor's details panel."""

from playwright.sync_api import expect

from tests.browser.conftest import check_accessibility
from tests.browser.test_editor import call, cell, new_project, open_editor, stored


def test_the_new_key_form_asks_for_the_value_in_the_first_language_added(page):
    project_id = new_project(page, languages=("en", "ar", "de", "ja"))
    open_editor(page, project_id)
    expect(page.locator("thead th.lang").first).to_contain_text("English")
    page.get_by_label("New key").fill("checkout.title")
    page.get_by_label("English value").fill("Pay now")
    page.get_by_role("button", name="Add key").click()
    expect(cell(page, "checkout.title", "en")).to_have_text("Pay now")
    assert stored(page, project_id) == {"en": {"common": {"checkout.title": "Pay now"}}}
    project = call(page, "GET", f"/api/projects/{project_id}")["project"]
    assert project["source_language"] == "en"
    check_accessibility(page)
