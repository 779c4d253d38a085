"""An export of named files (``fileName=``) is named by those files' data versions: a write to
another file of the project leaves its ETag, its body and its 304 revalidation as they were;
every write that changes what it reads (the file's keys, values, details and records, the
project's languages, source language, name and link, the linked project's data) changes its
ETag. An export of the whole project changes with every write."""

import io
import json

import pytest

from tests.translation_factories import ProjectApi, link_projects, project_api

FILE, OTHER = "home", "other"


@pytest.fixture
def api(app) -> ProjectApi:
    api = project_api(app)
    api.upsert("en", {"title": "Title", "body": "Body"}, file_name=FILE)
    api.upsert("de", {"title": "Titel"}, file_name=FILE)
    api.upsert("en", {"menu": "Menu"}, file_name=OTHER)
    return api


def etag_of(api: ProjectApi, file_name: str = FILE) -> str:
    response = api.export_response(fileName=file_name)
    assert response.status_code == 200, response.json
    return response.headers["ETag"]


def revalidated(api: ProjectApi, etag: str, file_name: str = FILE) -> int:
    """The status of a revalidation of the file's export with ``etag`` (the API key's, which
    the revalidation before Flask answers)."""
    return api.client.get(
        api.url("/translations"), query_string={"fileName": file_name}, headers={"If-None-Match": etag}
    ).status_code


def imported(api: ProjectApi, entries: dict, file_name: str, language: str = "en") -> dict:
    response = api.client.post(
        api.url("/import"),
        data={"file": (io.BytesIO(json.dumps(entries).encode()), "upload.json")},
        query_string={"fileName": file_name, "language": language, "format": "json"},
        content_type="multipart/form-data",
    )
    assert response.status_code == 200, response.json
    return response.json


def owner(api: ProjectApi) -> ProjectApi:
    return api.as_client(api.owner)


def ok(response, *statuses):
    assert response.status_code in (statuses or (200,)), response.json
    return response


# -- a write to another file ----------------------------------------------------------------

WRITES_TO_OTHER = {
    "value": lambda api: api.set_values("menu", {"en": "Main menu"}, file_name=OTHER),
    "new key": lambda api: api.create("help", {"en": "Help"}, file_name=OTHER),
    "bulk upsert": lambda api: api.upsert("de", {"menu": "Menü"}, file_name=OTHER),
    "bulk delete": lambda api: api.bulk_delete(["menu"], file_name=OTHER),
    "import": lambda api: imported(api, {"menu": "Imported"}, OTHER),
    "file delete": lambda api: ok(api.delete("/files", {"fileName": OTHER})),
    "file rename": lambda api: ok(api.patch("/files", {"fileName": OTHER, "newFileName": "renamed"})),
}


@pytest.mark.parametrize("write", WRITES_TO_OTHER.values(), ids=WRITES_TO_OTHER.keys())
def test_a_write_to_another_file_leaves_the_file_s_etag_and_body(api, write):
    before = api.export_response(fileName=FILE)
    write(api)
    after = api.export_response(fileName=FILE)
    assert after.headers["ETag"] == before.headers["ETag"]
    assert after.data == before.data


def test_a_write_to_another_file_leaves_the_file_s_revalidation_a_304(api):
    etag = etag_of(api)
    api.set_values("menu", {"en": "Main menu"}, file_name=OTHER)
    assert revalidated(api, etag) == 304


def test_a_write_to_another_file_changes_the_whole_project_s_etag(api):
    response = api.export_response()
    api.set_values("menu", {"en": "Main menu"}, file_name=OTHER)
    assert revalidated(api, response.headers["ETag"], file_name=None) == 200
    assert api.export_response().headers["ETag"] != response.headers["ETag"]


def test_an_export_of_two_files_changes_with_a_write_to_either(api):
    both = [FILE, OTHER]
    etag = etag_of(api, both)
    api.set_values("menu", {"en": "Main menu"}, file_name=OTHER)
    assert revalidated(api, etag, both) == 200
    assert etag_of(api, both) != etag


# -- every write to the file, and every shared change -------------------------------------


def _title_id(api: ProjectApi) -> str:
    return api.set_values("title", {"en": "Title"}, file_name=FILE)["en"]["id"]


def _trash_title(api: ProjectApi) -> str:
    translation_id = _title_id(api)
    api.trash(translation_id)
    return translation_id


def _second_project(api: ProjectApi, language: str = "en") -> ProjectApi:
    response = api.owner.post("/api/projects", json={"name": "Base", "organization_id": api.organization_id})
    assert response.status_code == 201, response.json
    base = ProjectApi(api.owner, response.json["project"]["id"])
    base.upsert(language, {"title": "Base title", "extra": "Extra"}, file_name=FILE)
    return base


# (prepare, write): ``prepare(api)`` runs before the ETag is read and returns what ``write``
# takes as its second argument.
WRITES_TO_FILE = {
    "value (PATCH)": (None, lambda api, _: api.set_values("title", {"en": "New title"}, file_name=FILE)),
    "new key": (None, lambda api, _: api.create("footer", {"en": "Footer"}, file_name=FILE)),
    "new key without values": (None, lambda api, _: api.create("empty", {}, file_name=FILE)),
    "bulk upsert": (None, lambda api, _: api.upsert("de", {"body": "Inhalt"}, file_name=FILE)),
    "bulk delete": (None, lambda api, _: api.bulk_delete(["body"], file_name=FILE)),
    "bulk purge": (None, lambda api, _: api.bulk_delete(["body"], file_name=FILE, permanent=True)),
    "trash": (_title_id, lambda api, translation_id: api.trash(translation_id)),
    "restore": (_trash_title, lambda api, translation_id: api.restore(translation_id)),
    "purge": (_trash_title, lambda api, translation_id: api.purge(translation_id)),
    "purge at once": (_title_id, lambda api, translation_id: api.purge(translation_id)),
    "key details": (
        None,
        lambda api, _: ok(
            api.patch("/translations/details", {"key": "title", "fileName": FILE, "comment": "c"})
        ),
    ),
    "import": (None, lambda api, _: imported(api, {"title": "Imported"}, FILE)),
    "import of a new language": (None, lambda api, _: imported(api, {"title": "Titre"}, FILE, "fr")),
    "undo": (
        lambda api: imported(api, {"title": "Imported"}, FILE)["operationId"],
        lambda api, operation_id: ok(api.post("/history/revert", {"operationId": operation_id})),
    ),
    "file records": (None, lambda api, _: api.create_files(FILE, "fr")),
    "file rename": (None, lambda api, _: ok(api.patch("/files", {"fileName": FILE, "newFileName": "start"}))),
    "file delete": (None, lambda api, _: ok(api.delete("/files", {"fileName": FILE}))),
    "file delete of one language": (
        None,
        lambda api, _: ok(api.delete("/files", {"fileName": FILE, "languageCode": "de"})),
    ),
    "language added": (None, lambda api, _: api.add_language("fr")),
    "language renamed": (
        None,
        lambda api, _: ok(api.patch("/languages", {"currentCode": "de", "name": "Deutsch (DE)"})),
    ),
    "language code changed": (
        None,
        lambda api, _: ok(api.patch("/languages", {"currentCode": "de", "code": "de-AT"})),
    ),
    "language deleted": (None, lambda api, _: ok(owner(api).delete("/languages", {"code": "de"}))),
    "source language": (
        None,
        lambda api, _: ok(api.owner.put(f"/api/projects/{api.project_id}", json={"source_language": "de"})),
    ),
    "project name": (
        None,
        lambda api, _: ok(api.owner.put(f"/api/projects/{api.project_id}", json={"name": "Renamed"})),
    ),
    "link set": (
        _second_project,
        lambda api, base: link_projects(api.owner, api.project_id, base.project_id, "en", "de"),
    ),
    "linked project's data": (
        lambda api: link_projects(api.owner, api.project_id, _second_project(api).project_id, "en", "de")[
            "linked_project_id"
        ],
        lambda api, base_id: ProjectApi(api.owner, base_id).set_values(
            "title", {"en": "Changed"}, file_name=FILE
        ),
    ),
    "linked project's other file": (
        lambda api: link_projects(api.owner, api.project_id, _second_project(api).project_id, "en", "de")[
            "linked_project_id"
        ],
        lambda api, base_id: ProjectApi(api.owner, base_id).set_values("x", {"en": "X"}, file_name=OTHER),
    ),
    "link removed": (
        lambda api: link_projects(api.owner, api.project_id, _second_project(api).project_id, "en", "de"),
        lambda api, _: link_projects(api.owner, api.project_id, None, None, None),
    ),
    "linked project deleted": (
        lambda api: link_projects(api.owner, api.project_id, _second_project(api).project_id, "en", "de")[
            "linked_project_id"
        ],
        lambda api, base_id: ok(api.owner.delete(f"/api/projects/{base_id}", json={"confirm_name": "Base"})),
    ),
}


@pytest.mark.parametrize("prepare, write", WRITES_TO_FILE.values(), ids=WRITES_TO_FILE.keys())
def test_a_write_to_the_file_or_to_what_it_shares_changes_its_etag(api, prepare, write):
    prepared = prepare(api) if prepare else None
    etag = etag_of(api)
    assert revalidated(api, etag) == 304
    write(api, prepared)
    assert revalidated(api, etag) == 200
    assert etag_of(api) != etag


def test_a_write_to_the_file_shows_in_its_export_at_once(api):
    assert api.export(fileName=FILE)["en"][FILE]["title"] == "Title"
    api.set_values("title", {"en": "New title"}, file_name=FILE)
    assert api.export(fileName=FILE)["en"][FILE]["title"] == "New title"


def test_a_file_created_after_its_export_was_read_changes_that_export(api):
    etag = etag_of(api, "later")
    api.create("key", {"en": "Value"}, file_name="later")
    assert revalidated(api, etag, "later") == 200
    assert api.export(fileName="later") == {"en": {"later": {"key": "Value"}}}


def test_a_file_renamed_onto_a_name_changes_that_name_s_export(api):
    etag = etag_of(api, "renamed")
    ok(api.patch("/files", {"fileName": OTHER, "newFileName": "renamed"}))
    assert revalidated(api, etag, "renamed") == 200
    assert api.export(fileName="renamed") == {"en": {"renamed": {"menu": "Menu"}}}
