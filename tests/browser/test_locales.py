"""The web app in German, Japanese and Arabic in the browser: the editor, import, trash and
settings pages pass axe-core in each; those pages in Arabic are right to left, their
navigation starts on the right and their heading mirrors the English one's place (boxes
compared with English); the switcher keeps the page and its
query; the scripts speak the page's language."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import check_accessibility
from tests.browser.test_editor import add_keys, new_project

PAGES = ("editor", "import", "trash", "settings")
HEADINGS = {
    "de": {"editor": "Editor", "import": "Import", "trash": "Papierkorb", "settings": "Einstellungen"},
    "ja": {"editor": "エディター", "import": "インポート", "trash": "ごみ箱", "settings": "設定"},
    "ar": {"editor": "المحرر", "import": "الاستيراد", "trash": "سلة المهملات", "settings": "الإعدادات"},
}


def choose_language(page, code: str) -> None:
    """The account page's language setting."""
    page.goto("/account")
    page.locator("#f-account-locale").select_option(code)
    page.locator("form[action$='/account/locale'] button[type=submit]").click()
    page.wait_for_url(re.compile(r"/account$"))


def document_language(page) -> dict:
    return page.evaluate("() => ({lang: document.documentElement.lang, dir: document.documentElement.dir})")


@pytest.fixture
def project(page):
    project_id = new_project(page, languages=("en", "de", "ar"))
    add_keys(page, project_id, "en", {"greeting": "Hello", "farewell": "Bye"})
    add_keys(page, project_id, "ar", {"greeting": "مرحبا"})
    return project_id


@pytest.mark.parametrize("code", ["de", "ja", "ar"])
def test_the_main_pages_pass_axe_in_each_language(page, project, code):
    choose_language(page, code)
    for name in PAGES:
        page.goto(f"/projects/{project}/{name}")
        expected = {"lang": code, "dir": "rtl" if code == "ar" else "ltr"}
        assert document_language(page) == expected, name
        expect(page.locator("main h1").first).to_contain_text(HEADINGS[code][name])
        check_accessibility(page, f"locale-{code}-{name}")


def layout_boxes(page) -> dict:
    """Where the brand, the first and last tabs of the navigation and the page's heading
    are, left to right."""
    return page.evaluate(
        """() => {
            const box = (el) => {
                const r = el.getBoundingClientRect();
                return {left: r.left, right: r.right};
            };
            const tabs = Array.from(document.querySelectorAll('nav.tabs a'));
            const heading = document.querySelector('main h1');
            const range = document.createRange();
            range.selectNodeContents(heading);
            return {width: window.innerWidth, brand: box(document.querySelector('.brand')),
                    first: box(tabs[0]), last: box(tabs[tabs.length - 1]), heading: box(range)};
        }"""
    )


@pytest.mark.parametrize("name", PAGES)
def test_arabic_pages_run_right_to_left_and_their_navigation_starts_on_the_right(page, project, name):
    page.goto(f"/projects/{project}/{name}")
    english = layout_boxes(page)
    choose_language(page, "ar")
    page.goto(f"/projects/{project}/{name}")
    arabic = layout_boxes(page)
    middle = english["width"] / 2
    assert english["brand"]["left"] < middle < arabic["brand"]["right"]
    assert english["first"]["left"] < english["last"]["left"]
    assert arabic["first"]["right"] > arabic["last"]["right"]
    assert arabic["first"]["right"] > middle
    # The heading's text starts where the reading starts: the left in English, the right in
    # Arabic, as far from that edge in both (the layout mirrored).
    assert english["heading"]["left"] < middle < arabic["heading"]["right"]
    assert abs(english["heading"]["left"] - (arabic["width"] - arabic["heading"]["right"])) < 24
    if name == "editor":
        # A user's value keeps its own language and direction inside the right-to-left page.
        value = page.locator('[data-l="en"] .t').first
        assert value.evaluate("(el) => getComputedStyle(el).direction") == "ltr"


def test_the_switcher_keeps_the_page_and_its_filters(page, project):
    page.goto(f"/projects/{project}/editor?q=greet")
    page.locator("details.menu summary").click()
    page.locator("#f-locale-menu").select_option("de")
    page.locator("form.language-switcher.menu button[type=submit]").click()
    page.wait_for_url(re.compile(r"/editor\?q=greet$"))
    assert document_language(page)["lang"] == "de"
    expect(page.locator("#f-q")).to_have_value("greet")


def test_the_scripts_speak_the_pages_language(page, project):
    choose_language(page, "de")
    page.goto(f"/projects/{project}/editor")
    page.get_by_label("greeting auswählen").check()
    expect(page.get_by_text("1 Schlüssel ausgewählt")).to_be_visible()
    page.get_by_label("farewell auswählen").check()
    expect(page.get_by_text("2 Schlüssel ausgewählt")).to_be_visible()


def test_signed_out_the_sign_in_page_offers_the_languages(new_page):
    page = new_page()
    page.goto("/login?next=/account")
    page.locator("#f-locale-bar").select_option("ja")
    page.locator("form.language-switcher.bar button[type=submit]").click()
    page.wait_for_url(re.compile(r"/login\?next=/account$"))
    assert document_language(page) == {"lang": "ja", "dir": "ltr"}
    expect(page.get_by_role("heading", name="Loko にサインイン")).to_be_visible()
    check_accessibility(page, "locale-ja-login")
