"""A single PATCH by an API key of the project is written before Flask builds a request (on
SQLite), with the same answer and the same effects as the handler's; everything unusual is
answered by the handler itself."""

import pytest
from sqlalchemy import select
from werkzeug.test import Client

from loko.apikeys.models import ApiKey
from loko.extensions import db
from loko.translations import direct
from tests.api.test_export_revalidation import early_answers
from tests.factories import CallerClient, make_key
from tests.translation_factories import ProjectApi, project_api


@pytest.fixture
def api(app) -> ProjectApi:
    with app.app_context():
        if db.engine.dialect.name != "sqlite":
            pytest.skip("the direct write path is SQLite's; PostgreSQL's PATCH is the handler's")
    api = project_api(app)
    api.create_files("common", "en", "de")  # the key's first use is noted here, by the handler
    return api


@pytest.fixture
def flask_calls(app) -> list[str]:
    """The paths of the PATCH requests that reached Flask (past both early answers)."""
    calls, direct = [], early_answers(app).wsgi_app
    flask_app = direct.wsgi_app

    def recording(environ, start_response):
        if environ["REQUEST_METHOD"] == "PATCH":
            calls.append(environ["PATH_INFO"])
        return flask_app(environ, start_response)

    direct.wsgi_app = recording
    return calls


def patch(api: ProjectApi, updates: dict, key: str = "greeting", client=None):
    client = client or api.client
    body = {"key": key, "fileName": "common", "updates": updates}
    return client.patch(api.url("/translations"), json=body)


def test_a_patch_by_api_key_is_written_without_flask(api, flask_calls):
    response = patch(api, {"en": {"value": "Hello"}, "de": {"value": "Hallo"}})
    assert response.status_code == 200
    assert flask_calls == []
    assert api.export()["de"]["common"]["greeting"] == "Hallo"


def test_the_direct_answer_is_the_handlers_answer(app, api, flask_calls):
    direct = patch(api, {"en": {"value": "Hello"}}, key="one")
    flask_app = early_answers(app).wsgi_app.wsgi_app
    handler = Client(flask_app).patch(
        api.url("/translations"),
        json={"key": "two", "fileName": "common", "updates": {"en": {"value": "Hello"}}},
        headers=api.client.headers,
    )
    assert flask_calls == [api.url("/translations")]  # only the handler's
    assert (direct.status, list(direct.headers.items())) == (handler.status, list(handler.headers.items()))
    for response in (direct, handler):
        result = response.json["results"]["en"]
        assert set(result) == {"id", "id_file", "updated"} and result["updated"] is True


def test_a_direct_write_records_history_with_the_key_as_actor(api, flask_calls):
    patch(api, {"de": {"value": "Hallo"}})
    patch(api, {"de": {"value": "Servus"}})
    entries = api.history(key="greeting")
    assert [(e["action"], e["old_value"], e["new_value"]) for e in entries] == [
        ("updated", "Hallo", "Servus"),
        ("created", None, "Hallo"),
    ]
    assert {(e["actor"]["type"], e["actor"]["name"]) for e in entries} == {("api_key", "ci")}
    assert flask_calls == []


def test_an_unchanged_value_is_reported_not_updated_and_recorded_nowhere(api, flask_calls):
    patch(api, {"de": {"value": "Hallo"}})
    response = patch(api, {"de": {"value": "Hallo"}})
    assert response.json["results"]["de"]["updated"] is False
    assert len(api.history(key="greeting")) == 1
    assert flask_calls == []


def test_a_direct_write_changes_the_export_etag(api, flask_calls):
    before = api.export_response().headers["ETag"]
    patch(api, {"de": {"value": "Hallo"}})
    assert api.export_response().headers["ETag"] != before


def test_a_language_the_project_lacks_is_added_by_the_handler(api, flask_calls):
    response = patch(api, {"fr": {"value": "Bonjour"}})
    assert response.status_code == 200
    assert flask_calls == [api.url("/translations")]
    assert "fr" in api.codes()
    assert [e["new_value"] for e in api.history(key="greeting")] == ["Bonjour"]


def test_a_stale_expected_value_is_the_handlers_conflict_and_writes_nothing(api, flask_calls):
    patch(api, {"de": {"value": "Guten Tag"}})
    response = patch(api, {"de": {"value": "Servus", "expected": "Hallo"}, "en": {"value": "Hi"}})
    assert response.status_code == 409
    assert response.json["details"] == {"conflicts": {"de": {"expected": "Hallo", "current": "Guten Tag"}}}
    assert flask_calls == [api.url("/translations")]
    assert api.export()["de"]["common"] == {"greeting": "Guten Tag"}
    assert "greeting" not in api.export().get("en", {}).get("common", {})
    assert len(api.history(key="greeting")) == 1


def test_a_body_the_schema_refuses_is_the_handlers_400(api, flask_calls):
    response = patch(api, {"de": {"value": "x" * 8193}})
    assert response.status_code == 400
    assert "updates.de.value" in response.json["error"]
    assert flask_calls == [api.url("/translations")]


def test_a_read_key_is_the_handlers_403(app, api, flask_calls):
    with app.app_context():
        from loko.projects.models import Project

        key, _ = make_key(db.session.get(Project, api.project_id), scope="read", name="reader")
    response = patch(api, {"de": {"value": "Hallo"}}, client=CallerClient(app, {"bearer": key}))
    assert response.status_code == 403
    assert "greeting" not in api.export().get("de", {}).get("common", {})


def test_a_revoked_key_is_the_handlers_401(app, api, flask_calls):
    assert api.owner.delete(f"/api/projects/{api.project_id}/keys/{api.key_id}").status_code in (200, 204)
    response = patch(api, {"de": {"value": "Hallo"}})
    assert response.status_code == 401
    assert flask_calls == [api.url("/translations")]


def test_a_key_of_another_project_writes_nothing_here(app, api, flask_calls):
    other = project_api(app)
    response = patch(api, {"de": {"value": "Hallo"}}, client=other.client)
    assert response.status_code in (403, 404)
    assert flask_calls == [api.url("/translations")]
    assert "greeting" not in api.export().get("de", {}).get("common", {})


def test_the_first_use_of_a_key_is_noted_by_the_handler(app, api, flask_calls):
    with app.app_context():
        from loko.projects.models import Project

        key, key_id = make_key(db.session.get(Project, api.project_id), name="fresh")
    response = patch(api, {"de": {"value": "Hallo"}}, client=CallerClient(app, {"bearer": key}))
    assert response.status_code == 200
    assert flask_calls == [api.url("/translations")]
    with app.app_context():
        assert db.session.execute(select(ApiKey.last_used_at).where(ApiKey.id == key_id)).scalar() is not None


def test_a_key_revoked_after_a_direct_write_is_refused_at_once(api, flask_calls):
    assert patch(api, {"de": {"value": "Hallo"}}).status_code == 200
    assert api.owner.delete(f"/api/projects/{api.project_id}/keys/{api.key_id}").status_code == 200
    assert patch(api, {"de": {"value": "Servus"}}).status_code == 401
    assert api.owner.get(api.url("/translations")).json["de"]["common"]["greeting"] == "Hallo"


def test_direct_writes_in_a_row_look_their_key_up_once(api, flask_calls, monkeypatch):
    looked_up = []
    lookup = direct.api_key_lookup
    monkeypatch.setattr(direct, "api_key_lookup", lambda key: looked_up.append(key) or lookup(key))
    for value in ("Hallo", "Servus", "Moin"):
        assert patch(api, {"de": {"value": value}}).status_code == 200
    assert len(looked_up) == 1
    assert flask_calls == []


def test_in_debug_mode_the_handler_answers_with_its_indented_json(app, api, flask_calls):
    app.debug = True
    response = patch(api, {"de": {"value": "Hallo"}})
    assert response.status_code == 200
    assert flask_calls == [api.url("/translations")]
    assert response.data.startswith(b"{\n")


def test_a_webhook_added_after_direct_writes_sends_the_next_write_through_the_handler(api, flask_calls):
    assert patch(api, {"en": {"value": "Hello"}}).status_code == 200
    assert patch(api, {"en": {"value": "Hello again"}}).status_code == 200
    assert flask_calls == []
    hook = {"url": "https://hooks.example.test/loko", "events": ["values.changed"]}
    assert api.owner.post(api.url("/webhooks"), json=hook).status_code == 201
    assert patch(api, {"en": {"value": "Hello there"}}).status_code == 200
    assert flask_calls == [api.url("/translations")]


def test_a_file_deleted_after_direct_writes_is_written_again_with_new_records(api, flask_calls):
    first = patch(api, {"de": {"value": "Hallo"}}).json["results"]["de"]["id_file"]
    assert patch(api, {"de": {"value": "Servus"}}).status_code == 200
    assert flask_calls == []
    gone = api.owner.delete(api.url("/files"), json={"fileName": "common", "permanent": True})
    assert gone.status_code == 200
    response = patch(api, {"de": {"value": "Moin"}})
    assert response.status_code == 200
    assert flask_calls == [api.url("/translations")]  # the file's records are the handler's to add
    assert response.json["results"]["de"]["id_file"] != first
    assert [f["id"] for f in api.files(fileName="common") if f["language"] == "de"] == [
        response.json["results"]["de"]["id_file"]
    ]


def test_direct_writes_in_a_row_look_their_files_records_up_once(api, flask_calls, monkeypatch):
    looked_up = []
    lookup = direct.file_record_ids
    monkeypatch.setattr(direct, "file_record_ids", lambda *args: looked_up.append(args[:3]) or lookup(*args))
    for value in ("Hallo", "Servus", "Moin"):
        assert patch(api, {"de": {"value": value}}).status_code == 200
    assert len(looked_up) == 1
    assert flask_calls == []
