"""A key's screenshots over MCP, through the official SDK client: get_translation lists the
screenshots that show the key, with its region and an image URL the agent's key fetches."""

import io

import httpx
import pytest
from sqlalchemy import select

from loko.extensions import db
from loko.translations.models import Translation
from tests.mcp.test_sdk_clients import connect, run
from tests.screenshots.conftest import picture

pytestmark = pytest.mark.slow


def placed_on_a_screenshot(app, mcp_world, key: str, file_name: str) -> str:
    """Upload a screenshot with the write key and place ``key`` on it; its id."""
    client = app.test_client()
    headers = {"Authorization": f"Bearer {mcp_world.keys['write_key']}"}
    base = f"/api/projects/{mcp_world.project_id}"
    upload = client.post(
        base + "/screenshots",
        data={"files": [(io.BytesIO(picture(320, 200)), "checkout.png")]},
        content_type="multipart/form-data",
        headers=headers,
    )
    assert upload.status_code == 201, upload.json
    shot = upload.json["screenshots"][0]
    with app.app_context():
        translation_id = db.session.scalar(
            select(Translation.id).where(
                Translation.project_id == mcp_world.project_id,
                Translation.file_name == file_name,
                Translation.key == key,
            )
        )
    body = {"translationId": translation_id, "x": 12, "y": 34, "width": 56, "height": 20}
    region = client.post(f"{base}/screenshots/{shot['id']}/regions", json=body, headers=headers)
    assert region.status_code == 201, region.json
    return shot["id"]


def test_get_translation_lists_the_key_s_screenshots_with_a_url_the_key_fetches(app, live_server, mcp_world):
    shot_id = placed_on_a_screenshot(app, mcp_world, "farewell", "common")

    async def exercise():
        async with connect("modern", live_server, mcp_world.keys["read_key"]) as client:
            return await client.call_tool("get_translation", {"key": "farewell", "fileName": "common"})

    result = run(exercise)
    assert not result.is_error, result.content
    (shot,) = result.structured_content["screenshots"]
    assert (shot["id"], shot["name"], shot["width"], shot["height"]) == (shot_id, "checkout.png", 320, 200)
    assert shot["regions"] == [{"x": 12, "y": 34, "width": 56, "height": 20, "state": "confirmed"}]
    assert "Screenshot checkout.png (320x200): at 12,34 56x20" in result.content[0].text
    server = live_server.removesuffix("/api/mcp")
    image = httpx.get(server + shot["url"], headers={"Authorization": f"Bearer {mcp_world.keys['read_key']}"})
    assert image.status_code == 200 and image.headers["content-type"] == "image/png"
    assert image.content.startswith(b"\x89PNG")
