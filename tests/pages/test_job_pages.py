"""A project's Jobs page: its running and recent jobs, the result of a finished import, the
cancellation of a queued one, and who may see or cancel (the rules of /api/projects/{id}/jobs)."""

import orjson
import pytest

from loko.database import unit_of_work
from loko.jobs import service
from loko.jobs.worker import Worker
from tests.pages.conftest import SIGNED_OUT, alert_of, notice_of


def jobs_path(world) -> str:
    return f"/projects/{world.project_id}/jobs"


def cancel_path(world, job_id) -> str:
    return f"/projects/{world.project_id}/jobs/{job_id}/cancel"


def text_of(response) -> str:
    return response.get_data(as_text=True)


@pytest.fixture
def queued_job(app, world) -> str:
    with app.app_context(), unit_of_work():
        return service.enqueue("test-never-runs", project_id=world.project_id).id


def job_state(app, world, job_id) -> str:
    with app.app_context():
        return service.get_job(world.project_id, job_id)["state"]


# --- who may open the page ---------------------------------------------------------------------


@pytest.mark.parametrize("caller", SIGNED_OUT)
def test_jobs_page_sends_signed_out_callers_to_sign_in(page_as, world, caller):
    response = page_as(caller).get(jobs_path(world))
    assert response.status_code == 302
    assert response.location == f"/login?next={jobs_path(world)}"


def test_jobs_page_does_not_reveal_a_project_to_an_outsider(page_as, world, queued_job):
    assert page_as("outsider").get(jobs_path(world)).status_code == 404
    assert page_as("outsider").submit(cancel_path(world, queued_job)).status_code == 404


def test_a_viewer_sees_the_jobs_without_a_cancel_button(page_as, world, queued_job):
    response = page_as("viewer").get(jobs_path(world))
    assert response.status_code == 200
    text = text_of(response)
    assert "<h1>Jobs</h1>" in text
    assert f'id="job-{queued_job}"' in text
    assert ">queued</span>" in text
    assert "/cancel" not in text
    assert f'href="{jobs_path(world)}" aria-current="page">Jobs</a>' in text


def test_a_viewer_cannot_cancel_a_job(app, page_as, world, queued_job):
    response = page_as("viewer").submit(cancel_path(world, queued_job))
    assert response.status_code == 403
    assert alert_of(response)
    assert job_state(app, world, queued_job) == "queued"


@pytest.mark.parametrize("caller", ["editor", "org_owner"])
def test_an_editor_cancels_a_queued_job(app, page_as, world, queued_job, caller):
    client = page_as(caller)
    assert f'action="{cancel_path(world, queued_job)}"' in text_of(client.get(jobs_path(world)))
    response = client.submit(cancel_path(world, queued_job))
    assert response.status_code == 303
    assert response.location == jobs_path(world)
    assert notice_of(client) == "Test never runs job cancelled."
    assert job_state(app, world, queued_job) == "cancelled"
    page = text_of(client.get(jobs_path(world)))
    assert ">cancelled</span>" in page
    assert f'action="{cancel_path(world, queued_job)}"' not in page


def test_cancelling_a_finished_job_is_a_conflict_shown_on_the_page(app, page_as, world, queued_job):
    client = page_as("editor")
    client.submit(cancel_path(world, queued_job))
    response = client.submit(cancel_path(world, queued_job))
    assert response.status_code == 409
    assert "already finished" in alert_of(response)


def test_cancelling_without_the_csrf_token_is_refused(app, page_as, world, queued_job):
    response = page_as("editor").post(cancel_path(world, queued_job))
    assert response.status_code in (400, 403)
    assert job_state(app, world, queued_job) == "queued"


# --- what a job shows ----------------------------------------------------------------------


def test_a_finished_import_shows_its_result_summary(app, page_as, world, as_caller):
    upload = as_caller("write_key").post(
        f"/api/projects/{world.project_id}/import",
        data=orjson.dumps({"page.title": "Title", "page.body": "Body"}),
        query_string={"fileName": "home", "language": "en", "format": "json", "async": "true"},
        headers={"Content-Type": "application/octet-stream"},
    )
    assert upload.status_code == 202, upload.json
    job_id = upload.json["job"]["id"]
    while Worker(app).run_one():
        pass
    text = text_of(page_as("viewer").get(jobs_path(world)))
    assert f'id="job-{job_id}"' in text
    assert "<h3" in text and ">Import · en · home · by " in text
    assert ">succeeded</span>" in text
    assert "<strong>2</strong> new" in text
    assert "Files: home" in text
    assert "<dt>Attempts</dt><dd>1 of " in text


def test_a_running_job_shows_its_progress_and_a_refresh_link(app, page_as, world, queued_job):
    with app.app_context():
        claimed = service.claim("page-test-worker", {"test-never-runs"})
        assert claimed.id == queued_job
        service.report_progress(queued_job, "page-test-worker", 3, 8)
    text = text_of(page_as("viewer").get(jobs_path(world)))
    assert '<progress max="8" value="3"' in text
    assert "3 of 8 done" in text
    assert f'href="{jobs_path(world)}" class="button">Refresh</a>' in text


def test_a_failed_job_shows_its_error(app, page_as, world, queued_job):
    with app.app_context():
        service.claim("page-test-worker", {"test-never-runs"})
        service.retry_or_fail(queued_job, "page-test-worker", "the file does not parse", final=True)
    text = text_of(page_as("viewer").get(jobs_path(world)))
    assert ">failed</span>" in text
    assert "the file does not parse" in text


def test_a_project_without_jobs_says_so(page_as, world):
    assert "No background jobs yet." in text_of(page_as("viewer").get(jobs_path(world)))
