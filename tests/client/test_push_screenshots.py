"""``loko push --screenshots DIR`` against a fake server: the one request it makes, what it
packs, what it prints and refuses. The same against a real server: test_against_server.py."""

import io
import json
import zipfile

import httpx
import pytest
from PIL import Image

from tests.client.conftest import PROJECT_ID, write, write_config

ARCHIVE = f"/api/projects/{PROJECT_ID}/screenshots/archive"


def png(color=(200, 30, 30)) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (40, 30), color).save(out, "PNG")
    return out.getvalue()


def archive_result(dry_run=False, created=1, skipped=()) -> dict:
    return {
        "dryRun": dry_run,
        "summary": {
            "screenshotsCreated": created,
            "screenshotsFound": 0,
            "screenshotsRestored": 0,
            "regionsAdded": 1,
            "regionsExisting": 0,
            "regionsSkipped": len(skipped),
        },
        "screenshots": [
            {
                "image": "home.png",
                "id": None if dry_run else "0190d2a4-0000-7000-8000-000000000001",
                "name": "home.png",
                "sha256": "0" * 64,
                "created": bool(created),
                "restored": False,
                "regionsAdded": 1,
                "regionsExisting": 0,
            }
        ],
        "skipped": list(skipped),
    }


@pytest.fixture
def shots(workdir):
    """A configured folder with ``shots/``: two images and a note."""
    write_config(workdir)
    write(
        workdir, {"shots/home.png": png(), "shots/settings/dark.png": png((1, 2, 3)), "shots/notes.txt": "x"}
    )
    return workdir / "shots"


def sent_members(fake_server) -> dict[str, bytes]:
    (request,) = fake_server.requests
    with zipfile.ZipFile(io.BytesIO(request.content)) as zipped:
        return {info.filename: zipped.read(info) for info in zipped.infolist()}


def test_push_screenshots_sends_the_images_in_one_zip_in_one_request(loko, shots, fake_server):
    fake_server.answers[("POST", ARCHIVE)] = httpx.Response(200, json=archive_result())
    result = loko("push", "--screenshots", "shots")
    assert result.exit_code == 0, result.output
    assert sorted(sent_members(fake_server)) == ["home.png", "settings/dark.png"]
    (request,) = fake_server.requests
    assert request.headers["Content-Type"] == "application/zip"
    assert request.url.params["dryRun"] == "false"
    assert "notes.txt is not a PNG, JPEG or WebP image" in result.stderr


def test_push_screenshots_sends_the_sidecar_with_the_images(loko, shots, fake_server):
    sidecar = json.dumps({"screenshots": [{"image": "home.png", "regions": []}]})
    write(shots, {"screenshots.json": sidecar})
    fake_server.answers[("POST", ARCHIVE)] = httpx.Response(200, json=archive_result())
    assert loko("push", "--screenshots", "shots").exit_code == 0
    assert sent_members(fake_server)["screenshots.json"] == sidecar.encode()


def test_push_screenshots_prints_what_was_created_and_skipped(loko, shots, fake_server):
    skipped = {"image": "home.png", "fileName": "common", "key": "gone", "reason": "unknown-key"}
    skipped["message"] = "no key 'gone' in the file 'common'."
    fake_server.answers[("POST", ARCHIVE)] = httpx.Response(200, json=archive_result(skipped=[skipped]))
    result = loko("push", "--screenshots", "shots")
    assert result.stdout.splitlines()[:4] == [
        "shots: 2 image(s) sent, no screenshots.json",
        "  screenshots: 1 created, 0 found (0 restored from the trash); regions: 1 added, 0 already "
        "there, 1 skipped",
        "  + home.png (new screenshot, 1 region(s) added)",
        "  ! home.png: region of common: gone skipped: no key 'gone' in the file 'common'.",
    ]


def test_push_screenshots_json_prints_the_servers_answer(loko, shots, fake_server):
    fake_server.answers[("POST", ARCHIVE)] = httpx.Response(200, json=archive_result())
    result = loko("push", "--screenshots", "shots", "--json")
    assert json.loads(result.stdout) == archive_result()


def test_push_screenshots_dry_run_asks_for_a_dry_run_and_fails_on_diff(loko, shots, fake_server):
    fake_server.answers[("POST", ARCHIVE)] = httpx.Response(200, json=archive_result(dry_run=True))
    result = loko("push", "--screenshots", "shots", "--dry-run", "--fail-on-diff")
    assert result.exit_code == 3
    assert fake_server.requests[0].url.params["dryRun"] == "true"
    assert "Dry run: nothing was changed on the server." in result.stdout


@pytest.mark.parametrize(
    "option",
    [("--mode", "only-new"), ("--removed-keys", "trash"), ("--language", "de"), ("--async", "never")],
)
def test_push_screenshots_refuses_the_options_of_translation_files(loko, shots, fake_server, option):
    result = loko("push", "--screenshots", "shots", *option)
    assert result.exit_code == 2
    assert f"{option[0]} is for translation files, not --screenshots" in result.stderr
    assert fake_server.requests == []


def test_push_screenshots_of_a_folder_without_images_fails(loko, workdir, fake_server):
    write_config(workdir)
    write(workdir, {"empty/readme.txt": "x"})
    result = loko("push", "--screenshots", "empty")
    assert result.exit_code == 1
    assert "no PNG, JPEG or WebP image in empty" in result.stderr
    assert fake_server.requests == []


@pytest.mark.parametrize(
    ("sidecar", "message"),
    [
        ("{oops", "screenshots.json is not valid JSON"),
        ('{"shots": []}', 'must be an object with a list "screenshots"'),
        ('{"screenshots": [{"image": "missing.png"}]}', "screenshots.0.image: 'missing.png' is not a PNG"),
    ],
)
def test_push_screenshots_refuses_a_sidecar_that_does_not_fit_the_folder(
    loko, shots, fake_server, sidecar, message
):
    write(shots, {"screenshots.json": sidecar})
    result = loko("push", "--screenshots", "shots")
    assert result.exit_code == 1
    assert message in result.stderr
    assert fake_server.requests == []


def test_push_screenshots_says_how_to_get_under_the_size_limit(loko, shots, fake_server):
    limit = "the screenshot upload limit (LOKO_MAX_SCREENSHOT_UPLOAD_MB)"
    error = {"error": f"Request body is larger than 64 MiB, {limit}."}
    fake_server.answers[("POST", ARCHIVE)] = httpx.Response(413, json=error)
    result = loko("push", "--screenshots", "shots")
    assert result.exit_code == 1
    assert "LOKO_MAX_SCREENSHOT_UPLOAD_MB" in result.stderr and "push fewer images at a time" in result.stderr


def test_push_screenshots_prints_the_servers_refusal(loko, shots, fake_server):
    error = {"error": "file: the archive member 'home.png': not a PNG, JPEG or WebP image."}
    fake_server.answers[("POST", ARCHIVE)] = httpx.Response(400, json=error)
    result = loko("push", "--screenshots", "shots")
    assert result.exit_code == 1
    assert "the archive member 'home.png'" in result.stderr and "(HTTP 400)" in result.stderr
