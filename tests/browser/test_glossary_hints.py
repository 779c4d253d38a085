"""The glossary's hints in the editor's source cells, in a real browser: they are those of
the language of the value the cursor is in, and stay those of the last language edited
while the cursor is in the source."""

from playwright.sync_api import expect

from tests.browser.test_editor import add_keys, call, cell, new_project, open_editor

FILE_TRANSLATIONS = [{"language": "de", "text": "Datei"}, {"language": "fr", "text": "fichier"}]


def project_with_term(page, languages=("en", "de", "fr"), translations=None) -> str:
    """A project in English, German and French with a glossary term for ``file`` in
    German and in French (or ``translations``), and one key whose source text uses it."""
    project_id = new_project(page, languages=languages)
    organization_id = call(page, "GET", "/api/organizations")["organizations"][0]["id"]
    term = {"language": "en", "term": "file", "translations": translations or FILE_TRANSLATIONS}
    call(page, "POST", f"/api/organizations/{organization_id}/glossary/terms", term)
    add_keys(page, project_id, "en", {"save": "Save the file"})
    return project_id


def hint(page):
    return cell(page, "save", "en").locator(".glossary-terms")


def test_glossary_hints_follow_the_language_of_the_focused_value(page):
    project_id = project_with_term(page)
    open_editor(page, project_id, "?lang=de&lang=fr")
    cell(page, "save", "fr").focus()
    expect(hint(page)).to_have_text("Glossary: file → fichier")
    expect(cell(page, "save", "en").locator("mark.term")).to_have_attribute("title", "file → fichier")
    cell(page, "save", "de").focus()
    expect(hint(page)).to_have_text("Glossary: file → Datei")
    expect(cell(page, "save", "en").locator("mark.term")).to_have_attribute("title", "file → Datei")


def test_the_source_value_keeps_the_hints_of_the_language_last_focused(page):
    project_id = project_with_term(page)
    open_editor(page, project_id, "?lang=de&lang=fr")
    cell(page, "save", "fr").focus()
    expect(hint(page)).to_have_text("Glossary: file → fichier")
    cell(page, "save", "en").focus()
    expect(cell(page, "save", "en")).to_be_focused()
    expect(hint(page)).to_have_text("Glossary: file → fichier")
    expect(cell(page, "save", "en").locator("mark.term")).to_have_count(1)


def project_with_forbidden_translation(page) -> str:
    """A project in English and German with ``Datei`` for ``file`` and ``Akte`` forbidden,
    and one key whose source text uses it."""
    return project_with_term(
        page,
        ("en", "de"),
        [{"language": "de", "text": "Datei"}, {"language": "de", "text": "Akte", "forbidden": True}],
    )


def typing_hint(page):
    return cell(page, "save", "de").locator(".glossary-typing")


def test_the_expected_translation_is_shown_while_typing(page):
    project_id = project_with_forbidden_translation(page)
    open_editor(page, project_id, "?lang=de")
    cell(page, "save", "de").focus()
    page.keyboard.press("Enter")
    expect(typing_hint(page)).to_have_text("Glossary: file → Datei.")
    page.keyboard.insert_text("Die Datei speichern")
    expect(typing_hint(page)).to_have_text("Glossary: file → Datei (used).")


def test_a_forbidden_translation_is_flagged_as_it_is_typed(page):
    project_id = project_with_forbidden_translation(page)
    open_editor(page, project_id, "?lang=de")
    cell(page, "save", "de").focus()
    page.keyboard.press("Enter")
    page.keyboard.insert_text("Die Akte speichern")
    expect(typing_hint(page)).to_contain_text("“Akte” is a forbidden translation of “file”: use “Datei”.")
    expect(typing_hint(page)).to_have_class("glossary-typing small warn")
