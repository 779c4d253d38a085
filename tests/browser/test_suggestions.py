"""Suggestions in the editor and the Pre-translate page, in a real browser: a translator puts
a machine translation into a missing value with one key press and saves it, and it is marked
as needing a review; a pre-translation started from its page shows on the Jobs page. Against
a LibreTranslate stand-in on the loopback, with axe-core checking each page."""

import re

from playwright.sync_api import expect

from tests.browser.conftest import check_accessibility, create_project, sign_up
from tests.browser.test_editor import add_keys, call, open_editor
from tests.machine.conftest import stand_in
from tests.machine.standins import API_KEY


def project_with_provider(page, libre) -> str:
    """Sign up, add the stand-in as the organization's provider, create a project in en and
    de with two keys in en; its id."""
    sign_up(page, "Mira")
    organization_id = re.search(r"/orgs/([0-9a-f-]+)", page.url).group(1)
    call(
        page,
        "POST",
        f"/api/organizations/{organization_id}/machine-providers",
        {"kind": "libretranslate", "name": "Libre", "baseUrl": libre.url, "apiKey": API_KEY},
    )
    project_id = create_project(page, "Storefront")
    for code in ("en", "de"):
        call(page, "POST", f"/api/projects/{project_id}/languages", {"code": code})
    add_keys(page, project_id, "en", {"greeting": "Hello {name}", "title": "Inbox"})
    return project_id


def review_states(page, project_id: str) -> dict:
    answer = call(page, "GET", f"/api/projects/{project_id}/checks?language=de")
    return {row["language"]: row["values"] for row in answer["needsReview"]}


def test_a_machine_suggestion_is_accepted_from_the_keyboard_and_needs_review(page):
    with stand_in("libretranslate") as libre:
        project_id = project_with_provider(page, libre)
        open_editor(page, project_id)
        cell = page.locator('tr[data-key="greeting"] td.v[data-l="de"]')
        cell.focus()
        page.keyboard.press("Enter")
        suggestion = cell.locator(".suggestion")
        expect(suggestion).to_have_count(1)
        expect(suggestion).to_contain_text("Machine translation · Libre")
        expect(suggestion).to_contain_text("[de] Hello {name}")
        check_accessibility(page, "editor-suggestions")

        page.keyboard.press("Alt+1")
        expect(cell.locator("textarea")).to_have_value("[de] Hello {name}")
        page.keyboard.press("Enter")
        expect(cell.locator(".state")).to_have_text("● Needs review")

    stored = call(page, "GET", f"/api/projects/{project_id}/translations")
    assert stored["de"]["common"]["greeting"] == "[de] Hello {name}"
    assert review_states(page, project_id) == {"de": 1}


def test_alt_digit_on_a_value_opens_it_with_that_suggestion(page):
    with stand_in("libretranslate") as libre:
        project_id = project_with_provider(page, libre)
        open_editor(page, project_id)
        cell = page.locator('tr[data-key="title"] td.v[data-l="de"]')
        cell.focus()
        page.keyboard.press("Alt+1")
        expect(cell.locator("textarea")).to_have_value("[de] Inbox")
        page.keyboard.type("!")  # edited: the translator's own value
        page.keyboard.press("Enter")
        expect(cell).to_have_class(re.compile(r"\bsaved\b"))
    assert review_states(page, project_id) == {}


def test_a_pretranslation_starts_from_its_page_and_shows_on_the_jobs_page(page):
    with stand_in("libretranslate") as libre:
        project_id = project_with_provider(page, libre)
        page.goto(f"/projects/{project_id}/pretranslate")
        expect(page.get_by_role("heading", name="Pre-translate", exact=True)).to_be_visible()
        check_accessibility(page, "pretranslate")
        page.get_by_label("German").check()
        page.get_by_label("Machine translation provider").select_option(label="Libre")
        page.get_by_role("button", name="Start").click()
        page.wait_for_url(re.compile(r"/jobs"))
        expect(page.get_by_role("status")).to_have_text("Pre-translation queued: its progress shows here.")
        expect(page.get_by_text("by machine translation")).to_be_visible(timeout=15_000)
        check_accessibility(page, "pretranslate-job")
    stored = call(page, "GET", f"/api/projects/{project_id}/translations")
    assert stored["de"]["common"] == {"greeting": "[de] Hello {name}", "title": "[de] Inbox"}


def test_the_pretranslate_page_and_suggestions_read_well_in_dark_mode(new_page):
    page = new_page(color_scheme="dark")
    with stand_in("libretranslate") as libre:
        project_id = project_with_provider(page, libre)
        page.goto(f"/projects/{project_id}/pretranslate")
        check_accessibility(page, "pretranslate-dark")
        open_editor(page, project_id)
        cell = page.locator('tr[data-key="title"] td.v[data-l="de"]')
        cell.focus()
        page.keyboard.press("Enter")
        expect(cell.locator(".suggestion")).to_contain_text("[de] Inbox")
        check_accessibility(page, "editor-suggestions-dark")
