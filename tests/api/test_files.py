"""GET, POST, PATCH and DELETE /files (decisions 7)."""

import pytest

from tests.translation_factories import ProjectApi, project_api

RECORD_FIELDS = {"id", "project_id", "file_name", "language", "language_name", "language_emoji"}


@pytest.fixture
def api(app) -> ProjectApi:
    return project_api(app)


def _pairs(records):
    return [(r["file_name"], r["language"]) for r in records]


# GET /files


def test_files_lists_records_with_language_details(api):
    api.create("title", {"pt-BR": "Título"}, file_name="home")
    response = api.get("/files")
    assert response.status_code == 200
    assert set(response.json) == {"files"}
    (record,) = response.json["files"]
    assert set(record) == RECORD_FIELDS
    assert record["project_id"] == api.project_id
    assert record["file_name"] == "home"
    assert record["language"] == "pt-BR"
    assert record["language_name"] == "Portuguese (Brazil)"
    assert record["language_emoji"] == "🇧🇷"


def test_files_are_sorted_by_file_name_then_language(api):
    api.create_files("zeta", "fr", "de")
    api.create_files("Alpha", "en")
    api.create_files("alpha", "fr", "de", "en")
    api.create_files("alpha/beta", "de")
    assert _pairs(api.files()) == [
        ("Alpha", "en"),
        ("alpha", "de"),
        ("alpha", "en"),
        ("alpha", "fr"),
        ("alpha/beta", "de"),
        ("zeta", "de"),
        ("zeta", "fr"),
    ]


def test_files_filter_by_file_name(api):
    api.create_files("home", "en", "de")
    api.create_files("about", "en")
    assert _pairs(api.files(fileName="home")) == [("home", "de"), ("home", "en")]


def test_files_filter_by_language(api):
    api.create_files("home", "en", "de")
    api.create_files("about", "en")
    assert _pairs(api.files(language="en")) == [("about", "en"), ("home", "en")]


def test_files_filters_combine(api):
    api.create_files("home", "en", "de")
    api.create_files("about", "en")
    assert _pairs(api.files(fileName="home", language="de")) == [("home", "de")]


def test_files_is_empty_for_a_new_project(api):
    assert api.files() == []


@pytest.mark.parametrize(("name", "value"), [("fileName", "/home"), ("language", "english"), ("page", "1")])
def test_files_rejects_invalid_filters(api, name, value):
    response = api.get("/files", **{name: value})
    assert response.status_code == 400
    assert name in response.json["error"]


# POST /files


def test_create_files_answers_201_with_the_created_records(api):
    response = api.post("/files", {"fileName": "home", "languages": [{"code": "en"}, {"code": "de"}]})
    assert response.status_code == 201
    assert _pairs(response.json["files"]) == [("home", "de"), ("home", "en")]
    assert response.json["files"] == api.files()


def test_create_files_answers_200_and_nothing_when_all_exist(api):
    api.create_files("home", "en", "de")
    response = api.post("/files", {"fileName": "home", "languages": [{"code": "en"}, {"code": "de"}]})
    assert response.status_code == 200
    assert response.json == {"files": []}
    assert len(api.files()) == 2


def test_create_files_returns_only_the_records_it_created(api):
    api.create_files("home", "en")
    response = api.post("/files", {"fileName": "home", "languages": [{"code": "en"}, {"code": "fr"}]})
    assert response.status_code == 201
    assert _pairs(response.json["files"]) == [("home", "fr")]


def test_create_files_adds_unknown_languages_with_given_name_and_emoji(api):
    body = {"fileName": "home", "languages": [{"code": "tlh", "name": "Klingon", "emoji": "🖖"}]}
    assert api.post("/files", body).status_code == 201
    assert api.languages() == [{"code": "tlh", "name": "Klingon", "emoji": "🖖"}]


def test_create_files_names_unknown_languages_from_cldr(api):
    api.create_files("home", "fr-CA")
    assert api.languages() == [{"code": "fr-CA", "name": "French (Canada)", "emoji": "🇨🇦"}]


def test_create_files_keeps_existing_language_details(api):
    api.add_language("de", name="Deutsch", emoji="🇩🇪")
    body = {"fileName": "home", "languages": [{"code": "de", "name": "German", "emoji": ""}]}
    assert api.post("/files", body).status_code == 201
    assert api.languages() == [{"code": "de", "name": "Deutsch", "emoji": "🇩🇪"}]


def test_created_file_appears_in_the_zip_export_without_values(api):
    api.create_files("home", "en")
    assert api.export_zip() == {"en/home.json": b"{}"}


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"languages": [{"code": "en"}]}, "fileName"),
        ({"fileName": "home"}, "languages"),
        ({"fileName": "home", "languages": []}, "languages"),
        ({"fileName": "a/../b", "languages": [{"code": "en"}]}, "fileName"),
        ({"fileName": "home", "languages": [{"code": "e"}]}, "languages"),
        ({"fileName": "home", "languages": [{"code": "en", "flag": "x"}]}, "languages"),
    ],
    ids=["no-file-name", "no-languages", "empty-languages", "unsafe-file-name", "bad-code", "unknown-field"],
)
def test_create_files_rejects_invalid_bodies(api, body, field):
    response = api.post("/files", body)
    assert response.status_code == 400
    assert field in response.json["error"]
    assert api.files() == []


# PATCH /files (rename)


def test_rename_file_renames_records_and_translations(api):
    api.create("title", {"en": "Title", "de": "Titel"}, file_name="home")
    api.create("other", {"en": "Other"}, file_name="about")
    response = api.patch("/files", {"fileName": "home", "newFileName": "pages/home"})
    assert response.status_code == 200
    assert _pairs(response.json["files"]) == [("pages/home", "de"), ("pages/home", "en")]
    assert _pairs(api.files()) == [("about", "en"), ("pages/home", "de"), ("pages/home", "en")]
    assert api.export() == {
        "de": {"pages/home": {"title": "Titel"}},
        "en": {"about": {"other": "Other"}, "pages/home": {"title": "Title"}},
    }


def test_rename_file_keeps_record_ids(api):
    before = {r["language"]: r["id"] for r in api.create_files("home", "en", "de")}
    response = api.patch("/files", {"fileName": "home", "newFileName": "start"})
    assert {r["language"]: r["id"] for r in response.json["files"]} == before


def test_rename_file_moves_trashed_translations_too(api):
    translation = api.create("title", {"en": "Title"}, file_name="home")
    api.trash(translation["id"])
    api.patch("/files", {"fileName": "home", "newFileName": "start"})
    assert api.restore(translation["id"])["fileName"] == "start"


def test_rename_unknown_file_is_not_found(api):
    api.create_files("home", "en")
    response = api.patch("/files", {"fileName": "nope", "newFileName": "other"})
    assert response.status_code == 404
    assert "nope" in response.json["error"]


def test_rename_to_an_existing_file_conflicts(api):
    api.create("a", {"en": "A"}, file_name="home")
    api.create("b", {"en": "B"}, file_name="about")
    response = api.patch("/files", {"fileName": "home", "newFileName": "about"})
    assert response.status_code == 409
    assert "about" in response.json["error"]
    assert api.export() == {"en": {"about": {"b": "B"}, "home": {"a": "A"}}}


def test_rename_to_a_file_existing_in_another_language_conflicts(api):
    api.create_files("home", "en")
    api.create_files("about", "de")
    assert api.patch("/files", {"fileName": "home", "newFileName": "about"}).status_code == 409


def test_rename_rejects_an_unsafe_new_name(api):
    api.create_files("home", "en")
    response = api.patch("/files", {"fileName": "home", "newFileName": "../home"})
    assert response.status_code == 400
    assert "newFileName" in response.json["error"]


# DELETE /files


def test_delete_file_removes_records_and_translations(api):
    api.create("title", {"en": "Title", "de": "Titel"}, file_name="home")
    api.create("other", {"en": "Other"}, file_name="about")
    response = api.delete("/files", {"fileName": "home"})
    assert response.status_code == 200
    assert response.json == {"success": True}
    assert response.headers["Loko-Operation"]
    assert _pairs(api.files()) == [("about", "en")]
    assert api.export() == {"en": {"about": {"other": "Other"}}}
    assert api.keys() == ["other"]


def test_delete_file_moves_its_keys_to_the_trash_as_one_operation(api):
    first = api.create("a", {"en": "A", "de": "A"}, file_name="home")
    second = api.create("b", {"en": "B"}, file_name="home")
    operation_id = api.delete("/files", {"fileName": "home"}).headers["Loko-Operation"]
    deleted = api.history(action="deleted", operationId=operation_id)
    assert sorted((e["translation_id"], e["language"]) for e in deleted) == sorted(
        [(first["id"], None), (second["id"], None)]
    )
    assert {item["key"] for item in api.trash_list()["translations"]} == {"a", "b"}


def test_delete_file_permanently_purges_its_keys_and_trashed_ones(api):
    translation = api.create("title", {"en": "Title"}, file_name="home")
    api.create("kept", {"en": "Kept"}, file_name="home")
    api.trash(translation["id"])
    response = api.delete("/files", {"fileName": "home", "permanent": True})
    assert response.json == {"success": True}
    assert "Loko-Operation" not in response.headers
    assert api.trash_list()["total"] == 0
    assert api.post("/translations/trash", {"id": translation["id"]}).status_code == 404
    assert len(api.history(action="purged")) == 2


def test_delete_file_language_removes_only_that_language(api):
    api.create("title", {"en": "Title", "de": "Titel"}, file_name="home")
    api.create("title", {"de": "Über"}, file_name="about")
    response = api.delete("/files", {"fileName": "home", "languageCode": "de"})
    assert response.json["success"] is True
    assert _pairs(api.files()) == [("about", "de"), ("home", "en")]
    assert api.export() == {"de": {"about": {"title": "Über"}}, "en": {"home": {"title": "Title"}}}
    assert api.codes() == ["de", "en"]


def test_delete_file_language_keeps_the_translations(api):
    translation = api.create("title", {"de": "Titel"}, file_name="home")
    api.delete("/files", {"fileName": "home", "languageCode": "de"})
    assert api.keys() == ["title"]
    api.trash(translation["id"])
    assert api.trash_list()["translations"][0]["values"] == {}


def test_delete_file_language_keeps_the_values_in_history(api):
    translation = api.create("title", {"en": "Title", "de": "Titel"}, file_name="home")
    api.delete("/files", {"fileName": "home", "languageCode": "de"})
    (entry,) = api.history(action="deleted")
    assert (entry["translation_id"], entry["language"], entry["old_value"]) == (
        translation["id"],
        "de",
        "Titel",
    )


def test_delete_unknown_file_is_not_found(api):
    api.create_files("home", "en")
    response = api.delete("/files", {"fileName": "nope"})
    assert response.status_code == 404
    assert "nope" in response.json["error"]


def test_delete_file_in_a_language_it_lacks_is_not_found(api):
    api.create_files("home", "en")
    api.add_language("de")
    api.delete("/files", {"fileName": "home", "languageCode": "de"})
    response = api.delete("/files", {"fileName": "home", "languageCode": "fr"})
    assert response.status_code == 404
    assert _pairs(api.files()) == [("home", "en")]


def test_delete_file_requires_a_file_name(api):
    response = api.delete("/files", {"languageCode": "en"})
    assert response.status_code == 400
    assert "fileName" in response.json["error"]
