"""A key's screenshot sent to a language model that sees images: with a suggestion, a
provider marked `seesImages` gets the screenshot cropped around the key's region (an image
part the chat completions description allows) and the region named in the context; a
provider not marked, or a key on no screenshot, gets none."""

import base64
import io

import pytest
from PIL import Image

from tests.machine.conftest import stand_in
from tests.machine.test_api import add_provider, providers_url, suggestions
from tests.screenshots.conftest import picture


@pytest.fixture
def config_overrides(tmp_path):
    return {
        "LOKO_OUTBOUND_ALLOW_PRIVATE": True,
        "LOKO_SCREENSHOTS_DIR": str(tmp_path / "screenshots"),
        "LOKO_SCREENSHOT_MODEL_SIDE": 512,
    }


@pytest.fixture
def model():
    with stand_in("openai") as running:
        yield running


@pytest.fixture
def pay_key(app, world, as_caller) -> str:
    """The project in English (its source) and German, with the key ``cart.pay``; its id."""
    owner = as_caller("org_owner")
    for code in ("en", "de"):
        owner.post(f"/api/projects/{world.project_id}/languages", json={"code": code})
    created = owner.post(
        f"/api/projects/{world.project_id}/translations",
        json={"key": "cart.pay", "fileName": "common", "values": {"en": "Pay now"}},
    )
    assert created.status_code == 201, created.json
    return created.json["translation"]["id"]


def place_on_screenshot(as_caller, world, translation_id: str) -> None:
    writer = as_caller("write_key")
    base = f"/api/projects/{world.project_id}/screenshots"
    upload = writer.post(
        base,
        data={"files": [(io.BytesIO(picture(1600, 1000, color=(250, 250, 250))), "checkout.png")]},
        content_type="multipart/form-data",
    )
    assert upload.status_code == 201, upload.json
    shot = upload.json["screenshots"][0]
    body = {"translationId": translation_id, "x": 1200, "y": 800, "width": 240, "height": 60}
    assert writer.post(f"{base}/{shot['id']}/regions", json=body).status_code == 201


QUERY = {"fileName": "common", "key": "cart.pay", "language": "de"}


def test_a_model_that_sees_images_gets_the_key_s_screenshot_and_its_region(
    app, world, as_caller, model, pay_key
):
    add_provider(as_caller, world, model, seesImages=True)
    place_on_screenshot(as_caller, world, pay_key)
    response = suggestions(as_caller, world, QUERY)
    assert response.status_code == 200, response.json
    assert [s["source"] for s in response.json["suggestions"] if s["source"] == "machine"] == ["machine"]
    (call,) = model.calls
    (part,) = model.images_of(call["body"])
    url = part["image_url"]["url"]
    assert url.startswith("data:image/jpeg;base64,")
    sent = Image.open(io.BytesIO(base64.b64decode(url.split(",", 1)[1])))
    assert sent.format == "JPEG" and max(sent.size) <= 512
    context = model.request_text(call["body"]["messages"][-1])
    assert "red rectangle (x 1200, y 800, 240x60 pixels)" in context
    assert "checkout.png" in context


def test_a_model_not_marked_gets_no_image(app, world, as_caller, model, pay_key):
    provider = add_provider(as_caller, world, model)
    assert provider["seesImages"] is False
    place_on_screenshot(as_caller, world, pay_key)
    assert suggestions(as_caller, world, QUERY).status_code == 200
    (call,) = model.calls
    assert isinstance(call["body"]["messages"][-1]["content"], str)
    assert model.images_of(call["body"]) == []


def test_a_key_on_no_screenshot_sends_no_image(app, world, as_caller, model, pay_key):
    add_provider(as_caller, world, model, seesImages=True)
    assert suggestions(as_caller, world, QUERY).status_code == 200
    (call,) = model.calls
    assert model.images_of(call["body"]) == []
    assert "red rectangle" not in model.request_text(call["body"]["messages"][-1])


def test_only_a_language_model_is_kept_as_seeing_images(app, world, as_caller):
    with stand_in("deepl") as deepl:
        body = {"kind": "deepl", "baseUrl": deepl.url, "apiKey": "k", "seesImages": True}
        response = as_caller("org_owner").post(providers_url(world), json=body)
    assert response.status_code == 201
    assert response.json["provider"]["seesImages"] is False
