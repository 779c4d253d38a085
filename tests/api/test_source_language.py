"""A project's source language (a setting beyond the spec's Project fields): set with the
first language added by any path, chosen among the project's languages, following a renamed
code, guarding its language from deletion, and used where a source decides something (the
XLIFF export, the import's key notes)."""

import io
import zipfile

import orjson
import pytest

from tests.translation_factories import ProjectApi, create_project, project_api


@pytest.fixture
def api(app) -> ProjectApi:
    return project_api(app)


def project(api: ProjectApi) -> dict:
    response = api.owner.get(f"/api/projects/{api.project_id}")
    assert response.status_code == 200
    return response.json["project"]


def source(api: ProjectApi) -> str | None:
    return project(api)["source_language"]


def set_source(api: ProjectApi, code):
    return api.owner.put(f"/api/projects/{api.project_id}", json={"source_language": code})


def test_a_project_without_languages_has_no_source_language(api):
    assert source(api) is None


def test_the_first_language_added_becomes_the_source(api):
    api.add_language("ja")
    api.add_language("ar")
    assert source(api) == "ja"


def test_the_first_code_a_patch_names_becomes_the_source(api):
    response = api.patch(
        "/translations",
        {"key": "title", "fileName": "common", "updates": {"en": {"value": "Hi"}, "de": {"value": "Hallo"}}},
    )
    assert response.status_code == 200
    assert source(api) == "en"


def test_a_bulk_upsert_sets_the_source_of_a_new_project(api):
    api.upsert("fr", [{"key": "title", "value": "Salut"}])
    api.upsert("de", [{"key": "title", "value": "Hallo"}])
    assert source(api) == "fr"


def test_an_import_sets_the_language_with_most_entries_as_the_source(api):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("de/common.json", orjson.dumps({"a": "A"}))
        archive.writestr("en/common.json", orjson.dumps({"a": "A", "b": "B"}))
    response = api.client.post(
        api.url("/import"),
        data=buffer.getvalue(),
        query_string={"pathTemplate": "{language}/{fileName}.json"},
        headers={"Content-Type": "application/zip"},
    )
    assert response.status_code == 200, response.json
    assert source(api) == "en"


def test_more_values_in_another_language_do_not_move_the_source(api):
    api.add_language("en")
    api.upsert("de", [{"key": f"k{n}", "value": "x"} for n in range(3)])
    assert source(api) == "en"


def test_put_chooses_another_language_as_the_source(api):
    api.add_language("en")
    api.add_language("de")
    response = set_source(api, "de")
    assert response.status_code == 200
    assert response.json["project"]["source_language"] == "de"
    assert source(api) == "de"


def test_put_refuses_a_source_that_is_not_a_language_of_the_project(api):
    api.add_language("en")
    response = set_source(api, "fr")
    assert response.status_code == 400
    assert "source_language" in response.json["error"]
    assert source(api) == "en"


def test_put_refuses_a_malformed_source_language(api):
    api.add_language("en")
    response = set_source(api, "not a code")
    assert response.status_code == 400
    assert "source_language" in response.json["error"] + str(response.json.get("details"))


def test_put_refuses_null_once_the_project_has_a_source(api):
    api.add_language("en")
    response = set_source(api, None)
    assert response.status_code == 400
    assert "source_language" in response.json["error"]


def test_a_project_sent_back_as_fetched_keeps_its_source(api):
    api.add_language("en")
    fetched = project(api)
    response = api.owner.put(f"/api/projects/{api.project_id}", json=fetched)
    assert response.status_code == 200
    assert response.json["project"]["source_language"] == "en"


def test_an_api_key_cannot_change_the_source(api):
    api.add_language("en")
    api.add_language("de")
    response = api.client.put(f"/api/projects/{api.project_id}", json={"source_language": "de"})
    assert response.status_code == 403
    assert source(api) == "en"


def test_post_projects_adds_the_source_language_as_the_first_language(api):
    response = api.owner.post(
        "/api/projects",
        json={"name": "Docs", "organization_id": api.organization_id, "source_language": "pt-BR"},
    )
    assert response.status_code == 201
    created = response.json["project"]
    assert created["source_language"] == "pt-BR"
    languages = api.owner.get(f"/api/projects/{created['id']}/languages").json["languages"]
    assert [language["code"] for language in languages] == ["pt-BR"]


def test_renaming_the_source_language_moves_the_setting(api):
    api.add_language("en")
    api.add_language("de")
    response = api.patch("/languages", {"currentCode": "en", "code": "en-US"})
    assert response.status_code == 200
    assert source(api) == "en-US"


def test_renaming_another_language_leaves_the_source(api):
    api.add_language("en")
    api.add_language("de")
    api.patch("/languages", {"currentCode": "de", "code": "de-AT"})
    assert source(api) == "en"


def test_the_source_language_cannot_be_deleted_while_others_remain(api):
    api.add_language("en")
    api.add_language("de")
    response = api.owner.delete(api.url("/languages"), json={"code": "en"})
    assert response.status_code == 409
    assert "'en'" in response.json["error"]
    assert "source language" in response.json["error"]
    assert api.codes() == ["de", "en"]


def test_the_source_language_can_be_deleted_once_another_is_chosen(api):
    api.add_language("en")
    api.add_language("de")
    assert set_source(api, "de").status_code == 200
    response = api.owner.delete(api.url("/languages"), json={"code": "en"})
    assert response.status_code == 200
    assert source(api) == "de"


def test_the_last_language_can_go_and_the_next_one_added_is_the_source(api):
    api.add_language("en")
    assert api.owner.delete(api.url("/languages"), json={"code": "en"}).status_code == 200
    assert source(api) is None
    api.add_language("fr")
    assert source(api) == "fr"


def test_the_xliff_export_names_the_setting_as_its_source(api):
    api.upsert("de", [{"key": f"k{n}", "value": "x"} for n in range(3)])
    api.upsert("en", [{"key": "k0", "value": "Hello"}])
    assert set_source(api, "en").status_code == 200
    response = api.client.get(
        api.url("/translations"), query_string={"format": "xliff", "language": "de", "fileName": "common"}
    )
    assert response.status_code == 200, response.data
    assert b'source-language="en"' in response.data
    assert b"<source>Hello</source>" in response.data


def test_other_projects_keep_their_own_source(api):
    api.add_language("en")
    other = create_project(api.owner, api.organization_id, "Other", languages=["ja", "en"])
    assert api.owner.get(f"/api/projects/{other}").json["project"]["source_language"] == "ja"
    assert source(api) == "en"
