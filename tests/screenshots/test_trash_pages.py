"""The Screenshots pages and the trash: a screenshot deleted from its page offers its Undo on
the list it lands on, the list shows the trash with a Restore for each, and a trashed
screenshot is on none of the pages that show a key's screenshots."""

import io
import re

import pytest

from tests.pages.conftest import notice_of, page_as  # noqa: F401 (a fixture)
from tests.screenshots.conftest import picture


@pytest.fixture
def config_overrides(tmp_path):
    return {"LOKO_SCREENSHOTS_DIR": str(tmp_path / "screenshots")}


def list_path(world) -> str:
    return f"/projects/{world.project_id}/screenshots"


@pytest.fixture
def shot(as_caller, world) -> dict:
    """A screenshot with the key ``title`` placed on it."""
    writer = as_caller("write_key")
    base = f"/api/projects/{world.project_id}"
    body = {"key": "title", "fileName": "common", "values": {}}
    key = writer.post(base + "/translations", json=body).json["translation"]["id"]
    files = {"files": [(io.BytesIO(picture()), "home.png")]}
    shot = writer.post(base + "/screenshots", data=files, content_type="multipart/form-data").json[
        "screenshots"
    ][0]
    region = {"translationId": key, "x": 1, "y": 1, "width": 5, "height": 5}
    assert writer.post(f"{base}/screenshots/{shot['id']}/regions", json=region).status_code == 201
    return {**shot, "key": key}


def undo_form(source: str):
    return re.search(r'<form method="post" action="([^"]+/restore)" class="card" id="undo-delete">', source)


def test_a_delete_from_the_page_offers_its_undo_which_restores_the_screenshot(page_as, world, shot):  # noqa: F811
    page = page_as("editor")
    deleted = page.submit(f"{list_path(world)}/{shot['id']}", {"form": "delete"})
    assert deleted.status_code == 303
    assert notice_of(page) == "Screenshot moved to the trash, with its regions."
    source = page.get(deleted.location).get_data(as_text=True)
    form = undo_form(source)
    assert form and form.group(1) == f"{list_path(world)}/{shot['id']}/restore"
    assert "home.png is in the trash, with its 1 key region." in source
    restored = page.submit(form.group(1))
    assert (restored.status_code, restored.location) == (303, f"{list_path(world)}/{shot['id']}")
    assert notice_of(page) == "Screenshot restored, with its regions."
    assert page.get(restored.location).status_code == 200


def test_the_list_shows_the_trash_with_a_restore_for_editors_only(page_as, world, shot, as_caller):  # noqa: F811
    as_caller("write_key").delete(f"/api/projects/{world.project_id}/screenshots/{shot['id']}")
    for caller, restores in (("editor", True), ("viewer", False)):
        source = page_as(caller).get(list_path(world)).get_data(as_text=True)
        assert "In the trash (1)" in source and "0 screenshots" in source
        assert (f"{shot['id']}/restore" in source) is restores
        assert undo_form(source) is None  # only right after a delete


def test_restoring_a_screenshot_not_in_the_trash_is_told_on_the_page(page_as, world, shot):  # noqa: F811
    response = page_as("editor").submit(f"{list_path(world)}/{shot['id']}/restore")
    assert response.status_code == 409
    assert "not in the trash" in response.get_data(as_text=True)


def test_a_viewer_cannot_restore(page_as, world, shot, as_caller):  # noqa: F811
    as_caller("write_key").delete(f"/api/projects/{world.project_id}/screenshots/{shot['id']}")
    assert page_as("viewer").submit(f"{list_path(world)}/{shot['id']}/restore").status_code == 403


def test_the_editor_s_details_leave_out_a_trashed_screenshot(page_as, world, shot, as_caller):  # noqa: F811
    details_path = f"/projects/{world.project_id}/editor/keys/{shot['key']}"
    assert "home.png, where title is shown" in page_as("viewer").get(details_path).get_data(as_text=True)
    as_caller("write_key").delete(f"/api/projects/{world.project_id}/screenshots/{shot['id']}")
    assert "No screenshot shows this key." in page_as("viewer").get(details_path).get_data(as_text=True)
