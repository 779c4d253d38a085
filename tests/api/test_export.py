"""GET /translations: the JSON document, ZIP archives, PO catalogs, caching and the
linked-project inheritance (decisions 6 and 9)."""

import orjson
import polib
import pytest
from werkzeug.http import parse_options_header

from tests.translation_factories import ProjectApi, create_project, link_projects, project_api


@pytest.fixture
def api(app) -> ProjectApi:
    return project_api(app)


@pytest.fixture
def seeded(api) -> ProjectApi:
    api.upsert("en", {"title": "Title", "body": "Body"}, file_name="home")
    api.upsert("de", {"title": "Titel"}, file_name="home")
    api.upsert("en", {"title": "About"}, file_name="about")
    api.upsert("fr", {"title": "À propos"}, file_name="about")
    return api


# JSON document


def test_export_is_the_language_file_key_document(seeded):
    response = seeded.export_response()
    assert response.status_code == 200
    assert response.mimetype == "application/json"
    assert orjson.loads(response.data) == {
        "de": {"home": {"title": "Titel"}},
        "en": {"about": {"title": "About"}, "home": {"body": "Body", "title": "Title"}},
        "fr": {"about": {"title": "À propos"}},
    }


def test_export_of_an_empty_project_is_an_empty_object(api):
    assert api.export() == {}


def test_export_leaves_out_keys_a_language_has_no_value_for(seeded):
    assert "body" not in seeded.export()["de"]["home"]


def test_export_holds_only_active_translations(seeded):
    seeded.bulk_delete(["body"], file_name="home")
    assert seeded.export()["en"]["home"] == {"title": "Title"}


def test_export_keeps_empty_strings(api):
    api.upsert("en", {"empty": ""})
    assert api.export() == {"en": {"common": {"empty": ""}}}


def test_export_is_json_format_by_default(seeded):
    assert seeded.export(format="json") == seeded.export()


def test_export_filters_by_language(seeded):
    assert seeded.export(language="de") == {"de": {"home": {"title": "Titel"}}}


def test_export_filters_by_repeated_languages(seeded):
    response = seeded.client.get(seeded.url("/translations?language=de&language=fr"))
    assert sorted(orjson.loads(response.data)) == ["de", "fr"]


def test_export_filters_by_comma_separated_languages(seeded):
    assert sorted(seeded.export(language="de,fr")) == ["de", "fr"]


def test_export_filters_by_file_name(seeded):
    assert seeded.export(fileName="about") == {
        "en": {"about": {"title": "About"}},
        "fr": {"about": {"title": "À propos"}},
    }


def test_export_filters_by_repeated_and_comma_separated_file_names(api):
    for name in ("a", "b", "c"):
        api.upsert("en", {"k": name}, file_name=name)
    response = api.client.get(api.url("/translations?fileName=a,b&fileName=c"))
    assert orjson.loads(response.data) == {"en": {"a": {"k": "a"}, "b": {"k": "b"}, "c": {"k": "c"}}}
    assert api.export(fileName="a,c") == {"en": {"a": {"k": "a"}, "c": {"k": "c"}}}


def test_export_file_name_filter_takes_names_as_written(api):
    for name in ("a", " a"):
        api.upsert("en", {"k": name}, file_name=name)
    assert api.export(fileName=" a") == {"en": {" a": {"k": " a"}}}


def test_export_filters_combine(seeded):
    assert seeded.export(language="en", fileName="about") == {"en": {"about": {"title": "About"}}}


def test_export_filter_matching_nothing_is_empty(seeded):
    assert seeded.export(language="ja") == {}


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("format", "xml"),
        ("format", "JSON"),
        ("zip", "maybe"),
        ("inherit", "perhaps"),
        ("language", "english"),
        ("fileName", "../home"),
        ("page", "1"),
    ],
)
def test_export_rejects_invalid_parameters(api, name, value):
    response = api.export_response(**{name: value})
    assert response.status_code == 400
    assert name in response.json["error"]


def test_repeated_json_exports_are_byte_identical(seeded):
    assert seeded.export_response().data == seeded.export_response().data


def test_json_export_is_sorted_by_language_file_and_key(api):
    api.upsert("fr", {"b": "2", "a": "1"}, file_name="z")
    api.upsert("de", {"b": "2", "a": "1"}, file_name="y")
    api.upsert("de", {"c": "3"}, file_name="x")
    assert api.export_response().data == (
        b'{"de":{"x":{"c":"3"},"y":{"a":"1","b":"2"}},"fr":{"z":{"a":"1","b":"2"}}}'
    )


# Caching


def test_export_has_a_strong_etag(seeded):
    etag = seeded.export_response().headers["ETag"]
    assert etag.startswith('"')
    assert etag.endswith('"')


def test_export_answers_304_to_a_matching_if_none_match(seeded):
    etag = seeded.export_response().headers["ETag"]
    response = seeded.client.get(seeded.url("/translations"), headers={"If-None-Match": etag})
    assert response.status_code == 304
    assert response.data == b""
    assert response.headers["ETag"] == etag


def test_export_answers_304_to_a_weak_if_none_match(seeded):
    etag = seeded.export_response().headers["ETag"]
    response = seeded.client.get(seeded.url("/translations"), headers={"If-None-Match": f"W/{etag}"})
    assert response.status_code == 304


def test_export_answers_304_to_a_list_holding_the_etag(seeded):
    etag = seeded.export_response().headers["ETag"]
    response = seeded.client.get(seeded.url("/translations"), headers={"If-None-Match": f'"other", {etag}'})
    assert response.status_code == 304


def test_export_answers_200_to_a_stale_if_none_match(seeded):
    response = seeded.client.get(seeded.url("/translations"), headers={"If-None-Match": '"stale"'})
    assert response.status_code == 200


def test_a_write_changes_the_etag(seeded):
    etag = seeded.export_response().headers["ETag"]
    seeded.set_values("title", {"en": "Welcome"}, file_name="home")
    response = seeded.client.get(seeded.url("/translations"), headers={"If-None-Match": etag})
    assert response.status_code == 200
    assert response.headers["ETag"] != etag


def test_a_failed_write_keeps_the_etag(seeded):
    etag = seeded.export_response().headers["ETag"]
    response = seeded.post("/translations", {"key": "title", "fileName": "home", "values": {}})
    assert response.status_code == 409
    assert seeded.export_response().headers["ETag"] == etag


def test_etag_differs_between_formats(seeded):
    json_etag = seeded.export_response().headers["ETag"]
    zip_etag = seeded.export_response(zip="true").headers["ETag"]
    assert json_etag != zip_etag


# ZIP


def test_zip_holds_one_json_entry_per_file_record(seeded):
    seeded.create_files("home", "fr")
    entries = seeded.export_zip()
    assert sorted(entries) == [
        "de/home.json",
        "en/about.json",
        "en/home.json",
        "fr/about.json",
        "fr/home.json",
    ]
    assert orjson.loads(entries["en/home.json"]) == {"body": "Body", "title": "Title"}
    assert entries["fr/home.json"] == b"{}"


def test_zip_entry_keeps_folders_of_the_file_name(api):
    api.upsert("en", {"a": "A"}, file_name="auth/login")
    assert list(api.export_zip()) == ["en/auth/login.json"]


def test_zip_does_not_double_the_json_extension(api):
    api.upsert("en", {"a": "A"}, file_name="messages.json")
    assert list(api.export_zip()) == ["en/messages.json"]


def test_zip_is_served_as_an_attachment(seeded):
    response = seeded.export_response(zip="true")
    assert response.headers["Content-Type"] == "application/zip"
    assert response.headers["Content-Disposition"] == 'attachment; filename="web-app-json.zip"'


def test_po_zip_is_served_as_an_attachment(seeded):
    response = seeded.export_response(zip="true", format="po")
    assert response.headers["Content-Type"] == "application/zip"
    assert response.headers["Content-Disposition"] == 'attachment; filename="web-app-po.zip"'


def test_zip_follows_the_filters(seeded):
    assert sorted(seeded.export_zip(language="en,fr", fileName="about")) == ["en/about.json", "fr/about.json"]


def test_zip_leaves_out_trashed_translations(seeded):
    seeded.bulk_delete(["title"], file_name="about")
    assert seeded.export_zip()["en/about.json"] == b"{}"


def test_repeated_zip_exports_are_byte_identical(seeded):
    first = seeded.export_response(zip="true").data
    assert seeded.export_response(zip="true").data == first


def test_repeated_po_zip_exports_are_byte_identical(seeded):
    first = seeded.export_response(zip="true", format="po").data
    assert seeded.export_response(zip="true", format="po").data == first


def test_po_zip_holds_one_po_entry_per_file_record(seeded):
    entries = seeded.export_zip(format="po")
    assert sorted(entries) == ["de/home.po", "en/about.po", "en/home.po", "fr/about.po"]
    catalog = polib.pofile(entries["de/home.po"].decode())
    assert {(e.msgid, e.msgstr) for e in catalog} == {("title", "Titel"), ("body", "")}


def test_po_zip_does_not_double_the_po_extension(api):
    api.upsert("en", {"a": "A"}, file_name="messages.po")
    api.upsert("en", {"a": "A"}, file_name="messages.json")
    assert sorted(api.export_zip(format="po")) == ["en/messages.json.po", "en/messages.po"]


# PO


def test_po_export_of_one_language_and_file_is_a_catalog(seeded):
    response = seeded.export_response(format="po", language="de", fileName="home")
    assert response.status_code == 200
    assert response.headers["Content-Type"] == "text/x-gettext-translation; charset=utf-8"
    assert response.headers["Content-Disposition"] == 'attachment; filename="de-home.po"'
    catalog = polib.pofile(response.data.decode("utf-8"))
    assert catalog.metadata["Language"] == "de"
    assert [(e.msgid, e.msgstr) for e in catalog] == [("body", ""), ("title", "Titel")]


@pytest.mark.parametrize(
    ("file_name", "quoted"),
    [("中文", "%E4%B8%AD%E6%96%87"), ("résumé", "r%C3%A9sum%C3%A9")],
)
def test_po_export_names_a_file_in_another_script_in_filename_star(api, file_name, quoted):
    api.upsert("de", {"k": "v"}, file_name=file_name)
    header = api.export_response(format="po", language="de", fileName=file_name).headers[
        "Content-Disposition"
    ]
    header.encode("latin-1")
    assert header.startswith('attachment; filename="de-')
    assert header.endswith(f"; filename*=UTF-8''de-{quoted}.po")
    assert parse_options_header(header) == ("attachment", {"filename": f"de-{file_name}.po"})


def test_po_export_escapes_quotes_in_the_file_name(api):
    api.upsert("de", {"k": "v"}, file_name='say "hi"')
    header = api.export_response(format="po", language="de", fileName='say "hi"').headers[
        "Content-Disposition"
    ]
    assert header == 'attachment; filename="de-say \\"hi\\".po"'
    assert parse_options_header(header) == ("attachment", {"filename": 'de-say "hi".po'})


def test_po_zip_of_an_empty_project_is_an_empty_archive(api):
    assert api.export_zip(format="po") == {}


def test_repeated_po_exports_are_byte_identical(seeded):
    first = seeded.export_response(format="po", language="de", fileName="home").data
    assert seeded.export_response(format="po", language="de", fileName="home").data == first


@pytest.mark.parametrize(
    "params",
    [
        {},
        {"language": "de"},
        {"fileName": "home"},
        {"language": "de,en", "fileName": "home"},
        {"language": "de", "fileName": "home,about"},
    ],
    ids=["nothing", "language-only", "file-only", "two-languages", "two-files"],
)
def test_po_export_without_one_language_and_one_file_is_rejected(seeded, params):
    response = seeded.export_response(format="po", **params)
    assert response.status_code == 400
    assert "language" in response.json["error"]
    assert "fileName" in response.json["error"]
    assert "zip=true" in response.json["error"]


# Linked projects


@pytest.fixture
def main(api) -> ProjectApi:
    """Project A ("Main", languages en and de); ``api`` is B, whose en-GB inherits A's en."""
    source_id = create_project(api.owner, api.organization_id, "Main", languages=["en", "de"])
    api.add_language("en-GB")
    link_projects(api.owner, api.project_id, source_id, "en", "en-GB")
    return ProjectApi(api.owner, source_id, organization_id=api.organization_id, owner=api.owner)


def test_linked_target_language_inherits_the_source_language(api, main):
    main.upsert("en", {"color": "Color", "title": "Title"}, file_name="home")
    main.upsert("de", {"color": "Farbe"}, file_name="home")
    assert api.export() == {"en-GB": {"home": {"color": "Color", "title": "Title"}}}


def test_own_values_win_over_inherited_ones(api, main):
    main.upsert("en", {"color": "Color", "title": "Title"}, file_name="home")
    api.upsert("en-GB", {"color": "Colour"}, file_name="home")
    assert api.export() == {"en-GB": {"home": {"color": "Colour", "title": "Title"}}}


def test_own_empty_value_wins_over_an_inherited_one(api, main):
    main.upsert("en", {"color": "Color"}, file_name="home")
    api.upsert("en-GB", {"color": ""}, file_name="home")
    assert api.export() == {"en-GB": {"home": {"color": ""}}}


def test_inherit_false_turns_inheritance_off(api, main):
    main.upsert("en", {"color": "Color", "title": "Title"}, file_name="home")
    api.upsert("en-GB", {"color": "Colour"}, file_name="home")
    assert api.export(inherit="false") == {"en-GB": {"home": {"color": "Colour"}}}


def test_inheritance_leaves_other_languages_alone(api, main):
    main.upsert("en", {"color": "Color"}, file_name="home")
    api.upsert("fr", {"color": "Couleur"}, file_name="home")
    assert api.export() == {"en-GB": {"home": {"color": "Color"}}, "fr": {"home": {"color": "Couleur"}}}


def test_inheritance_skips_trashed_source_translations(api, main):
    main.upsert("en", {"color": "Color", "title": "Title"}, file_name="home")
    main.bulk_delete(["title"], file_name="home")
    assert api.export() == {"en-GB": {"home": {"color": "Color"}}}


def test_inheritance_follows_the_language_filter(api, main):
    main.upsert("en", {"color": "Color"}, file_name="home")
    api.upsert("fr", {"color": "Couleur"}, file_name="home")
    assert api.export(language="fr") == {"fr": {"home": {"color": "Couleur"}}}
    assert api.export(language="en-GB") == {"en-GB": {"home": {"color": "Color"}}}


def test_inheritance_follows_the_file_filter(api, main):
    main.upsert("en", {"a": "A"}, file_name="home")
    main.upsert("en", {"b": "B"}, file_name="about")
    assert api.export(fileName="about") == {"en-GB": {"about": {"b": "B"}}}


def test_inheritance_is_one_level_deep(api, main):
    deeper_id = create_project(api.owner, api.organization_id, "Base", languages=["en"])
    link_projects(api.owner, main.project_id, deeper_id, "en", "en")
    ProjectApi(api.owner, deeper_id).upsert("en", {"base": "Base", "color": "Base color"}, file_name="home")
    main.upsert("en", {"color": "Color"}, file_name="home")
    assert main.export() == {"en": {"home": {"base": "Base", "color": "Color"}}}
    assert api.export() == {"en-GB": {"home": {"color": "Color"}}}


def test_inheritance_reaches_the_zip_export(api, main):
    main.upsert("en", {"color": "Color"}, file_name="home")
    assert api.export_zip() == {"en-GB/home.json": b'{"color":"Color"}'}


def test_inheritance_reaches_the_po_export(api, main):
    main.upsert("en", {"color": "Color"}, file_name="home")
    response = api.export_response(format="po", language="en-GB", fileName="home")
    catalog = polib.pofile(response.data.decode())
    assert [(e.msgid, e.msgstr) for e in catalog] == [("color", "Color")]


def test_inherited_values_fill_keys_the_target_language_has_not_translated(api, main):
    main.upsert("en", {"color": "Color"}, file_name="home")
    api.upsert("fr", {"color": "Couleur"}, file_name="home")
    assert api.export(language="en-GB") == {"en-GB": {"home": {"color": "Color"}}}


def test_po_export_of_an_inheriting_language_lists_its_own_untranslated_keys(api, main):
    main.upsert("en", {"color": "Color"}, file_name="home")
    api.upsert("fr", {"title": "Titre"}, file_name="home")
    response = api.export_response(format="po", language="en-GB", fileName="home")
    catalog = polib.pofile(response.data.decode())
    assert [(e.msgid, e.msgstr) for e in catalog] == [("color", "Color"), ("title", "")]


def test_po_export_of_an_inheriting_language_leaves_out_linked_keys_without_a_source_value(api, main):
    main.upsert("en", {"color": "Color"}, file_name="home")
    main.upsert("de", {"title": "Titel"}, file_name="home")
    response = api.export_response(format="po", language="en-GB", fileName="home")
    catalog = polib.pofile(response.data.decode())
    assert [e.msgid for e in catalog] == ["color"]


def test_a_write_to_the_linked_project_changes_the_etag(api, main):
    main.upsert("en", {"color": "Color"}, file_name="home")
    etag = api.export_response().headers["ETag"]
    main.upsert("en", {"color": "Colour"}, file_name="home")
    response = api.client.get(api.url("/translations"), headers={"If-None-Match": etag})
    assert response.status_code == 200
    assert orjson.loads(response.data) == {"en-GB": {"home": {"color": "Colour"}}}


def test_export_without_inheritance_ignores_the_linked_projects_writes(api, main):
    etag = api.export_response(inherit="false").headers["ETag"]
    main.upsert("en", {"color": "Color"}, file_name="home")
    assert api.export_response(inherit="false").headers["ETag"] == etag
