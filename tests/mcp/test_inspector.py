"""The MCP Inspector CLI (npm) against a real server, in both protocol eras. Skipped with
the reason when ``npx`` is missing or the package cannot be fetched."""

import json
import os
import shutil
import subprocess

import pytest

from tests.mcp.conftest import TOOL_NAMES

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("test_inspector")]

INSPECTOR = "@modelcontextprotocol/inspector@2.12.0"
FETCH_TIMEOUT = 300
RUN_TIMEOUT = 120


@pytest.fixture(scope="module")
def inspector(tmp_path_factory):
    """The command prefix running the pinned Inspector CLI, fetched once per run."""
    npx = shutil.which("npx")
    if npx is None:
        pytest.skip("npx is not installed: the MCP Inspector CLI cannot run.")
    home = tmp_path_factory.mktemp("inspector")
    env = {
        **os.environ,
        "MCP_CATALOG_PATH": str(home / "mcp.json"),
        "MCP_CLIENT_CONFIG_PATH": str(home / "client.json"),
        "NO_UPDATE_NOTIFIER": "1",
    }
    command = [npx, "-y", INSPECTOR, "--cli"]
    try:
        probe = subprocess.run(
            [*command, "--version"], capture_output=True, text=True, timeout=FETCH_TIMEOUT, env=env
        )
    except subprocess.TimeoutExpired:
        pytest.skip(f"{INSPECTOR} could not be fetched within {FETCH_TIMEOUT}s.")
    if probe.returncode != 0:
        pytest.skip(f"{INSPECTOR} could not be fetched or started: {probe.stderr.strip()[-500:]}")
    return command, env


def run_inspector(inspector, url: str, key: str, *arguments: str) -> dict:
    command, env = inspector
    completed = subprocess.run(
        [
            *command,
            url,
            "--transport",
            "http",
            "--header",
            f"Authorization: Bearer {key}",
            "--format",
            "json",
            *arguments,
        ],
        capture_output=True,
        text=True,
        timeout=RUN_TIMEOUT,
        env=env,
        stdin=subprocess.DEVNULL,
    )
    assert completed.returncode == 0, completed.stderr[-2000:]
    return json.loads(completed.stdout)["result"]


@pytest.mark.parametrize("era", ["legacy", "modern"])
def test_inspector_lists_the_tools(inspector, live_server, mcp_world, era):
    listing = run_inspector(
        inspector,
        live_server,
        mcp_world.keys["read_key"],
        "--protocol-era",
        era,
        "--method",
        "tools/list",
        "--strict",
    )
    assert {tool["name"] for tool in listing["tools"]} == TOOL_NAMES


@pytest.mark.parametrize("era", ["legacy", "modern"])
def test_inspector_calls_list_languages(inspector, live_server, mcp_world, era):
    result = run_inspector(
        inspector,
        live_server,
        mcp_world.keys["read_key"],
        "--protocol-era",
        era,
        "--method",
        "tools/call",
        "--tool-name",
        "list_languages",
    )
    assert result["isError"] is False
    assert [row["code"] for row in result["structuredContent"]["languages"]] == ["de", "en", "fr"]
    assert "de (" in result["content"][0]["text"]
    stamped = "io.modelcontextprotocol/serverInfo" in result.get("_meta", {})
    assert stamped is (era == "modern")
