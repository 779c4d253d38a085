"""The shipped catalogs: every translation passes Loko's own checks against its English
message (placeholders, tags, ICU), has the language's plural forms, none is fuzzy, GNU
msgfmt --check accepts each file, each compiled .mo is current, and every message is
translated (a catalog is shipped complete)."""

import shutil
import subprocess
from pathlib import Path

import pytest
from babel import Locale
from babel.messages.mofile import read_mo
from babel.messages.plurals import get_plural
from babel.messages.pofile import read_po

from loko import checks

LOCALE_DIR = Path(__file__).resolve().parents[2] / "loko" / "locale"
CATALOGS = sorted(path.parent.parent.name for path in LOCALE_DIR.glob("*/LC_MESSAGES/messages.po"))
CODES = ("placeholders", "tags", "icu-syntax")


def catalog(code):
    with open(LOCALE_DIR / code / "LC_MESSAGES" / "messages.po", "rb") as handle:
        return read_po(handle, locale=code)


def test_there_are_catalogs():
    assert {"de", "fr", "es", "pt_BR", "ja", "zh_Hans", "ar"} <= set(CATALOGS)


@pytest.mark.parametrize("code", CATALOGS)
def test_every_translation_passes_the_checks_against_its_message(code):
    language = str(Locale.parse(code)).replace("_", "-")
    issues = []
    for message in catalog(code):
        if not message.id or not message.string:
            continue
        pairs = (
            zip([message.id[0]] + [message.id[1]] * (len(message.string) - 1), message.string, strict=True)
            if message.pluralizable
            else [(message.id, message.string)]
        )
        for source, value in pairs:
            if not value:
                continue
            found = checks.run(checks.Target(value, language, source, "en"), CODES)
            issues.extend((source, value, issue.message) for issue in found)
    assert issues == []


@pytest.mark.parametrize("code", CATALOGS)
def test_no_translation_is_fuzzy_and_plurals_have_every_form(code):
    po = catalog(code)
    forms = get_plural(code).num_plurals
    assert po.num_plurals == forms
    for message in po:
        if not message.id:
            continue
        assert not message.fuzzy, message.id
        if message.pluralizable and any(message.string):
            assert len(message.string) == forms and all(message.string), message.id


@pytest.mark.parametrize("code", CATALOGS)
def test_every_catalog_translates_every_message(code):
    untranslated = [
        m.id for m in catalog(code) if m.id and not all(m.string if m.pluralizable else [m.string])
    ]
    assert untranslated == []


@pytest.mark.parametrize("code", CATALOGS)
def test_gnu_msgfmt_accepts_the_catalog(code):
    if shutil.which("msgfmt") is None:
        pytest.skip("GNU gettext's msgfmt is not installed (apt-get install gettext)")
    path = LOCALE_DIR / code / "LC_MESSAGES" / "messages.po"
    result = subprocess.run(
        ["msgfmt", "--check", "-o", "/dev/null", str(path)], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize("code", CATALOGS)
def test_the_compiled_catalog_is_current(code):
    with open(LOCALE_DIR / code / "LC_MESSAGES" / "messages.mo", "rb") as handle:
        compiled = {
            tuple(m.id) if m.pluralizable else m.id: tuple(m.string) if m.pluralizable else m.string
            for m in read_mo(handle)
            if m.id
        }
    translated = {
        tuple(m.id) if m.pluralizable else m.id: tuple(m.string) if m.pluralizable else m.string
        for m in catalog(code)
        if m.id and m.string and (not m.pluralizable or all(m.string))
    }
    assert {key: compiled.get(key) for key in translated} == translated
