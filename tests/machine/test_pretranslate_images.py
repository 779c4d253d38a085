"""Pre-translation and screenshots: a language model marked `seesImages` is sent, for each
key on an active screenshot, that key alone with its screenshot cut around its region (an
image part the chat completions description allows, at detail low) and a context naming the
key and the region; the other keys go in batches without an image. A provider not marked, a
key on no screenshot or only on a trashed one, sends no image; the dry run counts the images
and the requests; the pictures are read in a query per few keys, not one per key."""

import base64
import io
import json

import pytest
from PIL import Image
from sqlalchemy import event, select

from loko.extensions import db
from loko.machine import pretranslate
from loko.translations.models import Translation
from tests.machine.conftest import stand_in
from tests.machine.test_api import add_provider
from tests.machine.test_pretranslate import pretranslated, run_jobs, start, upsert, url, values
from tests.machine.test_screenshot_context import config_overrides  # noqa: F401 (a fixture)
from tests.pages.conftest import page_as  # noqa: F401 (a fixture)
from tests.screenshots.conftest import picture

SOURCE = {"cart.pay": "Pay now", "cart.title": "Your cart", "cart.empty": "Nothing here", "cart.back": "Back"}


@pytest.fixture
def owner(as_caller):
    return as_caller("org_owner")


@pytest.fixture
def project(world, owner, app):
    """English (the source) and German; the keys of ``SOURCE`` in ``common``: ``{key: id}``."""
    for code in ("en", "de"):
        assert owner.post(url(world, "/languages"), json={"code": code}).status_code == 201
    upsert(owner, world, "en", SOURCE)
    with app.app_context():
        rows = db.session.execute(
            select(Translation.key, Translation.id).where(Translation.project_id == world.project_id)
        )
        return dict(rows.all())


@pytest.fixture
def model():
    with stand_in("openai") as running:
        yield running


def screenshot(as_caller, world, name: str, color) -> dict:
    response = as_caller("write_key").post(
        url(world, "/screenshots"),
        data={"files": [(io.BytesIO(picture(1200, 800, color=color)), name)]},
        content_type="multipart/form-data",
    )
    assert response.status_code == 201, response.json
    return response.json["screenshots"][0]


def place(as_caller, world, shot: dict, translation_id: str, x=100, y=200) -> None:
    body = {"translationId": translation_id, "x": x, "y": y, "width": 240, "height": 60}
    response = as_caller("write_key").post(url(world, f"/screenshots/{shot['id']}/regions"), json=body)
    assert response.status_code == 201, response.json


def texts_and_images(model) -> list[tuple[list[str], int]]:
    """Each request's texts and its number of image parts, in a stable order."""
    asked = [(model.texts_of(call["body"]), len(model.images_of(call["body"]))) for call in model.calls]
    return sorted(asked)


def test_a_model_that_sees_images_gets_each_key_on_a_screenshot_alone_with_its_picture(
    app, world, owner, as_caller, model, project
):
    provider = add_provider(as_caller, world, model, seesImages=True)
    shot = screenshot(as_caller, world, "checkout.png", (250, 250, 250))
    place(as_caller, world, shot, project["cart.pay"], x=900, y=700)
    place(as_caller, world, shot, project["cart.title"], x=10, y=10)
    job = pretranslated(app, owner, world, sources={"provider": provider["id"]})
    assert job["state"] == "succeeded", job
    assert job["result"]["fromProvider"] == 4
    assert texts_and_images(model) == [(["Back", "Nothing here"], 0), (["Pay now"], 1), (["Your cart"], 1)]
    (pay,) = [call for call in model.calls if model.texts_of(call["body"]) == ["Pay now"]]
    (part,) = model.images_of(pay["body"])
    assert part["image_url"]["detail"] == "low"
    data_url = part["image_url"]["url"]
    assert data_url.startswith("data:image/jpeg;base64,")
    sent = Image.open(io.BytesIO(base64.b64decode(data_url.split(",", 1)[1])))
    assert sent.format == "JPEG" and max(sent.size) <= 512
    context = json.loads(model.request_text(pay["body"]["messages"][-1]))["context"]
    assert "Key: cart.pay" in context and "File: common" in context
    assert "checkout.png" in context and "red rectangle (x 900, y 700, 240x60 pixels)" in context
    assert set(values(app, world, "de")) == set(SOURCE)


@pytest.mark.parametrize(("marked", "trashed"), [(False, False), (True, True)], ids=["not marked", "trashed"])
def test_a_provider_not_marked_or_a_key_only_on_a_trashed_screenshot_sends_no_image(
    app, world, owner, as_caller, model, project, marked, trashed
):
    provider = add_provider(as_caller, world, model, seesImages=marked)
    shot = screenshot(as_caller, world, "checkout.png", (250, 250, 250))
    place(as_caller, world, shot, project["cart.pay"])
    if trashed:
        assert as_caller("write_key").delete(url(world, f"/screenshots/{shot['id']}")).status_code == 200
    job = pretranslated(app, owner, world, sources={"provider": provider["id"]})
    assert job["result"]["fromProvider"] == 4
    assert texts_and_images(model) == [(["Back", "Nothing here", "Pay now", "Your cart"], 0)]


def test_the_dry_run_counts_the_images_and_their_requests(app, world, owner, as_caller, model, project):
    provider = add_provider(as_caller, world, model, seesImages=True)
    shot = screenshot(as_caller, world, "checkout.png", (250, 250, 250))
    place(as_caller, world, shot, project["cart.pay"])
    response = start(owner, world, sources={"provider": provider["id"]}, dryRun=True)
    assert response.status_code == 200, response.json
    estimate = response.json
    assert (estimate["providerImages"], estimate["providerRequests"], estimate["providerTexts"]) == (1, 2, 4)
    assert estimate["languages"][0]["providerImages"] == 1
    assert model.calls == []
    plain = add_provider(as_caller, world, model, name="No images")
    blind = start(owner, world, sources={"provider": plain["id"]}, dryRun=True).json
    assert (blind["providerImages"], blind["providerRequests"]) == (0, 1)


def test_the_pictures_are_read_a_few_keys_a_query(app, world, owner, as_caller, model, project, monkeypatch):
    provider = add_provider(as_caller, world, model, seesImages=True)
    shot = screenshot(as_caller, world, "checkout.png", (250, 250, 250))
    for index, key in enumerate(sorted(project)):
        place(as_caller, world, shot, project[key], x=10 + 250 * index)
    monkeypatch.setattr(pretranslate, "PICTURES_READ", 3)
    reads = []

    def count(_conn, _cursor, statement, *_args):
        if "FROM screenshots JOIN screenshot_regions" in statement and "IN (" in statement:
            reads.append(statement)

    with app.app_context():
        event.listen(db.engine, "before_cursor_execute", count)
        try:
            response = start(owner, world, sources={"provider": provider["id"]})
            assert response.status_code == 202, response.json
            run_jobs(app)
        finally:
            event.remove(db.engine, "before_cursor_execute", count)
    assert len(reads) == 2  # 4 keys, 3 a query
    assert texts_and_images(model) == [([text], 1) for text in sorted(SOURCE.values())]


def test_the_page_s_estimate_tells_the_keys_sent_with_a_screenshot(page_as, world, as_caller, model, project):  # noqa: F811
    provider = add_provider(as_caller, world, model, seesImages=True)
    shot = screenshot(as_caller, world, "checkout.png", (250, 250, 250))
    place(as_caller, world, shot, project["cart.pay"])
    response = page_as("editor").submit(
        f"/projects/{world.project_id}/pretranslate",
        {"languages": ["de"], "provider": provider["id"], "estimate": "true"},
    )
    assert response.status_code == 200
    assert "1 key is on a screenshot: each goes to the provider alone" in response.get_data(as_text=True)
    assert model.calls == []
