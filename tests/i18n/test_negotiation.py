"""Which language a page is in: the account's setting, else the browser's Accept-Language
negotiated against the shipped catalogs, else LOKO_DEFAULT_LOCALE; the switcher, which
returns to the same page with its query; form errors in the chosen language; the API
stays English. The shipped catalog here is the pseudo-locale ``eo`` (every message [[...]])."""

import re

import pytest

from loko.web.i18n import LOCALES, match_locale
from tests.i18n.conftest import PSEUDO
from tests.pages.conftest import PageClient, alert_of


@pytest.fixture
def config_overrides(pseudo_locale_dir):
    return {"LOKO_LOCALE_DIR": str(pseudo_locale_dir), "LOKO_DEFAULT_LOCALE": "en"}


def lang_of(response) -> str:
    return re.search(r'<html lang="([^"]+)" dir="([^"]+)"', response.get_data(as_text=True)).group(1)


@pytest.mark.parametrize(
    ("preferred", "chosen"),
    [
        (["zh-CN"], "zh_Hans"),
        (["zh-Hans"], "zh_Hans"),
        (["zh-Hans-SG"], "zh_Hans"),
        (["zh-TW"], None),
        (["pt-BR"], "pt_BR"),
        (["pt"], "pt_BR"),
        (["de-AT", "fr"], "de"),
        (["ar-EG"], "ar"),
        (["nl", "ja-JP"], "ja"),
        (["xx-invalid", "es-419"], "es"),
        (["nl"], None),
    ],
)
def test_browser_languages_are_matched_to_the_shipped_ones(preferred, chosen):
    assert match_locale(preferred, LOCALES) == chosen


def test_without_a_choice_the_default_language_applies(app, world):
    assert lang_of(PageClient(app, {}).get("/login")) == "en"


def test_the_browser_language_applies_when_the_account_chose_none(app, world):
    viewer = PageClient(app, world.credentials["viewer"])
    response = viewer.get("/account", headers={"Accept-Language": f"nl;q=0.9, {PSEUDO};q=0.8"})
    assert lang_of(response) == PSEUDO
    assert "[[Your account]]" in response.get_data(as_text=True)


def test_the_account_setting_wins_over_the_browser(app, world):
    viewer = PageClient(app, world.credentials["viewer"])
    assert viewer.submit("/account/locale", {"locale": PSEUDO}).status_code == 303
    assert lang_of(viewer.get("/account", headers={"Accept-Language": "en"})) == PSEUDO
    assert viewer.submit("/account/locale", {"locale": ""}).status_code == 303
    assert lang_of(viewer.get("/account", headers={"Accept-Language": "en"})) == "en"


def test_a_language_the_web_app_lacks_is_refused_on_the_account_page(app, world):
    viewer = PageClient(app, world.credentials["viewer"])
    response = viewer.submit("/account/locale", {"locale": "tlh"})
    assert response.status_code == 400
    assert "locale" in alert_of(response)


def test_the_default_setting_applies_when_the_browser_names_no_shipped_language(app, world):
    app.config["LOKO_DEFAULT_LOCALE"] = PSEUDO
    assert lang_of(PageClient(app, {}).get("/login", headers={"Accept-Language": "nl"})) == PSEUDO


def test_the_switcher_returns_to_the_same_page_with_its_filters(app, world):
    owner = PageClient(app, world.credentials["org_owner"])
    page = f"/projects/{world.project_id}/trash?q=greet&fileName=common"
    response = owner.submit("/locale", {"locale": PSEUDO, "page": page})
    assert response.status_code == 303
    assert response.location == page
    assert lang_of(owner.get(page)) == PSEUDO


def test_the_switcher_on_a_page_carries_that_page_and_its_query(app, world):
    owner = PageClient(app, world.credentials["org_owner"])
    html = owner.get(f"/projects/{world.project_id}/trash?q=greet").get_data(as_text=True)
    assert f'name="page" value="/projects/{world.project_id}/trash?q=greet"' in html


def test_signed_out_the_switcher_keeps_the_language_in_a_cookie(app, world):
    anonymous = PageClient(app, {})
    response = anonymous.submit("/locale", {"locale": PSEUDO, "page": "/login?next=/account"})
    assert response.location == "/login?next=/account"
    assert anonymous.client.get_cookie("loko-locale").value == PSEUDO
    assert lang_of(anonymous.get("/login")) == PSEUDO


def test_the_switcher_never_leaves_the_site(app, world):
    response = PageClient(app, {}).submit("/locale", {"locale": PSEUDO, "page": "//evil.example/x"})
    assert response.location == "/"


def test_a_form_error_is_shown_in_the_chosen_language(app, world):
    anonymous = PageClient(app, {})
    anonymous.submit("/locale", {"locale": PSEUDO, "page": "/signup"})
    response = anonymous.submit("/signup", {"email": "not an address", "password": "correct horse battery"})
    assert response.status_code == 400
    assert alert_of(response) == "email: [[Not a valid email address.]]"


def test_the_api_stays_english_whatever_the_browser_asks(app, world):
    response = PageClient(app, {}).get("/api/projects/unknown", headers={"Accept-Language": PSEUDO})
    assert "[[" not in response.get_data(as_text=True)


def test_the_scripts_messages_come_in_the_pages_language_as_a_data_attribute(app, world):
    import html
    import json

    page = PageClient(app, {}).get("/login", headers={"Accept-Language": PSEUDO}).get_data(as_text=True)
    raw = re.search(r'data-messages="([^"]*)"', page).group(1)
    catalog = json.loads(html.unescape(raw))
    assert catalog["locale"] == PSEUDO
    assert catalog["messages"]["Copied"] == "[[Copied]]"
    assert catalog["messages"]["%(num)s key selected"] == {
        "one": "[[%(num)s key selected]]",
        "other": "[[%(num)s keys selected]]",
    }


def test_an_english_page_carries_no_script_catalog(app, world):
    assert "data-messages" not in PageClient(app, {}).get("/login").get_data(as_text=True)
