"""POST, PATCH, PUT and DELETE /translations and GET /translations/keys (decisions 4 and 5)."""

from datetime import UTC, datetime

import pytest

from tests.translation_factories import ProjectApi, project_api

TRANSLATION_FIELDS = {"id", "key", "fileName", "values", "created_at", "updated_at", "deleted_at"}
CODE_35 = "sl-Latn-IT-rozaj-biske-1994-alalc97"


@pytest.fixture
def api(app) -> ProjectApi:
    return project_api(app)


def _bad_request(response, field):
    assert response.status_code == 400, response.json
    assert isinstance(response.json["error"], str)
    assert field in response.json["error"]


def _create(api, key="home.title", file_name="common", values=None):
    return api.post("/translations", {"key": key, "fileName": file_name, "values": values or {}})


# POST /translations


def test_create_returns_201_with_the_translation(api):
    response = _create(api, values={"en": "Home", "de": "Startseite"})
    assert response.status_code == 201
    translation = response.json["translation"]
    assert set(response.json) == {"translation"}
    assert set(translation) == TRANSLATION_FIELDS
    assert translation["key"] == "home.title"
    assert translation["fileName"] == "common"
    assert translation["values"] == {"de": "Startseite", "en": "Home"}
    assert translation["deleted_at"] is None
    created = datetime.fromisoformat(translation["created_at"])
    assert created.utcoffset().total_seconds() == 0
    assert datetime.fromisoformat(translation["updated_at"]) == created
    assert abs((datetime.now(UTC) - created).total_seconds()) < 60


def test_create_accepts_empty_values(api):
    response = _create(api, values={})
    assert response.status_code == 201
    assert response.json["translation"]["values"] == {}


def test_create_keeps_the_empty_string_as_a_value(api):
    response = _create(api, values={"en": ""})
    assert response.status_code == 201
    assert response.json["translation"]["values"] == {"en": ""}
    assert api.export() == {"en": {"common": {"home.title": ""}}}


def test_create_conflicts_when_key_exists_in_file(api):
    api.create("home.title", {"en": "Home"})
    response = _create(api, values={"en": "Other"})
    assert response.status_code == 409
    assert "home.title" in response.json["error"]
    assert api.export() == {"en": {"common": {"home.title": "Home"}}}


def test_create_allows_the_same_key_in_another_file(api):
    api.create("title", {"en": "Home"}, file_name="home")
    response = _create(api, key="title", file_name="about", values={"en": "About"})
    assert response.status_code == 201
    assert api.export() == {"en": {"about": {"title": "About"}, "home": {"title": "Home"}}}


def test_create_adds_unknown_languages_with_cldr_name_and_flag(api):
    api.create("greeting", {"pt-BR": "Olá", "de": "Hallo", "qaa": "?"})
    assert api.languages() == [
        {"code": "de", "name": "German", "emoji": ""},
        {"code": "pt-BR", "name": "Portuguese (Brazil)", "emoji": "🇧🇷"},
        {"code": "qaa", "name": "qaa", "emoji": ""},
    ]


def test_create_stores_language_codes_in_canonical_form(api):
    api.create("greeting", {"pt_br": "Olá", "ZH-hant-tw": "你好"})
    assert [language["code"] for language in api.languages()] == ["pt-BR", "zh-Hant-TW"]
    assert api.export() == {
        "pt-BR": {"common": {"greeting": "Olá"}},
        "zh-Hant-TW": {"common": {"greeting": "你好"}},
    }


def test_create_refuses_two_spellings_of_one_language(api):
    response = api.post("/translations", {"key": "a", "fileName": "common", "values": {"en": "A", "EN": "B"}})
    assert response.status_code == 400
    assert "'en' and 'EN' are both the language 'en'" in response.get_json()["error"]


def test_create_refuses_an_unknown_language_naming_it(api):
    response = api.post("/translations", {"key": "a", "fileName": "common", "values": {"xx-bogus": "A"}})
    assert response.status_code == 400
    assert "values" in response.get_json()["error"]
    assert "'xx-bogus' is not a known language code" in response.get_json()["error"]


def test_create_adds_file_records_for_its_languages(api):
    api.create("greeting", {"en": "Hi", "de": "Hallo"}, file_name="auth/login")
    files = api.files()
    assert [(f["file_name"], f["language"]) for f in files] == [("auth/login", "de"), ("auth/login", "en")]


@pytest.mark.parametrize("field", ["key", "fileName", "values"])
def test_create_requires_key_file_name_and_values(api, field):
    body = {"key": "a", "fileName": "common", "values": {}}
    del body[field]
    _bad_request(api.post("/translations", body), field)


def test_create_rejects_unknown_fields(api):
    body = {"key": "a", "fileName": "common", "values": {}, "file": "x"}
    _bad_request(api.post("/translations", body), "file")


def test_create_rejects_a_value_that_is_not_a_string(api):
    _bad_request(_create(api, values={"en": 3}), "values")


# Limits and shapes (decisions 4)


@pytest.mark.parametrize("length", [1, 256])
def test_key_up_to_256_characters_is_accepted(api, length):
    assert _create(api, key="k" * length).status_code == 201


@pytest.mark.parametrize("key", ["", "k" * 257])
def test_key_outside_1_to_256_characters_is_rejected(api, key):
    _bad_request(_create(api, key=key), "key")


def test_key_of_256_multibyte_characters_is_accepted(api):
    key = "ü" * 255 + "😀"
    assert _create(api, key=key, values={"en": "x"}).status_code == 201
    assert api.keys() == [key]


@pytest.mark.parametrize("character", ["\x00", "\x01", "\t", "\n", "\r", "\x1b", "\x1f", "\x7f"])
def test_key_with_control_character_is_rejected(api, character):
    _bad_request(_create(api, key=f"home{character}title"), "key")


@pytest.mark.parametrize("field", ["key", "fileName", "values"])
def test_nul_character_is_rejected_and_nothing_written(api, field):
    body = {"key": "a", "fileName": "common", "values": {"en": "v"}}
    body[field] = {"en": "a\x00b"} if field == "values" else "a\x00b"
    _bad_request(api.post("/translations", body), field)
    assert api.keys() == []


@pytest.mark.parametrize("length", [1, 256])
def test_file_name_up_to_256_characters_is_accepted(api, length):
    assert _create(api, file_name="f" * length).status_code == 201


@pytest.mark.parametrize("file_name", ["", "f" * 257])
def test_file_name_outside_1_to_256_characters_is_rejected(api, file_name):
    _bad_request(_create(api, file_name=file_name), "fileName")


@pytest.mark.parametrize(
    "file_name",
    [
        "/common",
        "auth\\login",
        "auth/../login",
        "../common",
        "..",
        ".",
        "./common",
        "auth/./login",
        "auth//login",
        "auth/",
        "auth/\x01",
        "common\n",
    ],
)
def test_unsafe_file_name_is_rejected(api, file_name):
    _bad_request(_create(api, file_name=file_name), "fileName")


@pytest.mark.parametrize("file_name", ["auth/login", "a/b/c/d", "messages.json", "..hidden", "v1.2/strings"])
def test_file_name_with_slashes_inside_is_accepted(api, file_name):
    response = _create(api, file_name=file_name, values={"en": "x"})
    assert response.status_code == 201
    assert response.json["translation"]["fileName"] == file_name


@pytest.mark.parametrize("length", [0, 8192])
def test_value_up_to_8192_characters_is_accepted(api, length):
    response = _create(api, values={"en": "v" * length})
    assert response.status_code == 201
    assert response.json["translation"]["values"]["en"] == "v" * length


def test_value_of_8193_characters_is_rejected(api):
    _bad_request(_create(api, values={"en": "v" * 8193}), "values")


@pytest.mark.parametrize("code", ["de", "fil", "pt-BR", "zh-Hant-TW", "sr-Latn", "es-419", CODE_35])
def test_language_code_of_bcp47_shape_is_accepted(api, code):
    assert _create(api, values={code: "x"}).status_code == 201
    assert code in api.codes()


@pytest.mark.parametrize(
    ("given", "stored"),
    [
        ("EN", "en"),
        ("pt_BR", "pt-BR"),
        ("pt-br", "pt-BR"),
        ("zh_hant_tw", "zh-Hant-TW"),
        ("ES-419", "es-419"),
    ],
)
def test_language_code_is_stored_in_canonical_form(api, given, stored):
    assert _create(api, values={given: "x"}).status_code == 201
    assert api.codes() == [stored]


@pytest.mark.parametrize("code", ["qq", "xx-bogus", "de-abcdefgh", "en-Abcde"])
def test_language_code_unknown_to_the_registry_is_rejected(api, code):
    response = _create(api, values={code: "x"})
    assert response.status_code == 400
    assert f"{code!r} is not a known language code" in response.get_json()["error"]


@pytest.mark.parametrize(
    "code",
    ["d", "deut", "1de", "de-", "de--DE", "de-D", "de-abcdefghi", "de DE", "de-DE!", "", CODE_35 + "f"],
)
def test_language_code_of_other_shape_is_rejected(api, code):
    _bad_request(_create(api, values={code: "x"}), "values")
    assert api.codes() == []


# PATCH /translations


def test_patch_creates_a_missing_translation(api):
    response = api.patch(
        "/translations", {"key": "nav.home", "fileName": "common", "updates": {"en": {"value": "Home"}}}
    )
    assert response.status_code == 200
    assert set(response.json) == {"results"}
    (record,) = api.files()
    results = response.json["results"]
    assert results == {"en": {"id": results["en"]["id"], "id_file": record["id"], "updated": True}}
    assert api.export() == {"en": {"common": {"nav.home": "Home"}}}
    api.trash(results["en"]["id"])
    assert api.keys() == []


def test_patch_returns_one_result_per_language(api):
    translation = api.create("nav.home", {"en": "Home"})
    results = api.set_values("nav.home", {"en": "Home", "de": "Start", "fr": "Accueil"})
    records = {f["language"]: f["id"] for f in api.files()}
    assert results == {
        "en": {"id": translation["id"], "id_file": records["en"], "updated": False},
        "de": {"id": translation["id"], "id_file": records["de"], "updated": True},
        "fr": {"id": translation["id"], "id_file": records["fr"], "updated": True},
    }


def test_patch_reports_updated_false_for_an_equal_value(api):
    api.create("nav.home", {"en": "Home"})
    assert api.set_values("nav.home", {"en": "Home"})["en"]["updated"] is False


def test_patch_changes_the_stored_value(api):
    api.create("nav.home", {"en": "Home", "de": "Heim"})
    assert api.set_values("nav.home", {"de": "Startseite"})["de"]["updated"] is True
    assert api.export() == {
        "de": {"common": {"nav.home": "Startseite"}},
        "en": {"common": {"nav.home": "Home"}},
    }


def test_patch_auto_creates_file_records_and_languages(api):
    api.create("nav.home", {"en": "Home"}, file_name="nav")
    api.set_values("nav.home", {"pt-BR": "Início"}, file_name="nav")
    assert [
        (f["file_name"], f["language"], f["language_name"], f["language_emoji"]) for f in api.files()
    ] == [
        ("nav", "en", "English", ""),
        ("nav", "pt-BR", "Portuguese (Brazil)", "🇧🇷"),
    ]


def test_patch_ignores_a_trashed_translation_with_the_same_key(api):
    old = api.create("nav.home", {"en": "Old"})
    api.trash(old["id"])
    results = api.set_values("nav.home", {"en": "New"})
    assert results["en"]["id"] != old["id"]
    assert results["en"]["updated"] is True
    assert api.export() == {"en": {"common": {"nav.home": "New"}}}


def test_patch_requires_at_least_one_language(api):
    _bad_request(api.patch("/translations", {"key": "a", "fileName": "common", "updates": {}}), "updates")


def test_patch_update_is_an_object_with_value(api):
    _bad_request(
        api.patch("/translations", {"key": "a", "fileName": "common", "updates": {"en": "x"}}), "updates"
    )


def test_patch_rejects_an_overlong_value(api):
    body = {"key": "a", "fileName": "common", "updates": {"en": {"value": "v" * 8193}}}
    _bad_request(api.patch("/translations", body), "updates")
    assert api.export() == {}


def test_patch_rejects_an_unsafe_file_name(api):
    body = {"key": "a", "fileName": "../a", "updates": {"en": {"value": "x"}}}
    _bad_request(api.patch("/translations", body), "fileName")


# PUT /translations bulk-upsert


def test_bulk_upsert_counts_created_updated_and_unchanged(api):
    api.upsert("en", {"same": "Same", "changed": "Before"})
    counts = api.upsert("en", {"same": "Same", "changed": "After", "new": "New"})
    assert counts == {"created": 1, "updated": 1, "unchanged": 1}
    assert api.export() == {"en": {"common": {"changed": "After", "new": "New", "same": "Same"}}}


def test_bulk_upsert_counts_a_value_in_a_new_language_as_created(api):
    api.create("title", {"en": "Title"})
    assert api.upsert("de", {"title": "Titel"}) == {"created": 1, "updated": 0, "unchanged": 0}
    assert api.keys() == ["title"]


def test_bulk_upsert_adds_the_language_and_file_record(api):
    api.upsert("pt-BR", {"title": "Título"}, file_name="pages/home")
    assert api.languages() == [{"code": "pt-BR", "name": "Portuguese (Brazil)", "emoji": "🇧🇷"}]
    assert [(f["file_name"], f["language"]) for f in api.files()] == [("pages/home", "pt-BR")]


def test_bulk_upsert_with_no_items_counts_and_records_nothing(api):
    assert api.upsert("en", []) == {"created": 0, "updated": 0, "unchanged": 0}
    assert api.history() == []


def test_bulk_upsert_accepts_10000_items(api):
    items = {f"key.{i:05d}": f"value {i}" for i in range(10_000)}
    assert api.upsert("en", items) == {"created": 10_000, "updated": 0, "unchanged": 0}
    assert api.export() == {"en": {"common": items}}


def test_bulk_upsert_rejects_10001_items(api):
    items = [{"key": f"k{i}", "value": "v"} for i in range(10_001)]
    _bad_request(api.bulk_upsert_request("en", items), "translations")
    assert api.export() == {}


def test_bulk_upsert_rejects_duplicate_keys(api):
    items = [{"key": "a", "value": "1"}, {"key": "b", "value": "2"}, {"key": "a", "value": "3"}]
    response = api.bulk_upsert_request("en", items)
    _bad_request(response, "translations")
    assert "'a'" in response.json["error"]
    assert api.export() == {}


@pytest.mark.parametrize(
    ("item", "field"),
    [
        ({"key": "c", "value": "v" * 8193}, "translations"),
        ({"key": "bad\nkey", "value": "v"}, "translations"),
        ({"key": "k" * 257, "value": "v"}, "translations"),
        ({"key": "c"}, "translations"),
        ({"key": "c", "value": "v", "extra": 1}, "translations"),
    ],
    ids=["value-8193", "control-character", "key-257", "no-value", "unknown-field"],
)
def test_bulk_upsert_with_one_invalid_item_writes_nothing(api, item, field):
    api.upsert("en", {"a": "A", "b": "B"})
    before_export = api.export_response().data
    before_history = api.history()
    items = [{"key": "a", "value": "A2"}, {"key": "new", "value": "N"}, item]
    _bad_request(api.bulk_upsert_request("en", items), field)
    assert api.export_response().data == before_export
    assert api.history() == before_history


def test_bulk_upsert_with_an_invalid_language_writes_nothing(api):
    _bad_request(api.bulk_upsert_request("english", {"a": "A"}), "languageCode")
    assert api.languages() == []
    assert api.files() == []


@pytest.mark.parametrize("field", ["fileName", "languageCode", "translations"])
def test_bulk_upsert_requires_its_fields(api, field):
    body = {"operation": "bulk-upsert", "fileName": "common", "languageCode": "en", "translations": []}
    del body[field]
    _bad_request(api.put("/translations", body), field)


@pytest.mark.parametrize("operation", ["bulk-rename", "", None, 3])
def test_unknown_operation_names_the_allowed_ones(api, operation):
    response = api.put("/translations", {"operation": operation, "fileName": "common"})
    _bad_request(response, "operation")
    assert "bulk-upsert" in response.json["error"]
    assert "bulk-delete" in response.json["error"]


def test_missing_operation_names_the_allowed_ones(api):
    response = api.put("/translations", {"fileName": "common", "keys": ["a"]})
    _bad_request(response, "operation")
    assert "bulk-upsert" in response.json["error"]
    assert "bulk-delete" in response.json["error"]


# PUT /translations bulk-delete


def test_bulk_delete_moves_keys_to_the_trash_and_ignores_unknown_keys(api):
    api.upsert("en", {"a": "A", "b": "B", "c": "C"})
    assert api.bulk_delete(["a", "b", "nope"]) == {"deleted": 2}
    assert api.export() == {"en": {"common": {"c": "C"}}}
    assert sorted(t["key"] for t in api.trash_list()["translations"]) == ["a", "b"]


def test_bulk_delete_permanent_purges_without_trash(api):
    api.upsert("en", {"a": "A", "b": "B"})
    assert api.bulk_delete(["a", "b"], permanent=True) == {"deleted": 2}
    assert api.export() == {"en": {"common": {}}}
    assert api.trash_list() == {"translations": [], "total": 0}


def test_bulk_delete_touches_only_the_given_file(api):
    api.upsert("en", {"a": "A"}, file_name="one")
    api.upsert("en", {"a": "A"}, file_name="two")
    assert api.bulk_delete(["a"], file_name="one") == {"deleted": 1}
    assert api.export() == {"en": {"one": {}, "two": {"a": "A"}}}


def test_bulk_delete_does_not_count_trashed_keys(api):
    api.upsert("en", {"a": "A", "b": "B"})
    api.bulk_delete(["a"])
    assert api.bulk_delete(["a", "b"]) == {"deleted": 1}
    assert api.trash_list()["total"] == 2


def test_bulk_delete_rejects_duplicate_keys(api):
    api.upsert("en", {"a": "A"})
    body = {"operation": "bulk-delete", "fileName": "common", "keys": ["a", "a"]}
    _bad_request(api.put("/translations", body), "keys")
    assert api.keys() == ["a"]


def test_bulk_delete_rejects_10001_keys(api):
    body = {"operation": "bulk-delete", "fileName": "common", "keys": [f"k{i}" for i in range(10_001)]}
    _bad_request(api.put("/translations", body), "keys")


def test_bulk_delete_with_one_invalid_key_deletes_nothing(api):
    api.upsert("en", {"a": "A"})
    body = {"operation": "bulk-delete", "fileName": "common", "keys": ["a", "b\x01"]}
    _bad_request(api.put("/translations", body), "keys")
    assert api.keys() == ["a"]


# DELETE /translations


def test_delete_moves_the_translation_to_the_trash(api):
    translation = api.create("title", {"en": "Title"})
    response = api.delete("/translations", {"id": translation["id"]})
    assert response.status_code == 200
    assert response.json == {"success": True}
    (trashed,) = api.trash_list()["translations"]
    assert trashed["id"] == translation["id"]
    assert trashed["values"] == {"en": "Title"}
    assert datetime.fromisoformat(trashed["deleted_at"]) >= datetime.fromisoformat(translation["created_at"])


def test_delete_drops_the_translation_from_the_export(api):
    translation = api.create("title", {"en": "Title"})
    api.create("other", {"en": "Other"})
    api.trash(translation["id"])
    assert api.export() == {"en": {"common": {"other": "Other"}}}
    assert api.keys() == ["other"]


def test_delete_unknown_id_is_not_found(api):
    response = api.delete("/translations", {"id": "00000000-0000-0000-0000-000000000000"})
    assert response.status_code == 404
    assert "id" in response.json["error"]


def test_delete_translation_of_another_project_is_not_found(api, app):
    other = project_api(app)
    translation = other.create("a", {"en": "A"})
    assert api.delete("/translations", {"id": translation["id"]}).status_code == 404
    assert other.keys() == ["a"]


def test_delete_of_a_trashed_translation_conflicts(api):
    translation = api.create("title", {"en": "Title"})
    api.trash(translation["id"])
    response = api.delete("/translations", {"id": translation["id"]})
    assert response.status_code == 409
    assert "trash" in response.json["error"]


def test_delete_permanent_removes_an_active_translation(api):
    translation = api.create("title", {"en": "Title"})
    response = api.delete("/translations", {"id": translation["id"], "permanent": True})
    assert response.json == {"success": True}
    assert api.export() == {"en": {"common": {}}}
    assert api.trash_list()["total"] == 0


def test_delete_permanent_removes_a_trashed_translation(api):
    translation = api.create("title", {"en": "Title"})
    api.trash(translation["id"])
    response = api.delete("/translations", {"id": translation["id"], "permanent": True})
    assert response.json == {"success": True}
    assert api.trash_list()["total"] == 0
    assert api.post("/translations/trash", {"id": translation["id"]}).status_code == 404


def test_delete_permanent_false_is_a_soft_delete(api):
    translation = api.create("title", {"en": "Title"})
    assert api.delete("/translations", {"id": translation["id"], "permanent": False}).status_code == 200
    assert api.trash_list()["total"] == 1


def test_delete_requires_an_id(api):
    _bad_request(api.delete("/translations", {}), "id")


def test_delete_rejects_a_permanent_that_is_not_a_boolean(api):
    translation = api.create("title", {"en": "Title"})
    _bad_request(api.delete("/translations", {"id": translation["id"], "permanent": "maybe"}), "permanent")
    assert api.keys() == ["title"]


# GET /translations/keys


def test_keys_lists_unique_active_keys_sorted(api):
    api.upsert("en", {"b": "B", "a": "A", "gone": "G"}, file_name="one")
    api.upsert("en", {"a": "A", "c": "C"}, file_name="two")
    api.bulk_delete(["gone"], file_name="one")
    response = api.get("/translations/keys")
    assert response.status_code == 200
    assert response.json == {"keys": ["a", "b", "c"]}


def test_keys_filter_by_file_name(api):
    api.upsert("en", {"b": "B", "a": "A"}, file_name="one")
    api.upsert("en", {"c": "C"}, file_name="two")
    assert api.keys(fileName="one") == ["a", "b"]


def test_bulk_upsert_and_patch_take_any_spelling_of_a_code(api):
    api.upsert("PT_br", {"title": "Título"})
    response = api.patch(
        "/translations",
        {
            "key": "title",
            "fileName": "common",
            "updates": {"pt-br": {"value": "Novo"}, "EN": {"value": "New"}},
        },
    )
    assert response.status_code == 200, response.json
    assert api.export() == {"en": {"common": {"title": "New"}}, "pt-BR": {"common": {"title": "Novo"}}}


@pytest.mark.parametrize("key", [" home.title", "home.title ", "\u00a0home", "home\u2003"])
def test_a_key_that_begins_or_ends_with_a_space_is_refused_on_every_write(api, key):
    _bad_request(_create(api, key=key), "key")
    patch = {"key": key, "fileName": "common", "updates": {"en": {"value": "x"}}}
    _bad_request(api.patch("/translations", patch), "key")
    bulk = {
        "operation": "bulk-upsert",
        "fileName": "common",
        "languageCode": "en",
        "translations": [{"key": "fine", "value": "x"}, {"key": key, "value": "x"}],
    }
    _bad_request(api.put("/translations", bulk), "key")
    assert api.get("/translations").json == {}
