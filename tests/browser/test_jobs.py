"""A project's Jobs page in a real browser: an import sent as a job shows up with its result."""

import re
import sqlite3
import time
import uuid
from contextlib import closing
from datetime import UTC, datetime
from pathlib import Path

from playwright.sync_api import expect

from tests.browser.conftest import check_accessibility, create_project, sign_up
from tests.browser.test_api_keys import create_key, open_keys

FILE = b'{"checkout.title": "Checkout", "checkout.pay": "Pay now"}'


def import_as_job(page, project_id: str, key: str) -> str:
    """Send an import with ``async=true`` and wait until the server's worker has run it."""
    headers = {"Authorization": f"Bearer {key}", "Content-Type": "application/octet-stream"}
    answer = page.request.post(
        f"/api/projects/{project_id}/import?fileName=shop&language=en&format=json&async=true",
        data=FILE,
        headers=headers,
    )
    assert answer.status == 202, answer.text()
    job_id = answer.json()["job"]["id"]
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        job = page.request.get(f"/api/projects/{project_id}/jobs/{job_id}", headers=headers).json()["job"]
        if job["state"] == "succeeded":
            return job_id
        assert job["state"] in ("queued", "running"), job["error"]
        page.wait_for_timeout(100)
    raise AssertionError(f"the import job {job_id} did not finish")


def open_jobs(page) -> None:
    page.get_by_role("navigation", name="Project").get_by_role("link", name="Jobs").click()
    page.wait_for_url(re.compile(r"/jobs$"))


def test_a_finished_import_job_shows_its_result(page):
    sign_up(page, "Ada")
    project_id = create_project(page, "Storefront")
    open_keys(page)
    key = create_key(page, "CI deploy")
    job_id = import_as_job(page, project_id, key)

    open_jobs(page)
    job = page.locator(f"#job-{job_id}")
    expect(job.get_by_role("heading", name="Import")).to_be_visible()
    expect(job).to_contain_text("succeeded")
    expect(job.get_by_role("list", name="Result of Import")).to_contain_text("2 new")
    expect(job).to_contain_text("Files: shop")
    expect(job.get_by_role("button", name=re.compile("^Cancel"))).to_have_count(0)
    expect(page.get_by_role("link", name="Refresh")).to_have_count(0)
    check_accessibility(page, "jobs")


def test_jobs_page_reads_well_dark_and_narrow(new_page):
    page = new_page(viewport={"width": 360, "height": 740}, color_scheme="dark")
    sign_up(page, "Margaret")
    project_id = create_project(page, "Mobile")
    open_keys(page)
    key = create_key(page, "Phone build")
    import_as_job(page, project_id, key)
    open_jobs(page)
    check_accessibility(page, "jobs-dark-narrow")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 360


def server_database(tmp_path_factory, project_id: str) -> Path:
    """The SQLite file of the real server that holds ``project_id``."""
    for database in tmp_path_factory.getbasetemp().glob("browser-server*/loko.db"):
        with closing(sqlite3.connect(database, timeout=10)) as connection:
            if connection.execute("SELECT 1 FROM projects WHERE id = ?", (project_id,)).fetchone():
                return database
    raise AssertionError(f"no server database holds project {project_id}")


def test_a_running_jobs_progress_follows_without_reloading(page, tmp_path_factory):
    sign_up(page, "Grace")
    project_id = create_project(page, "Storefront")
    job_id = str(uuid.uuid4())
    database_file = server_database(tmp_path_factory, project_id)
    now = datetime.now(UTC).strftime("%Y-%m-%d %H:%M:%S.%f")
    with closing(sqlite3.connect(database_file, timeout=10)) as database, database:
        # A kind no handler runs: the server's worker leaves it as it is.
        database.execute(
            "INSERT INTO jobs (id, kind, project_id, payload, state, attempts, max_attempts, run_after,"
            " progress_done, progress_total, created_at, started_at)"
            " VALUES (?, 'browser-test', ?, '{}', 'running', 1, 5, ?, 1, 4, ?, ?)",
            (job_id, project_id, now, now, now),
        )
    open_jobs(page)
    job = page.locator(f"#job-{job_id}")
    progress = job.get_by_role("progressbar", name="Progress of Browser test")
    expect(progress).to_have_attribute("value", "1")
    expect(job).to_contain_text("1 of 4 done")
    check_accessibility(page, "jobs-running")
    page.evaluate("() => { window.notReloaded = true; }")

    with closing(sqlite3.connect(database_file, timeout=10)) as database, database:
        database.execute("UPDATE jobs SET progress_done = 3 WHERE id = ?", (job_id,))
    expect(job).to_contain_text("3 of 4 done", timeout=10_000)
    assert page.evaluate("() => document.querySelector('progress').value") == 3
    assert page.evaluate("() => window.notReloaded") is True

    with closing(sqlite3.connect(database_file, timeout=10)) as database, database:
        database.execute(
            "UPDATE jobs SET state = 'failed', error = 'gave up', finished_at = ? WHERE id = ?", (now, job_id)
        )
    expect(job).to_contain_text("gave up", timeout=10_000)
    expect(job.get_by_role("progressbar")).to_have_count(0)
