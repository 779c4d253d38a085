"""Concurrent writers of one project through the real app: no 500, no lost update, no lost
history entry. Eight threads, each with its own test client, start together."""

import threading
from concurrent.futures import ThreadPoolExecutor
from itertools import pairwise

import orjson
import pytest

from tests.factories import CallerClient
from tests.translation_factories import ProjectApi, project_api

THREADS = 8


@pytest.fixture
def api(app) -> ProjectApi:
    api = project_api(app)
    api.add_language("en")
    return api


def in_parallel(app, api, request):
    """Run ``request(client, i)`` in THREADS threads released at the same moment."""
    barrier = threading.Barrier(THREADS)

    def run(i):
        client = ProjectApi(CallerClient(app, api.credentials), api.project_id)
        barrier.wait(timeout=30)
        return request(client, i)

    with ThreadPoolExecutor(max_workers=THREADS) as pool:
        return list(pool.map(run, range(THREADS)))


def _patch(client, key, code, value):
    return client.patch(
        "/translations", {"key": key, "fileName": "common", "updates": {code: {"value": value}}}
    )


def test_concurrent_patches_of_one_key_all_succeed(app, api):
    responses = in_parallel(app, api, lambda client, i: _patch(client, "greeting", "en", f"value {i}"))
    assert [r.status_code for r in responses] == [200] * THREADS
    assert len({r.json["results"]["en"]["id"] for r in responses}) == 1


def test_concurrent_patches_lose_no_history_entry(app, api):
    responses = in_parallel(app, api, lambda client, i: _patch(client, "greeting", "en", f"value {i % 3}"))
    assert [r.status_code for r in responses] == [200] * THREADS
    effective = sum(r.json["results"]["en"]["updated"] for r in responses)
    entries = list(reversed(api.history(key="greeting")))
    assert len(entries) == effective
    assert entries[0]["action"] == "created"
    assert [e["action"] for e in entries[1:]] == ["updated"] * (effective - 1)
    for previous, entry in pairwise(entries):
        assert entry["old_value"] == previous["new_value"]
    assert api.export() == {"en": {"common": {"greeting": entries[-1]["new_value"]}}}


def test_concurrent_patches_of_a_new_key_in_different_languages_make_one_translation(app, api):
    codes = ["en", "de", "fr", "es", "it", "nl", "pt-BR", "ja"]
    responses = in_parallel(app, api, lambda client, i: _patch(client, "greeting", codes[i], f"value {i}"))
    assert [r.status_code for r in responses] == [200] * THREADS
    assert len({r.json["results"][codes[i]]["id"] for i, r in enumerate(responses)}) == 1
    assert api.keys() == ["greeting"]
    assert sorted(f["language"] for f in api.files()) == sorted(codes)
    assert len(api.history(key="greeting", action="created")) == THREADS


def test_concurrent_creates_of_one_key_give_one_201_and_conflicts(app, api):
    def create(client, i):
        return client.post(
            "/translations", {"key": "greeting", "fileName": "common", "values": {"en": f"v{i}"}}
        )

    responses = in_parallel(app, api, create)
    assert sorted(r.status_code for r in responses) == [201] + [409] * (THREADS - 1)
    assert len(api.history(key="greeting")) == 1


def test_concurrent_bulk_upserts_keep_every_item(app, api):
    def upsert(client, i):
        return client.bulk_upsert_request(
            "en", {f"key.{j}": f"{i}-{j}" for j in range(50)}, file_name=f"file{i}"
        )

    responses = in_parallel(app, api, upsert)
    assert [r.json for r in responses] == [{"created": 50, "updated": 0, "unchanged": 0}] * THREADS
    assert sum(len(keys) for keys in api.export()["en"].values()) == 50 * THREADS
    assert len(api.history()) == 50 * THREADS


def test_patches_and_bulk_upserts_of_the_same_keys_neither_deadlock_nor_lose_a_change(app, api):
    keys = [f"key.{j}" for j in range(10)]
    assert api.bulk_upsert_request("en", {key: "start" for key in keys}).status_code == 200

    def write(client, i):
        if i % 2:
            return [client.bulk_upsert_request("en", {key: f"bulk {i}" for key in keys})]
        return [_patch(client, key, "en", f"patch {i}") for key in keys]

    responses = [r for group in in_parallel(app, api, write) for r in group]
    assert {r.status_code for r in responses} == {200}
    for key in keys:
        entries = list(reversed(api.history(key=key)))
        for previous, entry in pairwise(entries):
            assert entry["old_value"] == previous["new_value"]
        assert api.export()["en"]["common"][key] == entries[-1]["new_value"]


def test_concurrent_patches_of_one_file_each_change_its_export(app, api):
    assert api.bulk_upsert_request("en", {"first": "v"}).status_code == 200
    before = api.export_response().headers["ETag"]
    responses = in_parallel(app, api, lambda client, i: _patch(client, f"key.{i}", "en", f"value {i}"))
    assert [r.status_code for r in responses] == [200] * THREADS
    after = api.export_response()
    assert after.headers["ETag"] != before
    written = sorted(orjson.loads(after.data)["en"]["common"])
    assert written == ["first"] + [f"key.{i}" for i in range(THREADS)]
