"""A project's Releases page in a real browser: an owner names two releases with a change
between them, compares them on the page, and sees the freeze of one announced on the
overview."""

import re
from datetime import UTC, datetime, timedelta

from playwright.sync_api import expect

from tests.browser.conftest import check_accessibility, create_project, sign_up
from tests.browser.test_editor import call


def open_releases(page) -> None:
    page.get_by_role("navigation", name="Project").get_by_role("link", name="Releases").click()
    page.wait_for_url(re.compile(r"/releases$"))


def create_release(page, name: str, **fields: str) -> None:
    page.get_by_label("Name", exact=True).fill(name)
    for label, value in fields.items():
        page.get_by_label(label, exact=True).fill(value)
    page.get_by_role("button", name="Create release").click()
    expect(page.get_by_role("status")).to_have_text(f"Release {name} created.")


def test_an_owner_creates_two_releases_and_compares_them(page):
    sign_up(page, "Ada")
    project_id = create_project(page, "Storefront")
    call(page, "POST", f"/api/projects/{project_id}/languages", {"code": "en"})
    base = f"/api/projects/{project_id}/translations"
    call(page, "POST", base, {"key": "checkout.title", "fileName": "shop", "values": {"en": "Checkout"}})
    open_releases(page)
    expect(page.get_by_text("No releases yet.")).to_be_visible()
    create_release(page, "v1.0", Description="First")
    change = {"key": "checkout.title", "fileName": "shop", "updates": {"en": {"value": "Check out"}}}
    call(page, "PATCH", base, change)
    call(page, "POST", base, {"key": "cart.empty", "fileName": "shop", "values": {"en": "Empty"}})
    until = (datetime.now(UTC) + timedelta(days=2)).strftime("%Y-%m-%dT%H:%M:%SZ")
    create_release(
        page, "v1.1", **{"String freeze from": "2020-01-01T00:00:00Z", "String freeze until": until}
    )
    expect(page.get_by_role("row", name=re.compile("v1.1"))).to_contain_text("Holds")
    check_accessibility(page, "releases")

    page.get_by_label("From", exact=True).select_option("v1.0")
    page.get_by_label("With", exact=True).select_option("v1.1")
    page.get_by_role("button", name="Compare").click()
    expect(page.get_by_role("heading", name="v1.0 → v1.1")).to_be_visible()
    expect(page.locator("#keys-summary")).to_have_text("1 added, 0 removed.")
    expect(page.get_by_role("heading", name="en: 1 added, 0 removed, 1 changed")).to_be_visible()
    row = page.get_by_role("row").filter(has_text="checkout.title")
    expect(row).to_contain_text("Checkout")
    expect(row).to_contain_text("Check out")
    check_accessibility(page, "releases-compare")

    page.get_by_role("navigation", name="Project").get_by_role("link", name="Overview").click()
    expect(page.locator("#string-freeze")).to_contain_text("String freeze for the release v1.1 until")
