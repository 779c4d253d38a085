"""The XLIFF 1.2 format: reading, writing, refusing hostile XML, and the round trip of a
canonical file.

A canonical file is one the writer itself produces (2-space indentation, ``<source>``,
``<target>``, ``<note>`` in that order, a final newline); reading it and writing the entries
back gives the same bytes. Written files are validated against OASIS's
``xliff-core-1.2-strict.xsd`` (in ``schemas/``) with lxml; that test skips when lxml is not
installed.
"""

import contextlib
import random

import pytest

from loko.formats import Entry, FormatError, Target, plurals, xliff12
from tests.unit.formats.xliff_schemas import load_schema

CANONICAL = """<?xml version="1.0" encoding="UTF-8"?>
<xliff xmlns="urn:oasis:names:tc:xliff:document:1.2" version="1.2">
  <file original="messages.json" source-language="en" target-language="ar" datatype="plaintext">
    <body>
      <trans-unit id="greeting">
        <source>Hello, %1$s!</source>
        <target>مرحبا، %1$s!</target>
        <note>Shown on the home screen</note>
      </trans-unit>
      <trans-unit id="profile.name">
        <source>Name: %@</source>
        <target>الاسم: %@</target>
      </trans-unit>
      <trans-unit id="items">
        <source>{0} items</source>
        <target>{0} عناصر</target>
        <note>{0} is a number
on two lines</note>
      </trans-unit>
      <trans-unit id="escapes">
        <source>Tom &amp; "Jerry" &lt;3 it's C:\\path
next line</source>
        <target>توم &amp; "جيري" &lt;3 it's C:\\path
next line</target>
      </trans-unit>
      <trans-unit id="empty">
        <source>Empty</source>
        <target></target>
        <note></note>
      </trans-unit>
      <trans-unit id="later">
        <source>Later</source>
      </trans-unit>
      <trans-unit id="emoji">
        <source>Party 🎉</source>
        <target>حفلة 🎉</target>
      </trans-unit>
      <trans-unit id="files">
        <source>{count, plural, one {# file} other {# files}}</source>
        <target>{count, plural, zero {لا ملفات} one {ملف واحد} two {ملفان} few {# ملفات} many {# ملفًا} other {# ملف}}</target>
      </trans-unit>
      <trans-unit id="t1" resname="home title">
        <source>Home</source>
        <target>الرئيسية</target>
      </trans-unit>
    </body>
  </file>
</xliff>
""".encode()  # noqa: E501

FORMS = {
    "ja": {"other": "# 個のファイル"},
    "en": {"one": "# file", "other": "# files"},
    "pl": {"one": "# plik", "few": "# pliki", "many": "# plików", "other": "# pliku"},
    "ar": {
        "zero": "لا ملفات",
        "one": "ملف واحد",
        "two": "ملفان",
        "few": "# ملفات",
        "many": "# ملفًا",
        "other": "# ملف",
    },
}


def _target(data: bytes, language: str, source_language: str = "en") -> Target:
    """The target that writes ``data`` back: its file name and the source values in it."""
    source = {entry.key: entry.value for entry in xliff12.read(data, source_language)}
    return Target(language, file_name="messages.json", source_language=source_language, source_values=source)


def _plural_file(language: str) -> bytes:
    body = " ".join(f"{category} {{{text}}}" for category, text in FORMS[language].items())
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<xliff xmlns="urn:oasis:names:tc:xliff:document:1.2" version="1.2">
  <file original="messages.json" source-language="fr" target-language="{language}" datatype="plaintext">
    <body>
      <trans-unit id="files">
        <source>{{count, plural, one {{# fichier}} other {{# fichiers}}}}</source>
        <target>{{count, plural, {body}}}</target>
      </trans-unit>
    </body>
  </file>
</xliff>
""".encode()


def test_canonical_file_round_trips_byte_for_byte():
    entries = xliff12.read(CANONICAL, "ar")
    assert xliff12.write(entries, _target(CANONICAL, "ar")) == CANONICAL


def test_reads_target_texts_with_placeholders_escapes_and_unicode():
    values = {entry.key: entry.value for entry in xliff12.read(CANONICAL, "ar")}
    assert values["greeting"] == "مرحبا، %1$s!"
    assert values["profile.name"] == "الاسم: %@"
    assert values["items"] == "{0} عناصر"
    assert values["escapes"] == 'توم & "جيري" <3 it\'s C:\\path\nnext line'
    assert values["emoji"] == "حفلة 🎉"


def test_reads_empty_target_as_empty_and_missing_target_as_none():
    values = {entry.key: entry.value for entry in xliff12.read(CANONICAL, "ar")}
    assert values["empty"] == ""
    assert values["later"] is None


def test_reads_notes_as_comments():
    comments = {entry.key: entry.comment for entry in xliff12.read(CANONICAL, "ar")}
    assert comments["greeting"] == "Shown on the home screen"
    assert comments["items"] == "{0} is a number\non two lines"
    assert comments["empty"] == ""
    assert comments["later"] is None


def test_reads_source_texts_for_the_source_language():
    values = {entry.key: entry.value for entry in xliff12.read(CANONICAL, "en")}
    assert values["greeting"] == "Hello, %1$s!"
    assert values["later"] == "Later"


def test_resname_is_the_key_and_the_id_is_kept():
    entry = next(entry for entry in xliff12.read(CANONICAL, "ar") if entry.key == "home title")
    assert entry.meta == {"xliff": {"id": "t1"}}


@pytest.mark.parametrize("language", ["ja", "en", "pl", "ar"])
def test_plural_file_round_trips_for_each_plural_shape(language):
    assert set(FORMS[language]) == set(plurals.categories(language))
    data = _plural_file(language)
    [entry] = xliff12.read(data, language)
    assert plurals.split(entry.value).forms == FORMS[language]
    assert xliff12.write([entry], _target(data, language, "fr")) == data


def test_writer_falls_back_to_the_key_for_a_missing_source():
    data = xliff12.write([Entry("only.here", "Ici")], Target("fr", source_language="en"))
    assert "<source>only.here</source>" in data.decode()


def test_writer_writes_a_source_file_for_the_source_language():
    data = xliff12.write([Entry("a", "A"), Entry("b", None)], Target("en", source_language="en"))
    text = data.decode()
    assert "target-language" not in text
    assert "<target>" not in text
    assert 'id="b"' not in text
    assert xliff12.read(data, "en") == [Entry("a", "A")]


def test_writer_keeps_carriage_returns_and_drops_characters_xml_cannot_hold():
    data = xliff12.write([Entry("k", "a\r\nb\x01c")], Target("fr", source_language="en"))
    assert [entry.value for entry in xliff12.read(data, "fr")] == ["a\r\nbc"]


def test_reads_a_file_without_namespace_in_groups_with_single_quotes_and_crlf():
    data = (
        "<?xml version='1.0' encoding='utf-8'?>\r\n<xliff version='1.2'>\r\n"
        "<file original='x' source-language='en' target-language='de' datatype='plaintext'><body>\r\n"
        "<group id='g'><trans-unit id='a'><source>A</source><target>Ä</target></trans-unit></group>\r\n"
        "</body></file></xliff>\r\n"
    ).encode()
    assert xliff12.read(data, "de") == [Entry("a", "Ä")]


def test_reads_inline_elements_cdata_and_several_notes():
    data = f"""<xliff xmlns="{xliff12.NAMESPACE}" version="1.2">
<file original="x" source-language="en" target-language="de" datatype="plaintext"><body>
<trans-unit id="a"><source>Hi</source>
<target>Hallo <g id="1">lieber</g> <x id="2" equiv-text="{{{{name}}}}"/><![CDATA[ & <Freund>]]></target>
<note>first</note><note from="dev">second</note></trans-unit>
</body></file></xliff>""".encode()
    assert xliff12.read(data, "de") == [Entry("a", "Hallo lieber {{name}} & <Freund>", "first\nsecond")]


def test_reads_utf16_documents():
    text = CANONICAL.decode().replace('encoding="UTF-8"', 'encoding="UTF-16"')
    assert xliff12.read(text.encode("utf-16"), "ar") == xliff12.read(CANONICAL, "ar")


def test_reads_source_texts_when_there_is_no_target_language():
    data = f"""<xliff xmlns="{xliff12.NAMESPACE}" version="1.2">
<file original="x" source-language="en" datatype="plaintext"><body>
<trans-unit id="a"><source>A</source></trans-unit></body></file></xliff>""".encode()
    assert xliff12.read(data, "fr") == [Entry("a", "A")]


def test_refuses_a_key_that_appears_twice_naming_the_line():
    data = CANONICAL.replace(b'id="profile.name"', b'id="greeting"')
    with pytest.raises(FormatError) as error:
        xliff12.read(data, "ar")
    assert error.value.line == 10


def test_refuses_xliff_2_documents():
    with pytest.raises(FormatError, match="xliff2"):
        xliff12.read(b'<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0"/>', "fr")


def test_billion_laughs_raises_format_error():
    data = b"""<?xml version="1.0"?>
<!DOCTYPE xliff [
  <!ENTITY lol "lol">
  <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
  <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
  <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
]>
<xliff version="1.2"><file original="x" source-language="en" datatype="plaintext"><body>
<trans-unit id="a"><source>&lol4;</source></trans-unit></body></file></xliff>"""
    with pytest.raises(FormatError) as error:
        xliff12.read(data, "en")
    assert error.value.line == 2


def test_external_entity_raises_format_error():
    data = b"""<?xml version="1.0"?>
<!DOCTYPE xliff [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
<xliff version="1.2"><file original="x" source-language="en" datatype="plaintext"><body>
<trans-unit id="a"><source>&xxe;</source></trans-unit></body></file></xliff>"""
    with pytest.raises(FormatError) as error:
        xliff12.read(data, "en")
    assert "root:" not in str(error.value)


def test_truncated_xml_raises_format_error_naming_the_line():
    with pytest.raises(FormatError) as error:
        xliff12.read(CANONICAL[:400], "ar")
    assert error.value.line == CANONICAL[:400].count(b"\n") + 1
    assert str(error.value).startswith(f"line {error.value.line}: ")


def test_deep_nesting_raises_format_error():
    data = b"<xliff>" + b"<g>" * 10000 + b"</g>" * 10000 + b"</xliff>"
    with pytest.raises(FormatError, match="nested"):
        xliff12.read(data, "en")


def test_unsupported_declared_encoding_raises_format_error():
    with pytest.raises(FormatError, match="encoding") as error:
        xliff12.read(b'<?xml version="1.0" encoding="utf-7"?>\n<xliff version="1.2"/>', "en")
    assert error.value.line == 1


def test_mutated_bytes_raise_nothing_but_format_error():
    generator = random.Random(12)
    for _ in range(300):
        data = bytearray(CANONICAL)
        for _ in range(generator.randint(1, 4)):
            position = generator.randrange(len(data))
            data[position : position + generator.randint(0, 3)] = generator.choice(
                [b"<", b"&", b">", b'"', b"\x00", b"\xff", b"<!DOCTYPE x>", b"&#0;", b"", b"</"]
            )
        with contextlib.suppress(FormatError):
            xliff12.read(bytes(data), "ar")


def test_written_files_are_valid_against_the_strict_schema():
    schema = load_schema("xliff-core-1.2-strict.xsd")
    for target in (_target(CANONICAL, "ar"), Target("en", source_language="en"), Target("fr")):
        data = xliff12.write([*xliff12.read(CANONICAL, "ar"), Entry("c\x01", "x\r")], target)
        assert schema.is_valid(data), schema.errors(data)


def test_a_maximum_length_is_written_as_maxwidth_in_characters_and_read_back():
    data = xliff12.write([Entry("pay", "Zahlen", max_length=12)], Target("de", source_language="en"))
    assert b'<trans-unit id="pay" maxwidth="12" size-unit="char">' in data
    assert xliff12.read(data, "de")[0].max_length == 12
    schema = load_schema("xliff-core-1.2-strict.xsd")
    assert schema.is_valid(data), schema.errors(data)


@pytest.mark.parametrize(
    "unit", ['maxwidth="12" size-unit="pixel"', 'maxwidth="0" size-unit="char"', 'maxwidth="x"']
)
def test_a_maxwidth_in_other_units_or_out_of_range_is_not_a_maximum_length(unit):
    data = (
        '<xliff xmlns="urn:oasis:names:tc:xliff:document:1.2" version="1.2"><file source-language="en" '
        f'datatype="plaintext" original="m"><body><trans-unit id="a" {unit}><source>A</source></trans-unit>'
        "</body></file></xliff>"
    ).encode()
    assert xliff12.read(data, "en")[0].max_length is None
