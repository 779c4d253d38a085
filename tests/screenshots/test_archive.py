"""A project's screenshots as one ZIP (GET and POST .../screenshots/archive): the images and
screenshots.json with their regions by file and key; the import all or none, behind the
upload's and the import's limits."""

import io
import json
import zipfile

import pytest

from loko.screenshots import archive
from tests.integration.test_query_counts import counted_statements
from tests.screenshots.conftest import picture, stored_files, upload
from tests.translation_factories import project_api

ARCHIVE = "/screenshots/archive"


def zip_of(entries: dict[str, bytes], compression=zipfile.ZIP_DEFLATED) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=compression) as zipped:
        for name, data in entries.items():
            zipped.writestr(name, data)
    return buffer.getvalue()


def manifest(*screenshots) -> bytes:
    return json.dumps({"screenshots": list(screenshots)}).encode()


def region(key="title", x=10, y=20, width=100, height=30, file_name="common", **more) -> dict:
    return {"fileName": file_name, "key": key, "x": x, "y": y, "width": width, "height": height, **more}


def send(api, data: bytes, **query):
    return api.client.post(api.url(ARCHIVE), data=data, content_type="application/zip", query_string=query)


def shot_with_title(api, keys, width=400, height=300) -> dict:
    shot = upload(api.client, api, ("home.png", picture(width, height))).json["screenshots"][0]
    body = {"translationId": keys["title"], "x": 10, "y": 20, "width": 100, "height": 30}
    assert api.client.post(api.url(f"/screenshots/{shot['id']}/regions"), json=body).status_code == 201
    return shot


def regions_of(api) -> list[tuple]:
    """``(screenshot name, sha256, fileName, key, x, y, width, height, state)`` of every region."""
    found = []
    for shot in api.client.get(api.url("/screenshots")).json["screenshots"]:
        detail = api.client.get(api.url(f"/screenshots/{shot['id']}")).json["screenshot"]
        found += [
            (
                shot["name"],
                shot["sha256"],
                r["fileName"],
                r["key"],
                r["x"],
                r["y"],
                r["width"],
                r["height"],
                r["state"],
            )
            for r in detail["regionList"]
        ]
    return sorted(found)


def test_the_archive_holds_the_images_and_their_regions_by_file_and_key(api, keys):
    shot = shot_with_title(api, keys)
    response = api.client.get(api.url(ARCHIVE))
    assert response.status_code == 200
    assert response.mimetype == "application/zip"
    with zipfile.ZipFile(io.BytesIO(response.data)) as zipped:
        assert zipped.namelist() == ["screenshots.json", "home.png"]
        assert zipped.read("home.png") == api.client.get(shot["urls"]["image"]).data
        document = json.loads(zipped.read("screenshots.json"))
    assert document == {
        "version": 1,
        "screenshots": [{"image": "home.png", "name": "home.png", "regions": [region(state="confirmed")]}],
    }


def test_the_manifest_alone_is_answered_as_json(api, keys):
    shot_with_title(api, keys)
    response = api.client.get(api.url(ARCHIVE), query_string={"manifest": "true"})
    assert response.status_code == 200
    assert response.json["screenshots"][0]["regions"][0]["key"] == "title"


def test_two_screenshots_of_one_name_get_two_names_in_the_archive(api):
    upload(api.client, api, ("home.png", picture(color=(1, 1, 1))), ("home.png", picture(color=(2, 2, 2))))
    with zipfile.ZipFile(io.BytesIO(api.client.get(api.url(ARCHIVE)).data)) as zipped:
        assert sorted(zipped.namelist()) == ["home-2.png", "home.png", "screenshots.json"]


def test_an_exported_archive_imports_into_another_project_as_the_same_images_and_regions(app, api, keys):
    shot_with_title(api, keys)
    jpeg = upload(api.client, api, ("settings.jpg", picture(300, 200, kind="JPEG"))).json["screenshots"][0]
    body = {"translationId": keys["save"], "x": 5, "y": 5, "width": 50, "height": 20, "state": "proposed"}
    api.client.post(api.url(f"/screenshots/{jpeg['id']}/regions"), json=body)
    exported = api.client.get(api.url(ARCHIVE)).data
    other = project_api(app)
    for key, text in (("title", "Title"), ("save", "Save")):
        other.create(key, {"en": text})
    response = send(other, exported)
    assert response.status_code == 200, response.json
    assert response.json["summary"] == {
        "screenshotsCreated": 2,
        "screenshotsFound": 0,
        "screenshotsRestored": 0,
        "regionsAdded": 2,
        "regionsExisting": 0,
        "regionsSkipped": 0,
    }
    assert regions_of(other) == regions_of(api)
    (copy,) = [
        s
        for s in other.client.get(other.url("/screenshots")).json["screenshots"]
        if s["name"] == "settings.jpg"
    ]
    assert other.client.get(copy["urls"]["image"]).data == api.client.get(jpeg["urls"]["image"]).data


def test_an_archive_imported_again_adds_nothing_twice(api, keys):
    shot_with_title(api, keys)
    exported = api.client.get(api.url(ARCHIVE)).data
    response = send(api, exported)
    assert response.status_code == 200, response.json
    (answer,) = response.json["screenshots"]
    assert (answer["created"], answer["regionsAdded"], answer["regionsExisting"]) == (False, 0, 1)
    assert len(regions_of(api)) == 1
    assert api.client.get(api.url("/screenshots")).json["total"] == 1


def test_images_without_a_manifest_are_added_without_regions(api):
    response = send(api, zip_of({"a.png": picture(color=(1, 2, 3)), "shots/b.webp": picture(kind="WEBP")}))
    assert response.status_code == 200, response.json
    assert [(s["image"], s["name"], s["created"]) for s in response.json["screenshots"]] == [
        ("a.png", "a.png", True),
        ("shots/b.webp", "b.webp", True),
    ]
    assert api.client.get(api.url("/screenshots")).json["total"] == 2
    assert regions_of(api) == []


def test_regions_of_unknown_and_trashed_keys_are_skipped_and_reported(api, keys):
    api.delete("/translations", {"id": keys["save"]})
    entry = {"image": "home.png", "regions": [region(), region("save"), region("gone", file_name="shop")]}
    response = send(api, zip_of({"home.png": picture(400, 300), "screenshots.json": manifest(entry)}))
    assert response.status_code == 200, response.json
    assert response.json["summary"]["regionsAdded"] == 1
    assert [(s["key"], s["fileName"], s["reason"]) for s in response.json["skipped"]] == [
        ("save", "common", "trashed-key"),
        ("gone", "shop", "unknown-key"),
    ]
    assert "no key 'gone' in the file 'shop'" in response.json["skipped"][1]["message"]
    assert [r[3] for r in regions_of(api)] == ["title"]


def test_the_keys_are_looked_up_in_one_statement_however_many_regions(app, api, keys):
    def statements(count: int) -> int:
        regions = [region(x=i) for i in range(count)] + [region(f"missing.{i}", x=i) for i in range(count)]
        data = zip_of(
            {
                "home.png": picture(400, 300),
                "screenshots.json": manifest({"image": "home.png", "regions": regions}),
            }
        )
        with counted_statements(app) as seen:
            assert send(api, data, dryRun="true").status_code == 200
        return len(seen)

    assert statements(2) == statements(40)


def test_one_bad_image_refuses_the_archive_naming_it_and_stores_nothing(app, api, keys):
    entry = {"image": "good.png", "regions": [region()]}
    data = zip_of(
        {
            "good.png": picture(400, 300),
            "bad.png": b"<svg><script/></svg>",
            "screenshots.json": manifest(entry),
        }
    )
    response = send(api, data)
    assert response.status_code == 400
    assert "'bad.png'" in response.json["error"] and response.json["error"].startswith("file")
    assert api.client.get(api.url("/screenshots")).json["total"] == 0
    assert stored_files(app) == []


def test_a_region_outside_its_image_is_a_400_naming_the_field(app, api, keys):
    entry = {"image": "home.png", "regions": [region(), region(x=350, width=100)]}
    response = send(api, zip_of({"home.png": picture(400, 300), "screenshots.json": manifest(entry)}))
    assert response.status_code == 400
    assert response.json["error"].startswith("screenshots.json: screenshots.0.regions.1.width:")
    assert stored_files(app) == []


@pytest.mark.parametrize(
    ("document", "field"),
    [
        (b"{not json", "screenshots.json: not valid JSON"),
        (b"[]", "screenshots.json: must be a JSON object"),
        (manifest({"image": "missing.png"}), "screenshots.json: screenshots.0.image:"),
        (
            manifest({"image": "home.png", "regions": [region(x=-1)]}),
            "screenshots.json: screenshots.0.regions.0.x:",
        ),
        (
            manifest({"image": "home.png", "regions": [region(state="maybe")]}),
            "screenshots.0.regions.0.state:",
        ),
        (manifest({"image": "home.png", "extra": 1}), "screenshots.json: screenshots.0.extra:"),
    ],
)
def test_a_wrong_manifest_is_a_400_naming_its_field(api, keys, document, field):
    response = send(api, zip_of({"home.png": picture(400, 300), "screenshots.json": document}))
    assert response.status_code == 400
    assert field in response.json["error"]


def test_a_dry_run_answers_the_same_and_writes_nothing(app, api, keys):
    entry = {"image": "home.png", "regions": [region()]}
    response = send(
        api, zip_of({"home.png": picture(400, 300), "screenshots.json": manifest(entry)}), dryRun="true"
    )
    assert response.status_code == 200, response.json
    assert response.json["dryRun"] is True
    assert (
        response.json["summary"]["screenshotsCreated"] == 1 and response.json["summary"]["regionsAdded"] == 1
    )
    assert response.json["screenshots"][0]["id"] is None
    assert api.client.get(api.url("/screenshots")).json["total"] == 0
    assert stored_files(app) == []


@pytest.mark.parametrize("name", ["../escape.png", "/absolute.png", "C:drive.png", "a/../../b.png"])
def test_a_member_outside_the_archive_is_refused(app, api, name):
    response = send(api, zip_of({name: picture()}))
    assert response.status_code == 400
    assert "points outside the archive" in response.json["error"]
    assert stored_files(app) == []


def test_a_zip_bomb_is_refused_before_it_is_unpacked(api):
    response = send(api, zip_of({"bomb.png": b"\x00" * (8 * 1024 * 1024)}))
    assert response.status_code == 400
    assert "unpacks to too much data" in response.json["error"]


def test_an_archive_of_too_many_images_is_refused(api, monkeypatch):
    monkeypatch.setattr(archive, "MOST_IMAGES", 2)
    images = {f"{i}.png": picture(color=(i, i, i)) for i in range(3)}
    response = send(api, zip_of(images))
    assert response.status_code == 400
    assert "more than 2 images" in response.json["error"]
    assert api.client.get(api.url("/screenshots")).json["total"] == 0


def test_an_archive_of_too_many_members_is_refused(api):
    response = send(api, zip_of({f"{i}.txt": b"" for i in range(10_001)}, zipfile.ZIP_STORED))
    assert response.status_code == 400
    assert "members; at most 10,000" in response.json["error"]


@pytest.fixture
def config_overrides(request, tmp_path):
    return {"LOKO_SCREENSHOTS_DIR": str(tmp_path / "screenshots"), **getattr(request, "param", {})}


@pytest.mark.parametrize("config_overrides", [{"LOKO_SCREENSHOT_MAX_MB": 1}], indirect=True)
def test_a_member_over_the_image_limit_is_a_413_naming_it(api):
    response = send(api, zip_of({"huge.png": picture() + b"\x01" * (2 * 1024 * 1024)}, zipfile.ZIP_STORED))
    assert response.status_code == 413
    assert "'huge.png'" in response.json["error"] and "LOKO_SCREENSHOT_MAX_MB" in response.json["error"]


@pytest.mark.parametrize("config_overrides", [{"LOKO_SCREENSHOTS_PER_PROJECT": 1}], indirect=True)
def test_an_archive_keeps_the_project_within_its_screenshot_limit(api):
    response = send(api, zip_of({"a.png": picture(color=(1, 1, 1)), "b.png": picture(color=(2, 2, 2))}))
    assert response.status_code == 400
    assert "at most 1 (LOKO_SCREENSHOTS_PER_PROJECT)" in response.json["error"]


@pytest.mark.parametrize(
    "data", [b"", b"not a zip at all", b"PK\x03\x04broken"], ids=["empty", "not a zip", "damaged"]
)
def test_what_is_not_a_zip_of_images_is_a_400_naming_file(api, data):
    response = send(api, data)
    assert response.status_code == 400
    assert response.json["error"].startswith("file:")


def test_an_archive_of_no_image_is_a_400(api):
    response = send(api, zip_of({"screenshots.json": manifest()}))
    assert response.status_code == 400
    assert "no image" in response.json["error"]


def test_a_multipart_upload_takes_the_zip_in_the_field_file(api):
    data = {"file": (io.BytesIO(zip_of({"a.png": picture()})), "shots.zip")}
    response = api.client.post(api.url(ARCHIVE), data=data, content_type="multipart/form-data")
    assert response.status_code == 200, response.json
    assert response.json["summary"]["screenshotsCreated"] == 1


def test_a_trashed_screenshot_in_the_archive_is_restored(api, keys):
    shot = shot_with_title(api, keys)
    exported = api.client.get(api.url(ARCHIVE)).data
    assert api.client.delete(api.url(f"/screenshots/{shot['id']}")).status_code == 200
    response = send(api, exported)
    assert response.status_code == 200, response.json
    assert response.json["screenshots"][0]["restored"] is True
    assert response.json["screenshots"][0]["id"] == shot["id"]
    assert api.client.get(api.url("/screenshots")).json["total"] == 1


def test_the_archive_endpoints_are_in_the_openapi_document(client):
    document = client.get("/api/openapi.json").json
    path = document["paths"]["/api/projects/{project_id}/screenshots/archive"]
    assert set(path["get"]["responses"]["200"]["content"]) == {"application/zip", "application/json"}
    assert path["post"]["responses"]["200"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/ScreenshotArchiveResult"
    }
    region_schema = document["components"]["schemas"]["ScreenshotArchiveRegion"]
    assert {"fileName", "key", "x", "y", "width", "height"} <= set(region_schema["required"])
