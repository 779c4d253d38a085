"""Plural forms in the editor: an ICU plural is edited as one field per CLDR category of the
value's language, each with example numbers, and saved as the ICU message, which a real
ICU parser reads and the Android export writes as ``<plurals>``."""

import json
import re
import shutil
import subprocess
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import check_accessibility
from tests.browser.test_editor import add_keys, new_project, open_editor
from tests.browser.test_translator_suggestions import value_cell

PARSER = Path(__file__).parent / "icu_parse.cjs"
PARSER_PACKAGE = Path(__file__).parent / "icu" / "node_modules" / "@formatjs" / "icu-messageformat-parser"
SKIP_REASON = (
    "the ICU parser check needs node and @formatjs/icu-messageformat-parser (make test installs them)"
)
SOURCE = "{count, plural, one {# file} other {# files}}"
ARABIC = {
    "zero": "لا ملفات",
    "one": "ملف واحد",
    "two": "ملفان",
    "few": "# ملفات",
    "many": "# ملفًا",
    "other": "# ملف",
}


def parsed(messages: list[str]) -> list[dict]:
    """What FormatJS's ICU MessageFormat parser (from npm) makes of each message."""
    if shutil.which("node") is None or not PARSER_PACKAGE.exists():
        pytest.skip(
            "the ICU parser check needs node and @formatjs/icu-messageformat-parser (make test installs it)"
        )
    done = subprocess.run(
        ["node", str(PARSER)],
        input=json.dumps(messages),
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    return json.loads(done.stdout)


def exported(page, project_id: str, file_format: str, language: str) -> str:
    response = page.request.get(
        f"/api/projects/{project_id}/translations",
        params={"format": file_format, "language": language, "fileName": "common"},
    )
    assert response.ok, response.text()
    return response.text()


def exported_value(page, project_id: str, language: str, key: str) -> str:
    """A key's value in the JSON export (``{language: {file: {key: value}}}``)."""
    return json.loads(exported(page, project_id, "json", language))[language]["common"][key]


def open_value(page, key: str, language: str):
    cell = value_cell(page, key, language)
    cell.focus()
    page.keyboard.press("Enter")
    return cell


def test_an_english_plural_is_translated_into_arabic_through_six_fields(page):
    project_id = new_project(page, "Ada", languages=("en", "ar"))
    add_keys(page, project_id, "en", {"files": SOURCE})
    open_editor(page, project_id)
    cell = open_value(page, "files", "ar")
    forms = cell.get_by_role("group", name="Plural forms of {count} in Arabic")
    expect(forms).to_be_visible()
    fields = forms.get_by_role("textbox")
    expect(fields).to_have_count(6)
    expect(fields.first).to_be_focused()
    check_accessibility(page, "editor-plural-forms")


def test_each_field_names_its_category_and_example_numbers(page):
    project_id = new_project(page, "Ada", languages=("en", "ru"))
    add_keys(page, project_id, "en", {"files": SOURCE})
    open_editor(page, project_id)
    cell = open_value(page, "files", "ru")
    forms = cell.get_by_role("group", name="Plural forms of {count} in Russian")
    expect(forms.locator("label")).to_have_text(
        ["one 1, 21, 31, 41, …", "few 2, 3, 4, 22, …", "many 0, 5, 6, 7, …", "other 0.5, 1.5, 2.5, 0.1, …"]
    )


def test_six_arabic_forms_typed_from_the_keyboard_are_saved_as_one_icu_message(page):
    project_id = new_project(page, "Ada", languages=("en", "ar"))
    add_keys(page, project_id, "en", {"files": SOURCE})
    open_editor(page, project_id)
    cell = open_value(page, "files", "ar")
    fields = cell.get_by_role("group", name="Plural forms of {count} in Arabic").get_by_role("textbox")
    fields.first.focus()
    for index, text in enumerate(ARABIC.values()):
        expect(fields.nth(index)).to_be_focused()
        page.keyboard.insert_text(text)
        if index < len(ARABIC) - 1:
            page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    expect(cell).to_have_class(re.compile(r"\bsaved\b"))
    expect(cell.locator("[data-quality]")).to_have_count(0)

    message = exported_value(page, project_id, "ar", "files")
    body = " ".join(f"{category} {{{text}}}" for category, text in ARABIC.items())
    assert message == f"{{count, plural, {body}}}"
    [answer] = parsed([message])
    assert answer == {"ok": True, "plurals": [["count", list(ARABIC)]]}

    document = ElementTree.fromstring(exported(page, project_id, "android", "ar").encode())
    items = document.find("plurals[@name='files']")
    assert [(item.get("quantity"), item.text) for item in items] == list(ARABIC.items())


def test_text_around_the_plural_stays_editable(page):
    project_id = new_project(page, "Ada", languages=("en", "de"))
    add_keys(page, project_id, "en", {"files": "In {folder}: {count, plural, one {# file} other {# files}}."})
    add_keys(
        page, project_id, "de", {"files": "In {folder}: {count, plural, one {# Datei} other {# Dateien}}."}
    )
    open_editor(page, project_id)
    cell = open_value(page, "files", "de")
    forms = cell.get_by_role("group", name="Plural forms of {count} in German")
    expect(forms.get_by_label("Text before")).to_have_value("In {folder}: ")
    expect(forms.get_by_label("Text after")).to_have_value(".")
    forms.get_by_label("Text after").fill(" (gesamt).")
    page.keyboard.press("Enter")
    expect(cell).to_have_class(re.compile(r"\bsaved\b"))
    assert exported_value(page, project_id, "de", "files") == (
        "In {folder}: {count, plural, one {# Datei} other {# Dateien}} (gesamt)."
    )


def test_the_message_can_be_edited_as_icu_text(page):
    project_id = new_project(page, "Ada", languages=("en", "de"))
    add_keys(page, project_id, "en", {"files": SOURCE})
    open_editor(page, project_id)
    cell = open_value(page, "files", "de")
    cell.get_by_label("one").fill("# Datei")
    cell.get_by_label("other").fill("# Dateien")
    cell.get_by_role("button", name="Edit as ICU text").click()
    text = cell.get_by_role("textbox", name=re.compile(r"^German.* value of files$"))
    expect(text).to_have_value("{count, plural, one {# Datei} other {# Dateien}}")
    expect(text).to_be_focused()
