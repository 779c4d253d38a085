"""The shipped catalogs: every translation passes Loko's own checks against its English
message (placeholders, tags, ICU) and follows the product's glossary (loko/locale/
glossary.csv, through the glossary check as a project's values are), has the language's
plural forms, none is fuzzy, GNU msgfmt --check accepts each file, each compiled .mo is
current, and every message is translated (a catalog is shipped complete)."""

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from babel import Locale
from babel.messages.mofile import read_mo
from babel.messages.plurals import get_plural
from babel.messages.pofile import read_po

from loko import checks
from loko.glossary.files import read_csv
from loko.glossary.matching import CompiledGlossary, Entry

LOCALE_DIR = Path(__file__).resolve().parents[2] / "loko" / "locale"
CATALOGS = sorted(path.parent.parent.name for path in LOCALE_DIR.glob("*/LC_MESSAGES/messages.po"))
CODES = ("placeholders", "tags", "icu-syntax")
GLOSSARY = LOCALE_DIR / "glossary.csv"
# Messages where a glossary term has another sense: a keyboard's key, an API key on its own
# page, a sign-in provider's signing keys.
OTHER_SENSES = {
    "Keys and what they do",
    "Wait for the values being saved, then press the key again.",
    "About this key",
    "Copy key",
    "Create key",
    "Copy this key now and keep it somewhere safe: it will not be shown again.",
    "Name a key after where it is used, e.g. “CI deploy”, so you know what stops working when you revoke it.",
    "Revoke the key “%(name)s”? Everything using it stops working at once.",
    "Languages (write key, optional)",
    "languages: only a write key can be limited to languages (a read key writes none).",
    "%(label)s's keys cannot be read: %(reason)s",
    "the key set at %(jwks_uri)s has no keys",
    "the keys at %(jwks_uri)s cannot be read: %(reason)s",
    ": who signed in, and who changed members, keys and settings.",
}
# What a message holds that is not words to translate: placeholders, tags, paths, names
# with hyphens (values-pt-rBR); and a leading field name the translation keeps (``file: ``).
NOT_WORDS = re.compile(r"%\(\w+\)s|\{[^{}]*\}|<[^<>]*>|\S*/\S*|\S*\w-[\w{]\S*")
FIELD = re.compile(r"([\w.\[\]%()-]+): ")


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


def product_glossary() -> CompiledGlossary:
    entries = read_csv(GLOSSARY.read_bytes(), 1_000)
    return CompiledGlossary(
        [
            Entry(
                str(index),
                entry["language"],
                entry["term"],
                entry["partOfSpeech"],
                entry["note"],
                entry["caseSensitive"],
                entry["forbidden"],
                tuple((item["language"], item["text"], item["forbidden"]) for item in entry["translations"]),
            )
            for index, entry in enumerate(entries)
        ]
    )


def words_of(source: str, value: str) -> str:
    field = FIELD.match(source)
    if field and re.match(re.escape(field.group(1)) + r"[ \u00a0]?[:\uff1a]", value):
        source = source[field.end() :]
    return NOT_WORDS.sub(" ", source)


def test_the_glossary_has_each_term_in_every_shipped_language():
    languages = {str(Locale.parse(code)).replace("_", "-") for code in CATALOGS} - {"en"}
    for entry in read_csv(GLOSSARY.read_bytes(), 1_000):
        given = {item["language"] for item in entry["translations"]}
        # Arabic's plurals are other words (broken plurals): its plural terms are left out.
        assert languages - given <= {"ar"}, entry["term"]


@pytest.mark.parametrize("code", [code for code in CATALOGS if code != "en"])
def test_every_translation_follows_the_products_glossary(code):
    """A plural message is read with all its forms together: Arabic's, say, take the
    singular or the plural by the number."""
    glossary, language = product_glossary(), str(Locale.parse(code)).replace("_", "-")
    issues = []
    for message in catalog(code):
        english = message.id[0] if message.pluralizable else message.id
        if not message.id or english in OTHER_SENSES:
            continue
        source = " ".join(message.id) if message.pluralizable else message.id
        value = " ".join(message.string) if message.pluralizable else message.string
        source = words_of(source, value)
        terms = glossary.check_terms(language, "en", source, value)
        found = checks.run(checks.Target(value, language, source, "en", glossary=terms), ["glossary"])
        issues.extend((english, value, issue.message) for issue in found)
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
