"""The ARB format: reading, writing, and the round trip of a canonical file.

A canonical file is one the writer itself produces: ``@@locale`` first, then the keys sorted,
each followed by its ``@key`` (``description`` first), 2-space indentation, UTF-8 and a final
newline. Reading such a file and writing the entries back gives the same bytes.
"""

import json
import re

import orjson
import pytest

from loko.formats import Entry, FormatError, Target, arb

CANONICAL = """\
{
  "@@locale": "pt_BR",
  "count": "{count, plural, =0{Nenhum arquivo} one{# arquivo} other{# arquivos}}",
  "@count": {
    "description": "Number of files",
    "placeholders": {
      "count": {
        "type": "int",
        "format": "compact"
      }
    }
  },
  "empty": "",
  "escapes": "say \\"hi\\"\\tC:\\\\path\\\\\\nnext line",
  "greeting": "Olá {name}, você tem {count} mensagens",
  "@greeting": {
    "description": "Greeting on the home page",
    "placeholders": {
      "name": {
        "type": "String",
        "example": "Ana"
      },
      "count": {
        "type": "int"
      }
    },
    "context": "home"
  },
  "pronoun": "{gender, select, male{ele} female{ela} other{elu}}",
  "@pronoun": {
    "type": "text",
    "x-custom": [
      1,
      2.5,
      true,
      null
    ]
  },
  "unicode": "日本語 😀 שלום \\u0000"
}
"""


def _target(language: str = "pt-BR") -> Target:
    return Target(language=language)


def _entry(entries: list[Entry], key: str) -> Entry:
    return next(entry for entry in entries if entry.key == key)


# Round trip and writing


def test_canonical_file_round_trips_byte_identical():
    data = CANONICAL.encode("utf-8")
    assert arb.write(arb.read(data, "pt-BR"), _target()) == data


def test_locale_comes_from_the_target_with_underscores():
    document = json.loads(arb.write([], _target("zh-Hant-TW")))
    assert document == {"@@locale": "zh_Hant_TW"}


def test_keys_are_sorted_each_followed_by_its_metadata():
    entries = [Entry("b", "B", comment="second"), Entry("a", "A", meta={"arb": {"type": "text"}})]
    assert list(json.loads(arb.write(entries, _target()))) == ["@@locale", "a", "@a", "b", "@b"]


def test_key_without_value_is_left_out():
    assert json.loads(arb.write([Entry("a", None, comment="note")], _target())) == {"@@locale": "pt_BR"}


def test_key_starting_with_at_sign_is_refused():
    with pytest.raises(ValueError, match=re.escape("ARB keys cannot start with '@': '@a'")):
        arb.write([Entry("@a", "A")], _target())


def test_output_is_utf8_with_unescaped_unicode_and_a_final_newline():
    data = arb.write([Entry("a", "日本語 😀")], _target())
    assert data == '{\n  "@@locale": "pt_BR",\n  "a": "日本語 😀"\n}\n'.encode()


def test_placeholder_order_survives_storage_that_sorts_keys():
    entries = arb.read(CANONICAL.encode("utf-8"), "pt-BR")
    sort = orjson.OPT_SORT_KEYS
    stored = [
        Entry(
            entry.key,
            entry.value,
            entry.comment,
            entry.context,
            orjson.loads(orjson.dumps(entry.meta, option=sort)),
        )
        for entry in entries
    ]
    placeholders = json.loads(arb.write(stored, _target()))["@greeting"]["placeholders"]
    assert list(placeholders) == ["name", "count"]


# Reading


def test_plural_message_is_kept_as_written():
    entry = _entry(arb.read(CANONICAL.encode("utf-8"), "pt-BR"), "count")
    assert entry.value == "{count, plural, =0{Nenhum arquivo} one{# arquivo} other{# arquivos}}"


def test_description_is_the_comment_and_the_rest_is_meta():
    entry = _entry(arb.read(CANONICAL.encode("utf-8"), "pt-BR"), "greeting")
    assert entry.comment == "Greeting on the home page"
    assert entry.meta == {
        "arb": {
            "placeholders": {"name": {"type": "String", "example": "Ana"}, "count": {"type": "int"}},
            "context": "home",
        },
        "placeholder_order": ["name", "count"],
    }


def test_global_attributes_and_orphan_metadata_are_not_entries():
    data = b'{"@@locale": "de", "@@last_modified": "2024-01-01", "@orphan": {"description": "x"}, "a": "A"}'
    assert arb.read(data, "de") == [Entry("a", "A")]


def test_non_canonical_file_is_read():
    data = (
        b'\xef\xbb\xbf{"b":"B","a":"A",\r\n'
        b'    "@a": {"placeholders": {"x": {}}, "description": "first"}, "@b": {}}'
    )
    assert arb.read(data, "de") == [
        Entry("b", "B"),
        Entry("a", "A", comment="first", meta={"arb": {"placeholders": {"x": {}}}}),
    ]


def test_description_that_is_not_text_stays_in_meta():
    entry = arb.read(b'{"a": "A", "@a": {"description": 3}}', "de")[0]
    assert (entry.comment, entry.meta) == (None, {"arb": {"description": 3}})


# Refusals


@pytest.mark.parametrize(
    ("data", "line"),
    [
        (b'{\n  "a": "A",\n}\n', 3),
        (b'{\n  "a": "A"\n  "b": "B"\n}\n', 3),
        (b"", 1),
        (b'{\n  "a": "caf\xe9"\n}\n', 2),
        (b"\n\n[1, 2]\n", 3),
    ],
)
def test_broken_file_raises_format_error_naming_the_line(data, line):
    with pytest.raises(FormatError, match=f"^line {line}: ") as raised:
        arb.read(data, "en")
    assert raised.value.line == line


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b'{"a": 1}', "the value of 'a' is not a string"),
        (b'{"a": null}', "the value of 'a' is not a string"),
        (b'{"a": "A", "@a": "note"}', "the metadata '@a' is not an object"),
        (b'{"a": "A", "a": "B"}', "the name 'a' appears twice in one object"),
        (b'{"a": "\\ud800"}', "the string '\\ud800' holds a lone surrogate escape"),
        (b'{"a": "A", "@a": {"x": NaN}}', "NaN is not JSON"),
    ],
)
def test_file_that_is_not_an_arb_bundle_is_refused(data, message):
    with pytest.raises(FormatError, match=f"^{re.escape(message)}$"):
        arb.read(data, "en")
