"""Tasks over REST: who may list, make and change them, keys frozen from a filter or a
selection, progress derived from the values' states, overlaps shown, the assignees'
temporary right (and its end when the task is closed), the report."""

import pytest

from tests.factories import CALLERS, user_id
from tests.tasks.conftest import make_task

# anonymous, unknown_key, revoked_key, other_project_key, read_key, write_key, viewer,
# editor, project_admin, org_admin, org_owner, outsider
READ = (401, 401, 401, 403, 200, 200, 200, 200, 200, 200, 200, 404)
MANAGE = (401, 401, 401, 403, 403, 201, 403, 403, 201, 201, 201, 404)
PATCH = (401, 401, 401, 403, 403, 200, 403, 403, 200, 200, 200, 404)
MINE = (401, 401, 401, 403, 403, 403, 200, 200, 200, 200, 200, 200)


def _url(world, *rest):
    return "/".join([f"/api/projects/{world.project_id}/tasks", *rest])


@pytest.mark.parametrize("caller", CALLERS)
def test_listing_tasks_follows_the_policy(world, keys, as_caller, caller):
    make_task(as_caller("org_owner"), world.project_id)
    assert as_caller(caller).get(_url(world)).status_code == READ[CALLERS.index(caller)]


@pytest.mark.parametrize("caller", CALLERS)
def test_reading_a_task_and_its_report_follow_the_policy(world, keys, as_caller, caller):
    task = make_task(as_caller("org_owner"), world.project_id)["task"]
    assert as_caller(caller).get(_url(world, task["id"])).status_code == READ[CALLERS.index(caller)]
    assert as_caller(caller).get(_url(world, task["id"], "report")).status_code == READ[CALLERS.index(caller)]


@pytest.mark.parametrize("caller", CALLERS)
def test_making_a_task_follows_the_policy(world, keys, as_caller, caller):
    body = {"kind": "review", "language": "de", "title": "Review", "keys": keys[:1]}
    assert as_caller(caller).post(_url(world), json=body).status_code == MANAGE[CALLERS.index(caller)]


@pytest.mark.parametrize("caller", CALLERS)
def test_closing_a_task_follows_the_policy(world, keys, as_caller, caller):
    task = make_task(as_caller("org_owner"), world.project_id)["task"]
    response = as_caller(caller).patch(_url(world, task["id"]), json={"state": "closed"})
    assert response.status_code == PATCH[CALLERS.index(caller)]


@pytest.mark.parametrize("caller", CALLERS)
def test_my_tasks_follow_the_policy(world, as_caller, caller):
    assert as_caller(caller).get("/api/tasks/mine").status_code == MINE[CALLERS.index(caller)]


def test_a_write_key_gives_a_review_task_only_to_people_who_may_review(world, keys, as_caller):
    key = as_caller("write_key")
    body = {"kind": "review", "language": "de", "title": "Review", "keys": keys[:1]}
    editor, admin = "editor@example.test", "project_admin@example.test"
    refused = key.post(_url(world), json={**body, "assigneeEmails": [admin, editor]})
    assert refused.status_code == 403 and refused.json["error"].startswith("assignees.1:")
    made = key.post(_url(world), json={**body, "assigneeEmails": [admin.upper()]})
    assert made.status_code == 201, made.json
    assert [person["email"] for person in made.json["task"]["assignees"]] == [admin]
    # A translate task gives only what the key does itself: anyone of the project.
    translate = key.post(_url(world), json={**body, "kind": "translate", "assigneeEmails": [editor]})
    assert translate.status_code == 201, translate.json
    task_id = made.json["task"]["id"]
    added = key.patch(_url(world, task_id), json={"assignees": [user_id(world.users["editor"])]})
    assert added.status_code == 403 and added.json["error"].startswith("assignees.0:")
    # A review task an owner gave an editor: the key closes it, but reopening it would give
    # the review back.
    owner = as_caller("org_owner")
    given = make_task(owner, world.project_id, kind="review", assignees=[user_id(world.users["editor"])])
    given_url = _url(world, given["task"]["id"])
    assert key.patch(given_url, json={"state": "closed"}).status_code == 200
    reopening = key.patch(given_url, json={"state": "open"})
    assert reopening.status_code == 403 and reopening.json["error"].startswith("assignees.0:")
    assert owner.patch(given_url, json={"state": "open"}).status_code == 200


def test_an_assignee_email_of_nobody_in_the_project_is_named(world, keys, as_caller):
    body = {"kind": "translate", "language": "de", "title": "German", "keys": keys[:1]}
    for email in ("nobody@example.test", "outsider@example.test"):
        response = as_caller("org_owner").post(
            _url(world), json={**body, "assigneeEmails": ["viewer@example.test", email]}
        )
        assert response.status_code == 400 and response.json["error"].startswith("assigneeEmails.1:")


def test_a_filter_freezes_its_keys_when_the_task_is_made(world, keys, as_caller):
    owner = as_caller("org_owner")
    made = make_task(owner, world.project_id, filter={"search": "gree"})
    assert made["keyCount"] == 1
    owner.post(
        f"/api/projects/{world.project_id}/translations",
        json={"key": "greenhouse", "fileName": "common", "values": {"en": "Greenhouse"}},
    )
    task = owner.get(_url(world, made["task"]["id"])).json["task"]
    assert task["keyCount"] == 1 and task["progress"]["keys"] == 1


def test_progress_is_derived_from_the_values(world, keys, as_caller):
    owner = as_caller("org_owner")
    task = make_task(owner, world.project_id)["task"]
    assert task["progress"] == {"keys": 3, "translated": 0, "reviewed": 0, "done": False, "percent": 0}
    for key in ("greeting", "farewell", "title"):
        response = owner.patch(
            f"/api/projects/{world.project_id}/translations",
            json={"key": key, "fileName": "common", "updates": {"de": {"value": key.upper()}}},
        )
        assert response.status_code == 200, response.json
    task = owner.get(_url(world, task["id"])).json["task"]
    assert task["progress"]["translated"] == 3 and task["progress"]["done"] is True


def test_a_key_already_in_an_open_task_of_the_same_kind_is_shown(world, keys, as_caller):
    owner = as_caller("org_owner")
    first = make_task(owner, world.project_id, keys=keys[:2], filter=None)
    body = {"kind": "translate", "language": "de", "title": "Again", "keys": keys}
    second = owner.post(_url(world), json=body).json
    assert second["keyCount"] == 3
    assert {item["translationId"] for item in second["overlaps"]} == set(keys[:2])
    assert {item["taskId"] for item in second["overlaps"]} == {first["task"]["id"]}


def test_a_dry_run_makes_nothing(world, keys, as_caller):
    owner = as_caller("org_owner")
    response = owner.post(
        _url(world), json={"kind": "review", "language": "de", "title": "x", "filter": {}, "dryRun": True}
    )
    assert response.status_code == 200 and response.json["keyCount"] == 3 and response.json["task"] is None
    assert owner.get(_url(world)).json["tasks"] == []


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"kind": "write"}, "kind"),
        ({"language": "fr"}, "language"),
        ({"assignees": ["0190a0a0-0000-7000-8000-000000000000"]}, "assignees.0"),
        ({"keys": ["0190a0a0-0000-7000-8000-000000000000"], "filter": None}, "keys"),
        ({"title": ""}, "title"),
    ],
)
def test_bad_input_names_its_field(world, keys, as_caller, body, field):
    data = {"kind": "translate", "language": "de", "title": "x", "filter": {}, **body}
    data = {name: value for name, value in data.items() if value is not None}
    response = as_caller("org_owner").post(_url(world), json=data)
    assert response.status_code == 400, response.json
    assert field in response.json["error"] or field in str(response.json.get("details"))


def _review(client, world, keys, language="de"):
    return client.post(
        f"/api/projects/{world.project_id}/translations/review",
        json={"fileName": "common", "keys": keys, "languages": [language], "state": "reviewed"},
    )


def test_an_assignee_gets_the_right_only_while_the_task_is_open(world, keys, as_caller):
    owner, editor = as_caller("org_owner"), as_caller("editor")
    for key in ("greeting", "farewell", "title"):
        owner.patch(
            f"/api/projects/{world.project_id}/translations",
            json={"key": key, "fileName": "common", "updates": {"de": {"value": key}}},
        )
    assert _review(editor, world, ["greeting"]).status_code == 403
    task = make_task(
        owner,
        world.project_id,
        kind="review",
        keys=keys[:1],
        filter=None,
        assignees=[user_id(world.users["editor"])],
    )["task"]
    assert _review(editor, world, ["greeting"]).status_code == 200
    # Only the task's keys, only its language.
    assert _review(editor, world, ["farewell"]).status_code == 403
    assert _review(editor, world, ["greeting"], "en").status_code == 403
    assert owner.get(_url(world, task["id"])).json["task"]["progress"]["done"] is True
    owner.patch(_url(world, task["id"]), json={"state": "closed"})
    assert _review(editor, world, ["greeting"]).status_code == 403


def test_a_viewer_assigned_a_translate_task_writes_its_keys_only(world, keys, as_caller):
    owner, viewer = as_caller("org_owner"), as_caller("viewer")
    make_task(owner, world.project_id, keys=keys[:1], filter=None, assignees=[user_id(world.users["viewer"])])

    def write(key, language="de"):
        return viewer.patch(
            f"/api/projects/{world.project_id}/translations",
            json={"key": key, "fileName": "common", "updates": {language: {"value": "Hallo"}}},
        )

    assert write("greeting").status_code == 200
    assert write("farewell").status_code == 403
    assert write("greeting", "en").status_code == 403


def test_the_report_counts_words_per_person(world, keys, as_caller):
    owner, editor = as_caller("org_owner"), as_caller("editor")
    task = make_task(owner, world.project_id)["task"]
    editor.patch(
        f"/api/projects/{world.project_id}/translations",
        json={
            "key": "greeting",
            "fileName": "common",
            "updates": {"de": {"value": "Guten Morgen allerseits"}},
        },
    )
    response = owner.get(_url(world, task["id"], "report"))
    assert response.status_code == 200 and response.mimetype == "text/csv"
    lines = response.get_data(as_text=True).splitlines()
    assert lines[0] == "person,values written,words,values reviewed"
    assert "editor,1,3,0" in lines


def test_my_tasks_lists_open_tasks_assigned_to_me(world, keys, as_caller):
    owner = as_caller("org_owner")
    task = make_task(owner, world.project_id, assignees=[user_id(world.users["editor"])])["task"]
    mine = as_caller("editor").get("/api/tasks/mine").json["tasks"]
    assert [item["id"] for item in mine] == [task["id"]]
    owner.patch(_url(world, task["id"]), json={"state": "closed"})
    assert as_caller("editor").get("/api/tasks/mine").json["tasks"] == []


def test_the_mcp_tool_lists_the_projects_tasks(world, keys, as_caller):
    from tests.mcp.conftest import posted_tool_call

    make_task(as_caller("org_owner"), world.project_id, title="German strings")
    result = posted_tool_call(as_caller("read_key"), "list_tasks", {"state": "open"})
    assert not result.get("isError"), result
    assert [task["title"] for task in result["structuredContent"]["tasks"]] == ["German strings"]
    assert "German strings (translate de, open, 0% done of 3 keys" in result["content"][0]["text"]
