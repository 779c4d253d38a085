"""The machine translation section of an organization's settings, in a real browser: adding
a provider (a LibreTranslate stand-in on the loopback), testing it, and the page's
accessibility."""

import re

from playwright.sync_api import expect

from tests.browser.conftest import check_accessibility, sign_up
from tests.machine.conftest import stand_in
from tests.machine.standins import API_KEY


def test_add_and_test_a_provider(page):
    sign_up(page, "Lin", organization="Lingua")
    page.get_by_role("link", name="Settings of Lingua").click()
    page.wait_for_url(re.compile(r"/settings$"))
    expect(page.get_by_role("heading", name="Machine translation")).to_be_visible()
    check_accessibility(page, "organization-machine-translation")

    with stand_in("libretranslate") as libre:
        page.get_by_label("Kind").select_option("libretranslate")
        page.get_by_label("Provider name", exact=True).fill("Libre")
        page.get_by_label("Address", exact=True).fill(libre.url)
        page.get_by_label("API key", exact=True).fill(API_KEY)
        page.get_by_label("Per language, one a line").last.fill("de: Use the informal du.")
        page.get_by_role("button", name="Add provider").click()
        expect(page.get_by_role("status")).to_have_text("Provider added.")
        expect(page.get_by_role("cell", name="Libre", exact=True)).to_be_visible()
        expect(page.get_by_text(API_KEY)).to_have_count(0)

        page.get_by_role("button", name="Test Libre").click()
        expect(page.get_by_role("status")).to_have_text(
            "Test passed: “Hello {name}” came back as “[de] Hello {name}”."
        )
    check_accessibility(page)
