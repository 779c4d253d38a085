"""Point-in-time exports (``asOf``): at 20 moments of a project's life (imports, bulk upserts,
deletes to the trash and for good, restores, undos, a file rename, a language version's
delete) every format's export is taken as it is then; afterwards, the export ``asOf`` each
moment is the same, byte for byte, in every format of the registry, and its ETag is stable."""

import random
from datetime import UTC, datetime, timedelta

import orjson
import pytest

from loko.formats.registry import FORMAT_NAMES
from tests.translation_factories import ProjectApi, project_api

MOMENTS = 20


@pytest.fixture
def api(app) -> ProjectApi:
    return project_api(app)


def now() -> str:
    return datetime.now(UTC).isoformat()


def export_of(api: ProjectApi, format: str, **params) -> bytes:
    """The whole project in ``format``: the JSON document, or the ZIP of the other formats."""
    if format == "json":
        response = api.get("/translations", **params)
    else:
        response = api.get("/translations", format=format, zip="true", **params)
    assert response.status_code == 200, (format, response.json)
    return response.data


def import_json(api: ProjectApi, language: str, file_name: str, values: dict, **options) -> str:
    response = api.client.post(
        api.url("/import"),
        data=orjson.dumps(values),
        query_string={"format": "json", "language": language, "fileName": file_name, **options},
        headers={"Content-Type": "application/octet-stream"},
    )
    assert response.status_code == 200, response.json
    return response.json["operationId"]


def undo(api: ProjectApi, operation_id: str) -> str:
    response = api.post("/history/revert", {"operationId": operation_id, "skipChanged": True})
    assert response.status_code == 200, response.json
    return response.json["operationId"]


def scenario(api: ProjectApi):
    """The project's life, step by step: yields after each step."""
    for code in ("en", "de", "fr"):
        api.add_language(code)
    import_json(api, "en", "app", {"greeting": "Hello", "bye": "Bye", "menu_open": "Open"})
    yield
    api.upsert("de", {"greeting": "Hallo", "bye": "Tschüss", "menu_open": "Öffnen"}, file_name="app")
    yield
    api.upsert("fr", {"greeting": "Bonjour"}, file_name="app")
    yield
    changed = import_json(api, "en", "app", {"greeting": "Hello!", "new_key": "New", "bye": "Bye"})
    yield
    api.bulk_delete(["bye"], file_name="app")
    yield
    trashed = api.trash_list()["translations"]
    api.restore(next(item["id"] for item in trashed if item["key"] == "bye"))
    yield
    api.set_values("greeting", {"en": "Hi", "de": "Hi du"}, file_name="app")
    yield
    api.create("not_found", {"en": "Not found", "de": "Nicht gefunden"}, file_name="errors")
    yield
    undo(api, changed)
    yield
    response = api.client.patch(api.url("/files"), json={"fileName": "errors", "newFileName": "messages"})
    assert response.status_code == 200, response.json
    yield
    api.upsert("fr", {"not_found": "Introuvable", "offline": "Hors ligne"}, file_name="messages")
    yield
    api.bulk_delete(["menu_open"], file_name="app", permanent=True)
    yield
    response = api.bulk_upsert_request("de", {"offline": "Offline", "retry": "Nochmal"}, file_name="messages")
    assert response.status_code == 200, response.json
    upserted = api.get("/operations", limit=1).json["operations"][0]["id"]
    yield
    response = api.delete("/files", {"fileName": "messages", "languageCode": "fr"})
    assert response.status_code == 200, response.json
    yield
    undo(api, upserted)
    yield
    api.bulk_delete(["greeting"], file_name="app")
    yield
    import_json(api, "de", "app", {"bye": "Ciao", "later": "Bis später"})
    yield
    api.set_values("later", {"en": "Later", "fr": "Plus tard"}, file_name="app")
    yield
    response = api.client.patch(api.url("/files"), json={"fileName": "messages", "newFileName": "errors"})
    assert response.status_code == 200, response.json
    yield
    api.create("title", {"en": "Title", "fr": "Titre"}, file_name="errors")
    yield


def lived(api: ProjectApi, format: str) -> list[tuple[str, bytes]]:
    """``[(instant, bytes)]``: the export in ``format`` at a random instant of each moment
    (after a step, while its export was taken)."""
    chosen = random.Random(format)
    moments = []
    for _ in scenario(api):
        begins = datetime.now(UTC)
        exported = export_of(api, format)
        ends = datetime.now(UTC)
        instant = begins + (ends - begins) * chosen.random()
        moments.append((instant.isoformat(), exported))
    assert len(moments) == MOMENTS
    return moments


@pytest.mark.parametrize("format", FORMAT_NAMES)
def test_each_moment_exports_later_as_it_was_then(api, format):
    for index, (instant, exported) in enumerate(lived(api, format)):
        assert export_of(api, format, asOf=instant) == exported, index


def test_an_operation_names_the_moment_right_after_it(api):
    api.add_language("en")
    operation_id = import_json(api, "en", "app", {"a": "A"})
    after = export_of(api, "json")
    import_json(api, "en", "app", {"a": "B", "b": "C"})
    assert export_of(api, "json", asOf=operation_id) == after


def test_a_past_export_has_a_stable_etag_and_answers_304(api):
    api.add_language("en")
    import_json(api, "en", "app", {"a": "A"})
    instant = now()
    first = api.get("/translations", asOf=instant)
    import_json(api, "en", "app", {"a": "B"})
    second = api.get("/translations", asOf=instant)
    assert first.headers["ETag"] == second.headers["ETag"]
    assert first.data == second.data
    assert first.headers["ETag"] != api.get("/translations").headers["ETag"]
    again = api.client.get(
        api.url("/translations"),
        query_string={"asOf": instant},
        headers={"If-None-Match": first.headers["ETag"]},
    )
    assert again.status_code == 304


def test_the_present_etag_does_not_answer_for_a_past_state(api):
    api.add_language("en")
    import_json(api, "en", "app", {"a": "A"})
    instant = now()
    import_json(api, "en", "app", {"a": "B"})
    present = api.get("/translations").headers["ETag"]
    response = api.client.get(
        api.url("/translations"), query_string={"asOf": instant}, headers={"If-None-Match": present}
    )
    assert response.status_code == 200
    assert orjson.loads(response.data) == {"en": {"app": {"a": "A"}}}


def test_a_single_file_export_reads_the_past_too(api):
    api.add_language("en")
    import_json(api, "en", "app", {"a": "A"})
    instant = now()
    before = api.get("/translations", format="po", language="en", fileName="app").data
    import_json(api, "en", "app", {"a": "B"})
    assert api.get("/translations", format="po", language="en", fileName="app", asOf=instant).data == before


@pytest.mark.parametrize(
    ("as_of", "message"),
    [
        ("2999-01-01T00:00:00Z", "in the future"),
        ("2000-01-01T00:00:00Z", "did not exist yet"),
        ("2026-01-01T00:00:00", "offset"),
        ("01a21555-f386-7fc3-a2fa-78d51a51a62d", "operation"),
        ("yesterday", "operation"),
    ],
)
def test_a_bad_as_of_is_a_400_naming_it(api, as_of, message):
    api.add_language("en")
    response = api.get("/translations", asOf=as_of)
    assert response.status_code == 400, response.json
    assert response.json["error"].startswith("asOf:")
    assert message in response.json["error"]


def test_reviewed_values_only_cannot_be_read_as_of_a_past_moment(api):
    api.add_language("en")
    response = api.get("/translations", asOf=now(), state="reviewed")
    assert response.status_code == 400
    assert response.json["error"].startswith("state:")


def test_an_operation_of_another_project_names_no_moment(app, api):
    other = project_api(app)
    other.add_language("en")
    operation_id = import_json(other, "en", "app", {"a": "A"})
    api.add_language("en")
    response = api.get("/translations", asOf=operation_id)
    assert response.status_code == 400
    assert response.json["error"].startswith("asOf:")


def test_an_instant_before_a_key_was_trashed_shows_it(api):
    api.add_language("en")
    created = api.create("a", {"en": "A"})
    instant = now()
    api.trash(created["id"])
    assert orjson.loads(export_of(api, "json", asOf=instant)) == {"en": {"common": {"a": "A"}}}
    assert orjson.loads(export_of(api, "json")) == {"en": {"common": {}}}


def test_the_history_lists_a_file_rename(api):
    api.add_language("en")
    api.create("a", {"en": "A"}, file_name="old")
    response = api.client.patch(api.url("/files"), json={"fileName": "old", "newFileName": "new"})
    assert response.status_code == 200
    renamed = api.history(action="renamed")
    assert [(entry["key"], entry["fileName"], entry["old_value"]) for entry in renamed] == [
        ("a", "new", "old")
    ]


def test_a_moment_a_week_ago_is_before_the_project(api):
    response = api.get("/translations", asOf=(datetime.now(UTC) - timedelta(days=7)).isoformat())
    assert response.status_code == 400
