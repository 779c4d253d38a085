"""Pages: a project's background jobs (running and recent, newest first, filtered by kind)
and the cancellation of a queued or running one, under the same rules as
/api/projects/{id}/jobs."""

from flask import Blueprint, request, url_for
from sqlalchemy import select

from loko.auth import policy
from loko.extensions import db
from loko.jobs import service
from loko.jobs.models import FINISHED
from loko.jobs.schemas import JobsQuery
from loko.translations.models import Operation
from loko.web.pages import page_query, page_user, project_page, render_page, submit

jobs_ui = Blueprint("jobs_ui", __name__)

# A job's kind in words; a kind not named here is shown as it is.
KIND_WORDS = {
    "import": "Import",
    "repohost-sync": "Repository sync",
    "pretranslate": "Pre-translation",
    "webhook-delivery": "Webhook delivery",
}


def kind_in_words(kind: str) -> str:
    return KIND_WORDS.get(kind, kind.replace("-", " ").capitalize())


def job_title(job: dict) -> str:
    """The job's kind, then what it was about as far as it says: its languages, its files,
    its provider (or the memory) and who started it."""
    about = job["about"] or {}
    result = job["result"] if isinstance(job["result"], dict) else {}
    uploaded = [entry for entry in result.get("files") or () if isinstance(entry, dict)]
    languages = about.get("languages") or sorted(
        {entry["language"] for entry in uploaded if entry.get("language")}
    )
    files = about.get("files") or sorted({entry["fileName"] for entry in uploaded if entry.get("fileName")})
    parts = [kind_in_words(job["kind"])]
    if languages:
        parts.append(", ".join(languages))
    if files:
        parts.append(", ".join(files))
    elif "files" in about:
        parts.append("every file")
    sources = [about["provider"]] if about.get("provider") else []
    if about.get("memory") is not None:
        sources.insert(0, "memory")
    if sources:
        parts.append(" and ".join(sources))
    if job["startedBy"] and job["startedBy"]["name"]:
        parts.append(f"by {job['startedBy']['name']}")
    return " · ".join(parts)


def undone_operations(project_id: str, jobs: list[dict]) -> set[str]:
    """The operations of the listed jobs' results that have been undone: one query."""
    ids = [
        job["result"]["operationId"]
        for job in jobs
        if isinstance(job["result"], dict) and job["result"].get("operationId")
    ]
    if not ids:
        return set()
    return set(
        db.session.scalars(
            select(Operation.id).where(
                Operation.project_id == project_id, Operation.id.in_(ids), Operation.undone_at.is_not(None)
            )
        )
    )


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
    kind = page_query(JobsQuery, request.args, ("kind",)).get("kind")
    jobs = service.list_jobs(project_id, kind)
    return render_page(
        "jobs/jobs.html",
        view=view,
        jobs=jobs,
        kind=kind,
        kinds=service.job_kinds(project_id),
        undone=undone_operations(project_id, jobs),
        finished_states=FINISHED,
        kind_in_words=kind_in_words,
        job_title=job_title,
    )
