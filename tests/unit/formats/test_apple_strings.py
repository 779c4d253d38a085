r"""The Apple .strings format: reading (UTF-8 and UTF-16), writing, escaping, errors that name
the line, and the round trip of a canonical file.

A canonical file is one the writer itself produces (UTF-8, ``/* comment */`` on the line
before ``"key" = "value";``, a blank line between entries, a final newline); reading it and
writing the entries back gives the same bytes.
"""

import contextlib
import random

import pytest

from loko.formats import Entry, FormatError, Target, apple_strings, plurals

CANONICAL = r"""/* Shown on the home screen */
"greeting" = "Hello, %1$s!";

"profile.name" = "Name: %@";

"items" = "{0} items";

/* Quotes, apostrophes,
backslashes and new lines */
"escapes" = "Tom & \"Jerry\" <3 it's C:\\path\nnext line\ttab";

"empty" = "";

"unicode" = "مرحبا 🎉 \U0007";

/* Plural text stays ICU */
"files" = "{count, plural, one {# file} other {# files}}";

"key with \"quotes\"" = "value";
""".encode()

PLURALS = {
    "ja": "{count, plural, other {# 個のファイル}}",
    "en": "{count, plural, one {# file} other {# files}}",
    "pl": "{count, plural, one {# plik} few {# pliki} many {# plików} other {# pliku}}",
    "ar": (
        "{count, plural, zero {لا ملفات} one {ملف واحد} two {ملفان} few {# ملفات} many {# ملفًا} "
        "other {# ملف}}"
    ),
}


def _by_key(data: bytes = CANONICAL) -> dict[str, Entry]:
    return {entry.key: entry for entry in apple_strings.read(data, "en")}


def _error(data: bytes) -> FormatError:
    with pytest.raises(FormatError) as error:
        apple_strings.read(data, "en")
    return error.value


def test_canonical_file_round_trips_byte_for_byte():
    assert apple_strings.write(apple_strings.read(CANONICAL, "en"), Target("en")) == CANONICAL


def test_reads_placeholders_escapes_and_unicode():
    entries = _by_key()
    assert entries["greeting"].value == "Hello, %1$s!"
    assert entries["profile.name"].value == "Name: %@"
    assert entries["items"].value == "{0} items"
    assert entries["escapes"].value == 'Tom & "Jerry" <3 it\'s C:\\path\nnext line\ttab'
    assert entries["empty"].value == ""
    assert entries["unicode"].value == "مرحبا 🎉 \x07"
    assert entries['key with "quotes"'].value == "value"


def test_reads_comments_right_before_a_key():
    entries = _by_key()
    assert entries["greeting"].comment == "Shown on the home screen"
    assert entries["escapes"].comment == "Quotes, apostrophes,\nbackslashes and new lines"
    assert entries["items"].comment is None


@pytest.mark.parametrize("language", ["ja", "en", "pl", "ar"])
def test_plural_text_round_trips_for_each_plural_shape(language):
    assert set(plurals.split(PLURALS[language]).forms) == set(plurals.categories(language))
    data = f'"files" = "{PLURALS[language]}";\n'.encode()
    assert apple_strings.read(data, language) == [Entry("files", PLURALS[language])]
    assert apple_strings.write(apple_strings.read(data, language), Target(language)) == data


@pytest.mark.parametrize(
    ("encoding", "mark"), [("utf-8", b"\xef\xbb\xbf"), ("utf-16-le", b"\xff\xfe"), ("utf-16-be", b"\xfe\xff")]
)
def test_reads_utf8_and_utf16_with_a_byte_order_mark(encoding, mark):
    data = mark + CANONICAL.decode().encode(encoding)
    assert apple_strings.read(data, "en") == apple_strings.read(CANONICAL, "en")


@pytest.mark.parametrize("encoding", ["utf-16-le", "utf-16-be"])
def test_reads_utf16_without_a_byte_order_mark(encoding):
    data = CANONICAL.decode().encode(encoding)
    assert apple_strings.read(data, "en") == apple_strings.read(CANONICAL, "en")


def test_reads_unquoted_keys_and_values_and_a_key_alone():
    data = b'menu.title = Menu_1;\n"alone";\nx=y;'
    assert apple_strings.read(data, "en") == [
        Entry("menu.title", "Menu_1"),
        Entry("alone", "alone"),
        Entry("x", "y"),
    ]


def test_reads_line_comments_and_leaves_out_header_and_trailing_comments():
    data = b'/* Header */\n\n// First\n/* Second */\n"a" = "1"; // about a\n"b" = "2";\n'
    assert apple_strings.read(data, "en") == [Entry("a", "1", "First\nSecond"), Entry("b", "2")]


def test_reads_octal_unicode_and_other_escapes():
    data = rb'"k" = "\101\u00e9\UD83D\UDE00\r\a\b\f\v\'\q";'
    assert apple_strings.read(data, "en") == [Entry("k", "A\u00e9\U0001f600\r\a\b\f\v'q")]


def test_writer_escapes_control_characters_and_breaks_comment_ends():
    data = apple_strings.write([Entry("k", 'a\r\x01"', comment="x */ y")], Target("en"))
    assert data == b'/* x * / y */\n"k" = "a\\r\\U0001\\"";\n'


def test_writer_leaves_out_none_values():
    assert apple_strings.write([Entry("a", None), Entry("b", "B")], Target("en")) == b'"b" = "B";\n'


def test_missing_semicolon_names_the_line():
    error = _error(b'"a" = "1";\n"b" = "2"\n"c" = "3";\n')
    assert error.line == 3
    assert "';'" in str(error)


def test_unterminated_string_names_the_line_where_it_starts():
    assert _error(b'"a" = "1";\n\n"b" = "never\nclosed;\n').line == 3


def test_unterminated_comment_names_the_line_where_it_starts():
    assert _error(b'"a" = "1";\n/* open\n').line == 2


def test_invalid_utf8_names_the_line():
    assert _error(b'"a" = "1";\n"b" = "\xff";\n').line == 2


def test_bad_unicode_escape_names_the_line():
    assert _error(b'"a" = "1";\n"b" = "\\U12G4";\n').line == 2


def test_a_key_that_appears_twice_is_refused_naming_the_line():
    error = _error(b'"a" = "1";\n"a" = "2";\n')
    assert error.line == 2
    assert "twice" in str(error)


def test_mutated_bytes_raise_nothing_but_format_error():
    generator = random.Random(3)
    for _ in range(500):
        data = bytearray(CANONICAL)
        for _ in range(generator.randint(1, 4)):
            position = generator.randrange(len(data))
            data[position : position + generator.randint(0, 3)] = generator.choice(
                [b'"', b"\\", b";", b"=", b"/*", b"//", b"\x00", b"\xff", b"\\U", b"\\7", b""]
            )
        with contextlib.suppress(FormatError):
            apple_strings.read(bytes(data), "en")
