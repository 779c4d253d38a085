"""Undo of bulk changes as a whole (POST /history/revert, GET /operations): imports, bulk
deletes, file and language deletes, and ranges of history by actor and time."""

import io
import json
from datetime import UTC, datetime, timedelta

import pytest

from tests.translation_factories import ProjectApi, project_api


@pytest.fixture
def api(app) -> ProjectApi:
    return project_api(app)


@pytest.fixture
def admin(api) -> ProjectApi:
    return api.as_client(api.owner)


def json_file(entries: dict) -> bytes:
    return json.dumps(entries).encode()


def imported(api: ProjectApi, data: bytes, **params) -> dict:
    response = api.client.post(
        api.url("/import"),
        data={"file": (io.BytesIO(data), params.pop("upload", "upload.json"))},
        query_string=params,
        content_type="multipart/form-data",
    )
    assert response.status_code == 200, response.json
    return response.json


def undo(api: ProjectApi, status: int = 200, **body):
    response = api.post("/history/revert", body)
    assert response.status_code == status, response.json
    return response.json


def operations(api: ProjectApi, **params) -> list[dict]:
    response = api.get("/operations", **params)
    assert response.status_code == 200, response.json
    return response.json["operations"]


def test_undo_of_an_import_restores_the_exact_export_from_before_it(api):
    api.upsert("en", {"title": "Title", "gone": "Gone"}, file_name="home")
    api.upsert("de", {"title": "Titel"}, file_name="home")
    before = api.export_response().data
    answer = imported(
        api,
        json_file({"title": "New title", "body": "Body"}),
        fileName="home",
        language="en",
        format="json",
        mode="replace-file",
    )
    assert api.export_response().data != before
    result = undo(api, operationId=answer["operationId"])
    assert result["summary"] == {
        "created": 0,
        "updated": 1,
        "deleted": 0,
        "restored": 1,
        "trashed": 1,
        "languages": [],
        "conflicts": 0,
        "included": 0,
    }
    assert api.export_response().data == before


def test_an_undo_is_recorded_in_the_history_as_an_operation_of_its_own(api):
    api.upsert("en", {"title": "Title"}, file_name="home")
    answer = imported(api, json_file({"title": "New"}), fileName="home", language="en", format="json")
    result = undo(api, operationId=answer["operationId"])
    (entry,) = api.history(operationId=result["operationId"])
    assert (entry["action"], entry["old_value"], entry["new_value"]) == ("updated", "New", "Title")
    (latest, imported_operation) = operations(api)[:2]
    assert latest["kind"] == "undo" and latest["undoable"] is True
    assert imported_operation["undone_by"] == result["operationId"]
    assert imported_operation["undoable"] is False


def test_an_undo_can_itself_be_undone(api):
    api.upsert("en", {"title": "Title"}, file_name="home")
    answer = imported(api, json_file({"title": "New"}), fileName="home", language="en", format="json")
    first = undo(api, operationId=answer["operationId"])
    undo(api, operationId=first["operationId"])
    assert api.export() == {"en": {"home": {"title": "New"}}}


def test_a_dry_run_answers_what_the_undo_would_do_and_writes_nothing(api):
    api.upsert("en", {"title": "Title"}, file_name="home")
    answer = imported(api, json_file({"title": "New"}), fileName="home", language="en", format="json")
    etag = api.export_response().headers["ETag"]
    result = undo(api, operationId=answer["operationId"], dryRun=True)
    assert result["dryRun"] is True and result["operationId"] is None
    assert result["changes"] == [
        {
            "fileName": "home",
            "key": "title",
            "language": "en",
            "action": "updated",
            "old_value": "New",
            "new_value": "Title",
        }
    ]
    assert api.export_response().headers["ETag"] == etag


def test_undo_refuses_with_the_list_of_what_changed_again_since(api):
    api.upsert("en", {"title": "Title", "body": "Body"}, file_name="home")
    answer = imported(
        api, json_file({"title": "New", "body": "New body"}), fileName="home", language="en", format="json"
    )
    api.upsert("en", {"title": "Edited"}, file_name="home")
    response = api.post("/history/revert", {"operationId": answer["operationId"]})
    assert response.status_code == 409
    assert response.json["details"]["conflicts"] == [
        {
            "fileName": "home",
            "key": "title",
            "language": "en",
            "reason": "changed since",
            "expected": "New",
            "current": "Edited",
            "by": None,
            "at": None,
        }
    ]
    assert api.export() == {"en": {"home": {"body": "New body", "title": "Edited"}}}


def test_skip_changed_undoes_the_rest_and_keeps_the_later_edit(api):
    api.upsert("en", {"title": "Title", "body": "Body"}, file_name="home")
    answer = imported(
        api, json_file({"title": "New", "body": "New body"}), fileName="home", language="en", format="json"
    )
    api.upsert("en", {"title": "Edited"}, file_name="home")
    result = undo(api, operationId=answer["operationId"], skipChanged=True)
    assert result["summary"]["conflicts"] == 1
    assert api.export() == {"en": {"home": {"body": "Body", "title": "Edited"}}}


def test_an_operation_is_undone_only_once(api):
    api.upsert("en", {"title": "Title"}, file_name="home")
    answer = imported(api, json_file({"title": "New"}), fileName="home", language="en", format="json")
    undo(api, operationId=answer["operationId"])
    response = api.post("/history/revert", {"operationId": answer["operationId"]})
    assert response.status_code == 409
    assert "already" in response.json["error"]


def test_an_unknown_operation_is_not_found(api):
    response = api.post("/history/revert", {"operationId": "01a21555-f386-7fc3-a2fa-78d51a51a62d"})
    assert response.status_code == 404
    assert "operationId" in response.json["error"]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({}, "operationId"),
        ({"operationId": "x", "actorType": "user"}, "operationId"),
        ({"actorType": "robot"}, "actorType"),
        ({"since": "yesterday"}, "since"),
        ({"since": "2026-01-02T00:00:00Z", "until": "2026-01-01T00:00:00Z"}, "until"),
        ({"actorType": "user", "extra": 1}, "extra"),
    ],
)
def test_an_undo_request_names_what_is_wrong(api, body, field):
    response = api.post("/history/revert", body)
    assert response.status_code == 400
    assert field in response.json["error"]


def test_undo_of_a_bulk_delete_brings_every_key_back_in_one_step(api):
    api.upsert("en", {"a": "A", "b": "B", "c": "C"}, file_name="home")
    api.bulk_delete(["a", "b"], file_name="home")
    (operation,) = operations(api, kind="bulk-delete")
    assert operation["details"]["keys"] == 2
    undo(api, operationId=operation["id"])
    assert api.export() == {"en": {"home": {"a": "A", "b": "B", "c": "C"}}}
    assert api.trash_list()["total"] == 0


def test_undo_of_a_file_delete_restores_its_keys_and_records(api):
    api.upsert("en", {"title": "Title", "body": "Body"}, file_name="home")
    api.upsert("de", {"title": "Titel"}, file_name="home")
    api.upsert("en", {"other": "Other"}, file_name="about")
    before = api.export_response(zip="true").data
    operation_id = api.delete("/files", {"fileName": "home"}).headers["Loko-Operation"]
    (operation,) = operations(api, kind="file-delete")
    assert operation["details"] == {
        "changes": 7,
        "fileName": "home",
        "language": None,
        "keys": 2,
        "values": 3,
        "records": ["de", "en"],
    }
    assert operation["id"] == operation_id and operation["expires_at"]
    undo(api, operationId=operation_id)
    assert api.export_response(zip="true").data == before


def test_undo_of_a_file_language_delete_restores_its_values(api):
    api.upsert("en", {"title": "Title"}, file_name="home")
    api.upsert("de", {"title": "Titel"}, file_name="home")
    before = api.export_response(zip="true").data
    operation_id = api.delete("/files", {"fileName": "home", "languageCode": "de"}).headers["Loko-Operation"]
    undo(api, operationId=operation_id)
    assert api.export_response(zip="true").data == before


def test_undo_of_a_language_delete_restores_every_value_with_its_history(api, admin):
    first = api.create("title", {"en": "Title", "ja": "タイトル"}, file_name="home")
    api.patch("/translations", {"key": "title", "fileName": "home", "updates": {"ja": {"value": "題名"}}})
    api.create("body", {"ja": "本文"}, file_name="about")
    admin.patch("/languages", {"currentCode": "ja", "name": "Nihongo"})
    before = api.export_response(zip="true").data
    operation_id = admin.delete("/languages", {"code": "ja"}).headers["Loko-Operation"]
    assert "ja" not in api.codes()
    result = undo(admin, operationId=operation_id)
    assert result["summary"]["languages"] == ["ja"] and result["summary"]["created"] == 2
    assert api.export_response(zip="true").data == before
    assert {"code": "ja", "name": "Nihongo", "emoji": ""} in api.get("/languages").json["languages"]
    actions = [e["action"] for e in api.history(translationId=first["id"], language="ja")]
    assert actions == ["created", "deleted", "updated", "created"]


def test_undo_of_a_language_delete_needs_a_project_admin(api, admin):
    api.create("title", {"ja": "タイトル"})
    operation_id = admin.delete("/languages", {"code": "ja"}).headers["Loko-Operation"]
    response = api.post("/history/revert", {"operationId": operation_id})
    assert response.status_code == 403
    assert "ja" not in api.codes()


def test_a_permanent_delete_is_listed_but_cannot_be_undone(api):
    api.upsert("en", {"title": "Title"}, file_name="home")
    api.delete("/files", {"fileName": "home", "permanent": True})
    (operation,) = operations(api, kind="file-delete")
    assert (operation["kind"], operation["permanent"], operation["undoable"]) == ("file-delete", True, False)
    response = api.post("/history/revert", {"operationId": operation["id"]})
    assert response.status_code == 409


def test_undo_by_actor_and_time_takes_back_only_what_that_actor_wrote_since(api, admin):
    api.upsert("en", {"title": "Title", "body": "Body"}, file_name="home")
    since = datetime.now(UTC) + timedelta(milliseconds=5)
    while datetime.now(UTC) <= since:
        pass
    api.upsert("en", {"title": "Key title"}, file_name="home")
    api.create("extra", {"en": "Extra"}, file_name="home")
    admin.upsert("en", {"body": "Owner body"}, file_name="home")
    result = undo(admin, actorType="api_key", actorId=api.key_id, since=since.isoformat())
    assert result["summary"]["updated"] == 1 and result["summary"]["trashed"] == 1
    assert api.export() == {"en": {"home": {"body": "Owner body", "title": "Title"}}}


def test_operations_are_listed_newest_first_with_their_actor(api):
    api.upsert("en", {"a": "A"}, file_name="home")
    api.bulk_delete(["a"], file_name="home")
    kinds = [(item["kind"], item["actor"]["type"]) for item in operations(api)]
    assert kinds == [("bulk-delete", "api_key"), ("bulk-upsert", "api_key")]
    assert [item["kind"] for item in operations(api, undoable="true", kind="bulk-delete")] == ["bulk-delete"]


# Imports remove only what the upload speaks for


def test_replacing_a_translation_file_removes_only_its_language_values(api):
    api.upsert("en", {f"k{n}": f"E{n}" for n in range(13)}, file_name="common")  # en is the source
    api.upsert("de", {f"k{n}": f"D{n}" for n in range(12)}, file_name="common")
    dry = imported(
        api,
        json_file({"k0": "D0", "k1": "D1", "k2": "D2"}),
        fileName="common",
        language="de",
        format="json",
        mode="replace-file",
        dryRun="true",
    )
    assert dry["summary"]["trashed"] == 0 and dry["summary"]["removed"] == 9
    assert dry["removed"][0] == {"fileName": "common", "key": "k10", "language": "de", "old": "D10"}
    imported(
        api,
        json_file({"k0": "D0", "k1": "D1", "k2": "D2"}),
        fileName="common",
        language="de",
        format="json",
        mode="replace-file",
    )
    exported = api.export()
    assert len(exported["en"]["common"]) == 13
    assert sorted(exported["de"]["common"]) == ["k0", "k1", "k2"]
    assert api.trash_list()["total"] == 0


def test_replacing_the_source_language_file_trashes_the_keys_it_lacks(api):
    api.upsert("en", {"a": "A", "b": "B", "c": "C"}, file_name="common")  # en is the source
    api.upsert("de", {"a": "A-de", "b": "B-de"}, file_name="common")
    answer = imported(
        api, json_file({"a": "A"}), fileName="common", language="en", format="json", mode="replace-file"
    )
    assert answer["trashed"] == [{"fileName": "common", "key": "b"}, {"fileName": "common", "key": "c"}]
    assert api.export() == {"de": {"common": {"a": "A-de"}}, "en": {"common": {"a": "A"}}}
