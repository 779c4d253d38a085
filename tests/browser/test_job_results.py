"""A pre-translation's values not written, listed on the Jobs page with links that open each
in the editor; and the audit log's kind filter, in a real browser."""

import re
import time

from playwright.sync_api import expect

from tests.browser.conftest import check_accessibility, create_project, sign_in, sign_up
from tests.browser.test_editor import add_keys, call, new_project
from tests.machine.conftest import stand_in
from tests.machine.standins import API_KEY


def finished_job(page, project_id: str, job_id: str) -> dict:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        job = call(page, "GET", f"/api/projects/{project_id}/jobs/{job_id}")["job"]
        if job["state"] == "succeeded":
            return job
        assert job["state"] in ("queued", "running"), job["error"]
        page.wait_for_timeout(100)
    raise AssertionError(f"the job {job_id} did not finish")


def organization_of(page) -> str:
    return call(page, "GET", "/api/organizations")["organizations"][0]["id"]


def test_a_refused_value_is_listed_with_a_link_to_it_in_the_editor(page):
    project_id = new_project(page, "Ada")
    add_keys(page, project_id, "en", {"title": "Inbox", "greeting": "Hello {name}"})
    with stand_in("libretranslate") as libre:
        # The provider loses the placeholder of the greeting: that result is refused.
        libre.translator = lambda text, target: (
            text.replace("⟦0⟧", "") if "⟦0⟧" in text else f"[{target}] {text}"
        )
        provider = call(
            page,
            "POST",
            f"/api/organizations/{organization_of(page)}/machine-providers",
            {"kind": "libretranslate", "name": "Libre", "baseUrl": libre.url, "apiKey": API_KEY},
        )["provider"]
        started = call(
            page,
            "POST",
            f"/api/projects/{project_id}/pretranslate",
            {"languages": ["de"], "sources": {"provider": provider["id"]}},
        )
        job_id = started["job"]["id"]
        finished_job(page, project_id, job_id)

    page.goto(f"/projects/{project_id}/jobs")
    job = page.locator(f"#job-{job_id}")
    expect(
        job.get_by_role("heading", name=re.compile(r"^Pre-translation · de · every file · Libre · by "))
    ).to_be_visible()
    job.get_by_text("1 value not written").click()
    listed = job.get_by_role("list", name="Values not written by Pre-translation")
    expect(listed).to_contain_text("in common, de:")
    check_accessibility(page, "jobs-pretranslation-results")

    listed.get_by_role("link", name="greeting").click()
    page.wait_for_url(re.compile(r"/editor\?"))
    expect(page.locator('tr[data-key="greeting"]')).to_be_visible()
    expect(page.locator('tr[data-key="title"]')).to_have_count(0)


def test_the_audit_log_filters_by_kind_with_sign_ins_apart(page):
    email = sign_up(page, "Grace", organization="Hopper Inc")
    project_id = create_project(page, "Compiler")
    call(page, "POST", f"/api/projects/{project_id}/languages", {"code": "de"})
    organization_id = organization_of(page)
    call(
        page,
        "POST",
        f"/api/organizations/{organization_id}/glossary/terms",
        {"language": "en", "term": "file"},
    )
    call(page, "DELETE", f"/api/projects/{project_id}/languages", {"code": "de"})
    call(page, "POST", "/api/auth/logout")
    sign_in(page, email)

    page.goto(f"/orgs/{organization_id}/audit")
    expect(page.get_by_role("cell", name="language.deleted")).to_be_visible()
    expect(page.get_by_role("cell", name="glossary.term_created")).to_be_visible()
    expect(page.get_by_role("cell", name="auth.sign_in")).to_have_count(0)

    page.get_by_label("What").select_option(label="Glossary terms and imports")
    page.get_by_role("button", name="Filter").click()
    page.wait_for_url(re.compile(r"action=glossary\."))
    expect(page.get_by_role("cell", name="glossary.term_created")).to_be_visible()
    expect(page.get_by_role("cell", name="language.deleted")).to_have_count(0)
    check_accessibility(page, "audit-log-by-kind")

    page.get_by_label("What").select_option(label="Sign-ins and sign-outs")
    page.get_by_role("button", name="Filter").click()
    expect(page.get_by_role("cell", name="auth.sign_in", exact=True)).to_be_visible()
    expect(page.get_by_role("cell", name="glossary.term_created")).to_have_count(0)
