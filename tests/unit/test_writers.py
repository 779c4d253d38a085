"""The export writers as pure functions: archive entry names, ZIP, JSON and PO bytes."""

import io
import zipfile

import polib
import pytest

from loko.exports.writers import entry_name, json_bytes, po_bytes, zip_bytes

REVISION = "2024-05-01 12:00+0000"


# entry_name


@pytest.mark.parametrize(
    ("file_name", "fmt", "expected"),
    [
        ("common", "json", "en/common.json"),
        ("common", "po", "en/common.po"),
        ("auth/login", "json", "en/auth/login.json"),
        ("messages.json", "json", "en/messages.json"),
        ("messages.po", "po", "en/messages.po"),
        ("messages.json", "po", "en/messages.json.po"),
        ("messages.po", "json", "en/messages.po.json"),
        ("v1.2/strings", "json", "en/v1.2/strings.json"),
        ("..hidden", "json", "en/..hidden.json"),
        ("messages.JSON", "json", "en/messages.JSON.json"),
    ],
)
def test_entry_name_is_language_slash_file_with_one_extension(file_name, fmt, expected):
    assert entry_name("en", file_name, fmt) == expected


def test_entry_name_never_doubles_the_extension():
    name = entry_name("de", "a.json", "json")
    assert name == "de/a.json"
    assert not name.endswith(".json.json")


@pytest.mark.parametrize(
    "file_name",
    [
        "..",
        "../etc/passwd",
        "a/../../b",
        "/etc/passwd",
        "/common",
        "a\\b",
        "..\\b",
        "",
        ".",
        "./a",
        "a//b",
        "a/",
    ],
)
def test_entry_name_rejects_names_that_could_leave_the_archive(file_name):
    with pytest.raises(ValueError, match="unsafe file name"):
        entry_name("en", file_name, "json")


# zip_bytes


ENTRIES = [("en/common.json", b'{"a":"A"}'), ("de/common.json", b"{}"), ("de/auth/login.json", b'{"b":"B"}')]


def _archive(data: bytes) -> zipfile.ZipFile:
    return zipfile.ZipFile(io.BytesIO(data))


def test_zip_of_the_same_entries_is_byte_identical():
    assert zip_bytes(ENTRIES) == zip_bytes(list(ENTRIES))


def test_zip_keeps_entries_in_the_given_order_with_their_content():
    archive = _archive(zip_bytes(ENTRIES))
    assert archive.namelist() == [name for name, _ in ENTRIES]
    assert [archive.read(name) for name, _ in ENTRIES] == [data for _, data in ENTRIES]


def test_zip_entries_have_a_fixed_timestamp_and_mode():
    for info in _archive(zip_bytes(ENTRIES)).infolist():
        assert info.date_time == (1980, 1, 1, 0, 0, 0)
        assert info.external_attr >> 16 == 0o644
        assert info.compress_type == zipfile.ZIP_DEFLATED


def test_zip_without_entries_is_an_empty_archive():
    assert _archive(zip_bytes([])).namelist() == []


def test_zip_passes_its_own_integrity_check():
    assert _archive(zip_bytes(ENTRIES)).testzip() is None


# json_bytes


def test_json_bytes_sort_keys_and_keep_unicode_unescaped():
    assert json_bytes({"b": {"y": "2", "x": "Ü"}, "a": {}}) == '{"a":{},"b":{"x":"Ü","y":"2"}}'.encode()


# po_bytes


def _catalog(data: bytes) -> polib.POFile:
    return polib.pofile(data.decode("utf-8"))


def test_po_bytes_hold_one_entry_per_key_in_the_given_order():
    catalog = _catalog(po_bytes("de", "German", "Web app", REVISION, [("b", "B"), ("a", None), ("c", "")]))
    assert [(e.msgid, e.msgstr) for e in catalog] == [("b", "B"), ("a", ""), ("c", "")]


def test_po_bytes_carry_the_header_fields():
    metadata = _catalog(po_bytes("ru", "Russian", "Web app", REVISION, [])).metadata
    assert metadata["Language"] == "ru"
    assert metadata["Content-Type"] == "text/plain; charset=UTF-8"
    assert metadata["Project-Id-Version"] == "Web app"
    assert metadata["PO-Revision-Date"] == REVISION
    assert metadata["Plural-Forms"].startswith("nplurals=3;")
    assert metadata["X-Generator"].startswith("Loko ")


def test_po_bytes_put_the_project_name_on_one_line():
    metadata = _catalog(po_bytes("de", "German", "Web\napp\t2", REVISION, [])).metadata
    assert metadata["Project-Id-Version"] == "Web app 2"


def test_po_bytes_mark_values_whose_outer_newlines_differ_from_the_key_fuzzy():
    catalog = _catalog(po_bytes("de", "German", "P", REVISION, [("a", "\nA"), ("b", "B\n"), ("c", "C\nC")]))
    assert [("fuzzy" in e.flags, e.msgstr) for e in catalog] == [
        (True, "\nA"),
        (True, "B\n"),
        (False, "C\nC"),
    ]


def test_po_bytes_are_deterministic():
    entries = [("a", 'say "hi"\n\tnow'), ("b", "\\")]
    assert po_bytes("de", "German", "P", REVISION, entries) == po_bytes(
        "de", "German", "P", REVISION, entries
    )
