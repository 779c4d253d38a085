"""Keys found on a screenshot by OCR: an uploaded screenshot is read in a background job and
the keys whose English texts it shows are proposed as regions, which a person confirms;
without tesseract nothing is queued and the page says so."""

import io
import shutil

import pytest
from PIL import Image, ImageDraw, ImageFont

from loko.screenshots import ocr, service
from tests.screenshots.conftest import upload
from tests.webhooks.conftest import run_jobs

needs_tesseract = pytest.mark.skipif(
    shutil.which("tesseract") is None, reason="tesseract is not installed (apt-get install tesseract-ocr)"
)


def rendered_screen() -> bytes:
    """A 1280x720 screen with three labels, drawn here."""
    image = Image.new("RGB", (1280, 720), "white")
    draw = ImageDraw.Draw(image)
    font = ImageFont.load_default(size=32)
    draw.text((60, 50), "Welcome back", fill="black", font=font)
    draw.text((60, 200), "Save changes", fill="black", font=font)
    draw.text((700, 400), "You have 3 items in your cart", fill="black", font=font)
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


@pytest.fixture
def keyed(api) -> dict[str, str]:
    texts = {
        "home.title": "Welcome back",
        "form.save": "Save changes",
        "cart.count": "You have {count} items in your cart",
        "nowhere": "Delete my account",
    }
    return {key: api.create(key, {"en": text})["id"] for key, text in texts.items()}


def regions_of(api, shot_id: str) -> dict[str, dict]:
    detail = api.client.get(api.url(f"/screenshots/{shot_id}")).json["screenshot"]
    return {region["key"]: region for region in detail["regionList"]}


@needs_tesseract
def test_the_keys_shown_on_an_uploaded_screenshot_are_proposed_and_confirmed(app, api, keyed):
    shot = upload(api.client, api, ("home.png", rendered_screen())).json["screenshots"][0]
    assert regions_of(api, shot["id"]) == {}
    assert run_jobs(app) >= 1
    proposed = regions_of(api, shot["id"])
    assert set(proposed) == {"home.title", "form.save", "cart.count"}
    assert all(region["state"] == "proposed" for region in proposed.values())
    title = proposed["home.title"]
    assert abs(title["x"] - 60) < 15 and abs(title["y"] - 50) < 20 and title["width"] > 100
    region_url = api.url(f"/screenshots/{shot['id']}/regions/{title['id']}")
    confirmed = api.client.patch(region_url, json={"state": "confirmed"})
    assert confirmed.status_code == 200 and confirmed.json["region"]["state"] == "confirmed"


@needs_tesseract
def test_reading_a_screenshot_again_proposes_nothing_new(app, api, keyed):
    shot = upload(api.client, api, ("home.png", rendered_screen())).json["screenshots"][0]
    run_jobs(app)
    first = regions_of(api, shot["id"])
    with app.app_context():
        from loko.screenshots.jobs import read_screenshot

        assert read_screenshot(None, {"screenshotId": shot["id"]})["proposed"] == 0
    assert regions_of(api, shot["id"]).keys() == first.keys()


def test_without_tesseract_nothing_is_queued_and_the_page_says_so(app, api, keyed, monkeypatch):
    monkeypatch.setattr(ocr.shutil, "which", lambda _name: None)
    assert not service.ocr.available()
    shot = upload(api.client, api, ("home.png", rendered_screen())).json["screenshots"][0]
    assert run_jobs(app) == 0
    assert regions_of(api, shot["id"]) == {}
    page = api.owner.get(f"/projects/{api.project_id}/screenshots").get_data(as_text=True)
    assert "tesseract is not installed" in page
