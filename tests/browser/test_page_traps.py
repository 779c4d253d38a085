"""Pages that used to trip people up, in the browser: the overview's export form, a stale
language in an editor URL, a very long value, long keys in the trash and the import
preview, the history's key filter and its revert buttons, keys with surrounding spaces,
error banners in the form's words, the account menu, narrow screens and the trash's
retention."""

import re

import orjson
from playwright.sync_api import expect

from tests.browser.conftest import check_accessibility, sign_up
from tests.browser.test_editor import add_keys, call, cell, new_project, open_editor


def test_the_export_form_shows_a_mistake_on_the_form_before_any_download(page):
    project_id = new_project(page)
    add_keys(page, project_id, "en", {"title": "Welcome"})
    page.goto(f"/projects/{project_id}")
    form = page.locator("form.export-form")
    form.get_by_label("Format").select_option("android")
    form.get_by_label("As a ZIP").uncheck()
    form.get_by_role("button", name="Download").click()
    alert = page.get_by_role("alert")
    expect(alert).to_contain_text("tick one language and one file")
    assert "{" not in alert.inner_text()
    expect(page.get_by_role("heading", name="Export")).to_be_visible()
    check_accessibility(page, "overview-export-error")

    form = page.locator("form.export-form")
    expect(form.get_by_label("Format")).to_have_value("android")
    form.get_by_label("As a ZIP").check()
    with page.expect_download() as download:
        form.get_by_role("button", name="Download").click()
    assert download.value.suggested_filename.endswith(".zip")


def test_an_editor_url_naming_a_deleted_language_drops_it_with_a_notice(page):
    project_id = new_project(page, languages=("en", "de", "fr"))
    add_keys(page, project_id, "en", {"title": "Welcome"})
    call(page, "DELETE", f"/api/projects/{project_id}/languages", {"code": "fr"})
    open_editor(page, project_id, "?lang=de,fr&missing=fr")
    expect(page.get_by_role("status").first).to_contain_text("fr")
    expect(page.locator('th.lang[data-l="de"]')).to_be_visible()
    expect(page.locator('th.lang[data-l="fr"]')).to_have_count(0)
    expect(cell(page, "title", "en")).to_be_visible()
    check_accessibility(page)


def test_a_very_long_value_is_clamped_with_a_show_all_toggle(page):
    project_id = new_project(page)
    long_value = ("A long sentence of a legal notice. " * 150)[:5000]
    add_keys(page, project_id, "en", {"legal": long_value, "short": "Hi"})
    open_editor(page, project_id)
    row = page.locator('tr[data-key="legal"]')
    assert row.bounding_box()["height"] < 200
    toggle = cell(page, "legal", "en").get_by_role("button", name="Show all")
    toggle.click()
    assert row.bounding_box()["height"] > 300
    expect(cell(page, "legal", "en").get_by_role("button", name="Show less")).to_be_visible()
    check_accessibility(page)


def test_long_keys_keep_the_file_columns_readable(page):
    project_id = new_project(page)
    long_key = "checkout.payment.method.card.validation.error.message.expired." * 4
    add_keys(page, project_id, "en", {long_key: "Expired", "title": "Hi"}, file_name="payments/checkout")
    page.goto(f"/projects/{project_id}/editor")
    translation_id = page.locator("tr[data-key^='checkout']").get_attribute("data-id")
    call(page, "DELETE", f"/api/projects/{project_id}/translations", {"id": translation_id})
    page.goto(f"/projects/{project_id}/trash")
    row = page.locator("tbody tr").first
    assert row.locator("td .muted").first.bounding_box()["width"] >= 100
    assert row.locator("td").nth(1).bounding_box()["width"] >= 60
    check_accessibility(page)

    page.goto(f"/projects/{project_id}/import")
    document = orjson.dumps({long_key + "again": "New", "short": "Short"})
    page.get_by_label("File", exact=True).set_input_files(
        {"name": "payments.json", "mimeType": "application/json", "buffer": document}
    )
    page.get_by_label("Language", exact=True).fill("en")
    page.get_by_role("button", name="Check the import").click()
    file_name = page.locator("table.stacked tbody tr").first.locator("td code").first
    expect(file_name).to_have_text("payments")
    assert file_name.bounding_box()["height"] < 30, "the file name wraps"


def test_the_history_filters_by_part_of_a_key_and_reverts_to_a_named_value(page):
    project_id = new_project(page)
    add_keys(page, project_id, "en", {"home.title": "Hello", "home_x": "Other", "cart.title": "Cart"})
    body = {"key": "home.title", "fileName": "common", "updates": {"en": {"value": "Hi"}}}
    call(page, "PATCH", f"/api/projects/{project_id}/translations", body)
    page.goto(f"/projects/{project_id}/history")
    page.get_by_label("Key").fill("title")
    page.get_by_role("button", name="Filter").click()
    expect(page.locator("tbody tr")).to_have_count(3)
    page.get_by_label("Key").fill("e_")
    page.get_by_role("button", name="Filter").click()
    expect(page.locator("tbody tr")).to_have_count(1)
    page.get_by_label("Key").fill("home.title")
    page.get_by_role("button", name="Filter").click()
    revert = page.get_by_role("button", name=re.compile(r"^Revert to “Hello”\s+for home\.title in en$"))
    expect(revert.locator(":scope > span").first).to_have_text("“Hello”")
    check_accessibility(page)
    revert.click()
    expect(page.get_by_role("status")).to_have_text("Value reverted.")


def test_keys_with_surrounding_spaces_are_refused_in_the_words_of_the_form(page):
    project_id = new_project(page)
    token = page.locator('meta[name="csrf-token"]').get_attribute("content")
    for body in (
        {"key": " title", "fileName": "common", "values": {}},
        {
            "operation": "bulk-upsert",
            "fileName": "common",
            "languageCode": "en",
            "translations": [{"key": "title ", "value": "x"}],
        },
    ):
        method = "POST" if "values" in body else "PUT"
        response = page.request.fetch(
            f"/api/projects/{project_id}/translations",
            method=method,
            data=body,
            headers={"X-CSRF-Token": token},
        )
        assert response.status == 400
        assert "key" in response.json()["error"]

    open_editor(page, project_id)
    page.get_by_label("New key").fill("title ")
    page.get_by_role("button", name="Add key").click()
    status = page.locator("[data-status]")
    expect(status).to_contain_text("New key: ")
    expect(status).to_contain_text("space")

    add_keys(page, project_id, "en", {"title": "Hello"})
    open_editor(page, project_id)
    cell(page, "title", "de").click()
    box = cell(page, "title", "de").locator("textarea")
    box.fill("x" * 8193)
    box.press("Enter")
    note = cell(page, "title", "de").locator(".cell-note")
    expect(note).to_contain_text("German value")
    expect(note).not_to_contain_text("updates.")


def test_escape_closes_the_account_menu(page):
    new_project(page)
    menu = page.locator("details.menu")
    menu.locator("summary").click()
    expect(menu).to_have_attribute("open", "")
    page.keyboard.press("Escape")
    expect(menu).not_to_have_attribute("open", "")
    expect(menu.locator("summary")).to_be_focused()


def test_remove_buttons_keep_their_word_on_a_phone(new_page):
    other = new_page()
    email = sign_up(other, "Bob")
    page = new_page(viewport={"width": 360, "height": 740})
    sign_up(page, "Ada")
    organization_id = page.url.split("/orgs/")[1].split("/")[0].split("?")[0]
    call(page, "POST", f"/api/organizations/{organization_id}/members", {"email": email, "role": "member"})
    page.goto(f"/orgs/{organization_id}/members")
    remove = page.get_by_role("button", name="Remove")
    expect(remove.first).to_be_visible()
    for button in page.locator("button:visible").all():
        box = button.bounding_box()
        text = button.inner_text().strip()
        assert box["height"] < 50, f"{text!r} wraps: {box}"
        assert box["width"] >= 40, f"{text!r} is crushed: {box}"


def test_the_trash_says_when_items_are_deleted_for_good(page):
    project_id = new_project(page)
    page.goto(f"/projects/{project_id}/trash")
    expect(page.get_by_text("Items are deleted for good 30 days after they were trashed")).to_be_visible()


def test_the_editor_lists_keys_in_natural_order(page):
    project_id = new_project(page)
    add_keys(page, project_id, "en", {"item10": "Ten", "item2": "Two", "item1": "One"})
    open_editor(page, project_id)
    expect(page.locator("#editor-rows tr")).to_have_count(3)
    assert page.locator("#editor-rows tr").evaluate_all("rows => rows.map(row => row.dataset.key)") == [
        "item1",
        "item2",
        "item10",
    ]


def test_a_refused_form_names_its_fields_by_their_labels(page):
    project_id = new_project(page)
    page.goto(f"/projects/{project_id}/languages")
    page.get_by_label("Code", exact=True).fill("not a code")
    page.get_by_role("button", name="Add language").click()
    alert = page.get_by_role("alert")
    expect(alert).to_contain_text("Code: ")
    expect(alert).not_to_contain_text("code: ")
