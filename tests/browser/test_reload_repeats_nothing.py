"""Reloading the page a form led to repeats nothing: after adding a webhook in a real browser,
its secret is shown once, and a reload neither adds a second endpoint nor shows the secret
again."""

import re

from playwright.sync_api import expect

from tests.browser.conftest import create_project, sign_up
from tests.browser.test_editor import call
from tests.browser.test_webhooks import add_webhook, open_webhooks


def test_reloading_after_adding_a_webhook_adds_no_second_one_and_hides_the_secret(page):
    sign_up(page, "Ada")
    project_id = create_project(page, "Storefront")
    organization_id = call(page, "GET", "/api/auth/me")["organizations"][0]["id"]
    open_webhooks(page)
    url = "https://hooks.example.test/deploy"

    secret = add_webhook(page, url, events=("Values changed",))
    assert secret.startswith("whsec_")
    page.reload()

    expect(page.get_by_role("heading", name=url)).to_be_visible()
    expect(page.get_by_role("heading", name="Webhook added")).to_have_count(0)
    assert secret not in page.content()
    hooks = call(page, "GET", f"/api/projects/{project_id}/webhooks")["webhooks"]
    assert [hook["url"] for hook in hooks] == [url]
    audit = call(page, "GET", f"/api/organizations/{organization_id}/audit?action=webhook.")["events"]
    assert [event["action"] for event in audit] == ["webhook.created"]
    assert re.search(r"/webhooks$", page.url)
