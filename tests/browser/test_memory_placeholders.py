"""A memory match in the editor comes in the key's own placeholders and says so: put in
with its Alt+digit, it holds the key's placeholders, not the stored translation's."""

import re

from playwright.sync_api import expect

from tests.browser.conftest import check_accessibility
from tests.browser.test_editor import add_keys, new_project, open_editor
from tests.browser.test_translator_suggestions import value_cell

ADAPTED = "Hallo {user}, du hast {count} neue Nachrichten"


def editing_a_key_the_memory_knows_in_other_placeholders(page):
    """A project whose memory holds ``inbox`` (``{name}``) in German, and the German value of
    ``greeting`` (the same text with ``{user}``) open for editing: its cell."""
    project_id = new_project(page, "Ada", languages=("en", "de"))
    add_keys(page, project_id, "en", {"inbox": "Hello {name}, you have {count} new messages"})
    add_keys(page, project_id, "de", {"inbox": "Hallo {name}, du hast {count} neue Nachrichten"})
    add_keys(page, project_id, "en", {"greeting": "Hello {user}, you have {count} new messages"})
    open_editor(page, project_id)
    cell = value_cell(page, "greeting")
    cell.focus()
    page.keyboard.press("Enter")
    return cell


def test_an_adapted_memory_match_says_so_and_puts_in_the_key_s_placeholders(page):
    cell = editing_a_key_the_memory_knows_in_other_placeholders(page)
    choice = cell.locator(".suggestion", has=page.locator(".suggestion-source", has_text="Memory")).first
    expect(choice.locator(".suggestion-source")).to_contain_text("100% · placeholders adapted")
    expect(choice.locator(".suggestion-text")).to_have_text(ADAPTED)
    page.keyboard.press(choice.locator("kbd").inner_text())
    expect(cell.locator("textarea")).to_have_value(ADAPTED)
    check_accessibility(page, "editor-adapted-memory-match")


def test_an_accepted_adapted_match_saves_with_no_issue(page):
    cell = editing_a_key_the_memory_knows_in_other_placeholders(page)
    choice = cell.locator(".suggestion", has=page.locator(".suggestion-source", has_text="100%")).first
    page.keyboard.press(choice.locator("kbd").inner_text())
    page.keyboard.press("Enter")
    expect(cell).to_have_class(re.compile(r"\bsaved\b"))
    expect(cell.locator(".t")).to_have_text(ADAPTED)
    page.reload()
    expect(value_cell(page, "greeting").locator(".t")).to_have_text(
        "Hallo {user}, du hast {count} neue Nachrichten"
    )
    expect(value_cell(page, "greeting").locator("[data-quality] .issues li")).to_have_count(0)
