"""The XLIFF 2.0 format: reading, writing, refusing hostile XML, and the round trip of a
canonical file.

A canonical file is one the writer itself produces (2-space indentation, ``<notes>`` before
the one ``<segment>``, a final newline); reading it and writing the entries back gives the
same bytes. Written files are validated against OASIS's ``xliff_core_2.0.xsd`` (in
``schemas/``) with lxml; that test skips when lxml is not installed.
"""

import contextlib
import random

import pytest

from loko.formats import Entry, FormatError, Target, plurals, xliff2
from tests.unit.formats.xliff_schemas import load_schema

CANONICAL = """<?xml version="1.0" encoding="UTF-8"?>
<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" srcLang="en" trgLang="ar">
  <file id="f1" original="messages.json">
    <unit id="greeting">
      <notes>
        <note>Shown on the home screen</note>
      </notes>
      <segment>
        <source>Hello, %1$s!</source>
        <target>مرحبا، %1$s!</target>
      </segment>
    </unit>
    <unit id="profile.name">
      <segment>
        <source>Name: %@</source>
        <target>الاسم: %@</target>
      </segment>
    </unit>
    <unit id="items">
      <notes>
        <note>{0} is a number
on two lines</note>
      </notes>
      <segment>
        <source>{0} items</source>
        <target>{0} عناصر</target>
      </segment>
    </unit>
    <unit id="escapes">
      <segment>
        <source>Tom &amp; "Jerry" &lt;3 it's C:\\path
next line</source>
        <target>توم &amp; "جيري" &lt;3 it's C:\\path
next line</target>
      </segment>
    </unit>
    <unit id="empty">
      <notes>
        <note></note>
      </notes>
      <segment>
        <source>Empty</source>
        <target></target>
      </segment>
    </unit>
    <unit id="later">
      <segment>
        <source>Later</source>
      </segment>
    </unit>
    <unit id="emoji">
      <segment>
        <source>Party 🎉 <cp hex="0007"/></source>
        <target>حفلة 🎉 <cp hex="0007"/></target>
      </segment>
    </unit>
    <unit id="files">
      <segment>
        <source>{count, plural, one {# file} other {# files}}</source>
        <target>{count, plural, zero {لا ملفات} one {ملف واحد} two {ملفان} few {# ملفات} many {# ملفًا} other {# ملف}}</target>
      </segment>
    </unit>
    <unit id="k5bcb6598724820cd" name="home title">
      <segment>
        <source>Home</source>
        <target>الرئيسية</target>
      </segment>
    </unit>
    <unit id="u9" name="settings">
      <segment>
        <source>Settings</source>
        <target>الإعدادات</target>
      </segment>
    </unit>
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
    source = {entry.key: entry.value for entry in xliff2.read(data, source_language)}
    return Target(language, file_name="messages.json", source_language=source_language, source_values=source)


def _plural_file(language: str) -> bytes:
    body = " ".join(f"{category} {{{text}}}" for category, text in FORMS[language].items())
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" srcLang="fr" trgLang="{language}">
  <file id="f1" original="messages.json">
    <unit id="files">
      <segment>
        <source>{{count, plural, one {{# fichier}} other {{# fichiers}}}}</source>
        <target>{{count, plural, {body}}}</target>
      </segment>
    </unit>
  </file>
</xliff>
""".encode()


def _values(data: bytes, language: str) -> dict:
    return {entry.key: entry.value for entry in xliff2.read(data, language)}


def test_canonical_file_round_trips_byte_for_byte():
    entries = xliff2.read(CANONICAL, "ar")
    assert xliff2.write(entries, _target(CANONICAL, "ar")) == CANONICAL


def test_reads_target_texts_with_placeholders_escapes_and_unicode():
    values = _values(CANONICAL, "ar")
    assert values["greeting"] == "مرحبا، %1$s!"
    assert values["profile.name"] == "الاسم: %@"
    assert values["items"] == "{0} عناصر"
    assert values["escapes"] == 'توم & "جيري" <3 it\'s C:\\path\nnext line'
    assert values["emoji"] == "حفلة 🎉 \x07"


def test_reads_empty_target_as_empty_and_missing_target_as_none():
    values = _values(CANONICAL, "ar")
    assert values["empty"] == ""
    assert values["later"] is None


def test_reads_notes_as_comments():
    comments = {entry.key: entry.comment for entry in xliff2.read(CANONICAL, "ar")}
    assert comments["items"] == "{0} is a number\non two lines"
    assert comments["empty"] == ""
    assert comments["later"] is None


def test_reads_source_texts_for_the_source_language():
    values = _values(CANONICAL, "en")
    assert values["greeting"] == "Hello, %1$s!"
    assert values["later"] == "Later"


def test_unit_name_is_the_key_and_a_foreign_id_is_kept():
    meta = {entry.key: entry.meta for entry in xliff2.read(CANONICAL, "ar")}
    assert meta["home title"] is None
    assert meta["settings"] == {"xliff2": {"id": "u9"}}


@pytest.mark.parametrize("language", ["ja", "en", "pl", "ar"])
def test_plural_file_round_trips_for_each_plural_shape(language):
    assert set(FORMS[language]) == set(plurals.categories(language))
    data = _plural_file(language)
    [entry] = xliff2.read(data, language)
    assert plurals.split(entry.value).forms == FORMS[language]
    assert xliff2.write([entry], _target(data, language, "fr")) == data


def test_writer_gives_keys_that_are_not_name_tokens_a_stable_id():
    first = xliff2.write([Entry("a b", "x"), Entry("c/d", "y")], Target("fr", source_language="en"))
    second = xliff2.write([Entry("c/d", "y"), Entry("a b", "x")], Target("fr", source_language="en"))
    ids = {entry.key: entry for entry in xliff2.read(first, "fr")}
    assert set(ids) == {"a b", "c/d"}
    assert all(entry.meta is None for entry in ids.values())
    assert sorted(first.decode().splitlines()) == sorted(second.decode().splitlines())


def test_writer_falls_back_to_the_key_for_a_missing_source():
    data = xliff2.write([Entry("only.here", "Ici")], Target("fr", source_language="en"))
    assert "<source>only.here</source>" in data.decode()


def test_writer_writes_a_source_document_for_the_source_language():
    data = xliff2.write([Entry("a", "A"), Entry("b", None)], Target("en", source_language="en"))
    assert "trgLang" not in data.decode()
    assert xliff2.read(data, "en") == [Entry("a", "A")]


def test_reads_segments_ignorables_and_inline_elements():
    data = f"""<xliff xmlns="{xliff2.NAMESPACE}" version="2.0" srcLang="en" trgLang="de">
<file id="f"><group id="g"><unit id="a">
<segment><source>Hi </source><target>Hallo </target></segment>
<ignorable><source>  </source></ignorable>
<segment><source>you</source><target><pc id="1">du</pc> <ph id="2" equiv="{{name}}"/></target></segment>
</unit></group></file></xliff>""".encode()
    assert xliff2.read(data, "de") == [Entry("a", "Hallo   du {name}")]


def test_refuses_xliff_1_2_documents():
    with pytest.raises(FormatError, match="xliff format"):
        xliff2.read(b'<xliff xmlns="urn:oasis:names:tc:xliff:document:1.2" version="1.2"/>', "fr")


def test_refuses_an_invalid_code_point_naming_the_line():
    data = CANONICAL.replace(b'<cp hex="0007"/></target>', b'<cp hex="zz"/></target>')
    with pytest.raises(FormatError) as error:
        xliff2.read(data, "ar")
    assert error.value.line == data[: data.index(b'<cp hex="zz"/>')].count(b"\n") + 1


def test_refuses_a_key_that_appears_twice():
    with pytest.raises(FormatError, match="twice"):
        xliff2.read(CANONICAL.replace(b'name="settings"', b'name="greeting"'), "ar")


def test_billion_laughs_raises_format_error():
    data = b"""<?xml version="1.0"?>
<!DOCTYPE xliff [
  <!ENTITY lol "lol">
  <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
  <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
]>
<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" srcLang="en">
<file id="f"><unit id="a"><segment><source>&lol3;</source></segment></unit></file></xliff>"""
    with pytest.raises(FormatError) as error:
        xliff2.read(data, "en")
    assert error.value.line == 2


def test_external_entity_raises_format_error():
    data = b"""<?xml version="1.0"?>
<!DOCTYPE xliff [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" srcLang="en">
<file id="f"><unit id="a"><segment><source>&xxe;</source></segment></unit></file></xliff>"""
    with pytest.raises(FormatError) as error:
        xliff2.read(data, "en")
    assert "root:" not in str(error.value)


def test_truncated_xml_raises_format_error_naming_the_line():
    with pytest.raises(FormatError) as error:
        xliff2.read(CANONICAL[:500], "ar")
    assert error.value.line == CANONICAL[:500].count(b"\n") + 1


def test_mutated_bytes_raise_nothing_but_format_error():
    generator = random.Random(20)
    for _ in range(300):
        data = bytearray(CANONICAL)
        for _ in range(generator.randint(1, 4)):
            position = generator.randrange(len(data))
            data[position : position + generator.randint(0, 3)] = generator.choice(
                [b"<", b"&", b">", b'"', b"\x00", b"\xff", b'<cp hex="', b"&#0;", b"", b"</"]
            )
        with contextlib.suppress(FormatError):
            xliff2.read(bytes(data), "ar")


def test_written_files_are_valid_against_the_schema():
    schema = load_schema("xliff-core-2.0.xsd")
    entries = [*xliff2.read(CANONICAL, "ar"), Entry("c\x01 d", "x\r\x02")]
    for target in (_target(CANONICAL, "ar"), Target("en", source_language="en"), Target("fr")):
        data = xliff2.write(entries, target)
        assert schema.is_valid(data), schema.errors(data)
    empty = xliff2.write([], Target("fr"))
    assert schema.is_valid(empty), schema.errors(empty)
