"""Releases (/api/projects/{id}/releases): named moments, exported by name (and never
changing afterwards), compared with each other or with now, validated; and the string freeze,
which keeps the source texts for the project's admins while it holds."""

from datetime import UTC, datetime, timedelta

import orjson
import pytest

from loko.formats.registry import FORMAT_NAMES
from tests.releases.test_point_in_time import export_of, import_json, now
from tests.translation_factories import ProjectApi, project_api


@pytest.fixture
def api(app) -> ProjectApi:
    api = project_api(app)
    api.add_language("en")
    api.add_language("de")
    return api


def create(api: ProjectApi, status: int = 201, client=None, **body) -> dict:
    response = (client or api.client).post(api.url("/releases"), json=body)
    assert response.status_code == status, response.json
    return response.json


def compare(api: ProjectApi, name: str, **params) -> dict:
    response = api.get(f"/releases/{name}/compare", **params)
    assert response.status_code == 200, response.json
    return response.json


def test_a_release_names_now_and_is_listed(api):
    release = create(api, name="v1.0", description="First")["release"]
    assert release["name"] == "v1.0"
    assert release["description"] == "First"
    assert release["frozen"] is False
    assert release["createdBy"]["type"] == "api_key"
    listed = api.get("/releases").json["releases"]
    assert [item["name"] for item in listed] == ["v1.0"]
    assert api.get("/releases/v1.0").json["release"]["id"] == release["id"]


def test_a_release_export_never_changes_afterwards(api):
    import_json(api, "en", "app", {"a": "A", "b": "B"})
    api.upsert("de", {"a": "A-de"}, file_name="app")
    create(api, name="v1")
    taken = {format: export_of(api, format) for format in FORMAT_NAMES}
    etag = api.get("/translations", release="v1").headers["ETag"]
    import_json(api, "en", "app", {"a": "changed", "c": "C"})
    api.bulk_delete(["b"], file_name="app")
    response = api.client.patch(api.url("/files"), json={"fileName": "app", "newFileName": "main"})
    assert response.status_code == 200
    for format in FORMAT_NAMES:
        assert export_of(api, format, release="v1") == taken[format], format
    assert api.get("/translations", release="v1").headers["ETag"] == etag


def test_a_release_of_a_past_instant_or_operation(api):
    operation_id = import_json(api, "en", "app", {"a": "A"})
    instant = now()
    import_json(api, "en", "app", {"a": "B"})
    create(api, name="by-time", asOf=instant)
    create(api, name="by-operation", asOf=operation_id)
    expected = {"en": {"app": {"a": "A"}}}
    assert orjson.loads(export_of(api, "json", release="by-time")) == expected
    assert orjson.loads(export_of(api, "json", release="by-operation")) == expected
    assert api.get("/releases/by-operation").json["release"]["operationId"] == operation_id


def test_an_unknown_release_export_is_a_404_naming_it(api):
    response = api.get("/translations", release="v9")
    assert response.status_code == 404
    assert response.json["error"].startswith("release:")


def test_a_release_and_an_instant_at_once_are_a_400(api):
    create(api, name="v1")
    response = api.get("/translations", release="v1", asOf=now())
    assert response.status_code == 400
    assert response.json["error"].startswith("asOf:")


def test_a_release_name_is_unique_in_its_project(app, api):
    create(api, name="v1")
    assert create(api, 409, name="v1")["error"].startswith("name:")
    other = project_api(app)
    create(other, name="v1")


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({}, "name"),
        ({"name": ""}, "name"),
        ({"name": "-v1"}, "name"),
        ({"name": "v 1"}, "name"),
        ({"name": "v" * 65}, "name"),
        ({"name": "v1", "asOf": "2999-01-01T00:00:00Z"}, "asOf"),
        ({"name": "v1", "asOf": "2000-01-01T00:00:00Z"}, "asOf"),
        ({"name": "v1", "asOf": "not-an-operation"}, "asOf"),
        ({"name": "v1", "freezeFrom": "soon"}, "freezeFrom"),
        (
            {"name": "v1", "freezeFrom": "2026-03-02T00:00:00Z", "freezeUntil": "2026-03-01T00:00:00Z"},
            "freezeUntil",
        ),
        ({"name": "v1", "extra": 1}, "extra"),
    ],
)
def test_bad_input_is_a_400_naming_the_field(api, body, field):
    response = create(api, 400, **body)
    assert field in response["error"] or field in str(response.get("details")), response


def test_a_deleted_release_is_gone_and_its_name_free(api):
    create(api, name="v1")
    response = api.client.delete(api.url("/releases/v1"))
    assert response.status_code == 200
    assert api.get("/releases/v1").status_code == 404
    create(api, name="v1")


def test_deleting_an_unknown_release_is_a_404(api):
    response = api.client.delete(api.url("/releases/v9"))
    assert response.status_code == 404
    assert response.json["error"].startswith("name:")


def test_compare_two_releases_per_key_and_language(api):
    import_json(api, "en", "app", {"a": "A", "b": "B", "c": "C"})
    api.upsert("de", {"a": "A-de", "b": "B-de"}, file_name="app")
    create(api, name="v1")
    api.set_values("a", {"en": "A2"}, file_name="app")
    api.bulk_delete(["b"], file_name="app")
    api.upsert("de", {"c": "C-de"}, file_name="app")
    api.create("d", {"en": "D"}, file_name="app")
    create(api, name="v2")
    result = compare(api, "v1", **{"with": "v2"})
    assert result["from"]["release"] == "v1" and result["to"]["release"] == "v2"
    assert result["keys"]["added"] == [{"fileName": "app", "key": "d"}]
    assert result["keys"]["removed"] == [{"fileName": "app", "key": "b"}]
    en, de = result["languages"]["en"], result["languages"]["de"]
    assert en["changed"] == [{"fileName": "app", "key": "a", "old": "A", "new": "A2"}]
    assert en["added"] == [{"fileName": "app", "key": "d", "old": None, "new": "D"}]
    assert en["removed"] == [{"fileName": "app", "key": "b", "old": "B", "new": None}]
    assert de["added"] == [{"fileName": "app", "key": "c", "old": None, "new": "C-de"}]
    assert de["counts"] == {"added": 1, "removed": 1, "changed": 0}
    assert result["truncated"] is False


def test_compare_a_release_with_now(api):
    import_json(api, "en", "app", {"a": "A"})
    create(api, name="v1")
    assert compare(api, "v1")["languages"] == {}
    api.set_values("a", {"en": "B"}, file_name="app")
    result = compare(api, "v1")
    assert result["to"] == {"release": None, "at": None}
    assert result["languages"]["en"]["changed"] == [{"fileName": "app", "key": "a", "old": "A", "new": "B"}]


def test_compare_with_an_unknown_release_is_a_404_naming_with(api):
    create(api, name="v1")
    response = api.get("/releases/v1/compare", **{"with": "v9"})
    assert response.status_code == 404
    assert response.json["error"].startswith("with:")


# The string freeze


def _source(api: ProjectApi, code: str = "en") -> None:
    response = api.owner.put(api.url(), json={"source_language": code})
    assert response.status_code == 200, response.json


def _frozen(api: ProjectApi, **body) -> dict:
    started = (datetime.now(UTC) - timedelta(minutes=1)).isoformat()
    return create(api, name="v1", freezeFrom=started, **body)["release"]


def test_a_freeze_keeps_the_source_texts_from_a_key(api):
    _source(api)
    import_json(api, "en", "app", {"a": "A"})
    assert _frozen(api)["frozen"] is True
    response = api.bulk_upsert_request("en", {"a": "changed"}, file_name="app")
    assert response.status_code == 403
    assert response.json["error"].startswith("language:")
    assert "v1" in response.json["error"]
    assert orjson.loads(export_of(api, "json")) == {"en": {"app": {"a": "A"}}}


def test_a_freeze_keeps_a_single_write_from_the_source_text(api):
    _source(api)
    import_json(api, "en", "app", {"a": "A"})
    _frozen(api)
    updates = {"en": {"value": "changed"}}
    response = api.patch("/translations", {"key": "a", "fileName": "app", "updates": updates})
    assert response.status_code == 403
    assert response.json["error"].startswith("language:")
    assert orjson.loads(export_of(api, "json")) == {"en": {"app": {"a": "A"}}}


def test_a_freeze_leaves_the_other_languages_writable(api):
    _source(api)
    import_json(api, "en", "app", {"a": "A"})
    _frozen(api)
    api.upsert("de", {"a": "A-de"}, file_name="app")


@pytest.mark.parametrize(
    "write",
    ["import", "patch", "create", "bulk-upsert", "language-version-delete"],
)
def test_every_source_write_path_is_refused_while_frozen(api, write):
    _source(api)
    import_json(api, "en", "app", {"a": "A"})
    _frozen(api)
    if write == "import":
        response = api.client.post(
            api.url("/import"),
            data=orjson.dumps({"a": "B"}),
            query_string={"format": "json", "language": "en", "fileName": "app"},
            headers={"Content-Type": "application/octet-stream"},
        )
    elif write == "patch":
        response = api.patch(
            "/translations", {"key": "a", "fileName": "app", "updates": {"en": {"value": "B"}}}
        )
    elif write == "create":
        response = api.post("/translations", {"key": "new", "fileName": "app", "values": {"en": "New"}})
    elif write == "bulk-upsert":
        response = api.bulk_upsert_request("en", {"b": "B"}, file_name="app")
    else:
        response = api.delete("/files", {"fileName": "app", "languageCode": "en"})
    assert response.status_code == 403, response.json
    assert response.json["error"].startswith("language:")
    assert orjson.loads(export_of(api, "json")) == {"en": {"app": {"a": "A"}}}


def test_a_project_admin_changes_frozen_source_texts(api):
    _source(api)
    import_json(api, "en", "app", {"a": "A"})
    _frozen(api)
    owner = api.as_client(api.owner)
    owner.set_values("a", {"en": "B"}, file_name="app")


def test_a_freeze_that_ended_or_has_not_begun_holds_nothing(api):
    _source(api)
    import_json(api, "en", "app", {"a": "A"})
    past = datetime.now(UTC) - timedelta(days=2)
    create(api, name="old", freezeFrom=past.isoformat(), freezeUntil=(past + timedelta(days=1)).isoformat())
    create(api, name="later", freezeFrom=(datetime.now(UTC) + timedelta(days=1)).isoformat())
    api.upsert("en", {"a": "B"}, file_name="app")


def test_deleting_the_release_ends_its_freeze(api):
    _source(api)
    import_json(api, "en", "app", {"a": "A"})
    _frozen(api)
    assert api.client.delete(api.url("/releases/v1")).status_code == 200
    api.upsert("en", {"a": "B"}, file_name="app")
