"""PO exports of awkward keys and values are valid for GNU gettext and read back unchanged.

``msgfmt --check`` is the reference; the tests skip when it is not installed.
"""

import gettext
import re
import shutil
import subprocess

import polib
import pytest
from babel.messages.plurals import get_plural

from tests.translation_factories import ProjectApi, project_api

MSGFMT = shutil.which("msgfmt")
needs_msgfmt = pytest.mark.skipif(
    MSGFMT is None,
    reason="GNU gettext's msgfmt is not installed (Debian: apt-get install gettext, or `make system-deps`)",
)

# key -> value; keys cannot hold control characters, values can hold anything.
TRICKY = {
    'say "hello"': 'sag "hallo"',
    "back\\slash": "C:\\Users\\loko\\",
    "literal \\n": "wörtlich \\n",
    "multi.line": "first line\nsecond line\n\nfourth",
    "tabs": "a\tb\t",
    "emoji 😀": "Emoji 🎉👩‍👩‍👧",
    "cjk.中文": "中文 日本語 한국어",
    "padded": "  spaces  ",
    "#comment-like": "#, fuzzy",
    "msgid": 'msgstr ""',
    "percent %s %d %(name)s": "%(name)s %d %s",
    "rtl": "\u05e9\u05dc\u05d5\u05dd \u200f",
    "separators": "line\u2028para\u2029next\u0085nel",
    "controls": "bell\x07 backspace\x08 escape\x1b vt\x0b ff\x0c fs\x1c gs\x1d rs\x1e del\x7f",
    "key\u2028with\u2029separators\x85inside": "value",
    "carriage": "one\r\ntwo",
    "empty": "",
    "long": "x" * 8192,
    "long.quotes": '"' * 8192,
    "long.emoji": "😀" * 8192,
}
# gettext wants a translation to begin and end with "\n" exactly when its msgid does.
EDGE_NEWLINES = {"leading": "\nstarts with a newline", "trailing": "ends with a newline\n", "only": "\n"}


@pytest.fixture
def api(app) -> ProjectApi:
    api = project_api(app)
    api.upsert("ru", {**TRICKY, **EDGE_NEWLINES}, file_name="messages")
    api.upsert("ja", {'say "hello"': "「こんにちは」"}, file_name="messages")
    return api


def _po(api, language="ru", file_name="messages") -> bytes:
    response = api.export_response(format="po", language=language, fileName=file_name)
    assert response.status_code == 200, response.json
    return response.data


def _read(data: bytes, tmp_path) -> polib.POFile:
    """Parse through a file: polib splits a string argument with ``str.splitlines``, which
    also breaks at U+2028 and U+0085 (gettext and text-mode files break only at newlines)."""
    path = tmp_path / "read.po"
    path.write_bytes(data)
    return polib.pofile(str(path))


def _msgfmt(path, *args):
    return subprocess.run([MSGFMT, "--check", *args, str(path)], capture_output=True, text=True, check=False)


@needs_msgfmt
def test_po_export_passes_msgfmt_check(api, tmp_path):
    path = tmp_path / "ru.po"
    path.write_bytes(_po(api))
    result = _msgfmt(path, "-o", str(tmp_path / "ru.mo"))
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""


@needs_msgfmt
@pytest.mark.parametrize("language", ["ru", "ja", "en"])
def test_po_export_of_every_language_passes_msgfmt_check(api, tmp_path, language):
    path = tmp_path / f"{language}.po"
    path.write_bytes(_po(api, language))
    result = _msgfmt(path, "-o", "/dev/null")
    assert result.returncode == 0, result.stderr


@needs_msgfmt
def test_every_po_entry_of_a_zip_export_passes_msgfmt_check(api, tmp_path):
    api.upsert("de", {"a/b": "c"}, file_name="nested/dir/file")
    for name, data in api.export_zip(format="po").items():
        path = tmp_path / name.replace("/", "_")
        path.write_bytes(data)
        result = _msgfmt(path, "-o", "/dev/null")
        assert result.returncode == 0, f"{name}: {result.stderr}"


@needs_msgfmt
def test_compiled_catalog_translates_every_key_to_its_stored_value(api, tmp_path):
    path = tmp_path / "ru.po"
    path.write_bytes(_po(api))
    assert _msgfmt(path, "-o", str(tmp_path / "ru.mo")).returncode == 0
    with open(tmp_path / "ru.mo", "rb") as compiled:
        translations = gettext.GNUTranslations(compiled)
    for key, value in TRICKY.items():
        if value:
            assert translations.gettext(key) == value, key


@needs_msgfmt
def test_project_name_with_quotes_and_backslashes_passes_msgfmt_check(api, tmp_path):
    response = api.owner.put(f"/api/projects/{api.project_id}", json={"name": 'Say "hi" \\ 中文 😀'})
    assert response.status_code == 200, response.json
    path = tmp_path / "ru.po"
    path.write_bytes(_po(api))
    assert _msgfmt(path, "-o", "/dev/null").returncode == 0
    assert polib.pofile(str(path)).metadata["Project-Id-Version"] == 'Say "hi" \\ 中文 😀'


def test_po_export_reads_back_equal_through_polib(api, tmp_path):
    catalog = _read(_po(api), tmp_path)
    assert {entry.msgid: entry.msgstr for entry in catalog} == {**TRICKY, **EDGE_NEWLINES}


def test_po_export_is_utf8_without_a_byte_order_mark(api):
    data = _po(api)
    assert not data.startswith(b"\xef\xbb\xbf")
    assert "中文 日本語 한국어".encode() in data


def test_po_export_keeps_values_with_differing_outer_newlines_as_fuzzy(api, tmp_path):
    catalog = _read(_po(api), tmp_path)
    assert sorted(entry.msgid for entry in catalog.fuzzy_entries()) == ["leading", "only", "trailing"]
    assert catalog.find("leading").msgstr == EDGE_NEWLINES["leading"]


def test_po_export_lists_keys_without_a_value_with_an_empty_msgstr(api, tmp_path):
    catalog = _read(_po(api, "ja"), tmp_path)
    assert len(catalog) == len(TRICKY) + len(EDGE_NEWLINES)
    assert catalog.find('say "hello"').msgstr == "「こんにちは」"
    assert catalog.find("tabs").msgstr == ""


def test_po_export_has_the_header_fields(api, tmp_path):
    metadata = _read(_po(api), tmp_path).metadata
    assert metadata["Language"] == "ru"
    assert metadata["Content-Type"] == "text/plain; charset=UTF-8"
    assert metadata["Project-Id-Version"] == "Web app"
    assert metadata["X-Generator"].startswith("Loko ")
    assert metadata["Plural-Forms"]


@pytest.mark.parametrize("language", ["ru", "ja", "en", "pt-BR", "ar"])
def test_po_plural_forms_come_from_cldr(api, language, tmp_path):
    api.upsert(language, {"one": "1"}, file_name="plural")
    metadata = _read(_po(api, language, "plural"), tmp_path).metadata
    assert metadata["Plural-Forms"] == get_plural(language.replace("-", "_")).plural_forms


def test_po_plural_forms_of_russian_and_japanese(api, tmp_path):
    russian = _read(_po(api, "ru"), tmp_path).metadata["Plural-Forms"]
    japanese = _read(_po(api, "ja"), tmp_path).metadata["Plural-Forms"]
    count, rule = re.fullmatch(r"nplurals=(\d+); plural=(.+);", russian).groups()
    index_of = gettext.c2py(rule)
    assert (count, [index_of(n) for n in (1, 2, 5, 11, 21, 22, 111)]) == ("3", [0, 1, 2, 2, 0, 1, 2])
    assert japanese == "nplurals=1; plural=0;"
