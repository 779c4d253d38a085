"""A project's source language in a real browser: the editor's new-key form asks for the
value in the source language (the first language added, whatever the order by code), and a
key's details (comment, maximum length) are edited in the editor's details panel."""

from playwright.sync_api import expect

from tests.browser.conftest import check_accessibility
from tests.browser.test_editor import add_keys, call, cell, new_project, open_editor, stored


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


def test_a_keys_comment_and_max_length_are_edited_in_the_details_panel(page):
    project_id = new_project(page, languages=("en", "de"))
    add_keys(page, project_id, "en", {"cart.pay": "Pay now"})
    open_editor(page, project_id)
    page.get_by_role("button", name="Details of cart.pay").click()
    details = page.get_by_role("dialog", name="cart.pay")
    details.get_by_label("Comment for translators").fill("The checkout button; keep it short")
    details.get_by_label("Maximum length").fill("12")
    check_accessibility(page)
    details.get_by_role("button", name="Save details").click()
    expect(page.get_by_text("Details of cart.pay saved.")).to_be_visible()
    page.get_by_role("button", name="Details of cart.pay").click()
    details = page.get_by_role("dialog", name="cart.pay")
    expect(details.get_by_label("Comment for translators")).to_have_value(
        "The checkout button; keep it short"
    )
    expect(details.get_by_label("Maximum length")).to_have_value("12")
    history = call(page, "GET", f"/api/projects/{project_id}/translations/history?key=cart.pay")["history"]
    assert {entry["new_value"] for entry in history if entry["language"] is None} == {
        "comment: The checkout button; keep it short",
        "maxLength: 12",
    }
    exported = page.request.get(
        f"/api/projects/{project_id}/translations?format=xliff&language=de&fileName=common"
    )
    assert 'maxwidth="12" size-unit="char"' in exported.text()
    assert "<note>The checkout button; keep it short</note>" in exported.text()
