"""The project's Pre-translate page: its form (languages, files, search, sources, minimum
score, provider) starts the job, shown on the Jobs page with its report, or estimates it;
errors named; who may open and post it."""

import pytest

from loko.jobs.worker import Worker
from tests.machine.conftest import stand_in
from tests.machine.test_api import add_provider
from tests.machine.test_pretranslate import SOURCE, upsert, url, values
from tests.pages.conftest import SIGNED_OUT, alert_of, notice_of, page_as  # noqa: F401  (fixture)


@pytest.fixture
def config_overrides():
    return {"LOKO_OUTBOUND_ALLOW_PRIVATE": True}


def page_path(world) -> str:
    return f"/projects/{world.project_id}/pretranslate"


@pytest.fixture
def project(world, as_caller):
    owner = as_caller("org_owner")
    for code in ("en", "de", "fr"):
        assert owner.post(url(world, "/languages"), json={"code": code}).status_code == 201
    upsert(owner, world, "en", SOURCE)
    return world


@pytest.fixture
def libre(as_caller, world):
    with stand_in("libretranslate") as running:
        running.provider = add_provider(as_caller, world, running)
        yield running


def text_of(response) -> str:
    return response.get_data(as_text=True)


@pytest.mark.parametrize("caller", ["editor", "project_admin", "org_admin", "org_owner"])
def test_whoever_may_edit_sees_the_form_with_labelled_fields(page_as, project, libre, caller):  # noqa: F811
    response = page_as(caller).get(page_path(project))
    assert response.status_code == 200
    text = text_of(response)
    assert "<h1>Pre-translate</h1>" in text
    for label in ('for="f-search"', 'for="f-provider"', '<legend class="label">Languages</legend>'):
        assert label in text
    # Not the source language (the page's language switcher names English apart).
    assert 'name="languages" value="de"' in text and 'name="languages" value="en"' not in text
    assert libre.provider["name"] in text
    assert 'name="csrf_token"' in text


def test_a_viewer_may_not_open_or_post_it(page_as, project):  # noqa: F811
    assert page_as("viewer").get(page_path(project)).status_code == 403
    assert page_as("viewer").submit(page_path(project), {"languages": "de"}).status_code == 403


def test_an_outsider_does_not_learn_of_the_project(page_as, project):  # noqa: F811
    assert page_as("outsider").get(page_path(project)).status_code == 404


@pytest.mark.parametrize("caller", SIGNED_OUT)
def test_signed_out_callers_are_sent_to_sign_in(page_as, project, caller):  # noqa: F811
    response = page_as(caller).get(page_path(project))
    assert response.status_code == 302
    assert response.location.startswith("/login")


def test_the_tab_shows_for_editors_only(page_as, project):  # noqa: F811
    assert "Pre-translate</a>" in text_of(page_as("editor").get(f"/projects/{project.project_id}/jobs"))
    assert "Pre-translate</a>" not in text_of(page_as("viewer").get(f"/projects/{project.project_id}/jobs"))


def test_the_form_starts_the_job_shown_on_the_jobs_page(app, page_as, project, libre):  # noqa: F811
    browser = page_as("editor")
    response = browser.submit(page_path(project), {"languages": "de", "provider": libre.provider["id"]})
    assert response.status_code == 303
    assert response.location.startswith(f"/projects/{project.project_id}/jobs#job-")
    assert notice_of(browser) == "Pre-translation queued: its progress shows here."
    worker = Worker(app)
    while worker.run_one():
        pass
    jobs = text_of(browser.get(f"/projects/{project.project_id}/jobs"))
    assert "Pre-translation" in jobs
    assert "<strong>4</strong> by machine translation" in jobs
    assert "Undo this pre-translation" in jobs
    assert values(app, project, "de")["title"] == "[de] Inbox"


def test_estimate_first_shows_what_it_would_do_without_a_job(page_as, project, libre):  # noqa: F811
    browser = page_as("editor")
    response = browser.submit(
        page_path(project), {"languages": ["de", "fr"], "provider": libre.provider["id"], "estimate": "true"}
    )
    assert response.status_code == 200
    text = text_of(response)
    assert "What it would do" in text and "Nothing has been written" in text
    assert libre.calls == []
    assert "queued" not in text_of(browser.get(f"/projects/{project.project_id}/jobs"))


def test_a_form_without_a_source_is_refused_with_its_reason(page_as, project):  # noqa: F811
    response = page_as("editor").submit(page_path(project), {"languages": "de"})
    assert response.status_code == 400
    assert alert_of(response) == "sources: choose the memory, a provider, or both."


def test_a_form_without_a_language_is_refused_naming_it(page_as, project, libre):  # noqa: F811
    response = page_as("editor").submit(page_path(project), {"provider": libre.provider["id"]})
    assert response.status_code == 400
    assert "languages" in alert_of(response)


def test_a_post_without_the_csrf_token_is_refused(page_as, project, libre):  # noqa: F811
    response = page_as("editor").post(
        page_path(project), data={"languages": "de", "provider": libre.provider["id"]}
    )
    assert response.status_code in (400, 403)
