"""The editor in a real browser for a translator limited to one language: that language's
values open for editing and save, the others stay read-only, and the page passes axe."""

import re

from playwright.sync_api import expect

from tests.browser.conftest import check_accessibility
from tests.browser.test_editor import add_keys, cell, member, new_project, open_editor, stored


def test_a_translator_limited_to_german_edits_german_only(new_page):
    owner = new_page()
    project_id = new_project(owner, "Owner", languages=("en", "de", "fr"))
    add_keys(owner, project_id, "en", {"greeting": "Hello"})
    translator = new_page()
    member(owner, project_id, translator, "Tessa", "editor", ["de"])
    open_editor(translator, project_id, "?lang=de&lang=fr")
    expect(translator.get_by_label("New key")).to_have_count(0)
    expect(cell(translator, "greeting", "fr")).to_have_attribute("aria-readonly", "true")
    cell(translator, "greeting", "fr").focus()
    translator.keyboard.press("Enter")
    expect(translator.locator("#editor-rows textarea")).to_have_count(0)
    cell(translator, "greeting", "de").focus()
    translator.keyboard.press("Enter")
    expect(cell(translator, "greeting", "de").locator("textarea")).to_be_focused()
    translator.keyboard.type("Hallo")
    translator.keyboard.press("Enter")
    expect(cell(translator, "greeting", "de")).to_have_class(re.compile(r"\bsaved\b"))
    assert stored(owner, project_id)["de"]["common"]["greeting"] == "Hallo"
    check_accessibility(translator, "editor-language-limited")
