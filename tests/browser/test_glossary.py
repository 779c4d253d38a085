"""The glossary in a real browser: a term added on the organization's glossary page, then
marked in the editor's source column with its expected translation, axe-core checking both
pages (light and dark)."""

from playwright.sync_api import expect

from tests.browser.conftest import check_accessibility
from tests.browser.test_editor import add_keys, call, new_project, open_editor


def source_cell(page, key: str):
    return page.locator(f'tr[data-key="{key}"] td.v[data-l="en"]')


def test_a_term_added_on_the_glossary_page_is_marked_in_the_editor(new_page):
    page = new_page()
    project_id = new_project(page)
    organization_id = call(page, "GET", "/api/organizations")["organizations"][0]["id"]
    page.goto(f"/orgs/{organization_id}/glossary")
    expect(page.get_by_role("heading", name="Terms (0)")).to_be_visible()
    check_accessibility(page, "glossary-empty")
    page.locator("#g-new-term").fill("file")
    page.locator("#g-new-translations").fill("de: Datei\nde: !Akte")
    page.locator("#g-new-note").fill("A document")
    page.get_by_role("button", name="Add term").click()
    expect(page.get_by_role("heading", name="Terms (1)")).to_be_visible()
    expect(page.get_by_role("row", name="file")).to_contain_text("Datei")
    check_accessibility(page, "glossary")

    add_keys(page, project_id, "en", {"save": "Save the File", "quit": "Quit"})
    add_keys(page, project_id, "de", {"save": "Speichern"})
    open_editor(page, project_id)
    mark = source_cell(page, "save").locator("mark.term")
    expect(mark).to_have_text("File")
    expect(mark).to_have_attribute("title", "file → Datei (not Akte)")
    expect(source_cell(page, "save").locator(".glossary-terms")).to_have_text(
        "Glossary: file → Datei (not Akte)"
    )
    expect(source_cell(page, "quit").locator("mark.term")).to_have_count(0)
    # The value itself is untouched: the marks only wrap its text.
    expect(source_cell(page, "save").locator(".t")).to_have_text("Save the File")
    check_accessibility(page, "editor-glossary")

    dark = new_page(color_scheme="dark")
    dark.context.add_cookies(page.context.cookies())
    open_editor(dark, project_id)
    expect(source_cell(dark, "save").locator("mark.term")).to_have_text("File")
    check_accessibility(dark, "editor-glossary-dark")
