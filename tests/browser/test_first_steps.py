"""A new user's first minutes: the start page leads to sign-up, then to a project."""

import re

from playwright.sync_api import expect

from tests.browser.conftest import check_accessibility, create_project, sign_in, sign_up, unique_email


def test_sign_up_leads_to_the_projects_page(page):
    page.goto("/signup")
    check_accessibility(page, "signup")
    sign_up(page, "Ada")
    expect(page.get_by_role("heading", name="Projects")).to_be_visible()
    expect(page.get_by_role("status")).to_have_text("Welcome to Loko.")
    check_accessibility(page, "projects")


def test_a_new_project_opens_on_its_overview(page):
    sign_up(page, "Grace")
    create_project(page, "Storefront")
    expect(page.get_by_role("heading", name="Storefront")).to_be_visible()
    check_accessibility(page, "overview")


def test_sign_in_page_refuses_a_wrong_password_with_a_message(page):
    email = sign_up(page, "Linus")
    page.context.clear_cookies()
    page.goto("/login")
    page.get_by_label("Email").fill(email)
    page.get_by_label("Password").fill("not the password")
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("alert")).to_have_text("Invalid email or password.")
    check_accessibility(page, "login-error")


def test_sign_out_from_the_account_menu(page):
    email = sign_up(page, "Barbara")
    page.locator("summary", has_text="Barbara").click()
    page.get_by_role("button", name="Sign out").click()
    expect(page).to_have_url(re.compile(r"/login$"))
    expect(page.get_by_role("status")).to_have_text("Signed out.")
    sign_in(page, email)
    expect(page.get_by_role("heading", name="Projects")).to_be_visible()


def test_markup_in_names_shows_as_text(page):
    sign_up(page, "<img src=x onerror=alert(1)>", email=unique_email("xss"))
    create_project(page, "<script>x</script>")
    expect(page.get_by_role("heading", name="<script>x</script>")).to_be_visible()
    assert page.locator("script:text('x')").count() == 0


def test_pages_read_well_dark_and_narrow(new_page):
    page = new_page(viewport={"width": 360, "height": 740}, color_scheme="dark")
    sign_up(page, "Margaret")
    check_accessibility(page, "projects-dark-narrow")
    create_project(page, "Mobile")
    check_accessibility(page, "overview-dark-narrow")
