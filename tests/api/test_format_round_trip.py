"""Every format through the real import and export: a file Loko wrote, imported into a
project and exported again, comes back byte-identical (the header of a PO catalog names the
project and the date, so PO and XLIFF are compared entry by entry); plurals for languages
with 1, 2, 3-4 and 6 forms (ja, en, pl, ar), placeholders, comments and context where the
format keeps them, escapes, empty values and Unicode."""

import pytest
from babel import Locale

from loko.formats import Entry, Target, plurals
from loko.formats.registry import FORMAT_NAMES, format_module
from tests.translation_factories import ProjectApi, project_api

LANGUAGES = ("ja", "en", "pl", "ar")
BY_ENTRIES = {"po", "xliff", "xliff2"}  # headers or source texts that depend on the project


@pytest.fixture
def api(app) -> ProjectApi:
    return project_api(app)


def corpus(name: str, language: str) -> list[Entry]:
    module = format_module(name)
    keeps = module.KEEPS
    comment = "Shown on the home page" if "comments" in keeps else None
    nested = "nesting" in keeps
    entries = [
        Entry("greeting" if not nested else "home.greeting", f"Hello, %1$s! «{language}» 👋 مرحبا", comment),
        Entry("quote" if not nested else "home.quote", 'She said "hi" \\ back & <b>\nNext line\ttab'),
    ]
    if name != "csv":  # CSV cannot tell an empty cell from no value
        entries.append(Entry("empty", ""))
    if "plurals" in keeps or name in ("arb", "xliff", "xliff2", "json", "yaml", "strings", "properties"):
        forms = {category: f"{category} %d file" for category in plurals.categories(language)}
        if name == "po":
            forms = {category: f"{category} %d file" for category in plurals.gettext_categories(language)}
            forms.setdefault("other", forms[plurals.gettext_categories(language)[-1]])
        entries.append(
            Entry("files", plurals.join(forms), meta={"msgid_plural": "files"} if name == "po" else None)
        )
    if "context" in keeps:
        entries.append(Entry("menu|Open", "Open…", context="menu", meta={"msgid": "Open"}))
    return sorted(entries, key=lambda entry: entry.key)


def file_of(name: str, language: str) -> bytes:
    module = format_module(name)
    target = Target(
        language=language,
        file_name="app",
        project_name="Web app",
        language_name=Locale.parse(language).english_name,
    )
    if getattr(module, "MULTILINGUAL", False):
        return module.write_all({code: corpus(name, code) for code in LANGUAGES}, target)
    return module.write(corpus(name, language), target)


def comparable(name: str, language: str, data: bytes):
    if name not in BY_ENTRIES:
        return data
    return [(e.key, e.value, e.comment, e.context) for e in format_module(name).read(data, language)]


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("name", [n for n in FORMAT_NAMES if n != "csv"])
def test_a_file_comes_back_out_as_it_went_in(api, name, language):
    original = file_of(name, language)
    response = api.client.post(
        api.url("/import"),
        data=original,
        query_string={"format": name, "language": language, "fileName": "app"},
        headers={"Content-Type": "application/octet-stream"},
    )
    assert response.status_code == 200, response.json
    if name == "json":  # without zip, format=json is the spec's whole-project document
        exported = api.export_zip(format=name, language=language)[f"{language}/app.json"]
    else:
        response = api.export_response(format=name, language=language, fileName="app")
        assert response.status_code == 200, response.json
        exported = response.data
    assert comparable(name, language, exported) == comparable(name, language, original)


def test_a_csv_file_with_every_language_comes_back_out_as_it_went_in(api):
    original = file_of("csv", "en")
    response = api.client.post(
        api.url("/import"),
        data=original,
        query_string={"format": "csv", "fileName": "app"},
        headers={"Content-Type": "application/octet-stream"},
    )
    assert response.status_code == 200, response.json
    assert api.export_response(format="csv", fileName="app").data == original


@pytest.mark.parametrize("name", FORMAT_NAMES)
def test_every_format_exports_as_a_zip(api, name):
    api.upsert("en", {"title": "Title"}, file_name="home")
    api.upsert("de", {"title": "Titel"}, file_name="home")
    entries = api.export_zip(format=name)
    extension = format_module(name).EXTENSION
    if name == "csv":
        assert list(entries) == [f"home{extension}"]
    else:
        assert sorted(entries) == [f"de/home{extension}", f"en/home{extension}"]


def test_a_csv_export_reads_every_language_of_each_file_when_languages_come_in_batches(api, monkeypatch):
    from loko.exports import service

    monkeypatch.setattr(service, "ROWS_PER_QUERY", 1)  # one language a query, as at 1M values
    for file_name in ("about", "home"):
        api.upsert("en", {"title": "Title"}, file_name=file_name)
        api.upsert("de", {"title": "Titel"}, file_name=file_name)
    entries = api.export_zip(format="csv")
    assert entries == {
        "about.csv": b"key,de,en\r\ntitle,Titel,Title\r\n",
        "home.csv": b"key,de,en\r\ntitle,Titel,Title\r\n",
    }


@pytest.mark.parametrize("zipped", [True, False], ids=["zip", "one-file"])
def test_keys_a_nested_format_cannot_hold_are_a_400_naming_them(api, zipped):
    api.upsert("en", {"a": "A", "a.b": "B"}, file_name="home")
    params = {"zip": "true"} if zipped else {"language": "en", "fileName": "home"}
    response = api.export_response(format="json-nested", **params)
    assert response.status_code == 400
    assert "json-nested" in response.json["error"] and "'a'" in response.json["error"]
