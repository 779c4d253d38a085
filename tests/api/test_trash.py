"""The trash: GET, POST (restore) and DELETE (purge) /translations/trash (decisions 5)."""

import pytest

from tests.translation_factories import ProjectApi, project_api


@pytest.fixture
def api(app) -> ProjectApi:
    return project_api(app)


def _trash_keys(api, **params):
    return [t["key"] for t in api.trash_list(**params)["translations"]]


def _trashed(api, *keys, file_name="common"):
    """Create translations with these keys and trash them in this order; returns their ids."""
    ids = {}
    for key in keys:
        ids[key] = api.create(key, {"en": key.upper()}, file_name=file_name)["id"]
    for key in keys:
        api.trash(ids[key])
    return ids


# GET /translations/trash


def test_trash_lists_trashed_translations_with_total(api):
    ids = _trashed(api, "title")
    api.create("kept", {"en": "Kept"})
    response = api.get("/translations/trash")
    assert response.status_code == 200
    assert set(response.json) == {"translations", "total"}
    assert response.json["total"] == 1
    (translation,) = response.json["translations"]
    assert set(translation) == {"id", "key", "fileName", "values", "created_at", "updated_at", "deleted_at"}
    assert translation["id"] == ids["title"]
    assert translation["key"] == "title"
    assert translation["fileName"] == "common"
    assert translation["values"] == {"en": "TITLE"}
    assert translation["deleted_at"] is not None


def test_trash_is_empty_without_deletions(api):
    api.create("title", {"en": "Title"})
    assert api.trash_list() == {"translations": [], "total": 0}


def test_trash_lists_newest_deletion_first(api):
    _trashed(api, "b", "a", "c")
    assert _trash_keys(api) == ["c", "a", "b"]


def test_trash_pages_with_limit_and_offset(api):
    _trashed(api, "a", "b", "c", "d")
    page = api.trash_list(limit=2, offset=1)
    assert [t["key"] for t in page["translations"]] == ["c", "b"]
    assert page["total"] == 4


def test_trash_offset_past_the_end_is_an_empty_page(api):
    _trashed(api, "a")
    assert api.trash_list(offset=5) == {"translations": [], "total": 1}


@pytest.mark.parametrize(("name", "value"), [("limit", 0), ("limit", 1001), ("offset", -1), ("limit", "x")])
def test_trash_paging_out_of_range_is_rejected(api, name, value):
    response = api.get("/translations/trash", **{name: value})
    assert response.status_code == 400
    assert name in response.json["error"]


def test_trash_accepts_limit_1000(api):
    assert api.get("/translations/trash", limit=1000).status_code == 200


def test_trash_filters_by_file_name(api):
    _trashed(api, "a", file_name="one")
    _trashed(api, "b", file_name="two")
    assert _trash_keys(api, fileName="two") == ["b"]
    assert api.trash_list(fileName="two")["total"] == 1


def test_trash_filters_by_key_substring(api):
    _trashed(api, "nav.home", "nav.about", "footer.home")
    page = api.trash_list(q="home")
    assert [t["key"] for t in page["translations"]] == ["footer.home", "nav.home"]
    assert page["total"] == 2


def test_trash_search_ignores_case(api):
    _trashed(api, "Nav.Home", "footer")
    assert _trash_keys(api, q="nav.home") == ["Nav.Home"]
    assert _trash_keys(api, q="NAV") == ["Nav.Home"]


def test_trash_search_takes_wildcards_literally(api):
    _trashed(api, "100%", "1000", "a_b", "axb")
    assert _trash_keys(api, q="0%") == ["100%"]
    assert _trash_keys(api, q="a_") == ["a_b"]


def test_trash_rejects_unknown_parameters(api):
    response = api.get("/translations/trash", search="x")
    assert response.status_code == 400
    assert "search" in response.json["error"]


# POST /translations/trash (restore)


def test_restore_returns_the_active_translation(api):
    ids = _trashed(api, "title")
    response = api.post("/translations/trash", {"id": ids["title"]})
    assert response.status_code == 200
    assert set(response.json) == {"success", "data"}
    assert response.json["success"] is True
    translation = response.json["data"]["translation"]
    assert set(response.json["data"]) == {"translation"}
    assert translation["id"] == ids["title"]
    assert translation["key"] == "title"
    assert translation["values"] == {"en": "TITLE"}
    assert translation["deleted_at"] is None


def test_restore_brings_the_translation_back_to_the_export(api):
    ids = _trashed(api, "title")
    api.restore(ids["title"])
    assert api.export() == {"en": {"common": {"title": "TITLE"}}}
    assert api.trash_list()["total"] == 0


def test_restore_is_logged_in_history(api):
    ids = _trashed(api, "title")
    api.restore(ids["title"])
    latest = api.history_page(limit=1)["history"][0]
    assert latest["action"] == "restored"
    assert latest["translation_id"] == ids["title"]
    assert latest["key"] == "title"


def test_restore_of_an_active_translation_is_not_found(api):
    translation = api.create("title", {"en": "Title"})
    response = api.post("/translations/trash", {"id": translation["id"]})
    assert response.status_code == 404
    assert "trash" in response.json["error"]


def test_restore_of_an_unknown_id_is_not_found(api):
    response = api.post("/translations/trash", {"id": "00000000-0000-0000-0000-000000000000"})
    assert response.status_code == 404


def test_restore_of_another_projects_translation_is_not_found(api, app):
    other = project_api(app)
    translation = other.create("title", {"en": "Title"})
    other.trash(translation["id"])
    assert api.post("/translations/trash", {"id": translation["id"]}).status_code == 404
    assert other.trash_list()["total"] == 1


def test_restore_conflicts_when_key_taken(api):
    ids = _trashed(api, "title")
    api.create("title", {"en": "New title"})
    response = api.post("/translations/trash", {"id": ids["title"]})
    assert response.status_code == 409
    assert "title" in response.json["error"]
    assert api.export() == {"en": {"common": {"title": "New title"}}}
    assert api.trash_list()["total"] == 1


def test_restore_requires_an_id(api):
    response = api.post("/translations/trash", {})
    assert response.status_code == 400
    assert "id" in response.json["error"]


# DELETE /translations/trash (purge)


def test_purge_from_trash_succeeds(api):
    ids = _trashed(api, "title")
    response = api.delete("/translations/trash", {"id": ids["title"]})
    assert response.status_code == 200
    assert response.json == {"success": True}
    assert api.trash_list() == {"translations": [], "total": 0}


def test_purged_translation_cannot_be_restored(api):
    ids = _trashed(api, "title")
    api.delete("/translations/trash", {"id": ids["title"]})
    assert api.post("/translations/trash", {"id": ids["title"]}).status_code == 404


def test_purge_of_an_active_translation_is_not_found(api):
    translation = api.create("title", {"en": "Title"})
    response = api.delete("/translations/trash", {"id": translation["id"]})
    assert response.status_code == 404
    assert api.keys() == ["title"]


def test_purge_of_an_unknown_id_is_not_found(api):
    response = api.delete("/translations/trash", {"id": "00000000-0000-0000-0000-000000000000"})
    assert response.status_code == 404


# Trashed translations and keys


def test_trashed_translation_does_not_block_a_new_one_with_the_same_key(api):
    ids = _trashed(api, "title")
    response = api.post("/translations", {"key": "title", "fileName": "common", "values": {"en": "Again"}})
    assert response.status_code == 201
    assert response.json["translation"]["id"] != ids["title"]
    assert _trash_keys(api) == ["title"]


def test_trash_may_hold_the_same_key_twice(api):
    first = _trashed(api, "title")["title"]
    second = _trashed(api, "title")["title"]
    assert [t["id"] for t in api.trash_list()["translations"]] == [second, first]
    api.restore(first)
    assert api.post("/translations/trash", {"id": second}).status_code == 409
