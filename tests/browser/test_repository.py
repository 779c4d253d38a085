"""The repository page in a real browser against a stand-in Gitea (its API and real git on
127.0.0.1): configuring through the form, the webhook's secret shown once, a push opening
the pull request, and a sync previewed then applied."""

import re
import shutil

import orjson
import pytest
from playwright.sync_api import expect

from tests.browser.conftest import check_accessibility, create_project, sign_up
from tests.repohost.conftest import REPOSITORY, TOKEN, stand_in


@pytest.fixture
def host():
    if shutil.which("git") is None:
        pytest.skip("needs Debian's git (apt-get install git)")
    with stand_in("gitea") as running:
        yield running


def import_json(page, project_id: str, document: dict) -> None:
    """Put translations in the project through the import page: ``common`` in English."""
    page.goto(f"/projects/{project_id}/import")
    page.get_by_label("File", exact=True).set_input_files(
        {"name": "common.json", "mimeType": "application/json", "buffer": orjson.dumps(document)}
    )
    page.get_by_label("Language", exact=True).fill("en")
    page.get_by_role("button", name="Check the import").click()
    page.get_by_role("button", name="Confirm import").click()
    expect(page.get_by_role("status")).to_contain_text("Imported:")


def open_repository(page) -> None:
    page.get_by_role("navigation", name="Project").get_by_role("link", name="Repository").click()
    page.wait_for_url(re.compile(r"/repository$"))


def test_configure_push_and_sync_through_the_page(page, host):
    sign_up(page, "Ada")
    project_id = create_project(page, "Storefront")
    import_json(page, project_id, {"title": "Welcome"})
    page.goto(f"/projects/{project_id}")
    open_repository(page)
    expect(page.get_by_role("heading", name="Connect a repository")).to_be_visible()
    check_accessibility(page, "repository-new")

    page.get_by_label("Provider").select_option(label="Gitea")
    page.get_by_label("Repository", exact=True).fill(REPOSITORY)
    page.get_by_label("Token").fill("not-the-token")
    page.get_by_label("API URL (optional)").fill(host.api_url)
    page.get_by_role("button", name="Connect and check the connection").click()
    expect(page.get_by_role("alert")).to_contain_text("invalid username, password or token")
    expect(page.get_by_label("Repository", exact=True)).to_have_value(REPOSITORY)
    expect(page.get_by_label("Token")).to_have_value("")
    check_accessibility(page, "repository-error")

    page.get_by_label("Token").fill(TOKEN)
    page.get_by_role("button", name="Connect and check the connection").click()
    expect(page.get_by_role("heading", name="Webhook")).to_be_visible()
    secret = page.locator("#webhook-secret").inner_text()
    assert len(secret) >= 40
    expect(page.locator("#webhook-url")).to_have_text(
        re.compile(rf"/api/projects/{project_id}/repohost/webhook$")
    )
    expect(page.get_by_text("Copy the secret now: it will not be shown again.")).to_be_visible()
    expect(page.get_by_role("status")).to_have_text(
        "Repository saved: the connection works. Copy the webhook's secret now."
    )
    check_accessibility(page, "repository-webhook")
    page.reload()
    expect(page.get_by_role("heading", name="Connected repository")).to_be_visible()
    expect(page.locator("#webhook-secret")).to_have_count(0)

    page.get_by_role("button", name="Push", exact=True).click()
    expect(page.get_by_role("status")).to_have_text("Pushed: pull request #1 has the project's translations.")
    expect(page.get_by_text(secret)).to_have_count(0)
    link = page.get_by_role("row", name=re.compile("^Pull request Pull request #1")).get_by_role("link")
    expect(link).to_have_attribute("href", f"{host.url}/{REPOSITORY}/pulls/1")
    assert [pull.head for pull in host.repositories[REPOSITORY].pulls] == ["loko/translations"]
    check_accessibility(page, "repository")

    page.get_by_role("button", name="Preview sync").click()
    expect(page.get_by_role("heading", name="What a sync would change")).to_be_visible()
    expect(page.get_by_role("row", name="common title de Titel")).to_be_visible()
    expect(page.locator(".change")).to_contain_text("Welcome")
    expect(page.locator(".change")).to_contain_text("Title")
    check_accessibility(page, "repository-preview")

    page.get_by_role("button", name="Sync now").click()
    expect(page.get_by_role("status")).to_contain_text("2 created, 1 updated, 0 moved to the trash.")
    expect(page.get_by_role("row", name=re.compile(r"^Sync ok 2 created"))).to_be_visible()


def test_the_repository_page_reads_well_dark_and_narrow(new_page):
    page = new_page(viewport={"width": 360, "height": 740}, color_scheme="dark")
    sign_up(page, "Grace")
    project_id = create_project(page, "Storefront")
    page.goto(f"/projects/{project_id}/repository")
    expect(page.get_by_role("heading", name="Repository", exact=True)).to_be_visible()
    check_accessibility(page, "repository-dark-narrow")
