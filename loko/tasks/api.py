"""/api/projects/{id}/tasks and /api/tasks/mine: tasks of translating or reviewing a frozen
set of keys in one language."""

from flask import Blueprint, current_app

from loko.auth.identity import current_actor
from loko.http import load_body, load_query
from loko.openapi import documented
from loko.tasks import service
from loko.tasks.schemas import TaskCreate, TaskCreated, TaskEnvelope, TaskList, TaskPatch, TasksQuery

tasks_api = Blueprint("tasks_api", __name__)
TASKS = "/projects/<uuid:project_id>/tasks"
TASK = TASKS + "/<taskId>"
TAGS = ("tasks",)
SESSION = ("session",)


@tasks_api.get(TASKS)
@documented("A project's tasks, open ones first", tags=TAGS, query=TasksQuery, responses={200: TaskList})
def list_tasks(project_id):
    state = load_query(TasksQuery)["state"]
    return TaskList().dump({"tasks": service.list_tasks(current_actor(), str(project_id), state)})


@tasks_api.post(TASKS)
@documented(
    "Make a task over the keys a filter shows, or chosen ones",
    tags=TAGS,
    body=TaskCreate,
    responses={201: TaskCreated, 200: TaskCreated},
    description="The keys are frozen when the task is made. Keys already in another open task of the "
    "same kind and language are taken too and listed in `overlaps`. With `dryRun`, 200 with the count "
    "and the overlaps, and nothing is made. Assignees by id (`assignees`) or e-mail (`assigneeEmails`). "
    "Project admins, the organization's owners and admins, and write API keys; a key's task is in a "
    "language it writes, and its review task goes only to people who may already review that language.",
)
def create_task(project_id):
    data = load_body(TaskCreate)
    made = service.create_task(current_actor(), str(project_id), data)
    return TaskCreated().dump(made), 200 if data.get("dryRun") else 201


@tasks_api.get(TASK)
@documented("A task with its progress", tags=TAGS, responses={200: TaskEnvelope})
def get_task(project_id, taskId):
    return TaskEnvelope().dump({"task": service.get_task(current_actor(), str(project_id), taskId)})


@tasks_api.patch(TASK)
@documented(
    "Change, close or reopen a task",
    tags=TAGS,
    body=TaskPatch,
    responses={200: TaskEnvelope},
    description="Closing a task ends its assignees' temporary right to its keys. Project admins, the "
    "organization's owners and admins, and write API keys (within the same limits as when making one).",
)
def update_task(project_id, taskId):
    changes = load_body(TaskPatch)
    return TaskEnvelope().dump(
        {"task": service.update_task(current_actor(), str(project_id), taskId, changes)}
    )


@tasks_api.get(TASK + "/report")
@documented(
    "Who did how many words of a task, as CSV",
    tags=TAGS,
    responses={200: {"description": "The report.", "content": {"text/csv": {"schema": {"type": "string"}}}}},
)
def task_report(project_id, taskId):
    body = service.report_csv(current_actor(), str(project_id), taskId)
    response = current_app.response_class(body, content_type="text/csv; charset=utf-8")
    response.headers["Content-Disposition"] = f'attachment; filename="task-{taskId}.csv"'
    return response


@tasks_api.get("/tasks/mine")
@documented(
    "The signed-in person's open tasks in every project",
    tags=TAGS,
    auth=SESSION,
    responses={200: TaskList},
    errors=(401, 403),
)
def my_tasks():
    return TaskList().dump({"tasks": service.my_tasks(current_actor())})
