"""The checks in the editor, in a real browser: an issue shown beside its value and fixed
from the keyboard, a value whose source changed listed by the "Needs review" filter and
marked reviewed from the keyboard in place, with axe-core checking each page."""

from playwright.sync_api import expect

from tests.browser.conftest import check_accessibility
from tests.browser.test_editor import (
    add_keys,
    call,
    new_project,
    open_editor,
    still_same_document,
    stored,
)


def value_cell(page, key: str, language: str = "de"):
    return page.locator(f'tr[data-key="{key}"] td.v[data-l="{language}"]')


def test_an_issue_is_fixed_and_a_changed_value_reviewed_from_the_keyboard(page):
    project_id = new_project(page)
    add_keys(page, project_id, "en", {"bye": "Bye", "save": "Save"})
    add_keys(page, project_id, "de", {"bye": "Tschüss", "save": "Speichern "})
    call(
        page,
        "PATCH",
        f"/api/projects/{project_id}/translations",
        {
            "key": "bye",
            "fileName": "common",
            "updates": {"en": {"value": "Goodbye"}},
        },
    )

    open_editor(page, project_id)
    cell = value_cell(page, "save")
    expect(cell.locator(".issues")).to_contain_text("Leading or trailing whitespace differs from the source")
    expect(value_cell(page, "bye").locator(".state")).to_have_text("● Needs review")
    check_accessibility(page, "editor-issues")

    cell.focus()
    page.keyboard.press("f")
    expect(page.locator(".notice")).to_have_text("Fix applied to save in de.")
    expect(value_cell(page, "save").locator(".t")).to_have_text("Speichern")
    expect(value_cell(page, "save").locator(".issues")).to_have_count(0)
    assert stored(page, project_id)["de"]["common"]["save"] == "Speichern"

    open_editor(page, project_id, "?review=needed")
    expect(page.locator("#editor-rows tr")).to_have_count(1)
    expect(page.locator("#editor-rows tr")).to_have_attribute("data-key", "bye")
    check_accessibility(page, "editor-needs-review")
    value_cell(page, "bye").focus()
    page.keyboard.press("r")
    expect(page.locator("[data-status]")).to_have_text("Marked reviewed: bye in de.")
    expect(value_cell(page, "bye").locator(".state")).to_have_text("✓ Reviewed")
    expect(value_cell(page, "bye")).to_be_focused()
    assert still_same_document(page)

    open_editor(page, project_id, "?review=needed")
    expect(page.locator("#editor-rows tr")).to_have_count(0)
    expect(page.get_by_text("No keys match these filters.")).to_be_visible()

    open_editor(page, project_id)
    expect(value_cell(page, "bye").locator(".state")).to_have_text("✓ Reviewed")


def test_a_reviewer_works_through_the_needs_review_queue_from_the_keyboard(page):
    project_id = new_project(page)
    english = {"bye": "Bye", "save": "Save", "open": "Open"}
    add_keys(page, project_id, "en", english)
    add_keys(page, project_id, "de", {"bye": "Tschüss", "save": "Speichern", "open": "Öffnen"})
    for key, text in english.items():
        body = {"key": key, "fileName": "common", "updates": {"en": {"value": f"{text}!"}}}
        call(page, "PATCH", f"/api/projects/{project_id}/translations", body)

    open_editor(page, project_id, "?review=needed&lang=de")
    expect(page.locator("#editor-rows tr")).to_have_count(3)
    value_cell(page, "bye").focus()
    for key in ("bye", "open", "save"):  # the keys in the editor's order
        expect(value_cell(page, key)).to_be_focused()
        page.keyboard.press("r")
        expect(page.locator("[data-status]")).to_have_text(f"Marked reviewed: {key} in de.")
        expect(value_cell(page, key).locator(".state")).to_have_text("✓ Reviewed")
        page.keyboard.press("ArrowDown")
    assert still_same_document(page)

    open_editor(page, project_id, "?review=needed&lang=de")
    expect(page.get_by_text("No keys match these filters.")).to_be_visible()
