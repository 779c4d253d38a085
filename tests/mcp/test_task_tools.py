"""The task tools (create_task, close_task, reopen_task) through the official MCP SDK client
against a real server: the same service and policy as the REST API, a read key refused."""

import pytest

from tests.mcp.test_http import call, post  # noqa: F401  (fixtures)
from tests.mcp.test_sdk_clients import connect, era, rest, run  # noqa: F401  (fixture)

pytestmark = pytest.mark.slow


def test_a_task_is_made_closed_and_reopened_through_the_sdk(app, live_server, mcp_world, era):  # noqa: F811
    async def exercise():
        async with connect(era, live_server, mcp_world.keys["write_key"]) as client:
            listing = {tool.name: tool for tool in (await client.list_tools()).tools}
            made = await client.call_tool(
                "create_task",
                {
                    "kind": "translate",
                    "language": "de",
                    "title": "German login",
                    "filter": {"fileName": "auth/login"},
                    "assigneeEmails": ["editor@example.test"],
                    "dueAt": "2026-12-31T23:59:59+00:00",
                },
            )
            assert not made.is_error, made.content
            task_id = made.structured_content["task"]["id"]
            closed = await client.call_tool("close_task", {"taskId": task_id})
            assert not closed.is_error, closed.content
            open_after_close = rest(app, mcp_world, "/tasks?state=open")["tasks"]
            reopened = await client.call_tool("reopen_task", {"taskId": task_id})
            assert not reopened.is_error, reopened.content
            return listing, made, closed, open_after_close, reopened

    listing, made, closed, open_after_close, reopened = run(exercise)
    schema = listing["create_task"].input_schema
    assert {"kind", "language", "title"} <= set(schema["required"])
    assert schema["properties"]["kind"]["enum"] == ["translate", "review"]
    assert listing["close_task"].input_schema["required"] == ["taskId"]
    assert listing["close_task"].annotations.read_only_hint is False
    task = made.structured_content["task"]
    assert (task["kind"], task["language"], task["keyCount"], task["state"]) == ("translate", "de", 2, "open")
    assert [person["email"] for person in task["assignees"]] == ["editor@example.test"]
    assert task["createdBy"]["name"] == "write_key"
    assert "over 2 keys, assigned to editor" in made.content[0].text
    assert closed.structured_content["task"]["state"] == "closed"
    assert "is closed" in closed.content[0].text
    assert open_after_close == []
    assert reopened.structured_content["task"]["state"] == "open"
    stored = rest(app, mcp_world, f"/tasks/{task['id']}")["task"]
    assert stored["state"] == "open" and stored["dueAt"].startswith("2026-12-31T23:59:59")


def test_a_read_key_lists_tasks_but_neither_makes_nor_closes_them(call):  # noqa: F811
    arguments = {"kind": "review", "language": "de", "title": "Review", "filter": {}}
    refused = call("create_task", arguments, "read_key")
    assert refused["isError"] and "canManageTasks" in refused["content"][0]["text"]
    made = call("create_task", arguments)
    assert not made["isError"], made
    task_id = made["structuredContent"]["task"]["id"]
    assert not call("list_tasks", {"state": "all"}, "read_key")["isError"]
    closing = call("close_task", {"taskId": task_id}, "read_key")
    assert closing["isError"] and "canManageTasks" in closing["content"][0]["text"]
    assert call("list_tasks", {"state": "open"})["structuredContent"]["tasks"][0]["id"] == task_id


def test_a_write_key_gives_a_review_task_only_to_people_who_may_review(call):  # noqa: F811
    arguments = {"kind": "review", "language": "de", "title": "Review", "filter": {}}
    refused = call("create_task", {**arguments, "assigneeEmails": ["editor@example.test"]})
    assert refused["isError"] and "assignees.0:" in refused["content"][0]["text"]
    made = call("create_task", {**arguments, "assigneeEmails": ["project_admin@example.test"]})
    assert not made["isError"], made


def test_bad_task_arguments_are_a_tool_error_naming_the_field(call):  # noqa: F811
    unknown = call("close_task", {"taskId": "0190a0a0-0000-7000-8000-000000000000"})
    assert unknown["isError"] and "taskId:" in unknown["content"][0]["text"]
    nobody = call(
        "create_task",
        {
            "kind": "translate",
            "language": "de",
            "title": "T",
            "filter": {},
            "assigneeEmails": ["x@example.test"],
        },
    )
    assert nobody["isError"] and "assigneeEmails.0:" in nobody["content"][0]["text"]
    neither = call("create_task", {"kind": "translate", "language": "de", "title": "T"})
    assert neither["isError"] and "keys" in neither["content"][0]["text"]
