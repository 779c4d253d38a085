"""GET /translations/history and what each write records there (decisions 5)."""

import pytest

from tests.translation_factories import KEY_NAME, OWNER_NAME, ProjectApi, caller_id, project_api

ENTRY_FIELDS = {
    "id",
    "translation_id",
    "key",
    "fileName",
    "language",
    "action",
    "old_value",
    "new_value",
    "actor",
    "created_at",
}


@pytest.fixture
def api(app) -> ProjectApi:
    return project_api(app)


def _changes(entries):
    """Entries as comparable tuples, oldest first."""
    return [(e["action"], e["key"], e["language"], e["old_value"], e["new_value"]) for e in reversed(entries)]


# What each write records


def test_entry_has_the_documented_shape(api):
    translation = api.create("title", {"en": "Title"}, file_name="pages/home")
    response = api.get("/translations/history")
    assert response.status_code == 200
    assert set(response.json) == {"history", "next_cursor"}
    (entry,) = response.json["history"]
    assert set(entry) == ENTRY_FIELDS
    assert isinstance(entry["id"], int)
    assert entry["translation_id"] == translation["id"]
    assert entry["key"] == "title"
    assert entry["fileName"] == "pages/home"
    assert entry["language"] == "en"
    assert entry["action"] == "created"
    assert entry["old_value"] is None
    assert entry["new_value"] == "Title"
    assert entry["created_at"].endswith("+00:00")


def test_api_key_is_recorded_as_the_actor(api):
    api.create("title", {"en": "Title"})
    (entry,) = api.history()
    assert entry["actor"] == {"type": "api_key", "id": api.key_id, "name": KEY_NAME}


def test_signed_in_user_is_recorded_as_the_actor(api):
    as_owner = api.as_client(api.owner)
    as_owner.create("title", {"en": "Title"})
    (entry,) = api.history()
    assert entry["actor"] == {"type": "user", "id": caller_id(api.owner), "name": OWNER_NAME}


def test_create_records_one_created_entry_per_language(api):
    api.create("title", {"en": "Title", "de": "Titel"})
    assert sorted(_changes(api.history())) == [
        ("created", "title", "de", None, "Titel"),
        ("created", "title", "en", None, "Title"),
    ]


def test_create_without_values_records_one_entry_without_language(api):
    api.create("title", {})
    assert _changes(api.history()) == [("created", "title", None, None, None)]


def test_patch_records_updated_with_old_and_new_value(api):
    api.create("title", {"en": "Title"})
    api.set_values("title", {"en": "Heading"})
    assert _changes(api.history())[-1] == ("updated", "title", "en", "Title", "Heading")


def test_patch_records_created_for_a_new_language(api):
    api.create("title", {"en": "Title"})
    api.set_values("title", {"de": "Titel"})
    assert _changes(api.history())[-1] == ("created", "title", "de", None, "Titel")


def test_patch_of_a_missing_translation_records_created(api):
    results = api.set_values("title", {"en": "Title"})
    (entry,) = api.history()
    assert (entry["action"], entry["translation_id"]) == ("created", results["en"]["id"])


def test_patch_with_an_equal_value_records_nothing(api):
    api.create("title", {"en": "Title"})
    api.set_values("title", {"en": "Title"})
    assert len(api.history()) == 1


def test_patch_records_only_the_languages_that_changed(api):
    api.create("title", {"en": "Title", "de": "Titel"})
    api.set_values("title", {"en": "Title", "de": "Überschrift"})
    assert _changes(api.history())[2:] == [("updated", "title", "de", "Titel", "Überschrift")]


def test_bulk_upsert_records_one_entry_per_changed_value(api):
    api.upsert("en", {"a": "A", "b": "B"})
    api.upsert("en", {"a": "A", "b": "B2", "c": "C"})
    assert sorted(_changes(api.history())[2:]) == [
        ("created", "c", "en", None, "C"),
        ("updated", "b", "en", "B", "B2"),
    ]


def test_bulk_upsert_entries_name_the_translation(api):
    api.upsert("en", {"a": "A"}, file_name="nav")
    (entry,) = api.history()
    assert entry["translation_id"] == api.set_values("a", {"en": "A"}, file_name="nav")["en"]["id"]
    assert entry["fileName"] == "nav"


def test_delete_records_one_deleted_entry_per_translation(api):
    translation = api.create("title", {"en": "Title", "de": "Titel"})
    api.trash(translation["id"])
    latest = api.history()[0]
    assert (latest["action"], latest["language"], latest["translation_id"]) == (
        "deleted",
        None,
        translation["id"],
    )
    assert len(api.history(action="deleted")) == 1


def test_restore_records_one_restored_entry(api):
    translation = api.create("title", {"en": "Title", "de": "Titel"})
    api.trash(translation["id"])
    api.restore(translation["id"])
    assert _changes(api.history(action="restored")) == [("restored", "title", None, None, None)]


def test_purge_from_trash_records_one_purged_entry(api):
    translation = api.create("title", {"en": "Title", "de": "Titel"})
    api.trash(translation["id"])
    api.delete("/translations/trash", {"id": translation["id"]})
    assert _changes(api.history(action="purged")) == [("purged", "title", None, None, None)]


def test_permanent_delete_records_one_purged_entry(api):
    translation = api.create("title", {"en": "Title", "de": "Titel"})
    api.purge(translation["id"])
    assert [e["action"] for e in api.history()] == ["purged", "created", "created"]


def test_bulk_delete_records_one_entry_per_translation(api):
    api.upsert("en", {"a": "A", "b": "B", "c": "C"})
    api.bulk_delete(["a", "b", "unknown"])
    assert sorted(e["key"] for e in api.history(action="deleted")) == ["a", "b"]


def test_bulk_delete_permanent_records_purged(api):
    api.upsert("en", {"a": "A", "b": "B"})
    api.bulk_delete(["a", "b"], permanent=True)
    assert sorted(e["key"] for e in api.history(action="purged")) == ["a", "b"]


def test_history_survives_purging(api):
    translation = api.create("title", {"en": "Title"})
    api.set_values("title", {"en": "Heading"})
    api.purge(translation["id"])
    entries = api.history(translationId=translation["id"])
    assert [e["action"] for e in entries] == ["purged", "updated", "created"]
    assert {e["key"] for e in entries} == {"title"}


def test_failed_write_records_nothing(api):
    api.create("title", {"en": "Title"})
    assert (
        api.post("/translations", {"key": "title", "fileName": "common", "values": {"en": "X"}}).status_code
        == 409
    )
    assert len(api.history()) == 1


# Listing


def test_history_is_newest_first(api):
    api.create("a", {"en": "A"})
    api.create("b", {"en": "B"})
    api.create("c", {"en": "C"})
    entries = api.history()
    assert [e["key"] for e in entries] == ["c", "b", "a"]
    assert [e["id"] for e in entries] == sorted((e["id"] for e in entries), reverse=True)


def test_history_is_per_project(api, app):
    other = project_api(app)
    other.create("elsewhere", {"en": "x"})
    api.create("here", {"en": "x"})
    assert [e["key"] for e in api.history()] == ["here"]


def _seed_for_filters(api):
    first = api.create("title", {"en": "Title", "de": "Titel"}, file_name="home")
    api.create("title", {"en": "About"}, file_name="about")
    api.set_values("title", {"en": "Welcome"}, file_name="home")
    api.trash(first["id"])
    return first["id"]


def test_history_filters_by_translation_id(api):
    translation_id = _seed_for_filters(api)
    entries = api.history(translationId=translation_id)
    assert [e["action"] for e in entries] == ["deleted", "updated", "created", "created"]
    assert {e["translation_id"] for e in entries} == {translation_id}
    assert {e["fileName"] for e in entries} == {"home"}


def test_history_filters_by_key(api):
    _seed_for_filters(api)
    api.create("other", {"en": "Other"})
    assert {e["key"] for e in api.history(key="title")} == {"title"}
    assert len(api.history(key="title")) == 5


def test_history_filters_by_file_name(api):
    _seed_for_filters(api)
    assert _changes(api.history(fileName="about")) == [("created", "title", "en", None, "About")]


def test_history_filters_by_language(api):
    _seed_for_filters(api)
    assert _changes(api.history(language="de")) == [("created", "title", "de", None, "Titel")]


def test_history_filters_by_action(api):
    _seed_for_filters(api)
    assert _changes(api.history(action="updated")) == [("updated", "title", "en", "Title", "Welcome")]


def test_history_filters_combine(api):
    _seed_for_filters(api)
    assert _changes(api.history(fileName="home", language="en", action="created")) == [
        ("created", "title", "en", None, "Title")
    ]


@pytest.mark.parametrize(
    ("name", "value"),
    [("action", "moved"), ("language", "english"), ("fileName", "../x"), ("limit", 0), ("cursor", 0)],
)
def test_history_rejects_invalid_filters(api, name, value):
    response = api.get("/translations/history", **{name: value})
    assert response.status_code == 400
    assert name in response.json["error"]


# Pagination


def test_history_pages_follow_the_cursor_without_loss_or_repetition(api):
    api.upsert("en", {f"k{i}": str(i) for i in range(7)})
    api.upsert("de", {f"k{i}": str(i) for i in range(4)})
    everything = api.history_page(limit=500)["history"]
    pages, cursor = [], None
    while True:
        page = api.history_page(limit=3, **({"cursor": cursor} if cursor else {}))
        pages.append(page["history"])
        cursor = page["next_cursor"]
        if cursor is None:
            break
    assert [len(p) for p in pages] == [3, 3, 3, 2]
    assert [e["id"] for page in pages for e in page] == [e["id"] for e in everything]
    assert len({e["id"] for e in everything}) == 11


def test_next_cursor_is_a_string_until_the_last_page(api):
    api.upsert("en", {"a": "A", "b": "B"})
    first = api.history_page(limit=1)
    assert isinstance(first["next_cursor"], str)
    last = api.history_page(limit=1, cursor=first["next_cursor"])
    assert len(last["history"]) == 1
    assert last["next_cursor"] is None


def test_next_cursor_is_null_when_a_page_holds_everything(api):
    api.upsert("en", {"a": "A", "b": "B"})
    page = api.history_page(limit=2)
    assert len(page["history"]) == 2
    assert page["next_cursor"] is None


def test_cursor_pages_respect_filters(api):
    api.upsert("en", {f"k{i}": str(i) for i in range(5)})
    api.upsert("de", {f"k{i}": str(i) for i in range(5)})
    first = api.history_page(language="en", limit=3)
    second = api.history_page(language="en", limit=3, cursor=first["next_cursor"])
    assert [e["language"] for e in first["history"] + second["history"]] == ["en"] * 5
    assert second["next_cursor"] is None


def test_history_limit_defaults_to_50(api):
    api.upsert("en", {f"k{i:02d}": str(i) for i in range(51)})
    page = api.history_page()
    assert len(page["history"]) == 50
    assert page["next_cursor"] is not None


def test_history_accepts_limit_500(api):
    api.upsert("en", {f"k{i:03d}": str(i) for i in range(501)})
    page = api.history_page(limit=500)
    assert len(page["history"]) == 500
    assert len(api.history_page(cursor=page["next_cursor"])["history"]) == 1


def test_history_limit_501_is_rejected(api):
    response = api.get("/translations/history", limit=501)
    assert response.status_code == 400
    assert "limit" in response.json["error"]
