"""Uploading screenshots (REST): PNG, JPEG and WebP only, read behind a pixel limit,
re-encoded without metadata, stored once per picture, all or none."""

import io
import struct
import zlib
from pathlib import Path

import pytest
from PIL import Image

from tests.screenshots.conftest import picture, stored_files, upload


def test_an_uploaded_png_is_a_screenshot_with_its_size_and_previews(app, api):
    response = upload(api.client, api, ("home.png", picture(640, 480)))
    assert response.status_code == 201, response.json
    (shot,) = response.json["screenshots"]
    assert (shot["name"], shot["mediaType"], shot["width"], shot["height"]) == (
        "home.png",
        "image/png",
        640,
        480,
    )
    assert shot["created"] is True and shot["regions"] == 0
    assert len(stored_files(app)) == 3  # the image, its thumbnail and its preview
    listed = api.client.get(api.url("/screenshots")).json
    assert listed["total"] == 1 and listed["screenshots"][0]["id"] == shot["id"]


def test_several_images_are_uploaded_at_once(api):
    response = upload(
        api.client,
        api,
        ("a.png", picture(color=(1, 2, 3))),
        ("b.jpg", picture(kind="JPEG", color=(9, 9, 9))),
        ("c.webp", picture(kind="WEBP", color=(50, 60, 70))),
    )
    assert response.status_code == 201, response.json
    assert [shot["mediaType"] for shot in response.json["screenshots"]] == [
        "image/png",
        "image/jpeg",
        "image/webp",
    ]


def test_the_same_picture_uploaded_again_is_the_same_screenshot(app, api):
    first = upload(api.client, api, ("home.png", picture())).json["screenshots"][0]
    again = upload(api.client, api, ("copy.png", picture()))
    assert again.status_code == 201
    assert again.json["screenshots"][0]["id"] == first["id"]
    assert again.json["screenshots"][0]["created"] is False
    assert api.client.get(api.url("/screenshots")).json["total"] == 1
    assert len(stored_files(app)) == 3


def test_the_same_picture_uploaded_again_brings_back_its_missing_files(app, api):
    first = upload(api.client, api, ("home.png", picture()))
    shown = first.json["screenshots"][0]
    for path in Path(app.config["LOKO_SCREENSHOTS_DIR"]).rglob("*"):
        if path.is_file():
            path.unlink()
    assert api.client.get(shown["urls"]["image"]).status_code == 404
    again = upload(api.client, api, ("home.png", picture()))
    assert again.status_code == 201, again.json
    assert again.json["screenshots"][0]["id"] == shown["id"]
    assert api.client.get(shown["urls"]["thumbnail"]).status_code == 200
    assert len(stored_files(app)) == 3


def test_a_raw_image_body_is_taken_with_its_name(api):
    response = api.client.post(
        api.url("/screenshots"), query_string={"name": "raw.png"}, data=picture(), content_type="image/png"
    )
    assert response.status_code == 201
    assert response.json["screenshots"][0]["name"] == "raw.png"


def test_exif_and_gps_are_not_stored(api):
    image = Image.new("RGB", (32, 32), (10, 20, 30))
    exif = Image.Exif()
    exif[0x010F] = "Camera maker"
    exif[0x8825] = {1: "N", 2: (52.0, 31.0, 12.0)}  # GPS
    out = io.BytesIO()
    image.save(out, "JPEG", exif=exif)
    assert b"Camera maker" in out.getvalue()
    shot = upload(api.client, api, ("photo.jpg", out.getvalue())).json["screenshots"][0]
    stored = api.client.get(shot["urls"]["image"]).data
    assert b"Camera maker" not in stored
    assert not Image.open(io.BytesIO(stored)).getexif()


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("logo.svg", b'<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>', "not a PNG"),
        ("anim.gif", b"GIF89a" + b"\x00" * 40, "not a PNG"),
        ("polyglot.png", picture() + b"<html><script>alert(1)</script></html>", "after its end"),
        ("zip.png", picture() + b"PK\x03\x04" + b"\x00" * 30, "after its end"),
        ("empty.png", b"", "files"),
    ],
)
def test_a_file_that_is_not_only_an_image_is_refused_and_nothing_is_stored(app, api, name, content, message):
    response = upload(api.client, api, ("good.png", picture()), (name, content))
    assert response.status_code == 400
    assert "files[1]" in response.json["error"] and message in response.json["error"]
    assert api.client.get(api.url("/screenshots")).json["total"] == 0
    assert stored_files(app) == []


def bomb(width: int, height: int) -> bytes:
    """A PNG whose header claims ``width`` x ``height`` pixels, in a few hundred bytes."""

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    rows = zlib.compress(b"\x00" * (width // 8 + 1) * 16)
    header = struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", rows) + chunk(b"IEND", b"")


def test_a_decompression_bomb_is_refused_before_it_is_decoded(app, api):
    response = upload(api.client, api, ("bomb.png", bomb(100_000, 100_000)))
    assert response.status_code == 400
    assert "pixels" in response.json["error"] and "files[0]" in response.json["error"]
    assert stored_files(app) == []


@pytest.mark.parametrize("config_overrides", [{"LOKO_SCREENSHOT_MAX_PIXELS": 1000}], indirect=True)
def test_the_pixel_limit_is_a_setting(api):
    response = upload(api.client, api, ("big.png", picture(100, 100)))
    assert response.status_code == 400
    assert "10,000 pixels" in response.json["error"] and "at most 1,000" in response.json["error"]


@pytest.fixture
def config_overrides(request, tmp_path):
    return {"LOKO_SCREENSHOTS_DIR": str(tmp_path / "screenshots"), **getattr(request, "param", {})}


@pytest.mark.parametrize("config_overrides", [{"LOKO_SCREENSHOT_MAX_MB": 1}], indirect=True)
def test_an_image_over_the_size_limit_is_refused_with_413(app, api):
    noise = Image.frombytes("RGB", (700, 700), bytes(range(256)) * (700 * 700 * 3 // 256 + 1))
    out = io.BytesIO()
    noise.save(out, "PNG", compress_level=0)
    assert len(out.getvalue()) > 1024 * 1024
    response = api.client.post(
        api.url("/screenshots"),
        query_string={"name": "huge.png"},
        data=out.getvalue(),
        content_type="image/png",
    )
    assert response.status_code == 413
    assert "files[0]" in response.json["error"] and "LOKO_SCREENSHOT_MAX_MB" in response.json["error"]
    assert stored_files(app) == []


@pytest.mark.parametrize("config_overrides", [{"LOKO_MAX_SCREENSHOT_UPLOAD_MB": 1}], indirect=True)
def test_an_upload_over_the_request_limit_is_refused_with_413(app, api):
    response = api.client.post(
        api.url("/screenshots"), data=picture() + b"\x00" * (2 * 1024 * 1024), content_type="image/png"
    )
    assert response.status_code == 413
    assert "the screenshot upload limit (LOKO_MAX_SCREENSHOT_UPLOAD_MB)" in response.json["error"]
    assert stored_files(app) == []


@pytest.mark.parametrize("config_overrides", [{"LOKO_SCREENSHOTS_PER_PROJECT": 2}], indirect=True)
def test_a_project_holds_at_most_its_screenshot_limit(api):
    assert upload(api.client, api, ("a.png", picture(color=(1, 1, 1)))).status_code == 201
    response = upload(
        api.client, api, ("b.png", picture(color=(2, 2, 2))), ("c.png", picture(color=(3, 3, 3)))
    )
    assert response.status_code == 400
    assert "at most 2" in response.json["error"]
    assert api.client.get(api.url("/screenshots")).json["total"] == 1


def test_no_file_is_a_400_naming_files(api):
    response = api.client.post(api.url("/screenshots"), data={}, content_type="multipart/form-data")
    assert response.status_code == 400
    assert response.json["error"].startswith("files")


def test_a_name_keeps_only_its_last_path_part(api):
    shot = upload(api.client, api, ("../../etc/passwd.png", picture())).json["screenshots"][0]
    assert shot["name"] == "passwd.png"
