"""Android resource references (``@string/app_name``, ``?attr/...``) against text that
starts with an escaped ``\\@`` or ``\\?``: each comes back out as it went in, and a value that
is no longer a reference is escaped again."""

import pytest

from loko.formats import Entry, Target, android

REFERENCES = (
    "@string/app_name",
    "@android:string/ok",
    "@*android:string/ok",
    "@com.example.lib:string/title",
    "@+id/action",
    "@null",
    "@empty",
    "?attr/colorPrimary",
    "?android:attr/textColorPrimary",
    "?colorAccent",
)


def _file(body: str) -> bytes:
    return f'<?xml version="1.0" encoding="utf-8"?>\n<resources>\n{body}\n</resources>\n'.encode()


def _round_trip(data: bytes) -> bytes:
    return android.write(android.read(data, "en"), Target("en"))


@pytest.mark.parametrize("reference", REFERENCES)
def test_a_reference_comes_back_unescaped(reference):
    data = _file(f'    <string name="title">{reference}</string>')
    assert _round_trip(data) == data


@pytest.mark.parametrize("literal", ["\\@home", "\\@string/app_name", "\\?attr/colorPrimary", "\\?Why"])
def test_an_escaped_literal_comes_back_escaped(literal):
    data = _file(f'    <string name="title">{literal}</string>')
    assert _round_trip(data) == data


def test_references_and_literals_in_one_file_come_back_byte_for_byte():
    data = _file(
        "\n".join(
            [
                '    <string name="app_title" translatable="false">@string/app_name</string>',
                '    <string name="handle">\\@home</string>',
                '    <string name="ok">@android:string/ok</string>',
                '    <string name="color">?android:attr/x</string>',
                '    <string name="cdata"><![CDATA[@string/app_name]]></string>',
                '    <plurals name="files">',
                '        <item quantity="one">@string/one_file</item>',
                '        <item quantity="other">\\@%d files</item>',
                "    </plurals>",
                '    <string-array name="labels">',
                "        <item>@string/first</item>",
                "        <item>\\@second</item>",
                "    </string-array>",
            ]
        )
    )
    assert _round_trip(data) == data


def test_the_reader_keeps_the_reference_as_the_value_and_marks_the_escaped_lookalike():
    [reference, literal] = android.read(
        _file('<string name="a">@string/app_name</string><string name="b">\\@string/app_name</string>'), "en"
    )
    assert reference.value == literal.value == "@string/app_name"
    assert reference.meta is None
    assert literal.meta == {"android": {"literal": True}}


def test_the_reader_marks_the_plural_quantities_that_are_escaped_lookalikes():
    [entry] = android.read(
        _file(
            '<plurals name="p"><item quantity="one">\\@string/one</item>'
            '<item quantity="other">@string/other</item></plurals>'
        ),
        "en",
    )
    assert entry.meta == {"android": {"literals": ["one"]}}


@pytest.mark.parametrize(
    "raw",
    [
        '"@string/app_name"',
        "@home",
        "@string/app name",
        "@strings/app_name",
        "@ string/x",
    ],
)
def test_text_android_does_not_take_for_a_reference_is_written_back_as_text(raw):
    written = _round_trip(_file(f'<string name="k">{raw}</string>')).decode()
    assert '<string name="k">\\@' in written


def test_a_value_read_as_an_escaped_lookalike_is_written_escaped():
    entry = Entry("k", "@string/app_name", meta={"android": {"literal": True}})
    assert '<string name="k">\\@string/app_name</string>' in android.write([entry], Target("de")).decode()


def test_a_reference_with_no_mark_is_written_as_a_reference():
    # A key's meta comes from one language's file: a translation's own reference has no mark.
    entry = Entry("k", "@string/app_name")
    assert '<string name="k">@string/app_name</string>' in android.write([entry], Target("de")).decode()
