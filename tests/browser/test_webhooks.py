"""A project's Webhooks page in a real browser: an admin adds an endpoint (its secret shown
once), sees a change delivered to it, delivers it again and deletes it; viewers and editors
have neither the tab nor the page."""

import re
import time

import pytest
from playwright.sync_api import expect
from standardwebhooks.webhooks import Webhook

from tests.browser.conftest import check_accessibility, create_project, sign_up
from tests.browser.test_editor import call
from tests.webhooks.conftest import Receiver


def open_webhooks(page) -> None:
    page.get_by_role("navigation", name="Project").get_by_role("link", name="Webhooks").click()
    page.wait_for_url(re.compile(r"/webhooks$"))


def add_webhook(page, url: str, events: tuple[str, ...]) -> str:
    """Fill and send the form; returns the secret the answer shows."""
    page.get_by_label("Endpoint URL").fill(url)
    page.get_by_label("Description").fill("Deploy previews")
    for label in ("Values changed", "Import finished", "Key created", "Job finished"):
        checkbox = page.get_by_role("checkbox", name=re.compile(f"^{label}"))
        checkbox.set_checked(label in events)
    page.get_by_role("button", name="Add webhook").click()
    expect(page.get_by_role("heading", name="Webhook added")).to_be_visible()
    return page.locator("#webhook-secret").inner_text()


def wait_for_requests(endpoint: Receiver, count: int) -> None:
    deadline = time.monotonic() + 20
    while len(endpoint.requests) < count:
        assert time.monotonic() < deadline, f"{len(endpoint.requests)} of {count} deliveries arrived"
        time.sleep(0.05)


def delivery_rows(page, url: str):
    return (
        page.get_by_role("table", name=f"Last deliveries to {url}")
        .get_by_role("row")
        .filter(has=page.get_by_role("cell"))
    )


def reload_until_rows(page, url: str, count: int) -> None:
    """The page does not follow deliveries by itself: reload it until ``count`` are logged."""
    deadline = time.monotonic() + 20
    while True:
        page.reload()
        rows = page.get_by_role("table", name=f"Last deliveries to {url}")
        if rows.count() and delivery_rows(page, url).count() >= count:
            return
        assert time.monotonic() < deadline, f"fewer than {count} deliveries shown"
        page.wait_for_timeout(200)


def test_an_admin_adds_an_endpoint_sees_a_delivery_redelivers_it_and_deletes_it(page):
    sign_up(page, "Ada")
    project_id = create_project(page, "Storefront")
    call(page, "POST", f"/api/projects/{project_id}/languages", {"code": "en"})
    open_webhooks(page)
    expect(page.get_by_text("No webhooks yet.")).to_be_visible()

    with Receiver() as endpoint:
        secret = add_webhook(page, endpoint.url, events=("Values changed", "Job finished"))
        assert secret.startswith("whsec_")
        expect(page.get_by_text("it will not be shown again")).to_be_visible()
        check_accessibility(page, "webhooks-added")
        page.get_by_role("link", name="Done").click()
        expect(page.get_by_role("heading", name=endpoint.url)).to_be_visible()
        expect(page.get_by_text("Events: Values changed, Job finished")).to_be_visible()
        assert secret not in page.content()

        translation = {"key": "checkout.title", "fileName": "shop", "values": {"en": "Checkout"}}
        call(page, "POST", f"/api/projects/{project_id}/translations", translation)
        wait_for_requests(endpoint, 1)
        headers, body = endpoint.requests[0]
        message = Webhook(secret).verify(body, headers)
        assert message["type"] == "values.changed"
        reload_until_rows(page, endpoint.url, 1)
        (row,) = delivery_rows(page, endpoint.url).all()
        expect(row).to_contain_text("Values changed")
        expect(row).to_contain_text("Delivered (200)")
        check_accessibility(page, "webhooks-delivered")

        again = re.compile(r"^Deliver again the Values changed message of .+ UTC$")
        row.get_by_role("button", name=again).click()
        expect(page.get_by_role("status")).to_have_text("The message is queued to be delivered again.")
        wait_for_requests(endpoint, 2)
        again_headers, again_body = endpoint.requests[1]
        assert (again_headers["webhook-id"], again_body) == (headers["webhook-id"], body)
        reload_until_rows(page, endpoint.url, 2)

    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Delete").click()
    expect(page.get_by_role("status")).to_have_text("Webhook deleted, with its deliveries.")
    expect(page.get_by_text("No webhooks yet.")).to_be_visible()
    assert call(page, "GET", f"/api/projects/{project_id}/webhooks")["webhooks"] == []


@pytest.mark.parametrize("role", ["viewer", "editor"])
def test_a_viewer_or_editor_has_no_webhooks_tab_and_no_controls(new_page, role):
    owner = new_page()
    sign_up(owner, "Ada")
    project_id = create_project(owner, "Storefront")
    member = new_page()
    sign_up(member, "Vera")
    user = call(member, "GET", "/api/auth/me")["user"]
    organization_id = call(owner, "GET", "/api/auth/me")["organizations"][0]["id"]
    joining = {"email": user["email"], "role": "member"}
    call(owner, "POST", f"/api/organizations/{organization_id}/members", joining)
    call(owner, "PUT", f"/api/projects/{project_id}/members/{user['id']}", {"role": role})

    member.goto(f"/projects/{project_id}")
    tabs = member.get_by_role("navigation", name="Project")
    expect(tabs.get_by_role("link", name="Jobs")).to_be_visible()
    expect(tabs.get_by_role("link", name="Webhooks")).to_have_count(0)
    answer = member.goto(f"/projects/{project_id}/webhooks")
    assert answer.status == 403
    expect(member.get_by_role("button", name="Add webhook")).to_have_count(0)
    expect(member.get_by_label("Endpoint URL")).to_have_count(0)
    check_accessibility(member)


def test_webhooks_page_reads_well_dark_and_narrow(new_page):
    page = new_page(viewport={"width": 360, "height": 740}, color_scheme="dark")
    sign_up(page, "Margaret")
    create_project(page, "Mobile")
    open_webhooks(page)
    long_url = "https://hooks.example.test/a-rather-long-path/for/the-mobile-app"
    add_webhook(page, long_url, events=("Job finished",))
    check_accessibility(page, "webhooks-dark-narrow")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 360
