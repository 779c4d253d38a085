"""API keys' expiry, language limit and last address: set when a key is created, answered
when keys are listed, honoured on every request (the direct PATCH path too)."""

from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import update

from loko.apikeys.models import ApiKey
from loko.database import unit_of_work, utcnow
from loko.extensions import db
from tests.factories import CallerClient
from tests.translation_factories import ProjectApi, project_api


@pytest.fixture
def api(app) -> ProjectApi:
    api = project_api(app)
    api.create_files("common", "en", "de")
    return api


def create_key(api: ProjectApi, **body):
    return api.owner.post(api.url("/keys"), json={"name": "deploy", **body})


def listed(api: ProjectApi) -> dict:
    return {item["name"]: item for item in api.owner.get(api.url("/keys")).json["keys"]}


def expire(app, key_id: str, at: datetime) -> None:
    with app.app_context(), unit_of_work():
        db.session.execute(update(ApiKey).where(ApiKey.id == key_id).values(expires_at=at))


def patch(client, api: ProjectApi, code="en", value="Hello"):
    body = {"key": "greeting", "fileName": "common", "updates": {code: {"value": value}}}
    return client.patch(api.url("/translations"), json=body)


def test_a_key_is_created_with_an_expiry(api):
    response = create_key(api, expiresAt="2999-01-31T12:00:00+00:00")
    assert response.status_code == 201, response.json
    assert response.json["apiKey"]["expiresAt"] == "2999-01-31T12:00:00+00:00"


def test_a_key_without_an_expiry_never_expires(api):
    response = create_key(api)
    assert response.json["apiKey"]["expiresAt"] is None


def test_an_expiry_in_the_past_is_refused(api):
    response = create_key(api, expiresAt="2001-01-01T00:00:00+00:00")
    assert response.status_code == 400
    assert response.json["error"] == "expiresAt: must be in the future."


def test_an_expiry_without_a_time_zone_is_refused(api):
    response = create_key(api, expiresAt="2999-01-01T00:00:00")
    assert response.status_code == 400
    assert response.json["error"].startswith("expiresAt:")


def test_a_read_key_is_not_limited_to_languages(api):
    response = create_key(api, scope="read", languages=["de"])
    assert response.status_code == 400
    assert response.json["error"].startswith("languages:")


def test_a_key_s_languages_are_languages_of_the_project(api):
    response = create_key(api, languages=["fr"])
    assert response.status_code == 400
    assert response.json["error"] == "languages.0: 'fr' is not a language of this project."


def test_an_expired_key_answers_401_saying_when_it_expired(app, api):
    expire(app, api.key_id, datetime(2026, 1, 2, 3, 4, tzinfo=UTC))
    response = api.client.get(api.url("/languages"))
    assert response.status_code == 401
    assert response.json == {"error": "API key expired on 2026-01-02 03:04 UTC."}


def test_an_expired_key_s_patch_is_refused_on_the_direct_path_too(app, api):
    patch(api.client, api)  # the key's use is noted, so the next PATCH may go direct
    expire(app, api.key_id, utcnow() - timedelta(seconds=1))
    response = patch(api.client, api, value="Too late")
    assert response.status_code == 401
    assert response.json["error"].startswith("API key expired on ")
    assert api.as_client(api.owner).export()["en"]["common"]["greeting"] == "Hello"


def test_a_key_expiring_later_works(app, api):
    expire(app, api.key_id, utcnow() + timedelta(days=1))
    assert api.client.get(api.url("/languages")).status_code == 200


def test_the_list_says_whether_a_key_expired(app, api):
    expire(app, api.key_id, utcnow() - timedelta(days=1))
    assert listed(api)["ci"]["expired"] is True


def test_the_last_use_is_noted_with_the_client_address(app, api):
    client = CallerClient(app, api.credentials)
    client.client.environ_base["REMOTE_ADDR"] = "203.0.113.7"
    with app.app_context(), unit_of_work():
        db.session.execute(update(ApiKey).where(ApiKey.id == api.key_id).values(last_used_at=None))
    assert client.get(api.url("/languages")).status_code == 200
    item = listed(api)["ci"]
    assert item["lastUsedFrom"] == "203.0.113.7"
    assert item["last_used_at"] is not None


def test_a_limited_key_s_patch_in_its_language_is_written(app, api):
    key = create_key(api, languages=["de"]).json["key"]
    client = CallerClient(app, {"bearer": key})
    api.client.patch(
        api.url("/translations"),
        json={"key": "greeting", "fileName": "common", "updates": {"en": {"value": "Hello"}}},
    )
    assert patch(client, api, "de", "Hallo").status_code == 200
    assert patch(client, api, "de", "Servus").status_code == 200  # its use noted: a direct try
    assert api.export()["de"]["common"]["greeting"] == "Servus"


def test_a_limited_key_s_patch_in_another_language_is_refused_every_time(app, api):
    key = create_key(api, languages=["de"]).json["key"]
    client = CallerClient(app, {"bearer": key})
    api.set_values("greeting", {"en": "Hello"})
    for _ in range(2):  # the second, with its use noted, could have gone the direct way
        response = patch(client, api, "en", "Hi")
        assert response.status_code == 403
        assert response.json["error"] == "language: you may not edit en in this project."
