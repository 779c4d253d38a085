"""The nested JSON format (i18next v4): reading, writing, the round trip of a canonical file,
and what i18next itself makes of a written file.

A canonical file is what the writer gives: objects split on ".", plural forms as suffixed
keys, keys sorted at every level, two-space indentation, UTF-8 as is, a final newline.
Reading one and writing the entries back gives the same bytes.

The i18next checks run ``node`` on ``i18next_render.cjs`` with the i18next package from npm,
and skip when either is missing (``make`` installs the package).
"""

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from loko.formats import Entry, FormatError, Target, json_nested, plurals

HERE = Path(__file__).parent
NODE = shutil.which("node")
I18NEXT = HERE / "node_modules" / "i18next" / "package.json"
NPM_INSTALL = (
    "npm install --prefix tests/unit/formats --no-save --no-package-lock --no-audit --no-fund --silent "
    "i18next@27"
)

# Nesting, an English plural inside an object, placeholders ({{name}}, %s, {0}), escapes,
# an empty value and Unicode (emoji, right-to-left).
CANONICAL = """{
  "app": {
    "empty": "",
    "escapes": "Say \\"hi\\" \\\\ to C:\\\\temp\\nnew line\\tand tab",
    "files_one": "{{count}} file",
    "files_other": "{{count}} files",
    "menu": {
      "open": "Open…",
      "quit": "Quit %s"
    },
    "title": "Loko"
  },
  "emoji": "Done 🎉",
  "greeting": "Hello, {{name}}!",
  "positional": "Copy {0} to {1}",
  "rtl": "שלום עולם"
}
""".encode()

CANONICAL_ENTRIES = [
    Entry("app.empty", ""),
    Entry("app.escapes", 'Say "hi" \\ to C:\\temp\nnew line\tand tab'),
    Entry("app.files", "{count, plural, one {{{count}} file} other {{{count}} files}}"),
    Entry("app.menu.open", "Open…"),
    Entry("app.menu.quit", "Quit %s"),
    Entry("app.title", "Loko"),
    Entry("emoji", "Done 🎉"),
    Entry("greeting", "Hello, {{name}}!"),
    Entry("positional", "Copy {0} to {1}"),
    Entry("rtl", "שלום עולם"),
]

# One plural per language: ja has one form, en two, pl four, ar six.
PLURALS = {
    "ja": ({"other": "{{count}}個のファイル"}, '{\n  "files_other": "{{count}}個のファイル"\n}\n'),
    "en": (
        {"one": "{{count}} file", "other": "{{count}} files"},
        '{\n  "files_one": "{{count}} file",\n  "files_other": "{{count}} files"\n}\n',
    ),
    "pl": (
        {
            "one": "{{count}} plik",
            "few": "{{count}} pliki",
            "many": "{{count}} plików",
            "other": "{{count}} pliku",
        },
        '{\n  "files_few": "{{count}} pliki",\n  "files_many": "{{count}} plików",\n'
        '  "files_one": "{{count}} plik",\n  "files_other": "{{count}} pliku"\n}\n',
    ),
    "ar": (
        {
            "zero": "لا ملفات",
            "one": "ملف واحد",
            "two": "ملفان",
            "few": "{{count}} ملفات",
            "many": "{{count}} ملفًا",
            "other": "{{count}} ملف",
        },
        '{\n  "files_few": "{{count}} ملفات",\n  "files_many": "{{count}} ملفًا",\n'
        '  "files_one": "ملف واحد",\n  "files_other": "{{count}} ملف",\n'
        '  "files_two": "ملفان",\n  "files_zero": "لا ملفات"\n}\n',
    ),
}


def _values(data: bytes, language: str = "en") -> dict:
    return {entry.key: entry.value for entry in json_nested.read(data, language)}


def test_canonical_file_round_trips_byte_identical():
    assert json_nested.write(json_nested.read(CANONICAL, "en"), Target("en")) == CANONICAL


def test_read_joins_paths_and_groups_plural_forms():
    assert json_nested.read(CANONICAL, "en") == CANONICAL_ENTRIES


@pytest.mark.parametrize("language", PLURALS)
def test_plural_file_reads_as_one_icu_message(language):
    forms, text = PLURALS[language]
    assert json_nested.read(text.encode(), language) == [Entry("files", plurals.join(forms))]


@pytest.mark.parametrize("language", PLURALS)
def test_plural_file_round_trips_byte_identical(language):
    data = PLURALS[language][1].encode()
    assert json_nested.write(json_nested.read(data, language), Target(language)) == data


def test_read_accepts_compact_unsorted_json_with_a_byte_order_mark():
    data = '\ufeff{"greeting":"Hello, {{name}}!","app":{"title":"Loko","files_other":"{{count}} files",'
    data += '"files_one":"{{count}} file"}}'
    assert _values(data.encode()) == {
        "greeting": "Hello, {{name}}!",
        "app.title": "Loko",
        "app.files": "{count, plural, one {{{count}} file} other {{{count}} files}}",
    }


def test_read_groups_zero_in_every_language_as_i18next_does():
    data = b'{"inbox_zero": "No messages", "inbox_one": "One message", "inbox_other": "{{count}} messages"}'
    assert _values(data) == {
        "inbox": "{count, plural, zero {No messages} one {One message} other {{{count}} messages}}"
    }


def test_read_leaves_suffixes_without_an_other_form_as_keys():
    data = b'{"choice_one": "First", "choice_two": "Second"}'
    assert _values(data) == {"choice_one": "First", "choice_two": "Second"}


def test_read_leaves_ordinal_suffixes_as_keys():
    data = b'{"place_ordinal_one": "{{count}}st", "place_ordinal_other": "{{count}}th"}'
    assert _values(data) == {"place_ordinal_one": "{{count}}st", "place_ordinal_other": "{{count}}th"}


def test_read_does_not_group_forms_whose_base_has_a_value():
    data = b'{"files": "Files", "files_one": "a file", "files_other": "files"}'
    assert _values(data) == {"files": "Files", "files_one": "a file", "files_other": "files"}


def test_read_groups_forms_beside_an_object_of_the_same_name():
    data = b'{"files": {"title": "Files"}, "files_one": "a file", "files_other": "files"}'
    assert _values(data) == {"files.title": "Files", "files": "{count, plural, one {a file} other {files}}"}


def test_read_null_is_a_key_without_a_value():
    assert json_nested.read(b'{"a": {"b": null}}', "en") == [Entry("a.b", None)]


def test_read_keeps_the_last_of_duplicate_keys():
    assert _values(b'{"a": {"b": "1", "b": "2"}}') == {"a.b": "2"}


def test_write_leaves_out_keys_without_a_value():
    assert json_nested.write([Entry("a.b", None), Entry("c", "x")], Target("en")) == b'{\n  "c": "x"\n}\n'


def test_write_keeps_a_plural_with_exact_selectors_as_one_message():
    value = "{count, plural, =0 {none} one {one} other {#}}"
    assert (
        json_nested.write([Entry("n", value)], Target("en"))
        == json.dumps({"n": value}, indent=2).encode() + b"\n"
    )


def test_write_keeps_a_plural_over_another_argument_as_one_message():
    value = "{n, plural, one {one} other {many}}"
    assert json_nested.read(json_nested.write([Entry("k", value)], Target("en")), "en") == [Entry("k", value)]


def test_write_refuses_a_key_that_is_also_a_parent():
    with pytest.raises(ValueError, match=re.escape("'a' has a value and cannot also hold 'a.b'")):
        json_nested.write([Entry("a", "x"), Entry("a.b", "y")], Target("en"))


def test_write_refuses_a_key_that_a_plural_form_also_gives():
    entries = [Entry("files_one", "x"), Entry("files", "{count, plural, one {a} other {b}}")]
    with pytest.raises(ValueError, match="both give 'files_one'"):
        json_nested.write(entries, Target("en"))


def test_write_refuses_a_key_deeper_than_the_limit():
    with pytest.raises(ValueError, match="levels deep"):
        json_nested.write([Entry(".".join(["a"] * 65), "x")], Target("en"))


@pytest.mark.parametrize(
    ("data", "message", "line"),
    [
        (b'{\n  "a": {\n    "b": [1]\n  }\n}', "the value of 'a.b' is a list", 3),
        (b'{\n  "a": {\n    "b": 2\n  }\n}', "the value of 'a.b' is a number", 3),
        (b'{\n  "a": false\n}', "the value of 'a' is a boolean", 2),
        (b'{\n  "a.b": "x",\n  "a": {\n    "b": "y"\n  }\n}', "the key 'a.b' is given twice", 4),
        (b'{"a": {"b": "c"},\n "a.b_one": "x", "a.b_other": "y"}', "the key 'a.b' is given twice", 2),
        (b"[]", "one JSON object", 1),
        (b'{\n  "a": {\n    "b": \n  }\n}', "not valid JSON", 4),
        (b'{"a":\n"\xc3"}', "not UTF-8", 2),
    ],
)
def test_read_refuses_what_i18next_cannot_use_naming_the_line(data, message, line):
    with pytest.raises(FormatError, match=message) as caught:
        json_nested.read(data, "en")
    assert caught.value.line == line


def test_read_refuses_nesting_deeper_than_the_limit():
    data = b'{"a":' * 70 + b'"x"' + b"}" * 70
    with pytest.raises(FormatError, match="levels deep"):
        json_nested.read(data, "en")


def test_read_refuses_a_key_longer_than_a_key_can_be():
    data = b'{"' + b"x" * 300 + b'": {"a": "1", "b": "2"}}'
    with pytest.raises(FormatError, match="longer than 256"):
        json_nested.read(data, "en")


@pytest.mark.parametrize("data", [b"\xff\xfe", b"{" * 100000, b'{"a":' * 2000 + b"1" + b"}" * 2000, b"\x00"])
def test_read_of_hostile_bytes_raises_only_format_error(data):
    with pytest.raises(FormatError):
        json_nested.read(data, "en")


# What i18next makes of written files: for each language, (entries, t() calls, results).
I18NEXT_CASES = {
    "en": (
        [
            Entry("app.files", plurals.join({"one": "{{count}} file", "other": "{{count}} files"})),
            Entry(
                "inbox",
                plurals.join({"zero": "No messages", "one": "One message", "other": "{{count}} messages"}),
            ),
            Entry("app.menu.greeting", "Hello, {{name}}!"),
        ],
        [
            ["app.files", {"count": 1}],
            ["app.files", {"count": 7}],
            ["inbox", {"count": 0}],
            ["inbox", {"count": 1}],
            ["inbox", {"count": 2}],
            ["app.menu.greeting", {"name": "Ada"}],
        ],
        ["1 file", "7 files", "No messages", "One message", "2 messages", "Hello, Ada!"],
    ),
    "pl": (
        [Entry("files", plurals.join(PLURALS["pl"][0]))],
        [["files", {"count": n}] for n in (1, 3, 5, 22, 1.5)],
        ["1 plik", "3 pliki", "5 plików", "22 pliki", "1.5 pliku"],
    ),
    "ar": (
        [Entry("files", plurals.join(PLURALS["ar"][0]))],
        [["files", {"count": n}] for n in (0, 1, 2, 3, 11, 100)],
        ["لا ملفات", "ملف واحد", "ملفان", "3 ملفات", "11 ملفًا", "100 ملف"],
    ),
    "ja": (
        [Entry("files", plurals.join(PLURALS["ja"][0])), Entry("hello", "こんにちは、{{name}}さん")],
        [["files", {"count": 1}], ["files", {"count": 5}], ["hello", {"name": "太郎"}]],
        ["1個のファイル", "5個のファイル", "こんにちは、太郎さん"],
    ),
}


@pytest.mark.parametrize("language", I18NEXT_CASES)
def test_i18next_renders_written_plurals_and_interpolation(language, tmp_path):
    if NODE is None:
        pytest.skip("node is not installed; the i18next check needs Node.js")
    if not I18NEXT.exists():
        pytest.skip(f"the i18next package is not installed; run: {NPM_INSTALL}")
    entries, calls, expected = I18NEXT_CASES[language]
    path = tmp_path / f"{language}.json"
    path.write_bytes(json_nested.write(entries, Target(language)))
    completed = subprocess.run(
        [NODE, str(HERE / "i18next_render.cjs"), str(path), language, json.dumps(calls)],
        capture_output=True,
        check=True,
        timeout=60,
    )
    assert json.loads(completed.stdout.decode().splitlines()[-1]) == expected
