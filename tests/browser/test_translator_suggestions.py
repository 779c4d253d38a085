"""A translator's suggestions end to end, in a real browser: a glossary term in a key's source
is marked with its expected translation; a memory match and a machine translation are each
put in from the keyboard and saved unedited, and both saved values wait for a review, marked so
by the save itself (no second request), each with its reason. Against
a LibreTranslate stand-in on the loopback, with axe-core checking the page."""

from playwright.sync_api import expect

from tests.browser.conftest import check_accessibility
from tests.browser.test_editor import add_keys, call, open_editor
from tests.browser.test_suggestions import project_with_provider, review_states
from tests.machine.conftest import stand_in


def value_cell(page, key: str, language: str = "de"):
    return page.locator(f'tr[data-key="{key}"] td.v[data-l="{language}"]')


def accept(page, key: str, label: str) -> str:
    """Open the key's German value, put in the suggestion whose label starts with ``label`` by
    its Alt+digit, save it with Enter; the text put in."""
    cell = value_cell(page, key)
    cell.focus()
    page.keyboard.press("Enter")
    choice = cell.locator(".suggestion", has=page.locator(".suggestion-source", has_text=label)).first
    expect(choice).to_be_visible()
    shortcut = choice.locator("kbd").inner_text()
    text = choice.locator(".suggestion-text").inner_text()
    page.keyboard.press(shortcut)
    expect(cell.locator("textarea")).to_have_value(text)
    page.keyboard.press("Enter")
    expect(cell.locator(".state")).to_have_text("● Needs review")
    return text


def test_memory_and_machine_suggestions_saved_unedited_need_review(page):
    with stand_in("libretranslate") as libre:
        project_id = project_with_provider(page, libre)
        organization_id = call(page, "GET", "/api/organizations")["organizations"][0]["id"]
        term = {
            "language": "en",
            "term": "inbox",
            "translations": [{"language": "de", "text": "Posteingang"}],
        }
        call(page, "POST", f"/api/organizations/{organization_id}/glossary/terms", term)
        add_keys(page, project_id, "en", {"saved": "Save the file", "save": "Save the files"})
        add_keys(page, project_id, "de", {"saved": "Datei speichern"})
        open_editor(page, project_id)
        sent = []
        page.on("request", lambda request: sent.append((request.method, request.url.split("?")[0])))

        mark = value_cell(page, "title", "en").locator("mark.term")
        expect(mark).to_have_text("Inbox")
        expect(mark).to_have_attribute("title", "inbox → Posteingang")

        assert accept(page, "save", "Memory") == "Datei speichern"
        assert accept(page, "title", "Machine translation") == "[de] Inbox"
        check_accessibility(page, "editor-translator-suggestions")

    values = call(page, "GET", f"/api/projects/{project_id}/translations")["de"]["common"]
    assert (values["save"], values["title"]) == ("Datei speichern", "[de] Inbox")
    assert review_states(page, project_id) == {"de": 2}
    assert [url for method, url in sent if method == "POST" and url.endswith("/translations/review")] == []
    queue = call(page, "GET", f"/api/projects/{project_id}/translations/review?state=needs-review")
    assert [(item["key"], item["reason"]) for item in queue["values"]] == [
        ("save", "memory-unedited"),
        ("title", "machine-unedited"),
    ]
