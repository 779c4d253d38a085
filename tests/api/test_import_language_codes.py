"""Language codes read from an import (a path, a template's placeholder, a file's columns)
or given as a filter are taken in their canonical form, whichever form they are written in."""

import pytest

from tests.api.test_import import archive, imported, json_file, upload
from tests.translation_factories import ProjectApi, project_api


@pytest.fixture
def api(app) -> ProjectApi:
    return project_api(app)


@pytest.mark.parametrize(
    ("template", "member"),
    [
        ("locales/{language}/{fileName}.json", "locales/pt-br/home.json"),
        ("locales/{language}/{fileName}.json", "locales/pt_BR/home.json"),
        ("locales/{locale}/{fileName}.json", "locales/pt_BR/home.json"),
        ("res/values-{android}/{fileName}.json", "res/values-pt-rBR/home.json"),
    ],
)
def test_a_code_in_a_path_is_read_as_the_canonical_code(api, template, member):
    imported(api, archive({member: json_file({"title": "Título"})}), pathTemplate=template, format="json")
    assert api.export() == {"pt-BR": {"home": {"title": "Título"}}}


def test_android_script_qualifiers_are_read_as_bcp_47(api):
    members = {"values-b+sr+Latn/strings.json": json_file({"title": "Naslov"})}
    imported(api, archive(members), pathTemplate="values-{android}/{fileName}.json", format="json")
    assert api.codes() == ["sr-Latn"]


def test_a_language_given_for_a_single_file_is_canonical(api):
    imported(api, json_file({"title": "Title"}), fileName="home.json", language="EN")
    assert api.export() == {"en": {"home": {"title": "Title"}}}


def test_two_spellings_of_one_language_in_an_archive_are_refused(api):
    members = {"en/home.json": json_file({"a": "A"}), "EN/home.json": json_file({"a": "B"})}
    response = upload(api, archive(members), format="json")
    assert response.status_code == 400
    assert "in 'en'" in response.json["error"]
    assert api.codes() == []


def test_an_unknown_code_in_a_path_is_refused_naming_it(api):
    response = upload(api, archive({"xx-bogus/home.json": json_file({"a": "A"})}), format="json")
    assert response.status_code == 400
    assert response.json["error"].startswith("language: 'xx-bogus' is not a known language code")
    assert "xx-bogus/home.json" in response.json["error"]


def test_csv_columns_are_read_as_canonical_codes(api):
    imported(api, b"key,EN,pt_br\ntitle,Title,T\xc3\xadtulo\n", fileName="home.csv")
    assert api.codes() == ["en", "pt-BR"]


def test_csv_columns_of_one_language_are_refused(api):
    response = upload(api, b"key,en,EN\ntitle,Title,Title\n", fileName="home.csv")
    assert response.status_code == 400
    assert "'en' and 'EN', both the language 'en'" in response.json["error"]


def test_filters_find_a_language_by_any_spelling_of_its_code(api):
    api.create("title", {"pt-BR": "Título", "en": "Title"})
    assert [record["language"] for record in api.files(language="PT_br")] == ["pt-BR"]
    assert api.export(language="pt_br") == {"pt-BR": {"common": {"title": "Título"}}}


def test_a_filter_with_an_unknown_code_is_refused_naming_it(api):
    response = api.get("/files", language="qq")
    assert response.status_code == 400
    assert response.json["error"].startswith("language: 'qq' is not a known language code")
