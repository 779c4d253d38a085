"""Right-to-left languages in the browser: every value of an Arabic, Hebrew, Persian or Urdu
column, its edit box, the details panel, the import preview, the history and the trash
carry the language and its direction (from CLDR), so a value is shown and edited right to
left, and a value mixing directions keeps its own order."""

import orjson
from playwright.sync_api import expect

from tests.browser.conftest import check_accessibility
from tests.browser.test_editor import add_keys, call, cell, editor_of, new_project, open_editor

ARABIC = "مرحبا بكم في Loko"
RTL = {"lang": "ar", "dir": "rtl", "computed": "rtl", "bidi": "plaintext"}


def direction(locator) -> dict:
    return locator.evaluate(
        "(element) => ({lang: element.closest('[lang]').lang, dir: element.closest('[dir]')?.dir || '',"
        " computed: getComputedStyle(element).direction, bidi: getComputedStyle(element).unicodeBidi})"
    )


def test_arabic_values_are_shown_and_edited_right_to_left(page):
    project_id = new_project(page, languages=("en", "ar", "he"))
    add_keys(page, project_id, "en", {"greeting": "Welcome to Loko"})
    add_keys(page, project_id, "ar", {"greeting": ARABIC})
    open_editor(page, project_id, "?source=en&lang=ar,he")

    arabic = cell(page, "greeting", "ar")
    assert direction(arabic.locator(".t")) == RTL
    english = cell(page, "greeting", "en")
    assert direction(english.locator(".t"))["computed"] == "ltr"
    assert direction(cell(page, "greeting", "he").locator(".t"))["dir"] == "rtl"

    arabic.click()
    box = editor_of(page, "greeting", "ar")
    expect(box).to_be_focused()
    assert direction(box) == RTL
    box.fill("أهلا")
    box.press("Enter")
    expect(arabic.locator(".t")).to_have_text("أهلا")
    check_accessibility(page, "editor-rtl")

    arabic.focus()
    page.keyboard.press("d")
    dialog = page.get_by_role("dialog", name="greeting")
    value = dialog.locator("td.details-value", has_text="أهلا")
    expect(value).to_be_visible()
    assert direction(value)["dir"] == "rtl"
    changes = dialog.locator("[data-history-list] dd", has_text=ARABIC)
    expect(changes.first).to_be_visible()
    assert direction(changes.first)["computed"] == "rtl"
    check_accessibility(page)


def test_history_trash_and_import_preview_show_arabic_right_to_left(page):
    project_id = new_project(page, languages=("en", "fa"))
    add_keys(page, project_id, "fa", {"title": "سلام"})
    body = {"key": "title", "fileName": "common", "updates": {"fa": {"value": "درود"}}}
    call(page, "PATCH", f"/api/projects/{project_id}/translations", body)

    page.goto(f"/projects/{project_id}/history")
    new = page.locator(".value-new", has_text="درود")
    expect(new).to_be_visible()
    assert direction(new)["computed"] == "rtl"
    assert direction(new)["lang"] == "fa"
    check_accessibility(page)

    page.goto(f"/projects/{project_id}/import")
    document = orjson.dumps({"title": "خوش آمدید"})
    page.get_by_label("File", exact=True).set_input_files(
        {"name": "common.json", "mimeType": "application/json", "buffer": document}
    )
    page.get_by_label("Language", exact=True).fill("fa")
    page.get_by_role("button", name="Check the import").click()
    after = page.locator(".value-new", has_text="خوش آمدید")
    expect(after).to_be_visible()
    assert direction(after) == RTL | {"lang": "fa"}
    check_accessibility(page)

    page.goto(f"/projects/{project_id}/editor")
    translation_id = page.locator('tr[data-key="title"]').get_attribute("data-id")
    call(page, "DELETE", f"/api/projects/{project_id}/translations", {"id": translation_id})
    page.goto(f"/projects/{project_id}/trash")
    trashed = page.locator(".value", has_text="درود")
    expect(trashed).to_be_visible()
    assert direction(trashed)["computed"] == "rtl"
    check_accessibility(page)
