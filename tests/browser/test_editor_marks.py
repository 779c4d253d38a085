"""HTML and XML tags in the editor are marked as placeholders are, and a value that drops
one is warned about before it is saved."""

from playwright.sync_api import expect

from tests.browser.test_editor import add_keys, new_project, open_editor
from tests.browser.test_translator_suggestions import value_cell


def test_tags_are_marked_as_placeholders_are(page):
    project_id = new_project(page, "Ada", languages=("en", "de"))
    add_keys(page, project_id, "en", {"save": 'Press <b>Save</b> or <a href="/help">read more</a>'})
    open_editor(page, project_id)
    marks = value_cell(page, "save", "en").locator(".ph")
    expect(marks).to_have_text(["<b>", "</b>", '<a href="/help">', "</a>"])


def typed_against(page, english: str, german: str):
    """The German value of a key whose English is ``english``, typed as ``german`` (not
    saved): the editor's note under it."""
    project_id = new_project(page, "Ada", languages=("en", "de"))
    add_keys(page, project_id, "en", {"save": english})
    open_editor(page, project_id)
    cell = value_cell(page, "save")
    cell.focus()
    page.keyboard.press("Enter")
    page.keyboard.insert_text(german)
    return cell.locator(".cell-note")


def test_a_value_that_drops_a_tag_is_warned_about(page):
    note = typed_against(page, "Press <b>Save</b>", "Drücke Speichern")
    expect(note).to_have_text("Placeholders differ from the source: missing <b> </b>.")


def test_a_tag_with_another_address_is_the_same_tag(page):
    note = typed_against(page, '<a href="/help">Help</a>', '<a href="/de/hilfe">Hilfe</a>')
    expect(note).to_have_text("Enter saves, Shift+Enter adds a line, Esc cancels.")
