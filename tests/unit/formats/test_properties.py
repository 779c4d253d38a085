"""The Java properties format: reading by Java's rules, writing, and the round trip of a
canonical file.

A canonical file is what the writer gives: UTF-8, keys sorted, ``key=value`` with Java
escapes only where needed, each key's comment as ``# `` lines above it. Reading one and
writing the entries back gives the same bytes.

Java itself is the reference for reading: those tests compile and run ``PropertiesDump.java``
(which reads a file the way ``ResourceBundle`` does) and skip when no JDK is installed.
"""

import contextlib
import json
import shutil
import subprocess
from pathlib import Path

import pytest

from loko.formats import Entry, FormatError, Target, properties

# One process compiles and runs what this module's tests share.
pytestmark = pytest.mark.xdist_group("test_properties")

HERE = Path(__file__).parent
JAVA, JAVAC = shutil.which("java"), shutil.which("javac")
needs_java = pytest.mark.skipif(
    JAVA is None or JAVAC is None, reason="no JDK installed (java, javac); Java is the reference reader"
)

# Comments (one line, two lines, empty), escapes in keys and values, ICU plurals for ja (1
# form), en (2), pl (4) and ar (6), placeholders, an empty value and Unicode (emoji, RTL).
CANONICAL = r"""\!bang=leading
\#hash=!bang
a\=b\:c=x=y:z # not a comment
#
app.blank_comment=x
app.empty=
# Two lines
# of comment
app.escapes=Say "hi" \\ to C:\\temp\nnew line\tand tab\r\fend
app.menu.open=Open…
# Shown in the title bar
app.title=Loko
control=bell\u0007 and \u0001 and \u2028 and \uFEFF
emoji=Done 🎉
files.ar={count, plural, zero {لا ملفات} one {ملف واحد} two {ملفان} few {# ملفات} many {# ملفًا} other {# ملف}}
files.en={count, plural, one {{0} file} other {{0} files}}
files.ja={count, plural, other {{0}個のファイル}}
files.pl={count, plural, one {# plik} few {# pliki} many {# plików} other {# pliku}}
greeting=Hello, {0}!
key\ with\ spaces=value
lead=\  two leading spaces
printf=%s of %d
rtl=שלום עולם
""".encode()


def _values(data: bytes) -> dict:
    return {entry.key: entry.value for entry in properties.read(data, "en")}


@pytest.fixture(scope="module")
def java_reads(tmp_path_factory):
    """A function giving what Java reads from a file, by ``PropertiesDump`` compiled once."""
    classes = tmp_path_factory.mktemp("java")
    subprocess.run([JAVAC, "-d", str(classes), str(HERE / "PropertiesDump.java")], check=True, timeout=120)

    def reads(path: Path) -> dict:
        command = [JAVA, "-cp", str(classes), "PropertiesDump", str(path)]
        return json.loads(subprocess.run(command, capture_output=True, check=True, timeout=60).stdout)

    return reads


def test_canonical_file_round_trips_byte_identical():
    assert properties.write(properties.read(CANONICAL, "en"), Target("en")) == CANONICAL


def test_read_resolves_escapes_in_keys_and_values():
    values = _values(CANONICAL)
    assert values["app.escapes"] == 'Say "hi" \\ to C:\\temp\nnew line\tand tab\r\fend'
    assert values["key with spaces"] == "value"
    assert values["a=b:c"] == "x=y:z # not a comment"
    assert values["#hash"] == "!bang"
    assert values["lead"] == "  two leading spaces"
    assert values["control"] == "bell\x07 and \x01 and \u2028 and \ufeff"
    assert values["app.empty"] == ""
    assert values["emoji"] == "Done 🎉"


def test_read_takes_comment_lines_above_a_key_as_its_comment():
    comments = {entry.key: entry.comment for entry in properties.read(CANONICAL, "en")}
    assert comments["app.title"] == "Shown in the title bar"
    assert comments["app.escapes"] == "Two lines\nof comment"
    assert comments["app.blank_comment"] == ""
    assert comments["app.empty"] is None


def test_read_detaches_a_comment_followed_by_a_blank_line():
    data = b"# Licence header\n\n# About a\na=1\n"
    assert properties.read(data, "en") == [Entry("a", "1", "About a")]


def test_read_takes_bang_comments_and_drops_one_space_after_the_marker():
    assert properties.read(b"!  indented\n#tight\na=1\n", "en") == [Entry("a", "1", " indented\ntight")]


@pytest.mark.parametrize(
    ("line", "key", "value"),
    [
        (b"a=b", "a", "b"),
        (b"a:b", "a", "b"),
        (b"a b", "a", "b"),
        (b"a \t = \f b", "a", "b"),
        (b"   a = b  ", "a", "b  "),
        (b"a==b", "a", "=b"),
        (b"a = :b", "a", ":b"),
        (b"a", "a", ""),
        (b"a=", "a", ""),
        (b"a\\=b\\ c=d", "a=b c", "d"),
        (b"a=\\u00e9\\uD83D\\uDE00", "a", "é😀"),
        (b"a=\\q\\\\", "a", "q\\"),
        (b"a=b\\", "a", "b"),
    ],
)
def test_read_splits_key_and_value_as_java_does(line, key, value):
    assert properties.read(line, "en") == [Entry(key, value)]


def test_read_joins_continuation_lines_without_their_leading_blanks():
    data = b"a = one, \\\n    two, \\\r\n\tthree\nb=\\\\\nc=x\n"
    assert _values(data) == {"a": "one, two, three", "b": "\\", "c": "x"}


def test_read_does_not_continue_a_comment_ending_in_a_backslash():
    assert _values(b"# note \\\na=1\n") == {"a": "1"}


def test_read_accepts_carriage_returns_alone_as_line_ends():
    assert _values(b"a=1\rb=2\r") == {"a": "1", "b": "2"}


def test_read_falls_back_to_latin_1_when_not_utf_8():
    assert _values("a=café\n".encode("latin-1")) == {"a": "café"}


def test_read_skips_a_byte_order_mark():
    assert _values("\ufeffa=1\n".encode()) == {"a": "1"}


def test_read_keeps_the_last_of_duplicate_keys():
    assert properties.read(b"a=1\n# second\na=2\n", "en") == [Entry("a", "2", "second")]


def test_write_leaves_out_keys_without_a_value():
    assert properties.write([Entry("a", None), Entry("b", "x")], Target("en")) == b"b=x\n"


def test_write_puts_every_line_of_a_comment_behind_a_marker():
    data = properties.write([Entry("a", "1", comment="one\r\ntwo\rthree\n")], Target("en"))
    assert data == b"# one\n# two\n# three\n#\na=1\n"


@pytest.mark.parametrize(
    ("data", "message", "line"),
    [
        (b"a=1\nb=\\u12\n", "four hexadecimal digits", 2),
        (b"a=1\n\nb=\\uZZZZ\n", "four hexadecimal digits", 3),
        (b"a=1\nb=x\\\n  \\u00\n", "four hexadecimal digits", 2),
        (b"a=\\uD800\n", "half of a surrogate pair", 1),
        (b"a=1\n\\uDE00=x\n", "half of a surrogate pair", 2),
    ],
)
def test_read_refuses_malformed_escapes_naming_the_line(data, message, line):
    with pytest.raises(FormatError, match=message) as caught:
        properties.read(data, "en")
    assert caught.value.line == line


@pytest.mark.parametrize(
    "data", [b"\\" * 100001, b"\r\n" * 50000, b"\xff\xfe\x00", b"=" * 1000, b"\\u" * 1000]
)
def test_read_of_hostile_bytes_raises_only_format_error_or_reads(data):
    with contextlib.suppress(FormatError):
        properties.read(data, "en")


@needs_java
def test_java_reads_a_written_file_as_written(java_reads, tmp_path):
    entries = properties.read(CANONICAL, "en")
    path = tmp_path / "messages.properties"
    path.write_bytes(properties.write(entries, Target("en")))
    assert java_reads(path) == {entry.key: entry.value for entry in entries}


@needs_java
@pytest.mark.parametrize(
    "data",
    [
        b"a = one, \\\n    two\nb : x\\:y\\=z\nc\td\n  ! comment\n"
        b"e=\\u00e9\\uD83D\\uDE00\nf\\ g\\\\=h \\\n\n",
        "a=café\nb=ünïcödé\\u00e9\n".encode("latin-1"),
        b"a=1\r\nb=two \\\r\n   lines\rc\\\n=x\n# end \\\nd=\\q\\t\\\\\n",
    ],
)
def test_read_agrees_with_java(data, java_reads, tmp_path):
    path = tmp_path / "messages.properties"
    path.write_bytes(data)
    assert _values(data) == java_reads(path)
