"""The editor's find and replace and its tags in a real browser: a brand name replaced in
three languages with one value left out, previewed, applied and undone; and keys tagged from
a selection, then the editor filtered by that tag."""

import re

from playwright.sync_api import expect

from tests.browser.conftest import check_accessibility
from tests.browser.test_editor import add_keys, call, new_project, stored


def test_a_brand_name_is_replaced_in_three_languages_but_one_and_the_replacement_undone(page):
    project_id = new_project(page, "Rita", languages=("en", "de", "fr", "es"))
    add_keys(page, project_id, "en", {"title": "Acme shop", "footer": "About"})
    add_keys(page, project_id, "de", {"title": "Acme Laden", "footer": "Über"})
    add_keys(page, project_id, "fr", {"title": "Boutique Acme", "footer": "À propos"})
    add_keys(page, project_id, "es", {"title": "Tienda Acme", "footer": "Acerca"})
    before = stored(page, project_id)
    page.goto(f"/projects/{project_id}/editor?lang=de&lang=fr&lang=es")

    page.get_by_role("button", name="Find and replace…").click()
    dialog = page.get_by_role("dialog", name="Find and replace")
    expect(dialog).to_be_visible()
    dialog.get_by_label("Find", exact=True).fill("Acme")
    dialog.get_by_label("Replace with").fill("Globex")
    dialog.get_by_label("Whole words").check()
    dialog.get_by_role("button", name="Preview").click()
    expect(dialog.get_by_role("status")).to_have_text("3 values would change.")
    rows = dialog.locator("[data-replace-rows] tr")
    expect(rows).to_have_count(3)
    expect(rows.nth(0)).to_contain_text("Acme Laden")
    expect(rows.nth(0)).to_contain_text("Globex Laden")
    check_accessibility(page, "replace-preview")

    dialog.get_by_label("Replace in title (fr)").uncheck()
    apply = dialog.get_by_role("button", name="Replace in the 2 ticked values")
    apply.click()
    expect(dialog.get_by_role("status")).to_contain_text("2 values replaced.")
    after = stored(page, project_id)
    assert after["de"]["common"]["title"] == "Globex Laden"
    assert after["es"]["common"]["title"] == "Tienda Globex"
    assert after["fr"]["common"]["title"] == "Boutique Acme"
    assert after["en"]["common"]["title"] == "Acme shop"
    expect(page.locator('#editor-rows tr[data-key="title"] td[data-l="de"] .t')).to_have_text("Globex Laden")

    dialog.get_by_role("link", name="Undo this replacement").click()
    page.wait_for_url(re.compile(r"/undo"))
    expect(page.locator("main")).to_contain_text("Acme Laden")
    check_accessibility(page, "replace-undo")
    page.get_by_role("button", name="Undo these changes").click()
    expect(page.get_by_role("status").first).to_contain_text("Undone")
    assert stored(page, project_id) == before


def test_keys_tagged_from_a_selection_then_the_editor_filtered_by_the_tag(page):
    project_id = new_project(page, "Tomas", languages=("en", "de"))
    add_keys(page, project_id, "en", {"cart.title": "Cart", "cart.pay": "Pay", "home.title": "Home"})
    page.goto(f"/projects/{project_id}/editor")

    page.get_by_label("Select cart.title").check()
    page.get_by_label("Select cart.pay").check()
    page.get_by_label("Tag", exact=True).fill("checkout")
    page.get_by_role("button", name="Add to selected").click()
    expect(page.locator("[data-status]")).to_contain_text("Tag checkout added to 2 keys.")
    expect(page.locator('#editor-rows tr[data-key="cart.pay"] .tag')).to_have_text("checkout")
    expect(page.locator('#editor-rows tr[data-key="home.title"] .tag')).to_have_count(0)
    check_accessibility(page, "tags-selection")
    assert call(page, "GET", f"/api/projects/{project_id}/tags") == {
        "tags": [{"name": "checkout", "keys": 2}]
    }

    page.get_by_label("With tags").fill("checkout")
    page.get_by_role("button", name="Apply").click()
    page.wait_for_url(re.compile(r"tags=checkout"))
    expect(page.locator("#editor-rows tr")).to_have_count(2)
    expect(page.locator("#editor-rows")).not_to_contain_text("home.title")
    page.get_by_label("With tags").fill("")
    page.get_by_label("Without tags").fill("checkout")
    page.get_by_role("button", name="Apply").click()
    page.wait_for_url(re.compile(r"excludeTags=checkout"))
    expect(page.locator("#editor-rows tr")).to_have_count(1)
    expect(page.locator("#editor-rows tr")).to_have_attribute("data-key", "home.title")
    check_accessibility(page, "tags-filter")
