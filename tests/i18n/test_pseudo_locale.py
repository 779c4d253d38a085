"""Every page in a pseudo-locale whose every message is [[msgid]]: any visible text left
outside [[...]] is a string the templates or page views do not mark. The pages are every
GET page of the web app whose path needs only the project or organization (so pages added
later are covered too), plus a key's details and an error page; user data the test made,
numbers and the brand are not messages."""

import re
from html.parser import HTMLParser

import pytest
from babel import Locale

from tests.i18n.conftest import PSEUDO
from tests.pages.conftest import PageClient
from tests.translation_factories import ProjectApi

# Words that are never messages: the brand and the data of the test's world.
NOT_MESSAGES = {
    "Loko",
    "JSON",
    "PO",
    "ZIP",
    "UTC",
    "O",
    "GitHub",
    "GitLab",
    "Gitea",
    "DeepL",
    "LibreTranslate",
    "OpenAI-compatible",
    "Acme",
    "Web",
    "app",
    "Owner",
    "Outsider",
    "Elsewhere",
    "Other",
}
SKIPPED_ENDPOINTS = {"web_ui.static", "sso_ui.start", "sso_ui.callback", "translations_ui.editor_rows"}
# Not messages: code, keys to press, dates (CLDR's), and what says translate="no".
HIDDEN = {"script", "style", "head", "template", "code", "kbd", "samp", "textarea", "time"}


class VisibleText(HTMLParser):
    """The page's text nodes outside hidden elements, code, and values marked with a lang
    of their own (a user's value, a language named in itself); with aria-label, title,
    placeholder and alt attributes."""

    VOID = {"br", "img", "input", "meta", "link", "hr", "source", "wbr", "col", "area"}

    def __init__(self, page_lang: str):
        super().__init__(convert_charrefs=True)
        self.stack: list[tuple[str, bool]] = []
        self.page_lang = page_lang
        self.parts: list[str] = []

    def hidden(self) -> bool:
        return any(skip for _tag, skip in self.stack)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        own_lang = tag != "html" and "lang" in attrs and attrs["lang"] != self.page_lang
        skip = tag in HIDDEN or own_lang or attrs.get("translate") == "no"
        if not (skip or self.hidden()):
            for name in ("aria-label", "title", "placeholder", "alt"):
                if attrs.get(name):
                    self.parts.append(attrs[name])
        if tag not in self.VOID:
            self.stack.append((tag, skip))

    def handle_endtag(self, tag):
        for index in range(len(self.stack) - 1, -1, -1):
            if self.stack[index][0] == tag:
                del self.stack[index:]
                break

    def handle_data(self, data):
        if data.strip() and not self.hidden():
            self.parts.append(data)


def unmarked(html: str, data_words: set[str]) -> list[str]:
    parser = VisibleText(PSEUDO)
    parser.feed(html)
    text = "\n".join(parser.parts)
    outside = re.sub(r"\[\[.*?\]\]", " ", text, flags=re.DOTALL)
    left = []
    for word in re.findall(r"[^\W\d_][\w'\u2019.@-]*", outside):
        bare = word.strip(".'\u2019-")
        if bare and bare not in NOT_MESSAGES and bare not in data_words and word not in data_words:
            left.append(word)
    return left


@pytest.fixture
def config_overrides(pseudo_locale_dir):
    return {"LOKO_LOCALE_DIR": str(pseudo_locale_dir), "LOKO_DEFAULT_LOCALE": PSEUDO}


@pytest.fixture
def pages(app, world, as_caller):
    """(path, caller) of every page to check, with a key and its values to show."""
    api = ProjectApi(as_caller("write_key"), world.project_id)
    api.upsert("en", {"greeting": "Hello", "farewell": "Bye"})
    found = []
    for rule in app.url_map.iter_rules():
        if "GET" not in rule.methods or rule.endpoint in SKIPPED_ENDPOINTS:
            continue
        if not rule.endpoint.split(".")[0].endswith("_ui"):
            continue
        if not set(rule.arguments) <= {"project_id", "organization_id"}:
            continue
        path = rule.rule.replace("<uuid:project_id>", world.project_id).replace(
            "<uuid:organization_id>", world.organization_id
        )
        found.append((rule.endpoint, path))
    return sorted(found)


def data_words(world) -> set[str]:
    words = {"greeting", "farewell", "Hello", "Bye", "en", "English", "common"}
    for name in world.users:
        words.update({name, f"{name}@example.test"})
    words.update({"owner@example.test", "outsider@example.test"})
    words.update(world.credentials)
    eo = Locale.parse(PSEUDO)
    for code in ("en", "de", "fr", "ar", "ja"):
        words.update(re.findall(r"\w+", eo.languages.get(code, "")))
    return words


def test_every_page_shows_only_marked_messages(app, world, pages):
    owner = PageClient(app, world.credentials["org_owner"])
    anonymous = PageClient(app, {})
    words = data_words(world)
    failures = {}
    for _endpoint, path in pages:
        browser = anonymous if path in ("/login", "/signup", "/join") else owner
        response = browser.get(path)
        assert response.status_code < 500, path
        if response.status_code in (302, 303):
            continue
        html = response.get_data(as_text=True)
        assert f'lang="{PSEUDO}"' in html, path
        left = unmarked(html, words)
        if left:
            failures[path] = sorted(set(left))
    assert failures == {}, "\n".join(f"{path}: {' '.join(words)}" for path, words in failures.items())


def test_an_error_page_and_the_sign_in_page_are_marked(app, world):
    anonymous = PageClient(app, {})
    for path in ("/login", "/signup"):
        assert unmarked(anonymous.get(path).get_data(as_text=True), set()) == [], path
    owner = PageClient(app, world.credentials["org_owner"])
    missing = owner.get("/projects/00000000-0000-7000-8000-000000000000")
    assert missing.status_code == 404
    assert "[[Not found]]" in missing.get_data(as_text=True)
