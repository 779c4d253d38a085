"""Accounts and teams in a real browser: a new API key survives a reload without a second key
being made, a new person joins through an invitation link, and a password change."""


from playwright.sync_api import expect

from tests.browser.conftest import create_project, sign_up


def test_reloading_the_page_that_shows_a_new_key_creates_no_other_key(page):
    sign_up(page, "Ada")
    project_id = create_project(page, "Storefront")
    page.goto(f"/projects/{project_id}/keys")
    page.get_by_label("Key name").fill("CI deploy")
    page.get_by_role("button", name="Create key").click()
    key = page.locator("#new-key").inner_text()
    assert key.startswith("loko_")

    page.reload()
    expect(page.get_by_role("heading", name="API keys", exact=True)).to_be_visible()
    keys = page.request.get(f"/api/projects/{project_id}/keys").json()["keys"]
    assert [item["name"] for item in keys] == ["CI deploy"]
    expect(page.locator("#new-key")).to_have_count(0)
    assert key not in page.content()
