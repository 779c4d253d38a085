"""The flat JSON format: reading, writing, and the round trip of a canonical file.

A canonical file is what the API's export gives (``json_bytes``: compact, keys sorted, UTF-8
as is); reading one and writing the entries back gives the same bytes.
"""

import pytest

from loko.exports.writers import json_bytes
from loko.formats import Entry, FormatError, Target, json_flat

# Nesting as dotted keys, ICU plurals for ja (1 form), en (2), pl (4) and ar (6), placeholders,
# escapes, an empty value and Unicode (emoji, right-to-left).
CANONICAL = (
    '{"app.empty":"",'
    '"app.escapes":"Say \\"hi\\" \\\\ to C:\\\\temp\\nnew line\\tand tab",'
    '"app.menu.open":"Open…",'
    '"emoji":"Done 🎉",'
    '"files.ar":"{count, plural, zero {لا ملفات} one {ملف واحد} two {ملفان} '
    'few {# ملفات} many {# ملفًا} other {# ملف}}",'
    '"files.en":"{count, plural, one {{{count}} file} other {{{count}} files}}",'
    '"files.ja":"{count, plural, other {{{count}}個のファイル}}",'
    '"files.pl":"{count, plural, one {# plik} few {# pliki} many {# plików} other {# pliku}}",'
    '"greeting":"Hello, {{name}}!",'
    '"positional":"Copy {0} to {1}",'
    '"printf":"%s of %d",'
    '"rtl":"שלום עולם"}'
).encode()


def test_canonical_file_round_trips_byte_identical():
    assert json_flat.write(json_flat.read(CANONICAL, "en"), Target("en")) == CANONICAL


def test_read_gives_the_texts_with_escapes_resolved():
    values = {entry.key: entry.value for entry in json_flat.read(CANONICAL, "en")}
    assert values["app.escapes"] == 'Say "hi" \\ to C:\\temp\nnew line\tand tab'
    assert values["app.empty"] == ""
    assert values["emoji"] == "Done 🎉"
    assert values["rtl"] == "שלום עולם"
    assert values["files.ja"] == "{count, plural, other {{{count}}個のファイル}}"


def test_read_keeps_the_file_order():
    data = b'{"b": "1", "a": "2", "c": "3"}'
    assert [entry.key for entry in json_flat.read(data, "en")] == ["b", "a", "c"]


def test_write_is_the_api_export():
    entries = json_flat.read(CANONICAL, "en")
    assert json_flat.write(entries, Target("en")) == json_bytes({e.key: e.value for e in entries})


def test_write_leaves_out_keys_without_a_value():
    entries = [Entry("a", "x"), Entry("b", None)]
    assert json_flat.write(entries, Target("en")) == b'{"a":"x"}'


def test_read_null_is_a_key_without_a_value():
    assert json_flat.read(b'{"a": null}', "en") == [Entry("a", None)]


def test_read_accepts_indentation_and_a_byte_order_mark():
    data = '\ufeff{\n  "b": "zwei",\n  "a": "eins \\u00e9"\n}\n'.encode()
    assert json_flat.read(data, "de") == [Entry("b", "zwei"), Entry("a", "eins é")]


def test_read_keeps_the_last_of_duplicate_keys():
    assert json_flat.read(b'{"a": "1", "a": "2"}', "en") == [Entry("a", "2")]


def test_read_of_an_empty_object_is_no_entries():
    assert json_flat.read(b"{}", "en") == []


@pytest.mark.parametrize(
    ("data", "message", "line"),
    [
        (b'{\n  "a": "x",\n  "b": {"c": "d"}\n}', "the value of 'b' is an object", 3),
        (b'{\n  "a": 3\n}', "the value of 'a' is a number", 2),
        (b'{\n\n  "a": true\n}', "the value of 'a' is a boolean", 3),
        (b'{"a": ["x"]}', "the value of 'a' is a list", 1),
        (b'{\n  "a": "x",\n  "a": 1\n}', "the value of 'a' is a number", 3),
        (b'\n["a"]', "one JSON object", 2),
        (b'{\n  "a": "x",\n  "b": "y"\n', "not valid JSON", 4),
        (b'{"a": "x"}\n{"b": "y"}', "not valid JSON", 2),
        (b'{\n"a": "\xff"}', "not UTF-8", 2),
        (b'{"a": "\\ud800"}', "surrogate", 1),
        (b'{"a": 1e999}', "not valid JSON", 1),
        (b'{"a": NaN}', "not valid JSON", 1),
        (b"[" * 5000, "not valid JSON", 1),
        (b"", "not valid JSON", 1),
    ],
)
def test_read_refuses_what_is_not_flat_json_naming_the_line(data, message, line):
    with pytest.raises(FormatError, match=message) as caught:
        json_flat.read(data, "en")
    assert caught.value.line == line


def test_read_names_the_nested_format_for_an_object():
    with pytest.raises(FormatError, match="json-nested"):
        json_flat.read(b'{"a": {"b": "c"}}', "en")


@pytest.mark.parametrize(
    "data", [b"\x00\x01\x02", b"\xef\xbb\xbf", b'{"a": 123456789012345678901234567890}', b"{" * 100000]
)
def test_read_of_hostile_bytes_raises_only_format_error(data):
    with pytest.raises(FormatError):
        json_flat.read(data, "en")
