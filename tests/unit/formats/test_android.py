"""The Android strings.xml format: reading, writing, escaping, markup, refusing hostile XML,
and the round trip of a canonical file.

A canonical file is one the writer itself produces (4-space indentation, Android's escapes
written one way, comments on the line before); reading it and writing the entries back
gives the same bytes.
"""

import contextlib
import random

import pytest

from loko.formats import Entry, FormatError, Target, android, plurals

CANONICAL = """<?xml version="1.0" encoding="utf-8"?>
<resources xmlns:tools="http://schemas.android.com/tools" xmlns:xliff="urn:oasis:names:tc:xliff:document:1.2">
    <!-- Shown on the home screen -->
    <string name="greeting">Hello, %1$s!</string>
    <string name="app_name" translatable="false" tools:ignore="MissingTranslation">Loko</string>
    <string name="items">{0} items</string>
    <string name="profile_name">Name: %@</string>
    <!-- Quotes, apostrophes,
    backslashes and new lines -->
    <string name="escapes">Tom &amp; \\"Jerry\\" &lt;3 it\\'s C:\\\\path\\nnext line\\ttab</string>
    <string name="references">\\@home and ?attr</string>
    <string name="padded">"  two  spaces  "</string>
    <string name="empty"></string>
    <string name="unicode">مرحبا 🎉 \\u0007</string>
    <string name="markup">Hello <b>%1$s</b>, you have <xliff:g id="count" example="3">%2$d</xliff:g> new &amp; unread</string>
    <string name="html"><![CDATA[<b>Bold</b> isn\\'t <i>it</i>]]></string>
    <string name="icu">{count, plural, one {# file} other {# files}}</string>
    <!-- Files in the folder -->
    <plurals name="files">
        <item quantity="one">%d file</item>
        <item quantity="other">%d files</item>
    </plurals>
    <!-- The planets -->
    <string-array name="planets">
        <item>Mercury</item>
        <!-- Second from the sun -->
        <item>Venus</item>
        <item></item>
    </string-array>
</resources>
""".encode()  # noqa: E501

FORMS = {
    "ja": {"other": "%d 個のファイル"},
    "en": {"one": "%d file", "other": "%d files"},
    "pl": {"one": "%d plik", "few": "%d pliki", "many": "%d plików", "other": "%d pliku"},
    "ar": {
        "zero": "لا ملفات",
        "one": "ملف واحد",
        "two": "ملفان",
        "few": "%d ملفات",
        "many": "%d ملفًا",
        "other": "%d ملف",
    },
}


def _read(text: str) -> list[Entry]:
    data = f'<?xml version="1.0" encoding="utf-8"?>\n<resources>{text}</resources>'
    return android.read(data.encode(), "en")


def _value(text: str) -> str:
    [entry] = _read(f'<string name="k">{text}</string>')
    return entry.value


def _write(*entries: Entry) -> str:
    return android.write(list(entries), Target("en")).decode()


def _by_key(data: bytes = CANONICAL) -> dict[str, Entry]:
    return {entry.key: entry for entry in android.read(data, "en")}


def test_canonical_file_round_trips_byte_for_byte():
    assert android.write(android.read(CANONICAL, "en"), Target("en")) == CANONICAL


def test_reads_placeholders_and_unicode_as_written():
    entries = _by_key()
    assert entries["greeting"].value == "Hello, %1$s!"
    assert entries["items"].value == "{0} items"
    assert entries["profile_name"].value == "Name: %@"
    assert entries["unicode"].value == "مرحبا 🎉 \x07"


def test_reads_android_escapes_as_the_text_a_user_sees():
    entries = _by_key()
    assert entries["escapes"].value == 'Tom & "Jerry" <3 it\'s C:\\path\nnext line\ttab'
    assert entries["references"].value == "@home and ?attr"
    assert entries["padded"].value == "  two  spaces  "
    assert entries["empty"].value == ""


def test_reads_comments_right_before_an_element():
    entries = _by_key()
    assert entries["greeting"].comment == "Shown on the home screen"
    assert entries["escapes"].comment == "Quotes, apostrophes,\n    backslashes and new lines"
    assert entries["app_name"].comment is None


def test_keeps_other_attributes_in_order():
    assert _by_key()["app_name"].meta == {
        "android": {"attributes": [["translatable", "false"], ["tools:ignore", "MissingTranslation"]]}
    }


def test_reads_plurals_as_one_icu_message_with_the_count_argument():
    entry = _by_key()["files"]
    assert entry.value == "{count, plural, one {%d file} other {%d files}}"
    assert entry.comment == "Files in the folder"


def test_reads_a_string_array_as_indexed_keys_marked_with_the_array():
    entries = _by_key()
    assert [entries[f"planets[{index}]"].value for index in range(3)] == ["Mercury", "Venus", ""]
    assert entries["planets[0]"].comment == "The planets"
    assert entries["planets[1]"].comment == "Second from the sun"
    assert entries["planets[2]"].meta == {"android": {"array": "planets"}}


def test_reads_inner_markup_as_an_xml_fragment():
    entry = _by_key()["markup"]
    assert entry.value == (
        'Hello <b>%1$s</b>, you have <xliff:g id="count" example="3">%2$d</xliff:g> new &amp; unread'
    )
    assert entry.meta == {"android": {"markup": True}}


def test_reads_cdata_as_plain_text_and_marks_it():
    entry = _by_key()["html"]
    assert entry.value == "<b>Bold</b> isn't <i>it</i>"
    assert entry.meta == {"android": {"cdata": True}}


def test_a_string_holding_icu_plural_text_stays_a_string():
    data = android.write([_by_key()["icu"]], Target("en"))
    assert b'<string name="icu">' in data


@pytest.mark.parametrize("language", ["ja", "en", "pl", "ar"])
def test_plural_file_round_trips_for_each_plural_shape(language):
    assert set(FORMS[language]) == set(plurals.categories(language))
    items = "".join(
        f'        <item quantity="{quantity}">{text}</item>\n' for quantity, text in FORMS[language].items()
    )
    data = (
        f'<?xml version="1.0" encoding="utf-8"?>\n<resources>\n    <plurals name="files">\n{items}'
        "    </plurals>\n</resources>\n"
    ).encode()
    [entry] = android.read(data, language)
    assert plurals.split(entry.value) == plurals.Plural("count", FORMS[language])
    assert android.write([entry], Target(language)) == data


@pytest.mark.parametrize(
    ("written", "value"),
    [
        ("  a\n      b   c  ", "a b c"),
        ('He said "  hi  " ok', "He said   hi   ok"),
        ('"it\'s"', "it's"),
        ("\\u00e9\\uD83D\\uDE00", "é😀"),
        ("a \\@ b \\? c", "a @ b ? c"),
        ("&#233;&lt;", "é<"),
        ("trailing\\", "trailing\\"),
    ],
)
def test_reads_non_canonical_text(written, value):
    assert _value(written) == value


def test_reads_an_empty_element():
    assert _read('<string name="k"/>') == [Entry("k", "")]


def test_a_comment_followed_by_a_blank_line_is_not_kept():
    [entry] = _read('<!-- Section -->\n\n<string name="k">v</string>')
    assert entry.comment is None


def test_other_resource_types_are_skipped():
    assert _read('<color name="red">#f00</color><dimen name="d">1dp</dimen><string name="k">v</string>') == [
        Entry("k", "v")
    ]


def test_writer_escapes_text_canonically():
    text = _write(Entry("k", '@it\'s "x" \\ & <y>\n\t\r\x01?'))
    assert r'<string name="k">\@it\'s \"x\" \\ &amp; &lt;y&gt;\n\t\u000D\u0001?</string>' in text


def test_writer_quotes_text_with_significant_spaces():
    assert '<string name="k">" a  b "</string>' in _write(Entry("k", " a  b "))


def test_writer_writes_a_well_formed_fragment_as_markup_without_meta():
    text = _write(Entry("k", "Hi <b>you</b> &amp; 'me'"))
    assert r'<string name="k">Hi <b>you</b> &amp; \'me\'</string>' in text


def test_writer_escapes_markup_like_text_read_as_plain_text():
    entry = Entry("k", "<b>x</b>", meta={"android": {"markup": False}})
    assert '<string name="k">&lt;b&gt;x&lt;/b&gt;</string>' in _write(entry)


def test_writer_escapes_markup_that_is_not_well_formed():
    entry = Entry("k", "Tom & <b>Jerry</b>", meta={"android": {"markup": True}})
    assert '<string name="k">Tom &amp; &lt;b&gt;Jerry&lt;/b&gt;</string>' in _write(entry)


def test_writer_leaves_out_none_values_and_arrays_without_any_value():
    array = {"android": {"array": "a"}}
    text = _write(Entry("k", None), Entry("a[0]", None, meta=array), Entry("a[1]", None, meta=array))
    assert text == '<?xml version="1.0" encoding="utf-8"?>\n<resources>\n</resources>\n'


def test_writer_orders_array_items_by_index_and_writes_none_items_empty():
    array = {"android": {"array": "a"}}
    text = _write(Entry("a[1]", "second", meta=array), Entry("a[0]", None, meta=array))
    assert "<item></item>\n        <item>second</item>" in text


def test_writer_leaves_out_explicit_plural_forms():
    text = _write(Entry("k", "{n, plural, =0 {none} one {# x} other {# xs}}"))
    assert "none" not in text
    assert '<item quantity="one"># x</item>' in text


def test_writer_breaks_double_hyphens_in_comments():
    data = android.write([Entry("k", "v", comment="a--b----")], Target("en"))
    assert android.read(data, "en") == [Entry("k", "v", comment="a- -b- - - -")]


def test_refuses_an_element_without_a_name_naming_the_line():
    with pytest.raises(FormatError) as error:
        _read("\n\n<string>v</string>")
    assert error.value.line == 4


def test_refuses_an_unknown_plural_quantity():
    with pytest.raises(FormatError, match="quantity"):
        _read('<plurals name="p"><item quantity="several">x</item></plurals>')


def test_refuses_a_key_that_appears_twice():
    with pytest.raises(FormatError, match="twice"):
        _read('<string name="k">a</string><plurals name="k"><item quantity="other">b</item></plurals>')


def test_refuses_a_document_that_is_not_resources():
    with pytest.raises(FormatError, match="resources"):
        android.read(b"<manifest/>", "en")


def test_billion_laughs_raises_format_error():
    data = b"""<?xml version="1.0"?>
<!DOCTYPE resources [
  <!ENTITY lol "lol">
  <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
  <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
]>
<resources><string name="k">&lol3;</string></resources>"""
    with pytest.raises(FormatError) as error:
        android.read(data, "en")
    assert error.value.line == 2


def test_external_entity_raises_format_error():
    data = b"""<?xml version="1.0"?>
<!DOCTYPE resources [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
<resources><string name="k">&xxe;</string></resources>"""
    with pytest.raises(FormatError) as error:
        android.read(data, "en")
    assert "root:" not in str(error.value)


def test_truncated_xml_raises_format_error_naming_the_line():
    with pytest.raises(FormatError) as error:
        android.read(CANONICAL[:600], "en")
    assert error.value.line == CANONICAL[:600].count(b"\n") + 1


def test_deep_nesting_raises_format_error():
    data = b'<resources><string name="k">' + b"<b>" * 10000 + b"</b>" * 10000 + b"</string></resources>"
    with pytest.raises(FormatError, match="nested"):
        android.read(data, "en")


def test_unsupported_declared_encoding_raises_format_error():
    with pytest.raises(FormatError, match="encoding") as error:
        android.read(b'<?xml version="1.0" encoding="rot13"?>\n<resources/>', "en")
    assert error.value.line == 1


def test_mutated_bytes_raise_nothing_but_format_error():
    generator = random.Random(7)
    for _ in range(300):
        data = bytearray(CANONICAL)
        for _ in range(generator.randint(1, 4)):
            position = generator.randrange(len(data))
            data[position : position + generator.randint(0, 3)] = generator.choice(
                [b"<", b"&", b">", b'"', b"\\", b"\x00", b"\xff", b"<![CDATA[", b"\\u", b"</"]
            )
        with contextlib.suppress(FormatError):
            android.read(bytes(data), "en")
