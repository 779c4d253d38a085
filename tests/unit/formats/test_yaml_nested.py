"""The nested YAML format (Rails i18n): reading, writing, and the round trip of a canonical
file.

A canonical file is what the writer gives: the language as the only top-level key, keys
split on "." and sorted at every level, plural forms as a mapping in CLDR order, text in the
flat YAML writer's style. Reading one and writing the entries back gives the same bytes.
"""

import re

import pytest
import yaml

from loko.formats import Entry, FormatError, Target, plurals, yaml_nested

# Nesting, an English plural inside a mapping, placeholders (%{name}, {{name}}, %s, {0}),
# escapes, quoting, a literal block, an empty value and Unicode (emoji, right-to-left).
CANONICAL = """en:
  answer: 'yes'
  app:
    empty: ''
    escapes: "Say \\"hi\\" \\\\ to C:\\\\temp\\nnew line\\tand tab"
    files:
      one: '%{count} file'
      other: '%{count} files'
    menu:
      open: Open…
      quit: Quit %s
    multiline: |
      First line
      Second line
    title: Loko
  emoji: Done 🎉
  greeting: Hello, %{name}!
  mustache: Hello, {{name}}!
  positional: Copy {0} to {1}
  rtl: שלום עולם
""".encode()

CANONICAL_ENTRIES = [
    Entry("answer", "yes"),
    Entry("app.empty", ""),
    Entry("app.escapes", 'Say "hi" \\ to C:\\temp\nnew line\tand tab'),
    Entry("app.files", "{count, plural, one {%{count} file} other {%{count} files}}"),
    Entry("app.menu.open", "Open…"),
    Entry("app.menu.quit", "Quit %s"),
    Entry("app.multiline", "First line\nSecond line\n"),
    Entry("app.title", "Loko"),
    Entry("emoji", "Done 🎉"),
    Entry("greeting", "Hello, %{name}!"),
    Entry("mustache", "Hello, {{name}}!"),
    Entry("positional", "Copy {0} to {1}"),
    Entry("rtl", "שלום עולם"),
]

# One plural per language: ja has one form, en two, pl four, ar six.
PLURALS = {
    "ja": ({"other": "%{count}個のファイル"}, "ja:\n  files:\n    other: '%{count}個のファイル'\n"),
    "en": (
        {"one": "%{count} file", "other": "%{count} files"},
        "en:\n  files:\n    one: '%{count} file'\n    other: '%{count} files'\n",
    ),
    "pl": (
        {
            "one": "%{count} plik",
            "few": "%{count} pliki",
            "many": "%{count} plików",
            "other": "%{count} pliku",
        },
        "pl:\n  files:\n    one: '%{count} plik'\n    few: '%{count} pliki'\n"
        "    many: '%{count} plików'\n    other: '%{count} pliku'\n",
    ),
    "ar": (
        {
            "zero": "لا ملفات",
            "one": "ملف واحد",
            "two": "ملفان",
            "few": "%{count} ملفات",
            "many": "%{count} ملفًا",
            "other": "%{count} ملف",
        },
        "ar:\n  files:\n    zero: لا ملفات\n    one: ملف واحد\n    two: ملفان\n"
        "    few: '%{count} ملفات'\n    many: '%{count} ملفًا'\n    other: '%{count} ملف'\n",
    ),
}


def _values(data: bytes, language: str = "en") -> dict:
    return {entry.key: entry.value for entry in yaml_nested.read(data, language)}


def test_canonical_file_round_trips_byte_identical():
    assert yaml_nested.write(yaml_nested.read(CANONICAL, "en"), Target("en")) == CANONICAL


def test_read_joins_paths_and_reads_plural_mappings():
    assert yaml_nested.read(CANONICAL, "en") == CANONICAL_ENTRIES


@pytest.mark.parametrize("language", PLURALS)
def test_plural_file_reads_as_one_icu_message(language):
    forms, text = PLURALS[language]
    assert yaml_nested.read(text.encode(), language) == [Entry("files", plurals.join(forms))]


@pytest.mark.parametrize("language", PLURALS)
def test_plural_file_round_trips_byte_identical(language):
    data = PLURALS[language][1].encode()
    assert yaml_nested.write(yaml_nested.read(data, language), Target(language)) == data


def test_read_takes_zero_as_a_plural_form_in_every_language():
    data = b"en:\n  inbox:\n    zero: No messages\n    one: One message\n    other: '%{count} messages'\n"
    assert _values(data) == {
        "inbox": "{count, plural, zero {No messages} one {One message} other {%{count} messages}}"
    }


def test_read_takes_a_mapping_with_other_keys_as_nested_keys():
    data = b"en:\n  choice:\n    one: First\n    other: Others\n    title: Pick\n"
    assert _values(data) == {"choice.one": "First", "choice.other": "Others", "choice.title": "Pick"}


def test_read_takes_a_mapping_without_other_as_nested_keys():
    assert _values(b"en:\n  choice:\n    one: First\n    two: Second\n") == {
        "choice.one": "First",
        "choice.two": "Second",
    }


def test_read_matches_the_language_whatever_its_separator_and_case():
    assert _values(b"pt_BR:\n  a: x\n", "pt-br") == {"a": "x"}


def test_read_accepts_flow_style_and_comments():
    data = b"# Rails\nen: {app: {title: Loko, files: {one: a file, other: '%{count} files'}}}  # end\n"
    assert _values(data) == {
        "app.title": "Loko",
        "app.files": "{count, plural, one {a file} other {%{count} files}}",
    }


def test_read_of_an_empty_language_is_no_entries():
    assert yaml_nested.read(b"en:\n", "en") == []
    assert yaml_nested.read(b"", "en") == []


def test_pyyaml_reads_a_written_file_nested_as_rails_reads_it():
    document = yaml.safe_load(yaml_nested.write(CANONICAL_ENTRIES, Target("en")))
    assert document["en"]["app"]["files"] == {"one": "%{count} file", "other": "%{count} files"}
    assert document["en"]["app"]["menu"] == {"open": "Open…", "quit": "Quit %s"}
    assert document["en"]["answer"] == "yes"


def test_write_quotes_a_language_yaml_would_read_as_a_boolean():
    assert yaml_nested.write([Entry("a", "x")], Target("no")) == b"'no':\n  a: x\n"


def test_write_leaves_out_keys_without_a_value():
    assert yaml_nested.write([Entry("a.b", None), Entry("c", "x")], Target("en")) == b"en:\n  c: x\n"


def test_write_keeps_a_plural_with_exact_selectors_as_one_message():
    value = "{count, plural, =0 {none} other {#}}"
    assert yaml_nested.read(yaml_nested.write([Entry("k", value)], Target("en")), "en") == [Entry("k", value)]


def test_write_refuses_a_key_that_is_also_a_parent():
    with pytest.raises(ValueError, match=re.escape("'a' has a value and cannot also hold 'a.b'")):
        yaml_nested.write([Entry("a", "x"), Entry("a.b", "y")], Target("en"))


def test_write_refuses_a_key_inside_a_plural():
    entries = [Entry("files", "{count, plural, one {a} other {b}}"), Entry("files.title", "Files")]
    with pytest.raises(ValueError, match=re.escape("'files' has a value and cannot also hold 'files.title'")):
        yaml_nested.write(entries, Target("en"))


@pytest.mark.parametrize(
    ("data", "message", "line"),
    [
        (b"en:\n  a: x\n", "the top-level key 'en' is not the language 'de'", 1),
        (b"de:\n  a: x\nen:\n  a: y\n", "also has 'en'", 3),
        (b"de: x\n", "must hold a mapping", 1),
        (b"- de\n", "lists are not supported", 1),
        (b"de:\n  a:\n    - x\n", "lists are not supported", 3),
        (b"de:\n  a.b: x\n  a:\n    b: y\n", "the key 'a.b' is given twice", 4),
        (b"de:\n  a: &x y\n  b: *x\n", "aliases", 3),
        (b"de:\n  a: x\n   b: y\n", "not valid YAML", 3),
    ],
)
def test_read_refuses_what_rails_cannot_use_naming_the_line(data, message, line):
    with pytest.raises(FormatError, match=message) as caught:
        yaml_nested.read(data, "de")
    assert caught.value.line == line


def test_read_refuses_nesting_deeper_than_the_limit():
    data = b"de:\n" + b"".join(b"  " * depth + b"a:\n" for depth in range(1, 80))
    with pytest.raises(FormatError, match="levels deep"):
        yaml_nested.read(data, "de")


def test_read_refuses_a_key_longer_than_a_key_can_be():
    data = b"de:\n  " + b"x" * 300 + b":\n    a: '1'\n"
    with pytest.raises(FormatError, match="longer than 256") as caught:
        yaml_nested.read(data, "de")
    assert caught.value.line == 2
