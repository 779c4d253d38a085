"""The organization's audit log in a real browser: reached from the projects page, it lists
what was just done, filters by area with its GET form, and reads well light and dark, wide
and narrow."""

import re

from playwright.sync_api import expect

from tests.browser.conftest import check_accessibility, create_project, sign_up


def open_audit_log(page) -> None:
    page.get_by_role("link", name=re.compile("^Audit log of")).click()
    page.wait_for_url(re.compile(r"/audit$"))


def test_the_audit_log_lists_and_filters_what_was_done(page):
    sign_up(page, "Ada", organization="Lovelace Ltd")
    organization = page.url
    create_project(page, "Storefront")
    page.goto(organization)
    open_audit_log(page)
    expect(page.get_by_role("heading", name="Audit log of Lovelace Ltd")).to_be_visible()
    expect(page.get_by_role("cell", name="project.created")).to_be_visible()

    page.get_by_label("What").select_option(label="Sign-ins and sign-outs")
    page.get_by_role("button", name="Filter").click()
    page.wait_for_url(re.compile(r"action=auth\."))
    expect(page.get_by_text("No events match the filters.")).to_be_visible()
    check_accessibility(page, "audit-log")


def test_the_audit_log_reads_well_dark_and_narrow(new_page):
    page = new_page(viewport={"width": 360, "height": 740}, color_scheme="dark")
    sign_up(page, "Grace", organization="Hopper Inc")
    organization = page.url
    create_project(page, "Compiler")
    page.goto(organization)
    open_audit_log(page)
    expect(page.get_by_role("cell", name="project.created")).to_be_visible()
    check_accessibility(page, "audit-log-dark-narrow")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 360
