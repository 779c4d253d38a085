"""The flat YAML format: reading, writing, and the round trip of a canonical file.

A canonical file is what the writer gives: keys sorted, block style, text quoted only where
YAML would read it as something else, multi-line text as a literal block, UTF-8 as is.
Reading one and writing the entries back gives the same bytes. PyYAML's own loaders (YAML
1.1, as Ruby's Psych) are the reference for what a written file means.
"""

import pytest
import yaml

from loko.formats import Entry, FormatError, Target, yaml_flat

# Dotted keys, ICU plurals for ja (1 form), en (2), pl (4) and ar (6), placeholders, escapes,
# quoting, a literal block, an empty value and Unicode (emoji, right-to-left).
CANONICAL = (
    "answer: 'yes'\n"
    'app.crlf: "a\\r\\nb"\n'
    "app.empty: ''\n"
    'app.escapes: "Say \\"hi\\" \\\\ to C:\\\\temp\\nnew line\\tand tab"\n'
    "app.menu.open: Open…\n"
    "app.multiline: |\n"
    "  First line\n"
    "  Second line\n"
    'app.quotes: It\'s "quoted"\n'
    "colon: 'Note: this'\n"
    "emoji: Done 🎉\n"
    "files.ar: '{count, plural, zero {لا ملفات} one {ملف واحد} two {ملفان}"
    " few {# ملفات} many {# ملفًا} other {# ملف}}'\n"
    "files.en: '{count, plural, one {%{count} file} other {%{count} files}}'\n"
    "files.ja: '{count, plural, other {%{count}個のファイル}}'\n"
    "files.pl: '{count, plural, one {# plik} few {# pliki} many {# plików} other {# pliku}}'\n"
    "greeting: Hello, {{name}}!\n"
    "hash: '# not a comment'\n"
    "lead: ' leading space'\n"
    "number: '42'\n"
    "positional: Copy {0} to {1}\n"
    "printf: '%s of %d'\n"
    "rtl: שלום עולם\n"
).encode()


def _values(data: bytes) -> dict:
    return {entry.key: entry.value for entry in yaml_flat.read(data, "en")}


def test_canonical_file_round_trips_byte_identical():
    assert yaml_flat.write(yaml_flat.read(CANONICAL, "en"), Target("en")) == CANONICAL


def test_read_gives_the_texts_with_quoting_and_escapes_resolved():
    values = _values(CANONICAL)
    assert values["app.escapes"] == 'Say "hi" \\ to C:\\temp\nnew line\tand tab'
    assert values["app.crlf"] == "a\r\nb"
    assert values["app.multiline"] == "First line\nSecond line\n"
    assert values["app.empty"] == ""
    assert values["lead"] == " leading space"
    assert values["rtl"] == "שלום עולם"
    assert values["files.ja"] == "{count, plural, other {%{count}個のファイル}}"


def test_read_takes_unquoted_scalars_as_the_text_they_spell():
    data = b"a: yes\nb: 42\nc: 2024-01-01\nd: 1_000\ne: 0x1F\nf: .inf\ng: no\n"
    assert _values(data) == {
        "a": "yes",
        "b": "42",
        "c": "2024-01-01",
        "d": "1_000",
        "e": "0x1F",
        "f": ".inf",
        "g": "no",
    }


def test_read_takes_keys_as_the_text_they_spell():
    assert _values(b"yes: Ja\n1: eins\n") == {"yes": "Ja", "1": "eins"}


def test_read_unquoted_null_is_a_key_without_a_value():
    assert _values(b"a:\nb: ~\nc: null\nd: 'null'\n") == {"a": None, "b": None, "c": None, "d": "null"}


def test_read_accepts_flow_style_folding_and_comments():
    data = b"# header\n{a: 'x', b: \"y\\u00e9\"}  # trailing\n"
    assert _values(data) == {"a": "x", "b": "yé"}


def test_read_folds_plain_and_folded_scalars_as_yaml_does():
    data = b"a: one\n  two\nb: >\n  three\n  four\n"
    assert _values(data) == {"a": "one two", "b": "three four\n"}


def test_read_keeps_the_last_of_duplicate_keys():
    assert _values(b"a: 1\na: 2\n") == {"a": "2"}


def test_read_accepts_a_byte_order_mark_and_a_document_marker():
    assert _values("\ufeff---\na: x\n".encode()) == {"a": "x"}


def test_read_of_an_empty_file_is_no_entries():
    assert yaml_flat.read(b"", "en") == []


def test_write_leaves_out_keys_without_a_value():
    assert yaml_flat.write([Entry("a", None), Entry("b", "x")], Target("en")) == b"b: x\n"


@pytest.mark.parametrize("loader", [yaml.SafeLoader, getattr(yaml, "CSafeLoader", yaml.SafeLoader)])
def test_pyyaml_reads_a_written_file_as_written(loader):
    entries = yaml_flat.read(CANONICAL, "en")
    data = yaml_flat.write(entries, Target("en"))
    assert yaml.load(data, Loader=loader) == {entry.key: entry.value for entry in entries}


@pytest.mark.parametrize(
    "text",
    [
        "yes",
        "No",
        "on",
        "42",
        "1_000",
        "1:20",
        "0x1F",
        "-1",
        "1.5e3",
        ".inf",
        "~",
        "null",
        "2024-01-01",
        "<<",
        "=",
    ],
)
def test_write_quotes_text_yaml_would_read_as_something_else(text):
    data = yaml_flat.write([Entry("a", text), Entry(text, "b")], Target("en"))
    assert yaml.safe_load(data) == {"a": text, text: "b"}


@pytest.mark.parametrize(
    ("text", "written"),
    [
        ("one\ntwo", b"a: |-\n  one\n  two\n"),
        ("\none\n\ntwo\n", b"a: |\n\n  one\n\n  two\n"),
        ("one\ntwo\n\n", b'a: "one\\ntwo\\n\\n"\n'),
        (" one\ntwo", b'a: " one\\ntwo"\n'),
        ("tab\there", b'a: "tab\\there"\n'),
        ("line\u2028separator", b'a: "line\\Lseparator"\n'),
        ("it's", b"a: it's\n"),
        ("'quoted'", b"a: '''quoted'''\n"),
        ("a: b", b"a: 'a: b'\n"),
        ("- item", b"a: '- item'\n"),
        ("a #b", b"a: 'a #b'\n"),
    ],
)
def test_write_picks_the_plainest_style_that_keeps_the_text(text, written):
    assert yaml_flat.write([Entry("a", text)], Target("en")) == written
    assert yaml_flat.read(written, "en") == [Entry("a", text)]


def test_write_does_not_fold_long_lines():
    text = " ".join(["word"] * 100)
    assert yaml_flat.write([Entry("a", text)], Target("en")) == f"a: {text}\n".encode()


def test_write_of_no_entries_is_an_empty_mapping():
    assert yaml_flat.write([], Target("en")) == b"{}\n"
    assert yaml_flat.read(b"{}\n", "en") == []


@pytest.mark.parametrize(
    ("data", "message", "line"),
    [
        (b"a: x\nb:\n  c: d\n", "the value of 'b' is a mapping", 2),
        (b"a: x\nb:\n  - c\n", "lists are not supported", 3),
        (b"a: &x hello\nb: *x\n", "aliases", 2),
        (b"a: x\n<<: {b: c}\n", "merge keys", 2),
        (b"a: !!binary aGk=\n", "tag tag:yaml.org,2002:binary", 1),
        (b"a: !!python/object:os.system x\n", "tag tag:yaml.org,2002:python/object:os.system", 1),
        (b"a: x\n? [b]\n: c\n", "lists are not supported", 2),
        (b"a: x\n? {b: c}\n: d\n", "a key must be text", 2),
        (b"a: x\n---\nb: y\n", "more than one YAML document", 2),
        (b"a: x\nb: 'unterminated\n", "not valid YAML", 3),
        (b"a: x\n  b: y\n", "not valid YAML", 2),
        (b"a: x\nb: \x01\n", "U\\+0001", 2),
        (b"a: x\nb: \xff\n", "not UTF-8", 2),
        (b'a: x\nb: "\\ud800"\n', "not valid YAML|surrogate", 2),
        (b"just text\n", "mapping of keys", 1),
    ],
)
def test_read_refuses_what_is_not_flat_yaml_naming_the_line(data, message, line):
    with pytest.raises(FormatError, match=message) as caught:
        yaml_flat.read(data, "en")
    assert caught.value.line == line


@pytest.mark.parametrize(
    "data",
    [
        b"{a: " * 100000,
        b"[" * 100000,
        b"a: &a [1, 2]\nb: &b [*a, *a]\nc: &c [*b, *b]\n",
        b"\x00\x01",
        b"\xef\xbb\xbf\xef\xbb\xbf",
        b"a: " + b"9" * 100000,
    ],
)
def test_read_of_hostile_bytes_raises_only_format_error_or_reads_text(data):
    try:
        entries = yaml_flat.read(data, "en")
    except FormatError:
        return
    assert all(isinstance(entry.value, str) for entry in entries)
