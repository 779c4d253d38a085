"""The list_operations and undo_changes tools: an agent sees the bulk changes and takes one
back as a whole, through the same undo as the REST API."""

from tests.mcp.test_http import call, export, post  # noqa: F401  (fixtures)

GERMAN = {"fileName": "common", "language": "de", "format": "json", "content": '{"farewell": "Tschüss"}'}


def test_an_import_is_listed_and_undone_as_a_whole(client, mcp_world, call):  # noqa: F811
    before = export(client, mcp_world)
    imported = call("import_file", {**GERMAN, "dryRun": False})
    operation_id = imported["structuredContent"]["operationId"]
    listed = call("list_operations", {"kind": "import"})["structuredContent"]["operations"]
    assert [item["id"] for item in listed] == [operation_id]
    preview = call("undo_changes", {"operationId": operation_id})
    assert not preview["isError"], preview
    assert preview["structuredContent"]["dryRun"] is True
    assert export(client, mcp_world) != before
    done = call("undo_changes", {"operationId": operation_id, "dryRun": False})
    assert not done["isError"], done
    assert export(client, mcp_world) == before


def test_a_read_key_may_not_undo(call):  # noqa: F811
    operation_id = call("import_file", {**GERMAN, "dryRun": False})["structuredContent"]["operationId"]
    result = call("undo_changes", {"operationId": operation_id, "dryRun": False}, "read_key")
    assert result["isError"]
