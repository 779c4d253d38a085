"""The Apple .stringsdict format: plurals to and from ICU, the format text around a variable,
refusals, hostile XML, and the round trip of a canonical file.

A canonical file is one the writer itself produces, that is ``plistlib.dumps`` with sorted
keys (tabs, Apple's document type, a final newline); reading it and writing the entries back
gives the same bytes. Written files are checked by reading them with ``plistlib.loads``.
"""

import contextlib
import plistlib
import random

import pytest

from loko.formats import Entry, FormatError, Target, plurals, stringsdict

CANONICAL = r"""<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
	<key>empty</key>
	<dict>
		<key>NSStringLocalizedFormatKey</key>
		<string></string>
	</dict>
	<key>escapes</key>
	<dict>
		<key>NSStringLocalizedFormatKey</key>
		<string>%#@count@</string>
		<key>count</key>
		<dict>
			<key>NSStringFormatSpecTypeKey</key>
			<string>NSStringPluralRuleType</string>
			<key>NSStringFormatValueTypeKey</key>
			<string>lu</string>
			<key>one</key>
			<string>Tom &amp; "Jerry" &lt;3 it's C:\path
next 🎉</string>
			<key>other</key>
			<string>{0} items مرحبا</string>
		</dict>
	</dict>
	<key>files</key>
	<dict>
		<key>NSStringLocalizedFormatKey</key>
		<string>%#@count@</string>
		<key>count</key>
		<dict>
			<key>NSStringFormatSpecTypeKey</key>
			<string>NSStringPluralRuleType</string>
			<key>NSStringFormatValueTypeKey</key>
			<string>d</string>
			<key>few</key>
			<string>%d ملفات</string>
			<key>many</key>
			<string>%d ملفًا</string>
			<key>one</key>
			<string>ملف واحد</string>
			<key>other</key>
			<string>%d ملف</string>
			<key>two</key>
			<string>ملفان</string>
			<key>zero</key>
			<string>لا ملفات</string>
		</dict>
	</dict>
	<key>photos</key>
	<dict>
		<key>NSStringLocalizedFormatKey</key>
		<string>You have %#@n@ in %1$@</string>
		<key>n</key>
		<dict>
			<key>NSStringFormatSpecTypeKey</key>
			<string>NSStringPluralRuleType</string>
			<key>NSStringFormatValueTypeKey</key>
			<string>d</string>
			<key>one</key>
			<string>%d photo</string>
			<key>other</key>
			<string>%d photos</string>
		</dict>
	</dict>
	<key>plain</key>
	<dict>
		<key>NSStringLocalizedFormatKey</key>
		<string>Name: %@</string>
	</dict>
</dict>
</plist>
""".encode()

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


def _document(specs: dict) -> bytes:
    return plistlib.dumps(specs, sort_keys=True)


def _plural(forms: dict, format_key: str = "%#@count@", variable: str = "count") -> dict:
    rule = {"NSStringFormatSpecTypeKey": "NSStringPluralRuleType", "NSStringFormatValueTypeKey": "d"}
    return {"NSStringLocalizedFormatKey": format_key, variable: rule | forms}


def _by_key(data: bytes = CANONICAL) -> dict[str, Entry]:
    return {entry.key: entry for entry in stringsdict.read(data, "ar")}


def test_canonical_file_round_trips_byte_for_byte():
    assert stringsdict.write(stringsdict.read(CANONICAL, "ar"), Target("ar")) == CANONICAL


def test_reads_a_plural_variable_as_one_icu_message_named_after_it():
    entry = _by_key()["files"]
    assert plurals.split(entry.value) == plurals.Plural("count", FORMS["ar"])
    assert entry.meta == {"stringsdict": {"format": "%#@count@", "value_type": "d"}}


def test_folds_the_format_text_around_the_variable_into_every_form():
    entry = _by_key()["photos"]
    assert plurals.split(entry.value).forms == {
        "one": "You have %d photo in %1$@",
        "other": "You have %d photos in %1$@",
    }
    assert plurals.split(entry.value).argument == "n"


def test_reads_escapes_placeholders_and_unicode_in_forms():
    forms = plurals.split(_by_key()["escapes"].value).forms
    assert forms == {"one": 'Tom & "Jerry" <3 it\'s C:\\path\nnext 🎉', "other": "{0} items مرحبا"}


def test_reads_a_format_without_variables_as_a_plain_value():
    entries = _by_key()
    assert entries["plain"] == Entry("plain", "Name: %@")
    assert entries["empty"] == Entry("empty", "")


@pytest.mark.parametrize("language", ["ja", "en", "pl", "ar"])
def test_plural_file_round_trips_for_each_plural_shape(language):
    assert set(FORMS[language]) == set(plurals.categories(language))
    data = _document({"files": _plural(FORMS[language])})
    [entry] = stringsdict.read(data, language)
    assert plurals.split(entry.value) == plurals.Plural("count", FORMS[language])
    assert stringsdict.write([entry], Target(language)) == data


def test_writer_output_reads_back_with_plistlib():
    entries = [
        Entry("a", "{n, plural, =0 {none} one {# x} other {# xs}}"),
        Entry("b", "plain & <text>\x01"),
        Entry("c", None),
    ]
    assert plistlib.loads(stringsdict.write(entries, Target("en"))) == {
        "a": _plural({"zero": "none", "one": "# x", "other": "# xs"}, "%#@n@", "n"),
        "b": {"NSStringLocalizedFormatKey": "plain & <text>"},
    }


@pytest.mark.parametrize(
    "entries",
    [
        [],
        [Entry("a&<b>", "line\r\nnext\rlast & <i>"), Entry("Z", "{Apples, plural, one {#} other {# >}}")],
        [
            Entry(f"k{index}", "{count, plural, few {a} many {b} one {c} other {d} two {e} zero {f}}")
            for index in range(3)
        ],
    ],
)
def test_writer_gives_the_bytes_plistlib_gives(entries):
    written = stringsdict.write(entries, Target("ar"))
    assert written == plistlib.dumps(plistlib.loads(written), sort_keys=True)


def test_writer_writes_the_full_forms_when_the_format_text_was_edited_away():
    entry = Entry(
        "k",
        "{n, plural, one {One photo} other {%d photos}}",
        meta={"stringsdict": {"format": "You have %#@n@", "value_type": "d"}},
    )
    assert plistlib.loads(stringsdict.write([entry], Target("en"))) == {
        "k": _plural({"one": "One photo", "other": "%d photos"}, "%#@n@", "n")
    }


def test_writer_is_deterministic_whatever_the_entry_order():
    entries = stringsdict.read(CANONICAL, "ar")
    assert stringsdict.write(entries[::-1], Target("ar")) == CANONICAL


def test_a_variable_name_that_is_not_an_identifier_reads_as_count_and_writes_back():
    data = _document({"k": _plural({"other": "%d"}, "%#@file-count@", "file-count")})
    [entry] = stringsdict.read(data, "en")
    assert plurals.split(entry.value).argument == "count"
    assert stringsdict.write([entry], Target("en")) == data


def test_refuses_two_variables_naming_the_key_and_line():
    data = _document({"k": _plural({"other": "%d"}, "%#@count@ in %#@folders@")})
    with pytest.raises(FormatError, match="'k' has 2 variables") as error:
        stringsdict.read(data, "en")
    assert error.value.line == 5


def test_refuses_another_rule_type():
    rule = {"NSStringFormatSpecTypeKey": "NSStringVariableWidthRuleType"}
    spec = {"NSStringLocalizedFormatKey": "%#@w@", "w": rule}
    with pytest.raises(FormatError, match="only NSStringPluralRuleType"):
        stringsdict.read(_document({"k": spec}), "en")


def test_refuses_an_undefined_variable():
    with pytest.raises(FormatError, match="not defined"):
        stringsdict.read(_document({"k": {"NSStringLocalizedFormatKey": "%#@count@"}}), "en")


def test_refuses_a_key_that_is_not_a_dictionary():
    with pytest.raises(FormatError, match="'k' is not a dictionary"):
        stringsdict.read(_document({"k": "text"}), "en")


def test_refuses_binary_property_lists():
    with pytest.raises(FormatError, match="binary"):
        stringsdict.read(plistlib.dumps({"k": "v"}, fmt=plistlib.FMT_BINARY), "en")


def test_billion_laughs_raises_format_error():
    data = b"""<?xml version="1.0"?>
<!DOCTYPE plist [
  <!ENTITY lol "lol">
  <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
  <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
]>
<plist version="1.0"><dict><key>k</key><string>&lol3;</string></dict></plist>"""
    with pytest.raises(FormatError) as error:
        stringsdict.read(data, "en")
    assert error.value.line == 3


def test_external_entity_raises_format_error():
    data = b"""<?xml version="1.0"?>
<!DOCTYPE plist [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
<plist version="1.0"><dict><key>k</key><dict><key>NSStringLocalizedFormatKey</key>
<string>&xxe;</string></dict></dict></plist>"""
    with pytest.raises(FormatError) as error:
        stringsdict.read(data, "en")
    assert "root:" not in str(error.value)


def test_external_parameter_entity_raises_format_error():
    data = b"""<?xml version="1.0"?>
<!DOCTYPE plist [<!ENTITY % remote SYSTEM "file:///etc/passwd"> %remote;]>
<plist version="1.0"><dict/></plist>"""
    with pytest.raises(FormatError):
        stringsdict.read(data, "en")


def test_truncated_xml_raises_format_error_naming_the_line():
    with pytest.raises(FormatError) as error:
        stringsdict.read(CANONICAL[:700], "ar")
    assert error.value.line == CANONICAL[:700].count(b"\n") + 1


def test_unsupported_declared_encoding_raises_format_error():
    with pytest.raises(FormatError, match="encoding") as error:
        stringsdict.read(b'<?xml version="1.0" encoding="bogus"?>\n<plist><dict/></plist>', "en")
    assert error.value.line == 1


def test_mutated_bytes_raise_nothing_but_format_error():
    generator = random.Random(5)
    for _ in range(300):
        data = bytearray(CANONICAL)
        for _ in range(generator.randint(1, 4)):
            position = generator.randrange(len(data))
            data[position : position + generator.randint(0, 6)] = generator.choice(
                [b"<", b"&", b">", b"\x00", b"\xff", b"<integer>x</integer>", b"<date>", b"<data>!", b"</"]
            )
        with contextlib.suppress(FormatError):
            stringsdict.read(bytes(data), "ar")
