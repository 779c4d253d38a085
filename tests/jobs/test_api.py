"""A project's jobs over REST: the asynchronous import (202, then the same answer as the
synchronous one), reading a job, cancelling it, and who may do either."""

import orjson
import pytest

from loko.database import unit_of_work
from loko.jobs import service
from tests.factories import CALLERS, run_jobs
from tests.translation_factories import project_api


def upload(api, data: bytes, **params):
    params = {key: ("true" if value is True else value) for key, value in params.items()}
    return api.client.post(
        api.url("/import"),
        data=data,
        query_string=params,
        headers={"Content-Type": "application/octet-stream"},
    )


FILE = orjson.dumps({"title": "Title", "body": "Body"})
OPTIONS = {"fileName": "home", "language": "en", "format": "json"}


def test_an_async_import_answers_202_and_its_result_is_the_synchronous_answer(app):
    queued_api, direct_api = project_api(app), project_api(app)
    response = upload(queued_api, FILE, **OPTIONS, **{"async": True})
    assert response.status_code == 202, response.json
    job = response.json["job"]
    assert (job["kind"], job["state"], job["result"]) == ("import", "queued", None)
    assert queued_api.export() == {}

    assert run_jobs(app) == 1
    done = queued_api.client.get(queued_api.url(f"/jobs/{job['id']}"))
    assert done.status_code == 200
    assert done.json["job"]["state"] == "succeeded"
    assert done.json["job"]["progress"] == {"done": 0, "total": 1}

    direct = upload(direct_api, FILE, **OPTIONS)
    assert direct.status_code == 200
    result = done.json["job"]["result"]
    assert result["operationId"] and direct.json["operationId"]
    assert {**result, "operationId": None} == {**direct.json, "operationId": None}
    assert queued_api.export() == direct_api.export()


def test_an_async_import_of_a_broken_file_fails_at_once_with_the_refusal(app):
    api = project_api(app)
    job = upload(api, b"{not json", **OPTIONS, **{"async": True}).json["job"]
    run_jobs(app)
    failed = api.client.get(api.url(f"/jobs/{job['id']}")).json["job"]
    assert (failed["state"], failed["attempts"]) == ("failed", 1)
    assert "file" in failed["error"]


def test_an_async_import_without_edit_rights_is_refused_at_once(app, world, as_caller):
    response = as_caller("read_key").post(
        f"/api/projects/{world.project_id}/import",
        data=FILE,
        query_string={**OPTIONS, "async": "true"},
        headers={"Content-Type": "application/octet-stream"},
    )
    assert response.status_code == 403
    assert as_caller("editor").get(f"/api/projects/{world.project_id}/jobs").json["jobs"] == []


def test_the_jobs_list_shows_the_projects_jobs_newest_first(app):
    api = project_api(app)
    first = upload(api, FILE, **OPTIONS, **{"async": True}).json["job"]["id"]
    second = upload(api, FILE, **OPTIONS, **{"async": True}).json["job"]["id"]
    listed = api.client.get(api.url("/jobs"))
    assert listed.status_code == 200
    assert {job["id"] for job in listed.json["jobs"]} == {first, second}


def test_a_queued_job_is_cancelled_and_never_runs(app):
    api = project_api(app)
    job = upload(api, FILE, **OPTIONS, **{"async": True}).json["job"]
    cancelled = api.client.post(api.url(f"/jobs/{job['id']}/cancel"))
    assert cancelled.status_code == 200
    assert cancelled.json["job"]["state"] == "cancelled"
    assert run_jobs(app) == 0
    assert api.export() == {}
    assert api.client.post(api.url(f"/jobs/{job['id']}/cancel")).status_code == 409


def test_another_projects_job_is_not_found(app, world, as_caller):
    other = project_api(app)
    job = upload(other, FILE, **OPTIONS, **{"async": True}).json["job"]
    response = as_caller("org_owner").get(f"/api/projects/{world.project_id}/jobs/{job['id']}")
    assert response.status_code == 404


# Who may see (canViewTranslations) and cancel (canEditTranslations) a project's jobs, in the
# order of CALLERS: anonymous, unknown_key, revoked_key, other_project_key, read_key,
# write_key, viewer, editor, project_admin, org_admin, org_owner, outsider.
VIEW = (401, 401, 401, 403, 200, 200, 200, 200, 200, 200, 200, 404)
CANCEL = (401, 401, 401, 403, 403, 200, 403, 200, 200, 200, 200, 404)


@pytest.fixture
def queued_job(app, world) -> str:
    with app.app_context(), unit_of_work():
        return service.enqueue("test-never-runs", project_id=world.project_id).id


@pytest.mark.parametrize(("caller", "status"), list(zip(CALLERS, VIEW, strict=True)))
def test_viewing_a_projects_jobs_needs_view_translations(world, as_caller, queued_job, caller, status):
    base = f"/api/projects/{world.project_id}/jobs"
    assert as_caller(caller).get(base).status_code == status
    assert as_caller(caller).get(f"{base}/{queued_job}").status_code == status


@pytest.mark.parametrize(("caller", "status"), list(zip(CALLERS, CANCEL, strict=True)))
def test_cancelling_a_job_needs_edit_translations(world, as_caller, queued_job, caller, status):
    response = as_caller(caller).post(f"/api/projects/{world.project_id}/jobs/{queued_job}/cancel")
    assert response.status_code == status
