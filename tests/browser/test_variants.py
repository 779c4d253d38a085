"""A variant (a project linked to another, decisions §9) in the browser: its editor shows the
keys and values it inherits, marked as inherited, and overriding one is one key press away;
its overview counts inherited values as translated; both agree with its export."""

import re

from playwright.sync_api import expect

from tests.browser.conftest import check_accessibility, create_project, sign_up
from tests.browser.test_editor import add_keys, call, cell, editor_of, open_editor
from tests.browser.test_project_settings import add_language, open_projects


def variant_of_main(page) -> tuple[str, str]:
    """Main (en) with two keys, and Brand whose en-GB inherits Main's en; Brand has one key
    of its own, without a value."""
    sign_up(page, "Ada")
    main_id = create_project(page, "Main")
    add_language(page, main_id, "en")
    add_keys(page, main_id, "en", {"colour": "Colour", "home.title": "Welcome"})
    open_projects(page)
    brand_id = create_project(page, "Brand")
    add_language(page, brand_id, "en-GB")
    link = {"linked_project_id": main_id, "linked_language_code": "en"}
    call(page, "PUT", f"/api/projects/{brand_id}", link | {"linked_language_target_code": "en-GB"})
    body = {"key": "local", "fileName": "common", "values": {}}
    call(page, "POST", f"/api/projects/{brand_id}/translations", body)
    return main_id, brand_id


def exported(page, project_id: str) -> dict:
    return call(page, "GET", f"/api/projects/{project_id}/translations?format=json&language=en-GB")


def test_a_variant_shows_counts_and_overrides_inherited_values(page):
    _, brand_id = variant_of_main(page)
    export = exported(page, brand_id)
    assert "Colour" in str(export) and "Welcome" in str(export)

    page.goto(f"/projects/{brand_id}")
    row = page.get_by_role("row", name="English (United Kingdom)")
    expect(row).to_contain_text("2 / 3")
    check_accessibility(page, "variant-overview")

    open_editor(page, brand_id)
    expect(page.get_by_text("No keys yet")).to_be_hidden()
    expect(page.locator("#editor-rows tr")).to_have_count(3)
    colour = cell(page, "colour", "en-GB")
    expect(colour.locator(".t")).to_have_text("Colour")
    expect(colour).to_contain_text("inherited")
    check_accessibility(page, "variant-editor")

    colour.focus()
    page.keyboard.press("Enter")
    box = editor_of(page, "colour", "en-GB")
    expect(box).to_be_focused()
    expect(box).to_have_value("Colour")
    box.fill("Colour (UK)")
    box.press("Escape")
    cell(page, "colour", "en-GB").get_by_role("button", name="Override").click()
    expect(box).to_be_focused()
    box.fill("Colour (UK)")
    box.press("Enter")
    expect(colour).not_to_contain_text("inherited")
    expect(colour.locator(".t")).to_have_text("Colour (UK)")
    expect(colour).to_have_class(re.compile(r"\bsaved\b"))
    assert "Colour (UK)" in str(exported(page, brand_id))

    open_editor(page, brand_id)
    expect(cell(page, "colour", "en-GB")).not_to_contain_text("inherited")
    expect(cell(page, "home.title", "en-GB")).to_contain_text("inherited")
    page.goto(f"/projects/{brand_id}")
    expect(page.get_by_role("row", name="English (United Kingdom)")).to_contain_text("2 / 3")


def test_the_inherited_filter_and_missing_filter_agree_with_the_export(page):
    _, brand_id = variant_of_main(page)
    open_editor(page, brand_id, "?inherited=true")
    expect(page.locator("#editor-rows tr")).to_have_count(2)
    open_editor(page, brand_id, "?missing=en-GB")
    expect(page.locator("#editor-rows tr")).to_have_count(1)
    expect(page.locator('#editor-rows tr[data-key="local"]')).to_have_count(1)
    open_editor(page, brand_id, "?q=title")
    expect(page.locator("#editor-rows tr")).to_have_count(1)
