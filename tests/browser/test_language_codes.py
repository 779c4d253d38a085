"""Language codes typed on the Languages page are stored in their canonical BCP 47 form:
another casing of an existing code is that code, and an unknown code is refused on the form."""

import re

from playwright.sync_api import expect

from tests.browser.conftest import create_project, sign_up


def add_language(page, code: str) -> None:
    page.get_by_label("Code").fill(code)
    page.get_by_role("button", name="Add language").click()


def test_a_code_in_another_casing_is_the_same_language(page):
    sign_up(page, "Ada")
    project_id = create_project(page, "Storefront")
    page.goto(f"/projects/{project_id}/languages")
    add_language(page, "en")
    expect(page.get_by_role("status")).to_have_text("Language added.")

    add_language(page, "EN")
    expect(page.get_by_role("alert")).to_contain_text("already has the language 'en'")
    expect(page.get_by_label("Code")).to_have_value("EN")
    expect(page.locator("tbody tr")).to_have_count(1)
    expect(page.locator("tbody td code").filter(has_text=re.compile(r"^en$"))).to_be_visible()


def test_a_code_is_stored_in_its_canonical_casing(page):
    sign_up(page, "Grace")
    project_id = create_project(page, "Storefront")
    page.goto(f"/projects/{project_id}/languages")
    add_language(page, "pt-br")
    expect(page.get_by_role("status")).to_have_text("Language added.")
    expect(page.locator("tbody td code").filter(has_text=re.compile(r"^pt-BR$"))).to_be_visible()
    expect(page.locator("tbody td code").filter(has_text=re.compile(r"^pt-br$"))).to_have_count(0)


def test_an_unknown_code_is_refused_on_the_form(page):
    sign_up(page, "Linus")
    project_id = create_project(page, "Storefront")
    page.goto(f"/projects/{project_id}/languages")
    add_language(page, "xx-bogus")
    expect(page.get_by_role("alert")).to_contain_text("Code: 'xx-bogus' is not a known language code")
    expect(page.get_by_label("Code")).to_have_value("xx-bogus")
    expect(page.get_by_text("No languages yet")).to_be_visible()
