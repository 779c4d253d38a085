"""Pages: a project's task board (open tasks by how far they are, then the closed ones) with
the form that makes a task from the editor's filters, a task's page (progress, assignees,
report, close or reopen) and "My tasks"."""

from flask import Blueprint, request, url_for
from flask_babel import gettext, ngettext

from loko.languages.service import language_rows
from loko.tasks import service
from loko.tasks.schemas import TaskCreate
from loko.web.pages import (
    REFUSED,
    attempt,
    page_user,
    project_page,
    redirect_with_notice,
    render_page,
    submit,
)

tasks_ui = Blueprint("tasks_ui", __name__)
FILTER_FIELDS = {"file": "fileName", "q": "search", "missing": "missing", "issues": "issues"}


def _columns(tasks: list[dict]) -> list[tuple[str, list[dict]]]:
    columns = {"todo": [], "progress": [], "done": [], "closed": []}
    for task in tasks:
        done = task["progress"] or {}
        if task["state"] == "closed":
            columns["closed"].append(task)
        elif done.get("done"):
            columns["done"].append(task)
        elif done.get("translated") if task["kind"] == "translate" else done.get("reviewed"):
            columns["progress"].append(task)
        else:
            columns["todo"].append(task)
    names = {
        "todo": gettext("To do"),
        "progress": gettext("In progress"),
        "done": gettext("Done"),
        "closed": gettext("Closed"),
    }
    return [(names[column], tasks) for column, tasks in columns.items()]


def _filter_of(source) -> dict:
    found = {name: source.get(field) for field, name in FILTER_FIELDS.items() if source.get(field)}
    if source.get("review"):
        found["needsReview"] = True
    return found


@tasks_ui.get("/projects/<uuid:project_id>/tasks")
def board(project_id):
    return _board(str(project_id))


def _board(project_id: str, form: dict | None = None):
    view = project_page(project_id)
    tasks = service.list_tasks(page_user(), project_id)
    people = service.assignable_people(page_user(), project_id) if view.permissions.can_edit_projects else []
    chosen = form or {"filter": _filter_of(request.args), "language": request.args.get("missing") or ""}
    return render_page(
        "tasks/board.html",
        view=view,
        columns=_columns(tasks),
        people=people,
        languages=language_rows(project_id),
        chosen=chosen,
    )


@tasks_ui.post("/projects/<uuid:project_id>/tasks")
def create(project_id):
    project_id = str(project_id)
    actor = page_user()
    form = request.form
    filters = _filter_of(form)
    data = {
        "kind": form.get("kind", ""),
        "language": form.get("language", ""),
        "title": form.get("title", "").strip(),
        "description": form.get("description", ""),
        "assignees": form.getlist("assignees"),
    }
    if form.get("due"):
        data["dueAt"] = form["due"] + "T23:59:59+00:00"

    def make():
        return service.create_task(actor, project_id, TaskCreate().load(data | {"filter": filters}))

    made = attempt(make)
    if made is REFUSED:
        return _board(project_id, {"filter": filters, "language": data["language"]})
    task, overlaps = made["task"], made["overlaps"]
    notice = ngettext("Task made with %(num)s key.", "Task made with %(num)s keys.", made["keyCount"])
    if overlaps:
        notice += " " + ngettext(
            "%(num)s of them is already in another open task of this kind: see below.",
            "%(num)s of them are already in another open task of this kind: see below.",
            len(overlaps),
        )
    return redirect_with_notice(
        url_for(
            "tasks_ui.task_page", project_id=project_id, task_id=task["id"], overlaps=len(overlaps) or None
        ),
        notice,
    )


@tasks_ui.get("/projects/<uuid:project_id>/tasks/<task_id>")
def task_page(project_id, task_id):
    project_id = str(project_id)
    view = project_page(project_id)
    task = service.get_task(page_user(), project_id, task_id)
    overlaps = []
    if request.args.get("overlaps") and task["state"] == "open":
        overlaps = service.overlaps(
            project_id, task["kind"], task["language"], service.task_key_ids(task_id), task_id=task_id
        )
    return render_page(
        "tasks/task.html",
        view=view,
        task=task,
        overlaps=overlaps,
        report=service.report_rows(page_user(), project_id, task_id),
    )


@tasks_ui.post("/projects/<uuid:project_id>/tasks/<task_id>/state")
def change_state(project_id, task_id):
    project_id = str(project_id)
    state = request.form.get("state", "")
    done = submit(
        lambda: service.update_task(page_user(), project_id, task_id, {"state": state}),
        then=url_for("tasks_ui.task_page", project_id=project_id, task_id=task_id),
        notice=gettext("Task closed.") if state == "closed" else gettext("Task reopened."),
    )
    return done if done is not None else task_page(project_id, task_id)


@tasks_ui.get("/tasks")
def mine():
    return render_page("tasks/mine.html", tasks=service.my_tasks(page_user()))
