"""Accounts and teams in a real browser: a new API key survives a reload without a second key
being made, a new person joins through an invitation link, and a password change."""

import re

from playwright.sync_api import expect

from tests.browser.conftest import (
    PASSWORD,
    check_accessibility,
    create_project,
    sign_in,
    sign_up,
    unique_email,
)


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


def test_a_new_person_joins_through_an_invitation_link(new_page):
    owner = new_page()
    sign_up(owner, "Ada", organization="Lovelace Labs")
    owner.get_by_role("link", name="Members of Lovelace Labs").click()
    owner.get_by_label("Role of the invited person").select_option("admin")
    owner.get_by_role("button", name="Create invitation link").click()
    link = owner.locator("#new-invitation").inner_text()
    assert "/join?token=" in link
    check_accessibility(owner, "invitation-created")
    owner.reload()
    expect(owner.locator("#new-invitation")).to_have_count(0)
    expect(owner.get_by_role("cell", name="admin", exact=True)).to_be_visible()

    guest = new_page()
    guest.goto(link)
    expect(guest.get_by_role("heading", name="Join Lovelace Labs")).to_be_visible()
    check_accessibility(guest, "invitation-join")
    guest.get_by_label("Your name").fill("Grace")
    guest.get_by_label("Email").fill(unique_email("grace"))
    guest.get_by_label("Password").fill(PASSWORD)
    guest.get_by_role("button", name="Create account and join").click()
    guest.wait_for_url(re.compile(r"/orgs/"))
    expect(guest.get_by_role("status")).to_have_text("Welcome to Loko: you joined Lovelace Labs as admin.")
    expect(guest.get_by_label("Project name")).to_be_visible()

    guest.goto(link)
    expect(guest.get_by_role("heading", name="This invitation cannot be used")).to_be_visible()
    expect(guest.get_by_text("already been used")).to_be_visible()

    owner.reload()
    expect(owner.get_by_role("cell", name="Grace", exact=True)).to_be_visible()
    expect(owner.get_by_text("No pending invitations.")).to_be_visible()


def test_a_password_change_keeps_this_browser_signed_in_and_signs_out_the_others(new_page):
    page = new_page()
    email = sign_up(page, "Ada")
    elsewhere = new_page()
    sign_in(elsewhere, email)

    page.goto("/account")
    page.get_by_label("Current password").fill(PASSWORD)
    page.get_by_label("New password").fill("an entirely new secret")
    page.get_by_role("button", name="Change password").click()
    expect(page.get_by_role("status")).to_have_text(
        "Your password was changed; your other sessions were signed out."
    )
    check_accessibility(page, "account")

    elsewhere.goto("/account")
    elsewhere.wait_for_url(re.compile(r"/login"))

    fresh = new_page()
    fresh.goto("/login")
    fresh.get_by_label("Email").fill(email)
    fresh.get_by_label("Password").fill("an entirely new secret")
    fresh.get_by_role("button", name="Sign in").click()
    fresh.wait_for_url(re.compile(r"/orgs/"))
