"""The release tools (list_releases, create_release, delete_release, compare_releases) and
export_file as of a release or a moment: the same services as the REST API."""

from datetime import UTC, datetime

from tests.mcp.test_http import call, export, post  # noqa: F401  (fixtures)


def test_a_release_is_created_listed_compared_and_deleted(call):  # noqa: F811
    created = call("create_release", {"name": "v1.0"})
    assert not created["isError"], created
    assert created["structuredContent"]["release"]["name"] == "v1.0"
    listed = call("list_releases", {})
    assert [item["name"] for item in listed["structuredContent"]["releases"]] == ["v1.0"]
    call(
        "upsert_translations",
        {"fileName": "common", "language": "de", "translations": [{"key": "farewell", "value": "Tschüss"}]},
    )
    compared = call("compare_releases", {"name": "v1.0"})
    assert not compared["isError"], compared
    added = compared["structuredContent"]["languages"]["de"]["added"]
    assert added == [{"fileName": "common", "key": "farewell", "old": None, "new": "Tschüss"}]
    assert "1 added" in compared["content"][0]["text"]
    assert not call("delete_release", {"name": "v1.0"})["isError"]
    assert call("list_releases", {})["structuredContent"]["releases"] == []


def test_export_file_reads_a_release_and_a_moment(call):  # noqa: F811
    arguments = {"fileName": "common", "language": "de", "format": "json"}
    before = call("export_file", arguments)["structuredContent"]["content"]
    instant = datetime.now(UTC).isoformat()
    call("create_release", {"name": "v1"})
    call(
        "upsert_translations",
        {"fileName": "common", "language": "de", "translations": [{"key": "greeting", "value": "Servus"}]},
    )
    assert call("export_file", {**arguments, "release": "v1"})["structuredContent"]["content"] == before
    assert call("export_file", {**arguments, "asOf": instant})["structuredContent"]["content"] == before
    assert "Servus" in call("export_file", arguments)["structuredContent"]["content"]


def test_a_read_key_lists_but_does_not_create_releases(call):  # noqa: F811
    assert not call("list_releases", {}, "read_key")["isError"]
    refused = call("create_release", {"name": "v1"}, "read_key")
    assert refused["isError"] and "canManageReleases" in refused["content"][0]["text"]


def test_a_bad_release_name_is_a_tool_error_naming_it(call):  # noqa: F811
    result = call("create_release", {"name": "no spaces"})
    assert result["isError"] and "name" in result["content"][0]["text"]


def test_an_unknown_release_is_a_tool_error(call):  # noqa: F811
    result = call("export_file", {"fileName": "common", "language": "de", "format": "json", "release": "v9"})
    assert result["isError"] and "release:" in result["content"][0]["text"]
