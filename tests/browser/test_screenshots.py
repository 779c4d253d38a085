"""Screenshots in a real browser, found by their labels: two images uploaded at once, a key's
region drawn with the mouse on one and typed on the other, the key then shown beside its row
in the editor (a thumbnail opening its details' screenshots, with Previous, Next and a zoom)
and left out by the "on no screenshot" filter; a region moved and resized from the keyboard
and with the mouse; and the keys OCR finds on a rendered screen proposed, one confirmed and
one rejected."""

import base64
import re
import shutil
import time

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import check_accessibility
from tests.browser.test_editor import add_keys, call, new_project, open_editor
from tests.screenshots.conftest import picture
from tests.screenshots.test_ocr import rendered_screen


def image(name: str, color) -> dict:
    return {"name": name, "mimeType": "image/png", "buffer": picture(800, 600, color=color)}


def upload(page, project_id: str, *files: dict) -> None:
    page.goto(f"/projects/{project_id}/screenshots")
    page.get_by_label("Images").set_input_files(list(files))
    page.get_by_role("button", name="Upload").click()
    count = len(files)
    expect(page.get_by_text(f"{count} screenshot{'s' if count > 1 else ''} uploaded.")).to_be_visible()


def picture_of(page):
    """The screenshot's picture (a group of its regions, for whoever may edit)."""
    return page.get_by_role("figure").locator("svg")


def place_typed(page, key: str, numbers: tuple[int, int, int, int]) -> None:
    """Place ``key`` with the "Place a key" form, its region's numbers typed."""
    place = page.get_by_role("form", name="Place a key")
    place.get_by_label("Key", exact=True).fill(key)
    place.get_by_label("File").select_option("common")
    for label, value in zip(("Left (x)", "Top (y)", "Width", "Height"), numbers, strict=True):
        place.get_by_label(label).fill(str(value))
    page.get_by_role("button", name="Place the key").click()
    expect(page.get_by_text(f"{key} placed on the screenshot.")).to_be_visible()


def drag(page, box: dict, scale: float, start: tuple[int, int], end: tuple[int, int]) -> None:
    """Press at ``start`` and let go at ``end``, both in the image's pixels."""
    page.mouse.move(box["x"] + start[0] * scale, box["y"] + start[1] * scale)
    page.mouse.down()
    page.mouse.move(box["x"] + end[0] * scale, box["y"] + end[1] * scale, steps=5)
    page.mouse.up()


def rectangle(page, name) -> tuple[int, ...]:
    region = page.get_by_role("button", name=name)
    return tuple(int(region.get_attribute(side)) for side in ("x", "y", "width", "height"))


def test_a_key_placed_on_two_screenshots_shows_beside_its_row_and_in_its_details(page):
    project_id = new_project(page, languages=("en",))
    add_keys(page, project_id, "en", {"home.title": "Welcome", "home.save": "Save"})
    page.goto(f"/projects/{project_id}")
    page.get_by_role("navigation", name="Project").get_by_role("link", name="Screenshots").click()
    expect(page.get_by_text("No screenshots yet.")).to_be_visible()
    upload(page, project_id, image("home.png", (240, 240, 250)), image("cart.png", (20, 90, 40)))
    expect(page.get_by_role("heading", name="2 screenshots")).to_be_visible()
    check_accessibility(page)

    # On home.png the region is drawn with the mouse and its key typed.
    page.get_by_role("link", name="home.png").click()
    expect(page.get_by_role("heading", name="home.png", level=1)).to_be_visible()
    svg = page.get_by_role("group", name="home.png, with 0 key regions outlined")
    box = svg.bounding_box()
    scale = box["width"] / 800  # the picture is 800 pixels wide, shown at its box's width
    drag(page, box, scale, (100, 50), (300, 120))
    expect(page.get_by_label("Key", exact=True)).to_be_focused()
    place = page.get_by_role("form", name="Place a key")
    drawn = [
        int(place.get_by_label(label).input_value()) for label in ("Left (x)", "Top (y)", "Width", "Height")
    ]
    assert all(abs(got - want) <= 3 for got, want in zip(drawn, (100, 50, 200, 70), strict=True)), drawn
    page.keyboard.type("home.title")
    page.keyboard.press("Enter")
    expect(page.get_by_text("home.title placed on the screenshot.")).to_be_visible()
    expect(page.get_by_role("group", name="home.png, with 1 key region outlined")).to_be_visible()
    check_accessibility(page)

    # On cart.png its numbers are typed.
    page.get_by_role("link", name="All screenshots").click()
    page.get_by_role("link", name="cart.png").click()
    place_typed(page, "home.title", (40, 30, 300, 60))
    keys = page.get_by_role("table", name="Keys on cart.png")
    expect(keys.get_by_role("row", name="home.title common 40, 30, 300 \u00d7 60 Confirmed")).to_be_visible()

    open_editor(page, project_id)
    # Both were uploaded at once: either may be the first of the key's screenshots.
    thumbnail = page.get_by_role("link", name=re.compile(r"^Screenshot (home|cart)\.png, and 1 more$"))
    expect(thumbnail).to_be_visible()
    first = re.search(r"(home|cart)\.png", thumbnail.get_attribute("aria-label") or thumbnail.inner_html())[0]
    second = "cart.png" if first == "home.png" else "home.png"
    expect(page.get_by_role("row", name=re.compile("home.save")).get_by_role("link")).to_have_count(0)
    check_accessibility(page, "editor-screenshot-thumbnails")
    thumbnail.click()
    details = page.get_by_role("dialog", name="home.title")
    expect(details.get_by_role("heading", name="Screenshots (2)")).to_be_focused()
    expect(details.get_by_role("img", name=f"{first}, where home.title is shown")).to_be_visible()
    expect(details.get_by_text("1 of 2")).to_be_visible()
    details.get_by_role("button", name="Next screenshot").click()
    expect(details.get_by_text("2 of 2")).to_be_visible()
    shown = details.get_by_role("img", name=f"{second}, where home.title is shown")
    expect(shown).to_be_visible()
    expect(details.get_by_role("img", name=f"{first}, where home.title is shown")).to_be_hidden()
    zoom = details.get_by_role("button", name="Zoom in on the key")
    zoom.click()
    expect(zoom).to_have_attribute("aria-pressed", "true")
    left, top, width, _height = (float(n) for n in shown.get_attribute("viewBox").split())
    x, y, w = (40, 30, 300) if second == "cart.png" else (100, 50, 200)
    assert width < 800 and left <= x and left + width >= x + w and top <= y, shown.get_attribute("viewBox")
    check_accessibility(page, "editor-key-screenshots")
    page.keyboard.press("Escape")

    page.get_by_label("Screenshots", exact=True).select_option("without")
    page.get_by_role("button", name="Apply").click()
    grid = page.get_by_role("grid", name="Translations")
    expect(grid.get_by_role("rowheader")).to_have_count(1)
    expect(grid.get_by_role("rowheader", name="home.save common")).to_be_visible()


def test_a_region_is_moved_and_resized_from_the_keyboard_and_with_the_mouse(page):
    project_id = new_project(page, languages=("en",))
    add_keys(page, project_id, "en", {"home.title": "Welcome"})
    upload(page, project_id, image("home.png", (240, 240, 250)))
    page.get_by_role("link", name="home.png").click()
    place_typed(page, "home.title", (100, 100, 200, 50))

    region = page.get_by_role("button", name="home.title (common): left 100, top 100, 200 \u00d7 50")
    for _ in range(60):  # Tab through the page to the region, as a keyboard does
        page.keyboard.press("Tab")
        if region.evaluate("element => element === document.activeElement"):
            break
    expect(region).to_be_focused()
    for key in (
        "ArrowRight",
        "ArrowRight",
        "ArrowDown",
        "Control+ArrowRight",
        "Shift+ArrowRight",
        "Shift+ArrowUp",
    ):
        page.keyboard.press(key)
    expect(page.get_by_role("status").filter(has_text="Saved home.title")).to_have_text(
        "Saved home.title (common): left 112, top 101, 201 \u00d7 49."
    )
    check_accessibility(page, "screenshot-region-moved")
    page.reload()
    assert rectangle(page, "home.title (common): left 112") == (112, 101, 201, 49)
    keys = page.get_by_role("table", name="Keys on home.png")
    expect(
        keys.get_by_role("row", name="home.title common 112, 101, 201 \u00d7 49 Confirmed")
    ).to_be_visible()

    # With the mouse, to within a pixel or two of the screen's: grabbed inside, the region
    # moves; its bottom-right handle resizes it.
    svg = picture_of(page)
    box = svg.bounding_box()
    scale = box["width"] / 800
    status = page.locator("[data-region-status]")
    said = status.text_content()
    drag(page, box, scale, (150, 120), (250, 220))
    expect(status).not_to_have_text(said)
    expect(status).to_contain_text("Saved home.title")
    x, y, width, height = rectangle(page, re.compile(r"^home\.title \(common\): left"))
    assert abs(x - 212) <= 2 and abs(y - 201) <= 2 and (width, height) == (201, 49)
    said = status.text_content()
    corner = svg.locator(".handle.se").bounding_box()
    start = (corner["x"] + corner["width"] / 2, corner["y"] + corner["height"] / 2)
    page.mouse.move(*start)
    page.mouse.down()
    page.mouse.move(start[0] + 99 * scale, start[1] + 51 * scale, steps=5)
    page.mouse.up()
    expect(status).not_to_have_text(said)
    expect(status).to_contain_text("Saved home.title")
    page.reload()
    moved = rectangle(page, re.compile(r"^home\.title \(common\): left"))
    assert moved[:2] == (x, y) and abs(moved[2] - 300) <= 3 and abs(moved[3] - 100) <= 3, moved


@pytest.mark.skipif(
    shutil.which("tesseract") is None,
    reason="tesseract is not installed (apt-get install tesseract-ocr): OCR proposes no regions",
)
def test_the_keys_ocr_finds_are_proposed_and_a_person_confirms_one(page):
    project_id = new_project(page, languages=("en",))
    texts = {
        "home.title": "Welcome back",
        "form.save": "Save changes",
        "cart.count": "You have {count} items in your cart",
        "nowhere": "Delete my account",
    }
    add_keys(page, project_id, "en", texts)
    upload(page, project_id, {"name": "home.png", "mimeType": "image/png", "buffer": rendered_screen()})
    page.get_by_role("link", name="home.png").click()
    shot_id = page.url.rsplit("/", 1)[1]
    deadline = time.monotonic() + 60
    while not call(page, "GET", f"/api/projects/{project_id}/screenshots/{shot_id}")["screenshot"][
        "regionList"
    ]:
        assert time.monotonic() < deadline, "OCR proposed no region within a minute"
        page.wait_for_timeout(250)
    page.reload()

    keys = page.get_by_role("table", name="Keys on home.png")
    for key in ("home.title", "form.save", "cart.count"):
        expect(keys.get_by_role("row").filter(has_text=key)).to_contain_text("Proposed")
    expect(keys.get_by_role("row").filter(has_text="nowhere")).to_have_count(0)
    check_accessibility(page, "screenshot-proposed-regions")
    page.get_by_role("button", name="Confirm the region of home.title").click()
    expect(page.get_by_text("home.title's region confirmed.")).to_be_visible()
    expect(keys.get_by_role("row").filter(has_text="home.title")).to_contain_text("Confirmed")
    page.get_by_role("button", name="Reject the proposed region of form.save").click()
    expect(page.get_by_text("Proposed region rejected.")).to_be_visible()
    expect(keys.get_by_role("row").filter(has_text="form.save")).to_have_count(0)
    expect(keys.get_by_role("row").filter(has_text="cart.count")).to_contain_text("Proposed")


def test_images_dropped_on_the_upload_card_are_uploaded(page):
    project_id = new_project(page, languages=("en",))
    page.goto(f"/projects/{project_id}/screenshots")
    card = page.get_by_role("region", name="Upload screenshots")
    dropped = page.evaluate_handle(
        """([png]) => {
            const files = new DataTransfer();
            files.items.add(new File([Uint8Array.from(atob(png), (c) => c.charCodeAt(0))], "menu.png",
                                     {type: "image/png"}));
            files.items.add(new File(["not an image"], "notes.txt", {type: "text/plain"}));
            return files;
        }""",
        [base64.b64encode(picture(320, 200, color=(10, 120, 200))).decode()],
    )
    card.dispatch_event("dragenter", {"dataTransfer": dropped})
    card.dispatch_event("drop", {"dataTransfer": dropped})
    expect(page.get_by_text("1 screenshot uploaded.")).to_be_visible()
    expect(page.get_by_role("link", name="menu.png")).to_be_visible()
    check_accessibility(page)
