"""The import_file and export_file tools: any format of the registry through the same
import and export services as the REST API."""

import pytest

from tests.mcp.test_http import call, export, post  # noqa: F401  (fixtures)


def test_import_file_is_a_dry_run_by_default(client, mcp_world, call):  # noqa: F811
    before = export(client, mcp_world)
    result = call(
        "import_file",
        {"fileName": "common", "language": "de", "format": "json", "content": '{"farewell": "Tschüss"}'},
    )
    assert not result["isError"], result
    assert result["structuredContent"]["summary"]["created"] == 1
    assert result["structuredContent"]["dryRun"] is True
    assert export(client, mcp_world) == before


def test_import_file_writes_when_dry_run_is_false(client, mcp_world, call):  # noqa: F811
    arguments = {
        "fileName": "common",
        "language": "de",
        "format": "json",
        "content": '{"farewell": "Tschüss"}',
    }
    result = call("import_file", {**arguments, "dryRun": False})
    assert not result["isError"], result
    assert export(client, mcp_world)["de"]["common"]["farewell"] == "Tschüss"


def test_a_read_key_may_not_import(client, mcp_world, call):  # noqa: F811
    arguments = {"fileName": "common", "language": "de", "format": "json", "content": "{}", "dryRun": False}
    assert call("import_file", arguments, "read_key")["isError"]


def test_a_file_that_does_not_parse_is_a_tool_error(call):  # noqa: F811
    result = call(
        "import_file", {"fileName": "common", "language": "de", "format": "json", "content": "{oops"}
    )
    assert result["isError"] and "line 1" in result["content"][0]["text"]


@pytest.mark.parametrize("fmt", ["po", "json-nested"])
def test_export_file_gives_the_file_text(call, fmt):  # noqa: F811
    result = call("export_file", {"fileName": "common", "language": "en", "format": fmt})
    assert not result["isError"], result
    assert "Goodbye" in result["structuredContent"]["content"]


def test_tool_arguments_take_language_codes_in_canonical_form(client, mcp_world, call):  # noqa: F811
    arguments = {"fileName": "common", "language": "PT_br", "translations": [{"key": "x", "value": "Olá"}]}
    assert not call("upsert_translations", arguments)["isError"]
    assert export(client, mcp_world)["pt-BR"]["common"] == {"x": "Olá"}


def test_a_tool_argument_with_an_unknown_language_code_is_a_tool_error_naming_it(call):  # noqa: F811
    arguments = {"fileName": "common", "language": "xx-bogus", "translations": [{"key": "x", "value": "y"}]}
    result = call("upsert_translations", arguments)
    assert result["isError"] and "'xx-bogus' is not a known language code" in result["content"][0]["text"]
