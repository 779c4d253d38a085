"""The regions of keys on a screenshot: drawn within the image, moved, confirmed, deleted,
listed top to bottom, and gone with their key when it is purged."""

from tests.screenshots.conftest import picture, stored_files, upload


def screenshot(api, width=400, height=300) -> dict:
    return upload(api.client, api, ("home.png", picture(width, height))).json["screenshots"][0]


def region_url(api, shot, region_id="") -> str:
    return api.url(f"/screenshots/{shot['id']}/regions") + (f"/{region_id}" if region_id else "")


def draw(api, shot, translation_id, x=10, y=20, width=100, height=30, **more):
    body = {"translationId": translation_id, "x": x, "y": y, "width": width, "height": height, **more}
    return api.client.post(region_url(api, shot), json=body)


def test_a_region_places_a_key_on_a_screenshot(api, keys):
    shot, title = screenshot(api), keys["title"]
    response = draw(api, shot, title)
    assert response.status_code == 201, response.json
    region = response.json["region"]
    assert (region["key"], region["fileName"], region["state"]) == ("title", "common", "confirmed")
    detail = api.client.get(api.url(f"/screenshots/{shot['id']}")).json["screenshot"]
    assert detail["regions"] == 1
    assert [(r["x"], r["y"], r["width"], r["height"]) for r in detail["regionList"]] == [(10, 20, 100, 30)]


def test_regions_are_listed_top_to_bottom(api, keys):
    shot = screenshot(api)
    draw(api, shot, keys["save"], y=200)
    draw(api, shot, keys["title"], y=5)
    detail = api.client.get(api.url(f"/screenshots/{shot['id']}")).json["screenshot"]
    assert [r["key"] for r in detail["regionList"]] == ["title", "save"]


def test_a_region_outside_the_image_is_refused_naming_the_side(api, keys):
    shot, title = screenshot(api, 400, 300), keys["title"]
    wide = draw(api, shot, title, x=350, width=100)
    assert wide.status_code == 400 and wide.json["error"].startswith("width")
    high = draw(api, shot, title, y=290, height=20)
    assert high.status_code == 400 and high.json["error"].startswith("height")
    negative = draw(api, shot, title, x=-1)
    assert negative.status_code == 400 and "x" in negative.json["error"]
    empty = draw(api, shot, title, width=0)
    assert empty.status_code == 400 and "width" in empty.json["error"]
    detail = api.client.get(api.url(f"/screenshots/{shot['id']}")).json["screenshot"]
    assert detail["regionList"] == []


def test_a_key_of_another_project_or_unknown_is_404(api, keys):
    shot = screenshot(api)
    response = draw(api, shot, "01a228d9-1d58-7cb1-b197-abdcdd707137")
    assert response.status_code == 404 and "translationId" in response.json["error"]


def test_a_region_is_moved_resized_and_confirmed(api, keys):
    shot, title = screenshot(api), keys["title"]
    region = draw(api, shot, title, state="proposed").json["region"]
    assert region["state"] == "proposed"
    response = api.client.patch(
        region_url(api, shot, region["id"]), json={"x": 50, "width": 60, "state": "confirmed"}
    )
    assert response.status_code == 200, response.json
    moved = response.json["region"]
    assert (moved["x"], moved["y"], moved["width"], moved["state"]) == (50, 20, 60, "confirmed")
    outside = api.client.patch(region_url(api, shot, region["id"]), json={"x": 390})
    assert outside.status_code == 400
    assert api.client.patch(region_url(api, shot, region["id"]), json={}).status_code == 400


def test_a_region_is_deleted(api, keys):
    shot, title = screenshot(api), keys["title"]
    region = draw(api, shot, title).json["region"]
    assert api.client.delete(region_url(api, shot, region["id"])).status_code == 200
    assert api.client.delete(region_url(api, shot, region["id"])).status_code == 404


def test_a_key_s_screenshots_are_listed_by_its_id(api, keys):
    first, second = screenshot(api, 400, 300), screenshot(api, 401, 300)
    draw(api, second, keys["save"])
    listed = api.client.get(api.url("/screenshots"), query_string={"translationId": keys["save"]}).json
    assert [shot["id"] for shot in listed["screenshots"]] == [second["id"]]
    assert listed["total"] == 1 and first["id"] != second["id"]


def test_a_trashed_key_cannot_be_placed_and_a_purged_key_loses_its_regions(api, keys):
    shot, title, save = screenshot(api), keys["title"], keys["save"]
    draw(api, shot, title)
    api.trash(save)
    assert draw(api, shot, save).status_code == 409
    api.trash(title)
    kept = api.client.get(api.url(f"/screenshots/{shot['id']}")).json["screenshot"]
    assert kept["regions"] == 1  # the trash keeps a key's regions
    api.purge(title)
    gone = api.client.get(api.url(f"/screenshots/{shot['id']}")).json["screenshot"]
    assert gone["regionList"] == []


def test_deleting_a_screenshot_permanently_deletes_its_regions_and_files(app, api, keys):
    shot, title = screenshot(api), keys["title"]
    draw(api, shot, title)
    deleted = api.client.delete(api.url(f"/screenshots/{shot['id']}"), query_string={"permanent": "true"})
    assert deleted.status_code == 200
    assert api.client.get(api.url(f"/screenshots/{shot['id']}")).status_code == 404
    assert api.client.get(api.url("/screenshots"), query_string={"translationId": title}).json["total"] == 0
    assert stored_files(app) == []
