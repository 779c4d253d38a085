"""Screenshots in a real browser, found by their labels: upload two images at once from the
Screenshots tab, place a key on one by typing its region, see it outlined there and in the
editor's details of that key."""

from playwright.sync_api import expect

from tests.browser.conftest import check_accessibility
from tests.browser.test_editor import add_keys, new_project, open_editor
from tests.screenshots.conftest import picture


def image(name: str, color) -> dict:
    return {"name": name, "mimeType": "image/png", "buffer": picture(800, 600, color=color)}


def test_screenshots_are_uploaded_and_a_key_is_placed_and_shown_in_the_editor(page):
    project_id = new_project(page, languages=("en",))
    add_keys(page, project_id, "en", {"home.title": "Welcome", "home.save": "Save"})
    page.goto(f"/projects/{project_id}")
    page.get_by_role("navigation", name="Project").get_by_role("link", name="Screenshots").click()
    expect(page.get_by_role("heading", name="Screenshots", level=1)).to_be_visible()
    expect(page.get_by_text("No screenshots yet.")).to_be_visible()

    page.get_by_label("Images").set_input_files(
        [image("home.png", (240, 240, 250)), image("cart.png", (20, 90, 40))]
    )
    page.get_by_role("button", name="Upload").click()
    expect(page.get_by_text("2 screenshots uploaded.")).to_be_visible()
    expect(page.get_by_role("heading", name="2 screenshots")).to_be_visible()
    check_accessibility(page)

    page.get_by_role("link", name="home.png").click()
    expect(page.get_by_role("heading", name="home.png", level=1)).to_be_visible()
    page.get_by_label("Key", exact=True).fill("home.title")
    page.get_by_label("File").select_option("common")
    page.get_by_label("Left (x)").fill("40")
    page.get_by_label("Top (y)").fill("30")
    page.get_by_label("Width").fill("300")
    page.get_by_label("Height").fill("60")
    check_accessibility(page)
    page.get_by_role("button", name="Place the key").click()
    expect(page.get_by_text("home.title placed on the screenshot.")).to_be_visible()
    keys = page.get_by_role("table", name="Keys on home.png")
    expect(keys.get_by_role("row", name="home.title common 40, 30, 300 \u00d7 60 Confirmed")).to_be_visible()
    expect(page.get_by_role("img", name="home.png, with 1 key region outlined")).to_be_visible()
    check_accessibility(page)

    open_editor(page, project_id)
    page.get_by_role("button", name="Details of home.title").click()
    details = page.get_by_role("dialog", name="home.title")
    expect(details.get_by_role("img", name="home.png, where home.title is shown")).to_be_visible()
    check_accessibility(page)
    page.keyboard.press("Escape")
    page.get_by_role("button", name="Details of home.save").click()
    other = page.get_by_role("dialog", name="home.save")
    expect(other.get_by_text("No screenshot shows this key.")).to_be_visible()


def test_a_region_is_drawn_with_the_mouse_and_named_from_the_keyboard(page):
    project_id = new_project(page, languages=("en",))
    add_keys(page, project_id, "en", {"home.title": "Welcome"})
    page.goto(f"/projects/{project_id}/screenshots")
    page.get_by_label("Images").set_input_files([image("home.png", (240, 240, 250))])
    page.get_by_role("button", name="Upload").click()
    page.get_by_role("link", name="home.png").click()

    picture = page.get_by_role("img", name="home.png, with 0 key regions outlined")
    box = picture.bounding_box()
    scale = box["width"] / 800  # the picture is 800 pixels wide, shown at its box's width
    page.mouse.move(box["x"] + 100 * scale, box["y"] + 50 * scale)
    page.mouse.down()
    page.mouse.move(box["x"] + 300 * scale, box["y"] + 120 * scale, steps=5)
    page.mouse.up()
    expect(page.get_by_label("Key", exact=True)).to_be_focused()
    drawn = [
        int(page.get_by_label(label).input_value()) for label in ("Left (x)", "Top (y)", "Width", "Height")
    ]
    assert all(abs(got - want) <= 3 for got, want in zip(drawn, (100, 50, 200, 70), strict=True)), drawn
    page.keyboard.type("home.title")
    page.keyboard.press("Enter")
    expect(page.get_by_text("home.title placed on the screenshot.")).to_be_visible()
    expect(page.get_by_role("img", name="home.png, with 1 key region outlined")).to_be_visible()
    check_accessibility(page)
