"""The shipped catalogs in use: each language's sign-in page, Chinese browsers (zh-CN,
zh-Hans) on the Simplified Chinese catalog, Portuguese ones on Brazilian Portuguese, Arabic
right to left, and a form error in German."""

import re

import pytest

from loko.web.i18n import LOCALES
from tests.pages.conftest import PageClient, alert_of

SIGN_IN = {
    "en": "Sign in to Loko",
    "de": "Bei Loko anmelden",
    "fr": "Se connecter à Loko",
    "es": "Iniciar sesión en Loko",
    "pt_BR": "Entrar no Loko",
    "ja": "Loko にサインイン",
    "zh_Hans": "登录 Loko",
    "ar": "تسجيل الدخول إلى Loko",
}


def html_of(response) -> tuple[str, str, str]:
    text = response.get_data(as_text=True)
    lang, direction = re.search(r'<html lang="([^"]+)" dir="([^"]+)"', text).groups()
    return lang, direction, text


def test_every_language_of_the_web_app_is_shipped(app):
    assert app.extensions["loko_locales"] == LOCALES


@pytest.mark.parametrize("code", LOCALES)
def test_each_language_signs_in_in_its_own_words(app, code):
    lang, direction, text = html_of(PageClient(app, {}).get("/login", headers={"Accept-Language": code}))
    assert lang == code.replace("_", "-")
    assert direction == ("rtl" if code == "ar" else "ltr")
    assert SIGN_IN[code] in text


@pytest.mark.parametrize(
    ("browser", "served"),
    [("zh-CN,zh;q=0.9", "zh-Hans"), ("zh-Hans", "zh-Hans"), ("pt", "pt-BR"), ("ar-EG", "ar"), ("nl", "en")],
)
def test_browsers_get_the_nearest_shipped_language(app, browser, served):
    assert html_of(PageClient(app, {}).get("/login", headers={"Accept-Language": browser}))[0] == served


def test_a_form_error_is_shown_in_german(app):
    anonymous = PageClient(app, {})
    form = {"email": "no address", "password": "correct horse battery"}
    response = anonymous.submit("/signup", form, headers={"Accept-Language": "de"})
    assert response.status_code == 400
    assert alert_of(response) == "email: Keine gültige E-Mail-Adresse."
