"""The translation editor in a real browser: keys created and edited in place with the
keyboard (never a page reload), the grid as one tab stop, the shortcut list, two people
editing one value, a value edited while its save is on its way, the placeholder warning,
the trash, more rows, details, a project without languages, and a viewer who cannot edit."""

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


def member(owner, project_id: str, person, name: str, role: str, languages=None) -> str:
    """Sign ``person`` up as ``name`` and make them a member of the owner's organization and
    of the project with ``role``, limited to ``languages`` when given; their user id."""
    sign_up(person, name)
    user = call(person, "GET", "/api/auth/me")["user"]
    organization_id = call(owner, "GET", "/api/auth/me")["organizations"][0]["id"]
    call(
        owner,
        "POST",
        f"/api/organizations/{organization_id}/members",
        {"email": user["email"], "role": "member"},
    )
    grant = {"role": role, **({"languages": languages} if languages else {})}
    call(owner, "PUT", f"/api/projects/{project_id}/members/{user['id']}", grant)
    return user["id"]


def open_editor(page, project_id: str, query: str = "") -> None:
    page.goto(f"/projects/{project_id}/editor{query}")
    expect(page.get_by_role("heading", name="Editor")).to_be_visible()
    page.evaluate("() => { window.sameDocument = true; }")


def still_same_document(page) -> bool:
    return page.evaluate("() => window.sameDocument === true")


# Notes the address of every response body the page reads, so that a test can wait until
# the page has handled an answer meant to change nothing.
BODIES_READ = """
const readText = Response.prototype.text;
Response.prototype.text = async function () {
  try {
    return await readText.call(this);
  } finally {
    (window.bodiesRead ||= []).push(this.url);
  }
};
"""


class Held:
    """The requests to ``url`` (with ``method``, when given) that ``page.route`` keeps from
    the server until the test answers them."""

    def __init__(self, page, url: str, method: str | None = None):
        self.page, self.method, self.routes = page, method, []
        page.route(url, self._hold)

    def _hold(self, route):
        if self.method is not None and route.request.method != self.method:
            route.fallback()
        else:
            self.routes.append(route)

    def take(self):
        """The first request held. Each round trip to the page lets Playwright hand over
        the requests the page sent meanwhile."""
        for _ in range(500):
            if self.routes:
                return self.routes.pop(0)
            self.page.evaluate("() => null")
        raise AssertionError("The page sent no request to hold.")


def cell(page, key: str, language: str):
    return page.locator(f'tr[data-key="{key}"] td.v[data-l="{language}"]')


def editor_of(page, key: str, language: str):
    return cell(page, key, language).locator("textarea")


def test_keys_created_in_the_editor_appear_without_a_reload(page):
    project_id = new_project(page, languages=("de", "en"))
    open_editor(page, project_id)
    expect(page.get_by_text("No keys yet.")).to_be_visible()
    page.get_by_label("New key").fill("checkout.title")
    # The source is the project's first language, German.
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


def test_the_grid_is_one_tab_stop_that_arrows_move_through(page):
    project_id = new_project(page)
    add_keys(page, project_id, "en", {"a.one": "One", "b.two": "Two"})
    open_editor(page, project_id)
    tab_stops = page.locator('#editor-grid [tabindex="0"]')
    expect(tab_stops).to_have_count(1)
    expect(cell(page, "a.one", "en")).to_have_attribute("tabindex", "0")
    cell(page, "a.one", "en").focus()
    page.keyboard.press("ArrowLeft")
    expect(page.get_by_label("Select a.one")).to_be_focused()
    page.keyboard.press("Space")
    expect(page.get_by_text("1 key selected")).to_be_visible()
    page.keyboard.press("ArrowUp")
    expect(page.get_by_label("Select every key on this page")).to_be_focused()
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    expect(page.get_by_label("Select b.two")).to_be_focused()
    page.keyboard.press("End")
    expect(cell(page, "b.two", "de")).to_be_focused()
    expect(tab_stops).to_have_count(1)
    page.keyboard.press("Tab")
    expect(page.locator("#editor-grid :focus")).to_have_count(0)
    page.keyboard.press("Shift+Tab")
    expect(cell(page, "b.two", "de")).to_be_focused()
    page.keyboard.press("ArrowRight")
    expect(page.get_by_role("button", name="Details of b.two")).to_be_focused()
    page.keyboard.press("Enter")
    details = page.get_by_role("dialog", name="b.two")
    expect(details).to_be_visible()
    page.keyboard.press("Escape")
    expect(details).to_be_hidden()
    expect(page.get_by_role("button", name="Details of b.two")).to_be_focused()
    page.keyboard.press("Home")
    expect(cell(page, "b.two", "en")).to_be_focused()
    expect(tab_stops).to_have_count(1)


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


def _save_held(page, project_id: str) -> tuple[Held, object]:
    """The German "Hallo" of greeting changed to "Servus", its save held on its way."""
    add_keys(page, project_id, "de", {"greeting": "Hallo"})
    open_editor(page, project_id)
    saves = Held(page, f"**/api/projects/{project_id}/translations", "PATCH")
    cell(page, "greeting", "de").click()
    editor_of(page, "greeting", "de").fill("Servus")
    editor_of(page, "greeting", "de").press("Enter")
    first = saves.take()
    assert first.request.post_data_json["updates"] == {"de": {"value": "Servus", "expected": "Hallo"}}
    expect(cell(page, "greeting", "de")).to_have_class(re.compile(r"\bsaving\b"))
    return saves, first


def test_a_value_being_saved_opens_no_editor_and_a_failed_save_keeps_its_text(page):
    project_id = new_project(page)
    saves, first = _save_held(page, project_id)
    cell(page, "greeting", "de").click()
    expect(editor_of(page, "greeting", "de")).to_have_count(0)
    page.keyboard.type("Moin")
    expect(cell(page, "greeting", "de")).to_have_text("Servus")
    first.fulfill(status=503, json={"error": "Try again in a moment."})
    expect(editor_of(page, "greeting", "de")).to_have_value("Servus")
    expect(editor_of(page, "greeting", "de")).to_be_focused()
    note = cell(page, "greeting", "de").get_by_role("alert")
    expect(note).to_have_text("Not saved: Try again in a moment.")
    page.keyboard.type("!")
    page.keyboard.press("Enter")
    second = saves.take()
    assert second.request.post_data_json["updates"] == {"de": {"value": "Servus!", "expected": "Hallo"}}
    second.continue_()
    expect(cell(page, "greeting", "de")).to_have_class(re.compile(r"\bsaved\b"))
    assert stored(page, project_id)["de"]["common"]["greeting"] == "Servus!"


def test_asking_to_edit_a_value_being_saved_opens_it_once_saved(page):
    project_id = new_project(page)
    saves, first = _save_held(page, project_id)
    cell(page, "greeting", "de").click()
    expect(editor_of(page, "greeting", "de")).to_have_count(0)
    first.continue_()
    expect(editor_of(page, "greeting", "de")).to_have_value("Servus")
    expect(editor_of(page, "greeting", "de")).to_be_focused()
    page.keyboard.type(" und Moin")
    page.keyboard.press("Enter")
    second = saves.take()
    sent = second.request.post_data_json["updates"]["de"]
    assert sent == {"value": "Servus und Moin", "expected": "Servus"}
    second.continue_()
    expect(cell(page, "greeting", "de")).to_have_class(re.compile(r"\bsaved\b"))
    assert stored(page, project_id)["de"]["common"]["greeting"] == "Servus und Moin"


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


def test_a_key_added_on_the_page_shows_once_when_more_rows_load(page):
    project_id = new_project(page)
    add_keys(page, project_id, "en", {f"key.{i:03d}": f"Value {i}" for i in range(60)})
    open_editor(page, project_id)
    page.get_by_label("New key").fill("key.055a")
    page.get_by_role("button", name="Add key").click()
    expect(page.get_by_role("status").filter(has_text="Added key.055a")).to_be_visible()
    expect(page.locator("#editor-rows tr")).to_have_count(51)
    page.get_by_role("button", name="Show 50 more keys").click()
    expect(page.locator("#editor-rows tr")).to_have_count(61)
    expect(page.locator('#editor-rows tr[data-key="key.055a"]')).to_have_count(1)
    expect(cell(page, "key.050", "en")).to_be_focused()


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


def test_details_never_show_a_late_answer_about_the_key_opened_before(page):
    project_id = new_project(page)
    add_keys(page, project_id, "en", {"first": "First value", "second": "Second value"})
    page.add_init_script(BODIES_READ)
    open_editor(page, project_id)
    first_id = page.locator('tr[data-key="first"]').get_attribute("data-id")
    first_values = Held(page, f"**/editor/keys/{first_id}")
    cell(page, "first", "en").focus()
    page.keyboard.press("d")
    expect(page.get_by_role("dialog", name="first")).to_be_visible()
    late = first_values.take()
    page.keyboard.press("Escape")
    expect(page.get_by_role("dialog")).to_have_count(0)
    cell(page, "second", "en").focus()
    page.keyboard.press("d")
    dialog = page.get_by_role("dialog", name="second")
    expect(dialog.get_by_role("cell", name="Second value")).to_be_visible()
    expect(dialog.locator("[data-history-list] li")).to_have_count(1)
    late.continue_()
    page.wait_for_function(
        "address => (window.bodiesRead || []).some((url) => url.endsWith(address))",
        arg=f"/editor/keys/{first_id}",
    )
    expect(dialog.get_by_role("cell", name="Second value")).to_be_visible()
    expect(dialog).not_to_contain_text("First value")
    expect(dialog.locator("[data-history-list] li")).to_have_count(1)
    expect(dialog.locator("[data-history-status]")).to_have_text("")


def test_a_project_without_languages_points_to_its_languages_page(page):
    project_id = new_project(page, languages=())
    open_editor(page, project_id)
    expect(page.get_by_label("New key")).to_have_count(0)
    expect(page.get_by_role("button", name="Add key")).to_have_count(0)
    check_accessibility(page)
    page.get_by_role("link", name="add one on the Languages page").click()
    page.wait_for_url(re.compile(rf"/projects/{project_id}/languages$"))


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
