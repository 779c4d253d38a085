"""The tag tools: an agent's key tags keys by a filter, lists the tags and exports the tagged
keys only; a read key lists them but may not tag."""

from tests.mcp.conftest import posted_tool_call


def test_an_agent_tags_keys_lists_the_tags_and_exports_the_tagged_keys(as_caller, project):
    writer = as_caller("write_key")
    tagged = posted_tool_call(writer, "tag_keys", {"add": ["web"], "filter": {"fileName": "web"}})
    assert not tagged.get("isError"), tagged
    assert tagged["structuredContent"]["added"] == 2
    listed = posted_tool_call(as_caller("read_key"), "list_tags", {})
    assert listed["structuredContent"] == {"tags": [{"name": "web", "keys": 2}]}
    exported = posted_tool_call(
        writer, "export_file", {"fileName": "web", "format": "json", "language": "de", "excludeTags": ["web"]}
    )
    assert exported["structuredContent"]["content"] == '{"de":{"web":{}}}'


def test_a_read_key_may_not_tag_and_a_bad_tag_is_an_error(as_caller, project):
    refused = posted_tool_call(as_caller("read_key"), "tag_keys", {"add": ["web"], "filter": {}})
    assert refused["isError"] is True
    assert "Forbidden" in refused["content"][0]["text"]
    bad = posted_tool_call(as_caller("write_key"), "tag_keys", {"add": ["a b"], "filter": {}})
    assert bad["isError"] is True
    assert "add" in bad["content"][0]["text"]
