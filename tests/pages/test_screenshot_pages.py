"""A project's Screenshots pages: who may open them, uploading several images at once from
the page (CSRF token, a redirect after success), a screenshot with its keys' regions
outlined, placing a key with the keyboard-friendly form, moving and resizing a region with
its form of numbers, confirming, rejecting and deleting a region, deleting the screenshot,
and bad input told on the page; the editor's grid with a thumbnail beside each key on a
screenshot, read for the whole page in one statement."""

import io
import re

import pytest
from sqlalchemy import select

from loko.extensions import db
from loko.translations.models import Translation
from tests.integration.test_query_counts import counted_statements
from tests.pages.conftest import SIGNED_OUT, alert_of, notice_of
from tests.screenshots.conftest import picture

EDITORS = ("editor", "project_admin", "org_owner")


@pytest.fixture
def config_overrides(tmp_path):
    return {"LOKO_SCREENSHOTS_DIR": str(tmp_path / "screenshots")}


def list_path(world) -> str:
    return f"/projects/{world.project_id}/screenshots"


def send(page, world, *files):
    data = {"files": [(io.BytesIO(content), name) for name, content in files]}
    return page.submit(list_path(world), data, content_type="multipart/form-data")


def listed(as_caller, world) -> list[dict]:
    return as_caller("org_owner").get(f"/api/projects/{world.project_id}/screenshots").json["screenshots"]


@pytest.fixture
def title_key(as_caller, world) -> str:
    body = {"key": "title", "fileName": "common", "values": {}}
    response = as_caller("org_owner").post(f"/api/projects/{world.project_id}/translations", json=body)
    assert response.status_code == 201, response.json
    return response.json["translation"]["id"]


@pytest.mark.parametrize("caller", ["viewer", *EDITORS])
def test_the_page_opens_for_members_with_its_tab(page_as, world, caller):
    response = page_as(caller).get(list_path(world))
    assert response.status_code == 200
    source = response.get_data(as_text=True)
    assert "<h1>Screenshots</h1>" in source
    assert f'href="{list_path(world)}"' in source
    assert "<script>" not in source and "style=" not in source
    assert ('name="files"' in source) == (caller != "viewer")


@pytest.mark.parametrize("caller", SIGNED_OUT)
def test_signed_out_callers_are_sent_to_sign_in(page_as, world, caller):
    response = page_as(caller).get(list_path(world))
    assert (response.status_code, response.location) == (302, f"/login?next={list_path(world)}")


def test_an_outsider_is_not_told_the_project_exists(page_as, world):
    assert page_as("outsider").get(list_path(world)).status_code == 404


def test_a_viewer_cannot_upload(page_as, world, as_caller):
    assert send(page_as("viewer"), world, ("a.png", picture())).status_code == 403
    assert listed(as_caller, world) == []


def test_an_upload_without_its_csrf_token_is_refused(page_as, world, as_caller):
    data = {"files": [(io.BytesIO(picture()), "a.png")]}
    response = page_as("editor").post(list_path(world), data=data, content_type="multipart/form-data")
    assert response.status_code == 403
    assert listed(as_caller, world) == []


def test_several_images_are_uploaded_from_the_page(page_as, world, as_caller):
    page = page_as("editor")
    response = send(page, world, ("home.png", picture(color=(1, 2, 3))), ("cart.jpg", picture(kind="JPEG")))
    assert (response.status_code, response.location) == (303, list_path(world))
    assert notice_of(page) == "2 screenshots uploaded."
    shots = listed(as_caller, world)
    assert sorted(shot["name"] for shot in shots) == ["cart.jpg", "home.png"]
    source = page.get(list_path(world)).get_data(as_text=True)
    assert all(shot["urls"]["thumbnail"] in source for shot in shots)


def test_a_refused_image_is_told_on_the_page_and_nothing_is_stored(page_as, world, as_caller):
    response = send(page_as("editor"), world, ("a.png", picture()), ("logo.svg", b"<svg></svg>"))
    assert response.status_code == 400
    assert "files[1]" in alert_of(response)
    assert listed(as_caller, world) == []


def place_region(as_caller, world, shot, body: dict) -> dict:
    """A key's region on the screenshot, placed over REST."""
    url = f"/api/projects/{world.project_id}/screenshots/{shot['id']}/regions"
    response = as_caller("write_key").post(url, json=body)
    assert response.status_code == 201, response.json
    return response.json["region"]


def one_path(world, shot) -> str:
    return f"{list_path(world)}/{shot['id']}"


def place_form(x: int, y: int, width: int, height: int, key: str = "title") -> dict:
    """The "Place a key" form, as typed."""
    numbers = {"x": x, "y": y, "width": width, "height": height}
    return {"form": "add-region", "key": key, "fileName": "common", **{k: str(v) for k, v in numbers.items()}}


def uploaded(page, world, as_caller) -> dict:
    """One 400x300 screenshot uploaded from the page."""
    send(page, world, ("home.png", picture(400, 300)))
    (shot,) = listed(as_caller, world)
    return shot


def test_a_key_is_placed_confirmed_and_its_region_deleted(page_as, world, as_caller, title_key):
    page = page_as("editor")
    shot = uploaded(page, world, as_caller)
    place = place_form(10, 20, 100, 30)
    response = page.submit(one_path(world, shot), place)
    assert (response.status_code, response.location) == (303, one_path(world, shot))
    source = page.get(one_path(world, shot)).get_data(as_text=True)
    assert re.search(
        r'<rect class="region confirmed" x="10" y="20" width="100" height="30"[^>]* tabindex="0"[^>]*>'
        r"<title>title \(common\)</title>",
        source,
    )
    region = as_caller("org_owner").get(f"/api/projects/{world.project_id}/screenshots/{shot['id']}").json
    region_id = region["screenshot"]["regionList"][0]["id"]
    response = page.submit(one_path(world, shot), {"form": "delete-region", "region": region_id})
    assert response.status_code == 303
    assert "No key is placed" in page.get(one_path(world, shot)).get_data(as_text=True)


def test_a_proposed_region_is_confirmed_from_the_page(page_as, world, as_caller, title_key):
    page = page_as("editor")
    shot = uploaded(page, world, as_caller)
    body = {"translationId": title_key, "x": 0, "y": 0, "width": 5, "height": 5, "state": "proposed"}
    api = as_caller("write_key")
    region = api.post(f"/api/projects/{world.project_id}/screenshots/{shot['id']}/regions", json=body).json[
        "region"
    ]
    source = page.get(one_path(world, shot)).get_data(as_text=True)
    assert 'class="region proposed"' in source and "Confirm the region of title" in source
    assert (
        page.submit(one_path(world, shot), {"form": "confirm-region", "region": region["id"]}).status_code
        == 303
    )
    assert 'class="region confirmed"' in page.get(one_path(world, shot)).get_data(as_text=True)


def test_a_region_outside_the_image_or_an_unknown_key_is_told_on_the_page(
    page_as, world, as_caller, title_key
):
    page = page_as("editor")
    shot = uploaded(page, world, as_caller)
    place = place_form(350, 0, 100, 10)
    response = page.submit(one_path(world, shot), place)
    assert response.status_code == 400 and alert_of(response).startswith("width")
    assert 'value="350"' in response.get_data(as_text=True)  # the form keeps what was typed
    unknown = page.submit(one_path(world, shot), {**place, "key": "nope", "x": "0"})
    assert unknown.status_code == 404 and alert_of(unknown).startswith("key")


def test_the_screenshot_is_deleted_from_its_page(page_as, world, as_caller):
    page = page_as("editor")
    send(page, world, ("home.png", picture()))
    (shot,) = listed(as_caller, world)
    response = page.submit(one_path(world, shot), {"form": "delete"})
    assert (response.status_code, response.location) == (303, f"{list_path(world)}?undo={shot['id']}")
    assert listed(as_caller, world) == []
    assert page_as("viewer").get(one_path(world, shot)).status_code == 404


def test_the_editor_s_details_show_the_screenshots_of_a_key_with_its_region(
    page_as, world, as_caller, title_key
):
    page = page_as("editor")
    shot = uploaded(page, world, as_caller)
    body = {"translationId": title_key, "x": 10, "y": 20, "width": 30, "height": 40}
    place_region(as_caller, world, shot, body)
    details = page.get(f"/projects/{world.project_id}/editor/keys/{title_key}").get_data(as_text=True)
    assert 'aria-label="home.png, where title is shown"' in details
    assert '<rect class="region confirmed" x="10" y="20" width="30" height="40">' in details
    assert one_path(world, shot) in details


def test_the_editor_s_details_say_when_no_screenshot_shows_a_key(page_as, world, title_key):
    details = page_as("viewer").get(f"/projects/{world.project_id}/editor/keys/{title_key}")
    assert details.status_code == 200
    assert "No screenshot shows this key." in details.get_data(as_text=True)


@pytest.mark.parametrize(
    ("shots", "keys"), [("with", ["title"]), ("without", ["subtitle"]), ("", ["subtitle", "title"])]
)
def test_the_editor_filters_keys_on_a_screenshot_or_on_none(
    page_as, world, as_caller, title_key, shots, keys
):
    writer = as_caller("org_owner")
    body = {"key": "subtitle", "fileName": "common", "values": {}}
    assert writer.post(f"/api/projects/{world.project_id}/translations", json=body).status_code == 201
    page = page_as("editor")
    shot = uploaded(page, world, as_caller)
    place = {"translationId": title_key, "x": 1, "y": 1, "width": 5, "height": 5}
    place_region(as_caller, world, shot, place)
    source = page.get(f"/projects/{world.project_id}/editor", query_string={"shots": shots}).get_data(
        as_text=True
    )
    assert sorted(re.findall(r'<tr[^>]* data-key="([^"]+)"', source)) == keys
    if shots:
        assert f'<option value="{shots}" selected>' in source


def test_an_unknown_screenshot_filter_is_told(page_as, world):
    response = page_as("editor").get(f"/projects/{world.project_id}/editor", query_string={"shots": "maybe"})
    assert response.status_code == 400
    assert "shots" in response.get_data(as_text=True)


def test_the_overview_counts_the_keys_on_no_screenshot(page_as, world, as_caller, title_key):
    overview = f"/projects/{world.project_id}"
    page = page_as("viewer")
    assert "No screenshots yet" in page.get(overview).get_data(as_text=True)
    writer = as_caller("org_owner")
    body = {"key": "subtitle", "fileName": "common", "values": {}}
    assert writer.post(f"/api/projects/{world.project_id}/translations", json=body).status_code == 201
    shot = uploaded(page_as("editor"), world, as_caller)
    place = {"translationId": title_key, "x": 1, "y": 1, "width": 5, "height": 5}
    place_region(as_caller, world, shot, place)
    source = page.get(overview).get_data(as_text=True)
    assert "1 screenshot." in source
    assert f'href="/projects/{world.project_id}/editor?shots=without">1 key is on none</a>' in source


def region_of(as_caller, world, shot) -> dict:
    detail = as_caller("org_owner").get(f"/api/projects/{world.project_id}/screenshots/{shot['id']}").json
    (region,) = detail["screenshot"]["regionList"]
    return region


def move_form(region_id: str, x: int, y: int, width: int, height: int) -> dict:
    """A region's "Move or resize" form, as typed."""
    numbers = {"x": x, "y": y, "width": width, "height": height}
    return {"form": "move-region", "region": region_id, **{k: str(v) for k, v in numbers.items()}}


def test_a_region_is_moved_and_resized_with_its_form_of_numbers(page_as, world, as_caller, title_key):
    page = page_as("editor")
    shot = uploaded(page, world, as_caller)
    page.submit(one_path(world, shot), place_form(10, 20, 100, 30))
    region = region_of(as_caller, world, shot)
    source = page.get(one_path(world, shot)).get_data(as_text=True)
    assert f'id="r-{region["id"]}-x" name="x" type="number" required min="0" max="399" value="10"' in source
    assert 'aria-label="title (common): left 10, top 20, 100 \u00d7 30"' in source
    moved = move_form(region["id"], 50, 60, 120, 40)
    response = page.submit(one_path(world, shot), moved)
    assert (response.status_code, response.location) == (303, one_path(world, shot))
    assert notice_of(page) == "title's region moved to x 50, y 60, 120 by 40 pixels."
    now = region_of(as_caller, world, shot)
    assert (now["x"], now["y"], now["width"], now["height"]) == (50, 60, 120, 40)


def test_a_region_moved_out_of_the_image_is_told_with_its_form_open(page_as, world, as_caller, title_key):
    page = page_as("editor")
    shot = uploaded(page, world, as_caller)
    page.submit(one_path(world, shot), place_form(10, 20, 100, 30))
    region = region_of(as_caller, world, shot)
    moved = move_form(region["id"], 390, 0, 100, 10)
    response = page.submit(one_path(world, shot), moved)
    assert response.status_code == 400 and alert_of(response).startswith("width")
    source = response.get_data(as_text=True)
    assert '<details class="move-region" open>' in source
    assert f'id="r-{region["id"]}-x" name="x" type="number" required min="0" max="399" value="390"' in source
    assert region_of(as_caller, world, shot)["x"] == 10
    typo = page.submit(one_path(world, shot), {**moved, "x": "ten"})
    assert typo.status_code == 400 and alert_of(typo).startswith("x")


def test_a_proposed_region_is_rejected_from_the_page(page_as, world, as_caller, title_key):
    page = page_as("editor")
    shot = uploaded(page, world, as_caller)
    body = {"translationId": title_key, "x": 0, "y": 0, "width": 5, "height": 5, "state": "proposed"}
    api = as_caller("write_key")
    api.post(f"/api/projects/{world.project_id}/screenshots/{shot['id']}/regions", json=body)
    region = region_of(as_caller, world, shot)
    source = page.get(one_path(world, shot)).get_data(as_text=True)
    assert "Reject the proposed region of title" in source
    response = page.submit(one_path(world, shot), {"form": "reject-region", "region": region["id"]})
    assert response.status_code == 303 and notice_of(page) == "Proposed region rejected."
    assert "No key is placed" in page.get(one_path(world, shot)).get_data(as_text=True)


def test_a_viewer_sees_the_regions_without_their_controls(page_as, world, as_caller, title_key):
    shot = uploaded(page_as("editor"), world, as_caller)
    page_as("editor").submit(one_path(world, shot), place_form(10, 20, 100, 30))
    source = page_as("viewer").get(one_path(world, shot)).get_data(as_text=True)
    assert 'role="img" aria-labelledby="shot-caption"' in source
    assert "tabindex" not in source.split("<figure", 1)[1].split("</figure>", 1)[0]
    assert "move-region" not in source
    region = region_of(as_caller, world, shot)
    moved = move_form(region["id"], 0, 0, 5, 5)
    assert page_as("viewer").submit(one_path(world, shot), moved).status_code == 403


def test_the_editor_shows_a_thumbnail_beside_each_key_on_a_screenshot_not_in_the_trash(
    page_as, world, as_caller, title_key
):
    writer = as_caller("org_owner")
    body = {"key": "subtitle", "fileName": "common", "values": {}}
    assert writer.post(f"/api/projects/{world.project_id}/translations", json=body).status_code == 201
    page = page_as("editor")
    shot = uploaded(page, world, as_caller)
    send(page, world, ("cart.png", picture(200, 100, color=(9, 9, 9))))
    other = next(item for item in listed(as_caller, world) if item["name"] == "cart.png")
    regions = f"/api/projects/{world.project_id}/screenshots/{{}}/regions"
    for target in (shot, other):
        place = {"translationId": title_key, "x": 1, "y": 1, "width": 5, "height": 5}
        assert as_caller("write_key").post(regions.format(target["id"]), json=place).status_code == 201
    source = page.get(f"/projects/{world.project_id}/editor").get_data(as_text=True)
    rows = dict(re.findall(r'<tr[^>]* data-key="([^"]+)"[^>]*>(.*?)</tr>', source, re.S))
    assert 'class="row-shot"' not in rows["subtitle"]
    newest = other  # uploaded last: the newest of the two, both confirmed
    assert f'href="{one_path(world, newest)}"' in rows["title"]
    assert f'src="{newest["urls"]["thumbnail"]}" alt="Screenshot cart.png, and 1 more"' in rows["title"]
    assert page.submit(one_path(world, other), {"form": "delete"}).status_code == 303  # to the trash
    source = page.get(f"/projects/{world.project_id}/editor").get_data(as_text=True)
    rows = dict(re.findall(r'<tr[^>]* data-key="([^"]+)"[^>]*>(.*?)</tr>', source, re.S))
    assert f'src="{shot["urls"]["thumbnail"]}" alt="Screenshot home.png"' in rows["title"]


def test_the_editor_s_thumbnails_cost_the_same_statements_however_many_keys_are_on_screenshots(
    app, page_as, world, as_caller, title_key
):
    items = [{"key": f"key.{index:02d}", "value": f"Value {index}"} for index in range(20)]
    body = {"operation": "bulk-upsert", "fileName": "common", "languageCode": "en", "translations": items}
    writer = as_caller("write_key")
    assert writer.put(f"/api/projects/{world.project_id}/translations", json=body).status_code == 200
    page = page_as("editor")
    shot = uploaded(page, world, as_caller)
    regions = f"/api/projects/{world.project_id}/screenshots/{shot['id']}/regions"
    editor = f"/projects/{world.project_id}/editor"

    def statements() -> int:
        page.get(editor)
        with counted_statements(app) as seen:
            assert page.get(editor).status_code == 200
        return len(seen)

    place = {"x": 1, "y": 1, "width": 5, "height": 5}
    assert writer.post(regions, json={"translationId": title_key, **place}).status_code == 201
    one = statements()
    with app.app_context():
        ids = db.session.scalars(select(Translation.id).where(Translation.project_id == world.project_id))
        ids = list(ids)
    for translation_id in ids:
        writer.post(regions, json={"translationId": translation_id, **place})
    assert statements() == one
    assert page.get(editor).get_data(as_text=True).count('class="row-shot"') == 21


def test_a_key_only_on_a_screenshot_in_the_trash_is_on_none_for_the_editor(
    page_as, world, as_caller, title_key
):
    page = page_as("editor")
    shot = uploaded(page, world, as_caller)
    place = {"translationId": title_key, "x": 1, "y": 1, "width": 5, "height": 5}
    place_region(as_caller, world, shot, place)
    assert page.submit(one_path(world, shot), {"form": "delete"}).status_code == 303
    editor = f"/projects/{world.project_id}/editor"
    without = page.get(editor, query_string={"shots": "without"}).get_data(as_text=True)
    assert re.findall(r'<tr[^>]* data-key="([^"]+)"', without) == ["title"]
    assert 'class="row-shot"' not in without
