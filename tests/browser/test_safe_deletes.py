"""Nothing destructive is permanent in one step, in the browser: a deleted language comes back
from the trash in one click with its values, and an import of one language's file that lacks
keys removes only that language's values and is undone in one click."""

import re

import orjson
from playwright.sync_api import expect

from tests.browser.conftest import check_accessibility, create_project, sign_up


def api(page, method: str, path: str, body: dict | None = None) -> dict:
    token = page.locator('meta[name="csrf-token"]').get_attribute("content")
    response = page.request.fetch(path, method=method, data=body, headers={"X-CSRF-Token": token})
    assert response.ok, response.text()
    return response.json()


def upsert(page, project_id: str, language: str, items: dict, file_name: str = "common") -> None:
    body = {
        "operation": "bulk-upsert",
        "fileName": file_name,
        "languageCode": language,
        "translations": [{"key": key, "value": value} for key, value in items.items()],
    }
    api(page, "PUT", f"/api/projects/{project_id}/translations", body)


def exported(page, project_id: str) -> dict:
    return api(page, "GET", f"/api/projects/{project_id}/translations")


def test_a_deleted_language_comes_back_from_the_trash_in_one_click(page):
    sign_up(page, "Ben")
    project_id = create_project(page, "Storefront")
    upsert(page, project_id, "en", {"title": "Title", "body": "Body"})
    upsert(page, project_id, "ja", {"title": "タイトル", "body": "本文"})
    before = exported(page, project_id)

    page.goto(f"/projects/{project_id}/languages")
    page.get_by_role("link", name=re.compile(r"^Delete Japanese")).click()
    expect(page.locator(".confirm")).to_contain_text("The Trash tab can restore the language")
    check_accessibility(page, "language-delete")
    page.get_by_role("button", name="Delete Japanese", exact=True).click()
    expect(page.get_by_role("status")).to_have_text("Language ja deleted. Restore it from the Trash tab.")
    assert "ja" not in exported(page, project_id)

    page.get_by_role("link", name="Trash", exact=True).click()
    expect(page.get_by_role("heading", name="Deleted files, languages and keys")).to_be_visible()
    expect(page.locator(".operations")).to_contain_text("Language Japanese (ja) deleted by Ben, 2 values")
    check_accessibility(page, "trash-operations")
    page.get_by_role("button", name=re.compile(r"^Restore Language Japanese")).click()
    expect(page.get_by_role("status")).to_have_text(
        "Undone: language ja brought back, 2 values written back."
    )
    assert exported(page, project_id) == before


def test_a_translation_file_upload_removes_only_its_language_and_is_undone_in_one_click(page):
    sign_up(page, "Ada")
    project_id = create_project(page, "Storefront")
    upsert(page, project_id, "en", {f"key{n:02d}": f"English {n}" for n in range(13)})  # the source
    upsert(page, project_id, "de", {f"key{n:02d}": f"Deutsch {n}" for n in range(12)})
    before = exported(page, project_id)

    page.goto(f"/projects/{project_id}/import")
    page.get_by_label("Replace the files").check()
    upload = {f"key{n:02d}": f"Deutsch {n}" for n in range(3)}
    page.get_by_label("File", exact=True).set_input_files(
        {"name": "common.json", "mimeType": "application/json", "buffer": orjson.dumps(upload)}
    )
    page.get_by_label("Language", exact=True).fill("de")
    page.get_by_role("button", name="Check the import").click()
    expect(page.get_by_role("heading", name="Values removed (9)")).to_be_visible()
    expect(page.locator(".import-summary")).to_contain_text("0 to the trash")
    check_accessibility(page, "import-removed")
    page.get_by_role("button", name="Confirm import").click()
    expect(page.get_by_role("status")).to_contain_text("9 values removed")
    after = exported(page, project_id)
    assert after["en"] == before["en"]
    assert sorted(after["de"]["common"]) == ["key00", "key01", "key02"]

    page.get_by_role("button", name="Undo this import").click()
    expect(page.get_by_role("status")).to_have_text("Undone: 9 values written back.")
    assert exported(page, project_id) == before


def test_deleting_a_file_for_good_asks_to_type_its_name(page):
    sign_up(page, "Eve")
    project_id = create_project(page, "Storefront")
    upsert(page, project_id, "en", {"a": "A", "b": "B"}, file_name="legal")
    page.goto(f"/projects/{project_id}/files?delete=legal")
    page.get_by_text("Delete for good instead").click()
    page.get_by_label("Type legal to confirm").fill("lega")
    page.get_by_role("button", name="Delete for good").click()
    expect(page.get_by_role("alert")).to_contain_text("type legal to confirm")
    page.get_by_text("Delete for good instead").click()
    page.get_by_label("Type legal to confirm").fill("legal")
    page.get_by_role("button", name="Delete for good").click()
    expect(page.get_by_role("status")).to_have_text("File legal deleted for good.")
