"""Managing a project's languages and files in the browser, deletions through their
confirmation."""

from playwright.sync_api import expect

from tests.browser.conftest import check_accessibility, create_project, sign_up


def test_a_language_is_added_renamed_and_deleted_through_its_confirmation(page):
    sign_up(page, "Ada")
    project_id = create_project(page, "Storefront")
    page.goto(f"/projects/{project_id}/languages")
    page.get_by_label("Code").fill("de")
    page.get_by_role("button", name="Add language").click()
    expect(page.get_by_role("status")).to_have_text("Language added.")
    expect(page.get_by_role("cell", name="German", exact=True)).to_be_visible()
    check_accessibility(page, "languages")

    page.get_by_role("link", name="Edit German (de)").click()
    page.locator("#edit-name").fill("Deutsch")
    page.get_by_role("button", name="Save language").click()
    expect(page.get_by_role("status")).to_have_text("Language saved.")
    expect(page.get_by_role("cell", name="Deutsch", exact=True)).to_be_visible()

    page.get_by_role("link", name="Delete Deutsch (de)").click()
    expect(page.get_by_role("heading", name="Delete Deutsch (de)?")).to_be_visible()
    expect(page.locator(".confirm")).to_contain_text("This removes 0 values")
    check_accessibility(page)
    page.get_by_role("button", name="Delete Deutsch", exact=True).click()
    expect(page.get_by_role("status")).to_have_text("Language de deleted. Restore it from the Trash tab.")
    expect(page.get_by_text("No languages yet")).to_be_visible()


def test_a_file_is_created_renamed_and_deleted_through_its_confirmation(page):
    sign_up(page, "Grace")
    project_id = create_project(page, "Storefront")
    page.goto(f"/projects/{project_id}/files")
    page.get_by_label("File name").fill("home")
    page.get_by_label("Language codes").fill("en, de")
    page.get_by_role("button", name="Create file").click()
    expect(page.get_by_role("status")).to_have_text("File created.")
    expect(page.get_by_role("row", name="home")).to_contain_text("de en")
    check_accessibility(page, "files")

    page.get_by_role("link", name="Rename home").click()
    page.get_by_label("New file name").fill("pages/home")
    page.get_by_role("button", name="Rename file").click()
    expect(page.get_by_role("status")).to_have_text("File renamed.")

    page.get_by_role("link", name="Delete pages/home").click()
    expect(page.locator(".confirm")).to_contain_text(
        "Its 0 keys with 0 values in 2 languages go to the trash"
    )
    page.get_by_role("link", name="de version of pages/home").click()
    expect(page.get_by_role("heading", name="Remove the de version of pages/home?")).to_be_visible()
    check_accessibility(page)
    page.get_by_role("button", name="Remove the de version").click()
    expect(page.get_by_role("status")).to_have_text(
        "The de version of pages/home deleted. Restore it from the Trash tab."
    )
    expect(page.get_by_role("row", name="pages/home")).not_to_contain_text("de")

    page.get_by_role("link", name="Delete pages/home").click()
    page.get_by_role("button", name="Delete the file").click()
    expect(page.get_by_role("status")).to_have_text("File pages/home deleted. Restore it from the Trash tab.")
    expect(page.get_by_text("No files yet")).to_be_visible()


def test_languages_and_files_read_well_dark_and_narrow(new_page):
    page = new_page(viewport={"width": 360, "height": 740}, color_scheme="dark")
    sign_up(page, "Margaret")
    project_id = create_project(page, "Mobile")
    page.goto(f"/projects/{project_id}/files")
    page.get_by_label("File name").fill("auth/login")
    page.get_by_label("Language codes").fill("en, pt-BR")
    page.get_by_role("button", name="Create file").click()
    page.get_by_role("link", name="Delete auth/login").click()
    check_accessibility(page, "files-dark-narrow")
    page.goto(f"/projects/{project_id}/languages?delete=pt-BR")
    check_accessibility(page, "languages-dark-narrow")
