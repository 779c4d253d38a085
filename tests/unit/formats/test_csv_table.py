"""The CSV format, one table of every language: reading, writing, and the round trip of a
canonical file.

A canonical file is what the writer gives: ``key``, ``comment`` (when a key has one), the
languages sorted; rows sorted by key; commas, quotes only where needed, CRLF line ends, UTF-8
without a byte order mark. Reading one and writing the entries back gives the same bytes.
"""

import contextlib

import pytest

from loko.formats import Entry, FormatError, Target, csv_table, plurals

AR_FILES = (
    "{count, plural, zero {لا ملفات} one {ملف واحد} two {ملفان} few {# ملفات} many {# ملفًا} other {# ملف}}"
)
EN_FILES = "{count, plural, one {{0} file} other {{0} files}}"
JA_FILES = "{count, plural, other {{0}個のファイル}}"
PL_FILES = "{count, plural, one {# plik} few {# pliki} many {# plików} other {# pliku}}"

# ICU plurals for ar (6 forms), en (2), ja (1) and pl (4), a comment, placeholders, quotes,
# commas, a line break and a tab inside a cell, empty cells and Unicode (emoji, RTL).
CANONICAL = (
    "key,comment,ar,en,ja,pl\r\n"
    "app.title,Shown in the title bar,لوكو,Loko,ロコ,\r\n"
    "emoji,,,Done 🎉,,\r\n"
    "empty,,,,,\r\n"
    'escapes,,,"Say ""hi"", then\r\nnew line\tand tab \\ done",,\r\n'
    f'files,,"{AR_FILES}","{EN_FILES}","{JA_FILES}","{PL_FILES}"\r\n'
    'greeting,,,"Hello, {{name}}!",こんにちは、{{name}}さん,\r\n'
    "printf,,,%s of %d,,\r\n"
).encode()


def _values(by_language: dict) -> dict:
    return {language: {e.key: e.value for e in entries} for language, entries in by_language.items()}


def test_canonical_file_round_trips_byte_identical():
    assert csv_table.write_all(csv_table.read_all(CANONICAL), Target("en")) == CANONICAL


def test_read_all_gives_each_language_its_column():
    values = _values(csv_table.read_all(CANONICAL))
    assert values["ar"]["files"] == AR_FILES
    assert values["en"]["files"] == EN_FILES
    assert values["ja"]["files"] == JA_FILES
    assert values["pl"]["files"] == PL_FILES
    assert values["en"]["escapes"] == 'Say "hi", then\r\nnew line\tand tab \\ done'
    assert values["ja"]["greeting"] == "こんにちは、{{name}}さん"


def test_read_all_takes_an_empty_cell_as_no_value():
    values = _values(csv_table.read_all(CANONICAL))
    assert values["pl"]["app.title"] is None
    assert values["en"]["empty"] is None


def test_read_all_gives_every_language_the_key_comment():
    by_language = csv_table.read_all(CANONICAL)
    assert {entries[0].comment for entries in by_language.values()} == {"Shown in the title bar"}
    assert by_language["en"][1].comment is None


def test_read_gives_one_language():
    assert csv_table.read(b"key,de,fr\r\na,eins,un\r\n", "fr") == [Entry("a", "un")]


def test_read_matches_the_language_whatever_its_separator_and_case():
    assert csv_table.read(b"key,pt_BR\r\na,um\r\n", "pt-br") == [Entry("a", "um")]


def test_read_refuses_a_language_without_a_column():
    with pytest.raises(FormatError, match="no column for the language 'it'") as caught:
        csv_table.read(b"key,de\r\na,eins\r\n", "it")
    assert caught.value.line == 1


def test_read_accepts_what_spreadsheets_save():
    data = '\ufeffKey;de;Comment\nb;zwei;second\n\n;;\na;"eins; one"\n'.encode()
    assert csv_table.read_all(data) == {"de": [Entry("b", "zwei", "second"), Entry("a", "eins; one")]}


def test_read_takes_missing_cells_at_the_end_of_a_row_as_empty():
    assert csv_table.read_all(b"key,de,fr\r\na,eins\r\n") == {
        "de": [Entry("a", "eins")],
        "fr": [Entry("a", None)],
    }


def test_read_ignores_empty_columns_without_a_header():
    assert csv_table.read_all(b"key,de,,\r\na,eins,,\r\n") == {"de": [Entry("a", "eins")]}


def test_read_keeps_the_last_of_duplicate_keys():
    assert csv_table.read(b"key,de\r\na,1\r\na,2\r\n", "de") == [Entry("a", "2")]


def test_read_of_an_empty_file_is_no_languages():
    assert csv_table.read_all(b"") == {}


def test_write_all_sorts_languages_and_keys():
    by_language = {"fr": [Entry("b", "deux"), Entry("a", "un")], "de": [Entry("a", "eins")]}
    assert csv_table.write_all(by_language, Target("de")) == b"key,de,fr\r\na,eins,un\r\nb,,deux\r\n"


def test_write_all_takes_a_key_comment_from_the_first_language_that_has_one():
    by_language = {
        "fr": [Entry("a", "un", "note fr")],
        "de": [Entry("a", "eins")],
        "en": [Entry("a", "one", "note en")],
    }
    assert (
        csv_table.write_all(by_language, Target("de")) == b"key,comment,de,en,fr\r\na,note en,eins,one,un\r\n"
    )


def test_write_gives_one_language_column():
    entries = [Entry("a", "x, y"), Entry("b", None)]
    assert csv_table.write(entries, Target("de")) == b'key,de\r\na,"x, y"\r\nb,\r\n'


def test_round_trip_loses_only_the_difference_between_empty_and_no_value():
    by_language = {"de": [Entry("a", ""), Entry("b", None), Entry("c", plurals.join({"other": "#"}))]}
    read_back = csv_table.read_all(csv_table.write_all(by_language, Target("de")))
    assert read_back == {"de": [Entry("a", None), Entry("b", None), Entry("c", "{count, plural, other {#}}")]}


@pytest.mark.parametrize(
    ("data", "message", "line"),
    [
        (b"id,de\r\na,b\r\n", "the first column must be 'key'", 1),
        (b"key,de,de\r\na,b,c\r\n", "the language 'de' has two columns", 1),
        (b"key,comment,de,comment\r\n", "'comment' column is given twice", 1),
        (b"key,de\r\na,b\r\n,c\r\n", "a row has text but no key", 3),
        (b"key,de\r\na,b\r\nc,d,e\r\n", "a column without a header", 3),
        (b'key,de\r\na,"b\r\nc"\r\nd,"unterminated\r\ne,f\r\n', "not valid CSV", 4),
        (b'key,de\r\na,"b"c\r\n', "not valid CSV", 2),
        (b"key,de\r\na,b\r\nc,\xe9\r\n", "not UTF-8", 3),
    ],
)
def test_read_refuses_what_is_not_a_table_naming_the_line(data, message, line):
    with pytest.raises(FormatError, match=message) as caught:
        csv_table.read_all(data)
    assert caught.value.line == line


@pytest.mark.parametrize(
    "data",
    [b"key,de\r\na," + b"x" * 200000 + b"\r\n", b"\x00" * 100, b'"' * 10001, b"key\r\n" + b"\r\n" * 50000],
)
def test_read_of_hostile_bytes_raises_only_format_error_or_reads(data):
    with contextlib.suppress(FormatError):
        csv_table.read_all(data)
