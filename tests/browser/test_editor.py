"""The translation editor in a real browser: keys created and edited in place with the
keyboard (never a page reload), the shortcut list, two people editing one value, the
placeholder warning, the trash, more rows, details, and a viewer who cannot edit."""

import re

from playwright.sync_api import expect

from tests.browser.conftest import check_accessibility, create_project, sign_in, sign_up


def call(page, method: str, path: str, body: dict | None = None):
    """The JSON API from the page's own session, with its CSRF token, as the page's script calls it."""
    token = page.locator('meta[name="csrf-token"]').get_attribute("content")
    response = page.request.fetch(
        path,
        method=method,
        headers={"X-CSRF-Token": token, "Content-Type": "application/json"},
        data=body,
    )
    assert response.ok, f"{method} {path}: {response.status} {response.text()}"
    return response.json()


def new_project(page, name: str = "Ada", languages=("en", "de")) -> str:
    """Sign up, create a project with these languages, and return its id."""
    sign_up(page, name)
    project_id = create_project(page, "Storefront")
    for code in languages:
        call(page, "POST", f"/api/projects/{project_id}/languages", {"code": code})
    return project_id


def add_keys(page, project_id: str, language: str, values: dict, file_name: str = "common") -> None:
    items = [{"key": key, "value": value} for key, value in values.items()]
    body = {
        "operation": "bulk-upsert",
        "fileName": file_name,
        "languageCode": language,
        "translations": items,
    }
    call(page, "PUT", f"/api/projects/{project_id}/translations", body)


def stored(page, project_id: str) -> dict:
    return call(page, "GET", f"/api/projects/{project_id}/translations")


def open_editor(page, project_id: str, query: str = "") -> None:
    page.goto(f"/projects/{project_id}/editor{query}")
    expect(page.get_by_role("heading", name="Editor")).to_be_visible()
    page.evaluate("() => { window.sameDocument = true; }")


def still_same_document(page) -> bool:
    return page.evaluate("() => window.sameDocument === true")


def cell(page, key: str, language: str):
    return page.locator(f'tr[data-key="{key}"] td.v[data-l="{language}"]')


def editor_of(page, key: str, language: str):
    return cell(page, key, language).locator("textarea")


def test_keys_created_in_the_editor_appear_without_a_reload(page):
    project_id = new_project(page)
    open_editor(page, project_id)
    expect(page.get_by_text("No keys yet.")).to_be_visible()
    page.get_by_label("New key").fill("checkout.title")
    # No values yet: the source is the first language by code, German.
    page.get_by_label("German value").fill("Jetzt zahlen")
    page.get_by_role("button", name="Add key").click()
    expect(cell(page, "checkout.title", "de")).to_have_text("Jetzt zahlen")
    expect(page.get_by_role("status").filter(has_text="Added checkout.title")).to_be_visible()
    expect(cell(page, "checkout.title", "en")).to_be_focused()
    page.get_by_label("New key").fill("checkout.cancel")
    page.get_by_role("button", name="Add key").click()
    expect(page.locator("#editor-rows tr")).to_have_count(2)
    assert still_same_document(page)
    assert stored(page, project_id) == {"de": {"common": {"checkout.title": "Jetzt zahlen"}}}
    check_accessibility(page, "editor")


def test_keyboard_alone_edits_saves_moves_and_cancels(page):
    project_id = new_project(page)
    add_keys(page, project_id, "en", {"a.one": "One", "b.two": "Two", "c.three": "Three"})
    open_editor(page, project_id)
    cell(page, "a.one", "de").focus()
    page.keyboard.press("Enter")
    expect(editor_of(page, "a.one", "de")).to_be_focused()
    page.keyboard.type("Eins")
    page.keyboard.press("Shift+Enter")
    page.keyboard.type("zwei Zeilen")
    page.keyboard.press("Enter")
    expect(editor_of(page, "b.two", "de")).to_be_focused()
    expect(cell(page, "a.one", "de")).to_have_class(re.compile(r"\bsaved\b"))
    page.keyboard.type("Zwei")
    page.keyboard.press("Escape")
    expect(cell(page, "b.two", "de")).to_be_focused()
    expect(editor_of(page, "b.two", "de")).to_have_count(0)
    page.keyboard.press("ArrowDown")
    expect(cell(page, "c.three", "de")).to_be_focused()
    page.keyboard.press("ArrowLeft")
    expect(cell(page, "c.three", "en")).to_be_focused()
    page.keyboard.press("ArrowUp")
    expect(cell(page, "b.two", "en")).to_be_focused()
    page.keyboard.press("F2")
    page.keyboard.press("Control+a")
    page.keyboard.type("Two!")
    page.keyboard.press("Tab")
    expect(editor_of(page, "b.two", "de")).to_be_focused()
    page.keyboard.type("Zwei")
    page.keyboard.press("Control+Enter")
    expect(editor_of(page, "c.three", "de")).to_be_focused()
    page.keyboard.press("Escape")
    expect(cell(page, "b.two", "de")).to_have_class(re.compile(r"\bsaved\b"))
    assert still_same_document(page)
    assert stored(page, project_id)["de"]["common"] == {"a.one": "Eins\nzwei Zeilen", "b.two": "Zwei"}
    assert stored(page, project_id)["en"]["common"]["b.two"] == "Two!"


def test_question_mark_opens_the_list_of_shortcuts(page):
    project_id = new_project(page)
    add_keys(page, project_id, "en", {"greeting": "Hello"})
    open_editor(page, project_id)
    cell(page, "greeting", "en").focus()
    page.keyboard.press("?")
    dialog = page.get_by_role("dialog", name="Keyboard shortcuts")
    expect(dialog).to_be_visible()
    expect(dialog.get_by_text("While editing: new line")).to_be_visible()
    check_accessibility(page, "editor-shortcuts")
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    expect(cell(page, "greeting", "en")).to_be_focused()


def _two_people_on_one_value(new_page):
    """Two browsers of one user on the editor of a key whose German value is "Hallo"; the
    first saves "Servus" while the second still shows "Hallo"."""
    first = new_page()
    email_project = new_project(first)
    add_keys(first, email_project, "en", {"greeting": "Hello"})
    add_keys(first, email_project, "de", {"greeting": "Hallo"})
    email = call(first, "GET", "/api/auth/me")["user"]["email"]
    second = new_page()
    sign_in(second, email)
    open_editor(first, email_project)
    open_editor(second, email_project)
    cell(first, "greeting", "de").click()
    editor_of(first, "greeting", "de").fill("Servus")
    editor_of(first, "greeting", "de").press("Enter")
    expect(cell(first, "greeting", "de")).to_have_class(re.compile(r"\bsaved\b"))
    cell(second, "greeting", "de").click()
    editor_of(second, "greeting", "de").fill("Moin")
    editor_of(second, "greeting", "de").press("Enter")
    conflict = second.get_by_role("group", name="Conflict on greeting")
    expect(conflict).to_be_visible()
    expect(conflict).to_contain_text("Servus")
    expect(conflict).to_contain_text("Moin")
    return first, second, email_project


def test_a_conflicting_edit_shows_both_values_and_keeps_mine(new_page):
    first, second, project_id = _two_people_on_one_value(new_page)
    assert stored(first, project_id)["de"]["common"]["greeting"] == "Servus"
    check_accessibility(second, "editor-conflict")
    second.get_by_role("button", name="Keep mine").click()
    expect(cell(second, "greeting", "de")).to_have_class(re.compile(r"\bsaved\b"))
    expect(cell(second, "greeting", "de")).to_have_text("Moin")
    assert stored(first, project_id)["de"]["common"]["greeting"] == "Moin"


def test_a_conflicting_edit_can_take_their_value(new_page):
    first, second, project_id = _two_people_on_one_value(new_page)
    second.get_by_role("button", name="Take theirs").click()
    expect(second.get_by_role("group", name="Conflict on greeting")).to_have_count(0)
    expect(cell(second, "greeting", "de")).to_have_text("Servus")
    assert stored(first, project_id)["de"]["common"]["greeting"] == "Servus"


def test_placeholders_are_highlighted_and_a_mismatch_warns_before_saving(page):
    project_id = new_project(page)
    add_keys(page, project_id, "en", {"welcome": "Hello {name}, you have %d items"})
    open_editor(page, project_id)
    expect(cell(page, "welcome", "en").locator(".ph")).to_have_text(["{name}", "%d"])
    cell(page, "welcome", "de").click()
    editor_of(page, "welcome", "de").fill("Hallo, du hast %d Artikel")
    note = cell(page, "welcome", "de").locator(".cell-note")
    expect(note).to_contain_text("missing {name}")
    editor_of(page, "welcome", "de").press("Enter")
    expect(note).to_contain_text("Press Enter again to save anyway")
    assert "de" not in stored(page, project_id)
    editor_of(page, "welcome", "de").press("Enter")
    expect(cell(page, "welcome", "de")).to_have_class(re.compile(r"\bsaved\b"))
    expect(cell(page, "welcome", "de").locator(".ph")).to_have_text(["%d"])
    assert stored(page, project_id)["de"]["common"]["welcome"] == "Hallo, du hast %d Artikel"


def test_several_keys_go_to_the_trash_at_once(page):
    project_id = new_project(page)
    add_keys(page, project_id, "en", {"keep": "Keep", "old.one": "Old"})
    add_keys(page, project_id, "en", {"old.two": "Old"}, file_name="other")
    open_editor(page, project_id)
    page.get_by_label("Select old.one").check()
    page.get_by_label("Select old.two").check()
    expect(page.get_by_text("2 keys selected")).to_be_visible()
    page.get_by_role("button", name="Move selected to the trash").click()
    expect(page.get_by_role("status").filter(has_text="2 keys moved to the trash.")).to_be_visible()
    expect(page.locator("#editor-rows tr")).to_have_count(1)
    assert still_same_document(page)
    assert call(page, "GET", f"/api/projects/{project_id}/translations/keys")["keys"] == ["keep"]
    assert call(page, "GET", f"/api/projects/{project_id}/translations/trash")["total"] == 2


def test_more_rows_load_without_a_reload(page):
    project_id = new_project(page)
    add_keys(page, project_id, "en", {f"key.{i:03d}": f"Value {i}" for i in range(70)})
    open_editor(page, project_id)
    expect(page.locator("#editor-rows tr")).to_have_count(50)
    page.get_by_role("button", name="Show 50 more keys").click()
    expect(page.locator("#editor-rows tr")).to_have_count(70)
    expect(page.get_by_role("button", name="Show 50 more keys")).to_be_hidden()
    expect(cell(page, "key.050", "en")).to_be_focused()
    assert still_same_document(page)


def test_details_show_every_language_and_the_history(page):
    project_id = new_project(page, languages=("en", "de", "fr"))
    add_keys(page, project_id, "en", {"greeting": "Hello"})
    add_keys(page, project_id, "fr", {"greeting": "Bonjour"})
    open_editor(page, project_id, "?lang=de")
    cell(page, "greeting", "de").focus()
    page.keyboard.press("d")
    dialog = page.get_by_role("dialog", name="greeting")
    expect(dialog.get_by_role("cell", name="Bonjour")).to_be_visible()
    expect(dialog.locator("[data-history-list] li")).to_have_count(2)
    check_accessibility(page, "editor-details")
    dialog.get_by_role("button", name="Close").click()
    expect(cell(page, "greeting", "de")).to_be_focused()


def test_markup_in_keys_and_values_shows_as_text(page):
    project_id = new_project(page)
    add_keys(page, project_id, "en", {"<img src=x onerror=alert(1)>": "<script>alert(2)</script>"})
    open_editor(page, project_id)
    expect(page.locator("#editor-rows th.key .k")).to_have_text("<img src=x onerror=alert(1)>")
    expect(page.locator("#editor-rows td.v").first).to_have_text("<script>alert(2)</script>")
    assert page.locator("#editor-rows img, #editor-rows script").count() == 0


def test_a_viewer_reads_but_cannot_edit(new_page):
    owner = new_page()
    project_id = new_project(owner, "Owner")
    add_keys(owner, project_id, "en", {"greeting": "Hello"})
    viewer = new_page()
    sign_up(viewer, "Vera")
    viewer_user = call(viewer, "GET", "/api/auth/me")["user"]
    organization_id = call(owner, "GET", "/api/auth/me")["organizations"][0]["id"]
    member = {"email": viewer_user["email"], "role": "member"}
    call(owner, "POST", f"/api/organizations/{organization_id}/members", member)
    call(owner, "PUT", f"/api/projects/{project_id}/members/{viewer_user['id']}", {"role": "viewer"})
    open_editor(viewer, project_id)
    expect(cell(viewer, "greeting", "en")).to_have_text("Hello")
    expect(viewer.get_by_label("New key")).to_have_count(0)
    expect(viewer.get_by_role("checkbox")).to_have_count(0)
    cell(viewer, "greeting", "de").click()
    viewer.keyboard.press("Enter")
    expect(viewer.locator("#editor-rows textarea")).to_have_count(0)
    check_accessibility(viewer, "editor-viewer")


def test_editor_reads_well_dark_and_narrow(new_page):
    page = new_page(viewport={"width": 360, "height": 740}, color_scheme="dark")
    project_id = new_project(page, languages=("en", "de", "fr"))
    add_keys(page, project_id, "en", {"checkout.title": "Pay {amount} now", "checkout.cancel": "Cancel"})
    add_keys(page, project_id, "de", {"checkout.title": "Jetzt {amount} zahlen"})
    open_editor(page, project_id)
    expect(cell(page, "checkout.title", "fr")).to_be_visible()
    check_accessibility(page, "editor-dark-narrow")
    cell(page, "checkout.cancel", "de").click()
    expect(editor_of(page, "checkout.cancel", "de")).to_be_visible()
    check_accessibility(page, "editor-editing-dark-narrow")
