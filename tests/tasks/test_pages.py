"""The tasks' pages: the board, a task's page, My tasks and the editor's task filter, for
each kind of caller, and a task made from the board's form."""

import pytest

from tests.factories import user_id
from tests.pages.conftest import MEMBERS, SIGNED_OUT
from tests.tasks.conftest import make_task


@pytest.fixture
def task(world, keys, as_caller):
    return make_task(
        as_caller("org_owner"), world.project_id, kind="review", assignees=[user_id(world.users["editor"])]
    )["task"]


def _paths(world, task):
    base = f"/projects/{world.project_id}/tasks"
    return [base, f"{base}/{task['id']}", f"/projects/{world.project_id}/editor?task={task['id']}"]


@pytest.mark.parametrize("caller", SIGNED_OUT)
def test_signed_out_callers_are_sent_to_sign_in(page_as, world, task, caller):
    for path in [*_paths(world, task), "/tasks"]:
        assert page_as(caller).get(path).status_code == 302, path


def test_an_outsider_is_not_shown_the_project(page_as, world, task):
    for path in _paths(world, task):
        assert page_as("outsider").get(path).status_code == 404, path
    assert (
        page_as("outsider").submit(f"/projects/{world.project_id}/tasks", {"title": "x"}).status_code == 404
    )


@pytest.mark.parametrize("caller", MEMBERS)
def test_members_see_the_board_the_task_and_the_filtered_editor(page_as, world, task, caller):
    for path in _paths(world, task):
        response = page_as(caller).get(path)
        assert response.status_code == 200, path
    board = page_as(caller).get(_paths(world, task)[0]).get_data(as_text=True)
    assert task["title"] in board
    assert ("Make the task" in board) == (caller in ("project_admin", "org_admin", "org_owner"))


@pytest.mark.parametrize(("caller", "status"), [("viewer", 403), ("editor", 403), ("project_admin", 303)])
def test_making_a_task_on_the_board_follows_the_policy(page_as, world, keys, caller, status):
    response = page_as(caller).submit(
        f"/projects/{world.project_id}/tasks",
        {"title": "Review German", "kind": "review", "language": "de", "q": "gree"},
    )
    assert response.status_code == status
    if status == 303:
        assert "/tasks/" in response.location


def test_the_editor_filtered_to_a_task_shows_its_keys_only(page_as, world, keys, as_caller):
    made = make_task(as_caller("org_owner"), world.project_id, keys=keys[:1], filter=None)["task"]
    text = (
        page_as("editor").get(f"/projects/{world.project_id}/editor?task={made['id']}").get_data(as_text=True)
    )
    assert "greeting" in text and "farewell" not in text


def test_my_tasks_lists_the_open_tasks_assigned_to_me(page_as, world, task):
    text = page_as("editor").get("/tasks").get_data(as_text=True)
    assert task["title"] in text and f"task={task['id']}" in text
    assert task["title"] not in page_as("viewer").get("/tasks").get_data(as_text=True)


def test_closing_a_task_from_its_page(page_as, world, task):
    path = f"/projects/{world.project_id}/tasks/{task['id']}/state"
    assert page_as("editor").submit(path, {"state": "closed"}).status_code == 403
    assert page_as("project_admin").submit(path, {"state": "closed"}).status_code == 303
    assert "Reopen the task" in page_as("project_admin").get(_paths(world, task)[1]).get_data(as_text=True)
