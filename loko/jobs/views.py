"""Pages: a project's background jobs (running and recent, newest first) and the
cancellation of a queued or running one, under the same rules as /api/projects/{id}/jobs."""

from flask import Blueprint, url_for

from loko.auth import policy
from loko.jobs import service
from loko.jobs.models import FINISHED
from loko.web.pages import page_user, project_page, render_page, submit

jobs_ui = Blueprint("jobs_ui", __name__)

# A job's kind in words; a kind not named here is shown as it is.
KIND_WORDS = {
    "import": "Import",
    "repohost-sync": "Repository sync",
    "pretranslate": "Pre-translation",
}


def kind_in_words(kind: str) -> str:
    return KIND_WORDS.get(kind, kind.replace("-", " ").capitalize())


@jobs_ui.get("/projects/<uuid:project_id>/jobs")
def jobs(project_id):
    return jobs_page(str(project_id))


@jobs_ui.post("/projects/<uuid:project_id>/jobs/<job_id>/cancel")
def cancel(project_id, job_id):
    actor, project_id = page_user(), str(project_id)

    def cancel_job():
        policy.require_permission(actor, project_id, policy.CANCEL_JOBS)
        return service.cancel(project_id, job_id)

    done = submit(
        cancel_job,
        then=url_for("jobs_ui.jobs", project_id=project_id),
        notice=lambda job: f"{kind_in_words(job['kind'])} job cancelled.",
    )
    return done if done is not None else jobs_page(project_id)


def jobs_page(project_id: str):
    view = project_page(project_id)
    return render_page(
        "jobs/jobs.html",
        view=view,
        jobs=service.list_jobs(project_id),
        finished_states=FINISHED,
        kind_in_words=kind_in_words,
    )
