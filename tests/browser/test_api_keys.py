"""A project's API keys in a real browser: a new key is shown once and copied, then revoked."""

import re

from playwright.sync_api import expect

from tests.browser.conftest import check_accessibility, create_project, sign_up


def open_keys(page) -> None:
    page.get_by_role("navigation", name="Project").get_by_role("link", name="API keys").click()
    page.wait_for_url(re.compile(r"/keys$"))


def create_key(page, name: str, scope: str = "write") -> str:
    page.get_by_label("Key name").fill(name)
    page.get_by_label("Scope").select_option(scope)
    page.get_by_role("button", name="Create key").click()
    return page.locator("#new-key").inner_text()


def test_create_a_key_see_it_once_and_copy_it(page):
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    sign_up(page, "Ada")
    project_id = create_project(page, "Storefront")
    open_keys(page)
    expect(page.get_by_text("No keys yet.")).to_be_visible()

    key = create_key(page, "CI deploy")
    assert key.startswith("loko_")
    expect(page.get_by_text("it will not be shown again")).to_be_visible()
    page.get_by_role("button", name="Copy key").click()
    expect(page.get_by_role("button", name="Copied")).to_be_visible()
    assert page.evaluate("() => navigator.clipboard.readText()") == key
    expect(page.get_by_role("row", name=re.compile(r"^CI deploy"))).to_contain_text("Ada")
    check_accessibility(page, "api-keys")

    answer = page.request.get(f"/api/projects/{project_id}", headers={"Authorization": f"Bearer {key}"})
    assert answer.status == 200

    page.goto(f"/projects/{project_id}/keys")
    expect(page.locator("#new-key")).to_have_count(0)
    assert key not in page.content()
    expect(page.get_by_role("row", name=re.compile(r"^CI deploy"))).to_contain_text(key[:12])


def test_revoke_a_key_after_confirming(page):
    sign_up(page, "Grace")
    project_id = create_project(page, "Storefront")
    open_keys(page)
    key = create_key(page, "Nightly import", scope="read")
    row = page.get_by_role("row", name=re.compile(r"^Nightly import"))

    page.once("dialog", lambda dialog: dialog.dismiss())
    row.get_by_role("button", name="Revoke Nightly import").click()
    expect(row).to_be_visible()

    page.once("dialog", lambda dialog: dialog.accept())
    row.get_by_role("button", name="Revoke Nightly import").click()
    expect(page.get_by_role("status")).to_have_text("API key revoked: it no longer works.")
    expect(page.get_by_role("row", name=re.compile(r"^Nightly import"))).to_have_count(0)
    answer = page.request.get(f"/api/projects/{project_id}", headers={"Authorization": f"Bearer {key}"})
    assert answer.status == 401
    check_accessibility(page)


def test_keys_page_reads_well_dark_and_narrow(new_page):
    page = new_page(viewport={"width": 360, "height": 740}, color_scheme="dark")
    sign_up(page, "Margaret")
    create_project(page, "Mobile")
    open_keys(page)
    create_key(page, "Phone build")
    check_accessibility(page, "api-keys-dark-narrow")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 360
