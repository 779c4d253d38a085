"""PATCH /translations with ``expected``: a write that only happens if each language's stored
value is still the one the client started from, so that no edit is lost unseen."""

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.factories import CallerClient
from tests.translation_factories import ProjectApi, project_api

THREADS = 6


@pytest.fixture
def api(app) -> ProjectApi:
    api = project_api(app)
    api.add_language("en")
    api.add_language("de")
    return api


def patch(api, updates: dict, key: str = "greeting"):
    return api.patch("/translations", {"key": key, "fileName": "common", "updates": updates})


def test_matching_expected_value_writes(api):
    api.create("greeting", {"de": "Hallo"})
    response = patch(api, {"de": {"value": "Servus", "expected": "Hallo"}})
    assert response.status_code == 200
    assert response.json["results"]["de"]["updated"] is True
    assert api.export()["de"]["common"]["greeting"] == "Servus"


def test_stale_expected_value_is_a_conflict_naming_both_values(api):
    api.create("greeting", {"de": "Guten Tag"})
    response = patch(api, {"de": {"value": "Servus", "expected": "Hallo"}})
    assert response.status_code == 409
    assert "updates.de.expected" in response.json["error"]
    assert response.json["details"] == {"conflicts": {"de": {"expected": "Hallo", "current": "Guten Tag"}}}


def test_conflict_writes_nothing_and_records_no_history(api):
    api.create("greeting", {"de": "Guten Tag"})
    history_before = api.history()
    response = patch(api, {"de": {"value": "Servus", "expected": "Hallo"}, "fr": {"value": "Salut"}})
    assert response.status_code == 409
    assert api.export() == {"de": {"common": {"greeting": "Guten Tag"}}}
    assert api.history() == history_before
    assert "fr" not in api.codes()


def test_expected_null_on_a_missing_value_creates_it(api):
    api.create("greeting", {"en": "Hello"})
    response = patch(api, {"de": {"value": "Hallo", "expected": None}})
    assert response.status_code == 200
    assert api.export()["de"]["common"]["greeting"] == "Hallo"


def test_expected_null_on_a_missing_key_creates_the_translation(api):
    response = patch(api, {"de": {"value": "Hallo", "expected": None}}, key="new.key")
    assert response.status_code == 200
    assert api.keys() == ["new.key"]


def test_expected_null_on_an_existing_value_is_a_conflict(api):
    api.create("greeting", {"de": "Hallo"})
    response = patch(api, {"de": {"value": "Servus", "expected": None}})
    assert response.status_code == 409
    assert response.json["details"]["conflicts"] == {"de": {"expected": None, "current": "Hallo"}}


def test_expected_value_of_a_missing_key_is_a_conflict_with_current_null(api):
    response = patch(api, {"de": {"value": "Servus", "expected": "Hallo"}}, key="gone")
    assert response.status_code == 409
    assert response.json["details"]["conflicts"] == {"de": {"expected": "Hallo", "current": None}}
    assert api.keys() == []


def test_expected_empty_string_differs_from_no_value(api):
    api.create("greeting", {"de": ""})
    assert patch(api, {"de": {"value": "x", "expected": None}}).status_code == 409
    assert patch(api, {"de": {"value": "x", "expected": ""}}).status_code == 200


def test_one_stale_language_writes_no_language(api):
    api.create("greeting", {"en": "Hello", "de": "Hallo"})
    response = patch(
        api,
        {"en": {"value": "Hi", "expected": "Hello"}, "de": {"value": "Servus", "expected": "Moin"}},
    )
    assert response.status_code == 409
    assert list(response.json["details"]["conflicts"]) == ["de"]
    assert api.export() == {"de": {"common": {"greeting": "Hallo"}}, "en": {"common": {"greeting": "Hello"}}}


def test_every_stale_language_is_named(api):
    api.create("greeting", {"en": "Hello", "de": "Hallo"})
    response = patch(
        api, {"en": {"value": "Hi", "expected": "Hey"}, "de": {"value": "Servus", "expected": None}}
    )
    assert response.status_code == 409
    assert sorted(response.json["details"]["conflicts"]) == ["de", "en"]


def test_languages_without_expected_are_not_checked(api):
    api.create("greeting", {"en": "Hello", "de": "Hallo"})
    response = patch(api, {"en": {"value": "Hi"}, "de": {"value": "Servus", "expected": "Hallo"}})
    assert response.status_code == 200
    assert api.export()["en"]["common"]["greeting"] == "Hi"


def test_absent_expected_overwrites_as_before(api):
    api.create("greeting", {"de": "Guten Tag"})
    response = patch(api, {"de": {"value": "Servus"}})
    assert response.status_code == 200
    assert api.export()["de"]["common"]["greeting"] == "Servus"
    assert api.history(key="greeting")[0]["old_value"] == "Guten Tag"


@pytest.mark.parametrize("expected", [1, True, ["Hallo"], {"value": "Hallo"}, "x" * 8193])
def test_expected_that_is_not_a_value_is_refused_naming_the_field(api, expected):
    api.create("greeting", {"de": "Hallo"})
    response = patch(api, {"de": {"value": "Servus", "expected": expected}})
    assert response.status_code == 400
    assert response.json["error"].startswith("updates.de.value.expected:")
    assert api.export()["de"]["common"]["greeting"] == "Hallo"


def test_concurrent_writers_from_one_value_give_one_success_and_conflicts(app, api):
    api.create("greeting", {"de": "Hallo"})
    barrier = threading.Barrier(THREADS)

    def write(i):
        client = ProjectApi(CallerClient(app, api.credentials), api.project_id)
        barrier.wait(timeout=30)
        return patch(client, {"de": {"value": f"Wert {i}", "expected": "Hallo"}})

    with ThreadPoolExecutor(max_workers=THREADS) as pool:
        responses = list(pool.map(write, range(THREADS)))
    statuses = sorted(response.status_code for response in responses)
    assert statuses == [200] + [409] * (THREADS - 1)
    winner = next(i for i, response in enumerate(responses) if response.status_code == 200)
    assert api.export()["de"]["common"]["greeting"] == f"Wert {winner}"
    assert {r.json["details"]["conflicts"]["de"]["current"] for r in responses if r.status_code == 409} == {
        f"Wert {winner}"
    }


def test_openapi_documents_the_precondition_and_the_conflict(client):
    document = client.get("/api/openapi.json").json
    operation = document["paths"]["/api/projects/{project_id}/translations"]["patch"]
    assert "409" in operation["responses"]
    conflict = operation["responses"]["409"]["content"]["application/json"]["schema"]
    assert conflict == {"$ref": "#/components/schemas/PatchConflict"}
    schemas = document["components"]["schemas"]
    assert "expected" in schemas["ValueUpdate"]["properties"]
    assert "409" in schemas["ValueUpdate"]["properties"]["expected"]["description"]
    assert schemas["ValueConflict"]["required"] == ["current", "expected"]
