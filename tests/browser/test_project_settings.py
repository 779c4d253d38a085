"""A project's overview and settings in a real browser: changing the details, linking another
project, deleting with a typed confirmation."""

import re

from playwright.sync_api import expect

from tests.browser.conftest import check_accessibility, create_project, sign_up


def api_post(page, path: str, body: dict) -> dict:
    """A JSON API call from the page's own session, as the page's scripts make it."""
    token = page.locator('meta[name="csrf-token"]').get_attribute("content")
    response = page.request.post(path, data=body, headers={"X-CSRF-Token": token})
    assert response.ok, response.text()
    return response.json()


def add_language(page, project_id: str, code: str) -> None:
    api_post(page, f"/api/projects/{project_id}/languages", {"code": code})


def open_projects(page) -> None:
    page.get_by_role("navigation", name="Breadcrumb").get_by_role("link", name="Projects").click()
    page.wait_for_url(re.compile(r"/orgs/"))


def open_settings(page) -> None:
    page.get_by_role("navigation", name="Project").get_by_role("link", name="Settings").click()
    page.wait_for_url(re.compile(r"/settings$"))


def test_overview_shows_languages_files_activity_and_exports(page):
    sign_up(page, "Ada")
    project_id = create_project(page, "Storefront")
    api_post(
        page,
        f"/api/projects/{project_id}/translations",
        {"key": "cart.title", "fileName": "shop", "values": {"en": "Cart", "de": "Warenkorb"}},
    )
    api_post(
        page,
        f"/api/projects/{project_id}/translations",
        {"key": "cart.empty", "fileName": "shop", "values": {"en": "Empty"}},
    )
    page.reload()
    expect(page.get_by_role("progressbar", name="German translated")).to_have_attribute("value", "1")
    expect(page.get_by_role("row", name=re.compile(r"^shop 2"))).to_be_visible()
    expect(page.get_by_role("row", name=re.compile(r"Ada created cart\.empty"))).to_be_visible()
    with page.expect_download() as download:
        page.get_by_role("link", name="PO ZIP of all languages").click()
    assert download.value.suggested_filename.endswith(".zip")
    check_accessibility(page, "overview")


def test_change_settings_and_link_a_project(page):
    sign_up(page, "Grace")
    main_id = create_project(page, "Main")
    add_language(page, main_id, "en")
    open_projects(page)
    brand_id = create_project(page, "Brand")
    add_language(page, brand_id, "en-GB")
    open_settings(page)
    check_accessibility(page, "settings")

    page.get_by_label("Project name").fill("Brand UK")
    page.get_by_label("Emoji").fill("🇬🇧")
    page.get_by_label("Description").fill("British English overrides")
    page.get_by_role("button", name="Save details").click()
    expect(page.get_by_role("status")).to_have_text("Settings saved.")
    expect(page.get_by_role("navigation", name="Breadcrumb")).to_contain_text("Brand UK")

    page.get_by_role("combobox", name="Linked project", exact=True).select_option(main_id)
    page.get_by_label("Target language (of this project)").select_option("en-GB")
    page.get_by_role("button", name="Save link").click()
    expect(page.get_by_role("alert")).to_contain_text("are set together")

    page.get_by_label("Source language (of the linked project)").select_option("en")
    page.get_by_role("button", name="Save link").click()
    expect(page.get_by_role("status")).to_have_text("Linked project saved.")
    expect(page.get_by_text("Now: en-GB inherits en of")).to_contain_text("Main")
    check_accessibility(page)


def test_a_link_back_to_a_linking_project_shows_the_cycle_rule(page):
    sign_up(page, "Edsger")
    main_id = create_project(page, "Main")
    add_language(page, main_id, "en")
    open_projects(page)
    brand_id = create_project(page, "Brand")
    add_language(page, brand_id, "en")
    open_settings(page)
    page.get_by_role("combobox", name="Linked project", exact=True).select_option(main_id)
    page.get_by_label("Source language (of the linked project)").select_option("en")
    page.get_by_label("Target language (of this project)").select_option("en")
    page.get_by_role("button", name="Save link").click()
    expect(page.get_by_role("status")).to_have_text("Linked project saved.")

    page.goto(f"/projects/{main_id}/settings")
    page.get_by_role("combobox", name="Linked project", exact=True).select_option(brand_id)
    page.get_by_label("Source language (of the linked project)").select_option("en")
    page.get_by_label("Target language (of this project)").select_option("en")
    page.get_by_role("button", name="Save link").click()
    expect(page.get_by_role("alert")).to_contain_text("cycle")
    check_accessibility(page)


def test_delete_a_project_after_typing_its_name(page):
    sign_up(page, "Barbara")
    create_project(page, "Old site")
    open_settings(page)
    confirmation = page.get_by_label(re.compile(r"To confirm, type the project's name"))

    confirmation.fill("Old")
    page.get_by_role("button", name="Delete this project").click()
    expect(page.get_by_role("alert")).to_contain_text("type the project's name exactly")
    expect(page).to_have_url(re.compile(r"/settings$"))

    page.get_by_label(re.compile(r"To confirm, type the project's name")).fill("Old site")
    page.get_by_role("button", name="Delete this project").click()
    expect(page).to_have_url(re.compile(r"/orgs/[0-9a-f-]+$"))
    expect(page.get_by_role("status")).to_have_text("Project “Old site” deleted.")
    expect(page.get_by_role("link", name="Old site")).to_have_count(0)


def test_settings_read_well_dark_and_narrow(new_page):
    page = new_page(viewport={"width": 360, "height": 740}, color_scheme="dark")
    sign_up(page, "Margaret")
    create_project(page, "Mobile")
    open_settings(page)
    check_accessibility(page, "settings-dark-narrow")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 360
