"""GET, POST, PATCH and DELETE /languages (decisions 8), including the project link."""

import pytest

from tests.translation_factories import ProjectApi, create_project, link_projects, project_api


@pytest.fixture
def api(app) -> ProjectApi:
    return project_api(app)


@pytest.fixture
def main(api) -> ProjectApi:
    """Project A ("Main", language en), called by the org owner; ``api`` is project B, whose
    en-GB inherits A's en."""
    api.add_language("en-GB")
    source_id = create_project(api.owner, api.organization_id, "Main", languages=["en"])
    link_projects(api.owner, api.project_id, source_id, "en", "en-GB")
    return ProjectApi(api.owner, source_id, organization_id=api.organization_id, owner=api.owner)


def _project(api):
    response = api.owner.get(f"/api/projects/{api.project_id}")
    assert response.status_code == 200, response.json
    return response.json["project"]


def _link(project):
    return (
        project["linked_project_id"],
        project["linked_language_code"],
        project["linked_language_target_code"],
    )


# GET /languages


def test_languages_are_sorted_by_code(api):
    for code in ("pt-BR", "de", "en-US", "en"):
        api.add_language(code)
    response = api.get("/languages")
    assert response.status_code == 200
    assert response.json == {
        "languages": [
            {"code": "de", "name": "German", "emoji": ""},
            {"code": "en", "name": "English", "emoji": ""},
            {"code": "en-US", "name": "English (United States)", "emoji": "🇺🇸"},
            {"code": "pt-BR", "name": "Portuguese (Brazil)", "emoji": "🇧🇷"},
        ]
    }


def test_languages_are_empty_for_a_new_project(api):
    assert api.get("/languages").json == {"languages": []}


def test_language_stats_count_values_over_active_keys(api):
    api.add_language("fr")
    api.upsert("en", {"a": "A", "b": "B", "c": "C"})
    api.upsert("de", {"a": "A"})
    trashed = api.create("gone", {"en": "G", "de": "G"})
    api.trash(trashed["id"])
    assert api.languages(stats="true") == [
        {"code": "de", "name": "German", "emoji": "", "translated": 1, "total": 3, "progress": 33.3},
        {"code": "en", "name": "English", "emoji": "", "translated": 3, "total": 3, "progress": 100.0},
        {"code": "fr", "name": "French", "emoji": "", "translated": 0, "total": 3, "progress": 0.0},
    ]


def test_language_stats_count_keys_of_every_file(api):
    api.upsert("en", {"a": "A", "b": "B"}, file_name="one")
    api.upsert("en", {"a": "A"}, file_name="two")
    api.upsert("de", {"a": "A"}, file_name="two")
    stats = {
        lang["code"]: (lang["translated"], lang["total"], lang["progress"])
        for lang in api.languages(stats="true")
    }
    assert stats == {"de": (1, 3, 33.3), "en": (3, 3, 100.0)}


def test_language_stats_round_progress_to_one_decimal(api):
    api.upsert("en", {f"k{i}": "x" for i in range(3)})
    api.upsert("de", {"k0": "x", "k1": "x"})
    (de, _en) = api.languages(stats="true")
    assert de["progress"] == 66.7


def test_language_stats_without_keys_show_zero_progress(api):
    api.add_language("de")
    assert api.languages(stats="true") == [
        {"code": "de", "name": "German", "emoji": "", "translated": 0, "total": 0, "progress": 0.0}
    ]


def test_languages_without_stats_have_no_counts(api):
    api.upsert("en", {"a": "A"})
    assert api.languages(stats="false") == [{"code": "en", "name": "English", "emoji": ""}]


def test_languages_reject_an_invalid_stats_flag(api):
    response = api.get("/languages", stats="maybe")
    assert response.status_code == 400
    assert "stats" in response.json["error"]


# POST /languages


def test_add_language_answers_201_with_all_languages(api):
    api.add_language("en")
    response = api.post("/languages", {"code": "de"})
    assert response.status_code == 201
    assert response.json == {
        "languages": [
            {"code": "de", "name": "German", "emoji": ""},
            {"code": "en", "name": "English", "emoji": ""},
        ]
    }


def test_add_language_takes_name_and_emoji(api):
    assert api.add_language("de-CH", name="Swiss German", emoji="🇨🇭🏔") == [
        {"code": "de-CH", "name": "Swiss German", "emoji": "🇨🇭🏔"}
    ]


def test_add_language_names_it_from_cldr_with_the_region_flag(api):
    assert api.add_language("fr-CA") == [{"code": "fr-CA", "name": "French (Canada)", "emoji": "🇨🇦"}]


def test_add_language_creates_a_record_for_every_existing_file(api):
    api.create("a", {"en": "A"}, file_name="home")
    api.create_files("about", "en")
    api.add_language("de")
    assert [(f["file_name"], f["language"]) for f in api.files(language="de")] == [
        ("about", "de"),
        ("home", "de"),
    ]
    assert api.export_zip()["de/home.json"] == b"{}"


def test_add_existing_language_conflicts(api):
    api.add_language("de")
    response = api.post("/languages", {"code": "de", "name": "Deutsch"})
    assert response.status_code == 409
    assert "de" in response.json["error"]
    assert api.languages() == [{"code": "de", "name": "German", "emoji": ""}]


def test_add_language_in_another_casing_conflicts(api):
    api.add_language("en")
    response = api.post("/languages", {"code": "EN"})
    assert response.status_code == 409
    assert "'en'" in response.json["error"]
    assert api.codes() == ["en"]


@pytest.mark.parametrize(
    ("given", "stored"),
    [("pt-br", "pt-BR"), ("pt_BR", "pt-BR"), ("zh-hant-tw", "zh-Hant-TW"), ("SR-LATN", "sr-Latn")],
)
def test_add_language_stores_the_canonical_code(api, given, stored):
    assert [language["code"] for language in api.add_language(given)] == [stored]


@pytest.mark.parametrize("code", ["xx-bogus", "qq"])
def test_add_language_rejects_an_unknown_code_naming_it(api, code):
    response = api.post("/languages", {"code": code})
    assert response.status_code == 400
    assert response.json["error"].startswith(f"code: {code!r} is not a known language code")
    assert api.codes() == []


def test_languages_are_found_by_any_spelling_of_their_code(api):
    api.create("title", {"pt-BR": "Título"})
    response = api.patch("/languages", {"currentCode": "PT_br", "name": "Português"})
    assert response.status_code == 200, response.json
    assert response.json["languages"][0]["name"] == "Português"
    response = api.as_client(api.owner).delete("/languages", {"code": "pt_br"})
    assert response.status_code == 200, response.json
    assert api.codes() == []


def test_a_stored_code_the_registry_does_not_know_can_be_renamed(app, api):
    from loko.database import unit_of_work
    from loko.languages.models import ProjectLanguage

    with app.app_context(), unit_of_work():
        from loko.extensions import db

        db.session.add(ProjectLanguage(project_id=api.project_id, code="xx_old", name="Old", emoji=""))
    response = api.patch("/languages", {"currentCode": "xx_old", "code": "de"})
    assert response.status_code == 200, response.json
    assert api.codes() == ["de"]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({}, "code"),
        ({"code": "german"}, "code"),
        ({"code": "de", "name": ""}, "name"),
        ({"code": "de", "x": 1}, "x"),
    ],
)
def test_add_language_rejects_invalid_bodies(api, body, field):
    response = api.post("/languages", body)
    assert response.status_code == 400
    assert field in response.json["error"]


# PATCH /languages


def test_rename_language_code_moves_values_and_records(api):
    api.create("title", {"pt": "Título", "en": "Title"}, file_name="home")
    response = api.patch("/languages", {"currentCode": "pt", "code": "pt-BR"})
    assert response.status_code == 200
    assert response.json == {
        "languages": [
            {"code": "en", "name": "English", "emoji": ""},
            {"code": "pt-BR", "name": "Portuguese", "emoji": ""},
        ]
    }
    assert api.export() == {"en": {"home": {"title": "Title"}}, "pt-BR": {"home": {"title": "Título"}}}
    assert [(f["file_name"], f["language"]) for f in api.files()] == [("home", "en"), ("home", "pt-BR")]


def test_rename_language_code_moves_trashed_values(api):
    translation = api.create("title", {"pt": "Título"})
    api.trash(translation["id"])
    api.patch("/languages", {"currentCode": "pt", "code": "pt-PT"})
    assert api.restore(translation["id"])["values"] == {"pt-PT": "Título"}


def test_rename_language_code_updates_the_link_target(api, main):
    response = api.patch("/languages", {"currentCode": "en-GB", "code": "en-UK"})
    assert response.status_code == 200
    assert _link(_project(api)) == (main.project_id, "en", "en-UK")


def test_rename_language_code_updates_the_link_source(api, main):
    response = main.patch("/languages", {"currentCode": "en", "code": "en-US"})
    assert response.status_code == 200
    assert _link(_project(api)) == (main.project_id, "en-US", "en-GB")


def test_rename_link_source_keeps_inheritance_working(api, main):
    main.set_values("title", {"en": "Colour"})
    main.patch("/languages", {"currentCode": "en", "code": "en-US"})
    assert api.export() == {"en-GB": {"common": {"title": "Colour"}}}


def test_change_language_name_and_emoji(api):
    api.add_language("de")
    response = api.patch("/languages", {"currentCode": "de", "name": "Deutsch", "emoji": "🇩🇪"})
    assert response.status_code == 200
    assert response.json == {"languages": [{"code": "de", "name": "Deutsch", "emoji": "🇩🇪"}]}


def test_change_language_emoji_to_empty(api):
    api.add_language("en-US")
    response = api.patch("/languages", {"currentCode": "en-US", "emoji": ""})
    assert response.json["languages"] == [{"code": "en-US", "name": "English (United States)", "emoji": ""}]


def test_rename_code_and_name_together(api):
    api.add_language("de")
    response = api.patch("/languages", {"currentCode": "de", "code": "de-AT", "name": "Österreichisch"})
    assert response.json == {"languages": [{"code": "de-AT", "name": "Österreichisch", "emoji": ""}]}


def test_update_unknown_language_is_not_found(api):
    api.add_language("de")
    response = api.patch("/languages", {"currentCode": "fr", "name": "Français"})
    assert response.status_code == 404
    assert "currentCode" in response.json["error"]


def test_rename_to_an_existing_code_conflicts(api):
    api.create("title", {"de": "Titel", "en": "Title"})
    response = api.patch("/languages", {"currentCode": "de", "code": "en"})
    assert response.status_code == 409
    assert "en" in response.json["error"]
    assert api.export() == {"de": {"common": {"title": "Titel"}}, "en": {"common": {"title": "Title"}}}


def test_rename_to_the_same_code_changes_nothing(api):
    api.add_language("de")
    response = api.patch("/languages", {"currentCode": "de", "code": "de"})
    assert response.status_code == 200
    assert response.json == {"languages": [{"code": "de", "name": "German", "emoji": ""}]}


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"code": "de"}, "currentCode"),
        ({"currentCode": "de", "code": "d"}, "code"),
        ({"currentCode": "de", "x": 1}, "x"),
    ],
)
def test_update_language_rejects_invalid_bodies(api, body, field):
    api.add_language("de")
    response = api.patch("/languages", body)
    assert response.status_code == 400
    assert field in response.json["error"]


# DELETE /languages


@pytest.fixture
def admin(api) -> ProjectApi:
    """The same project called by the organization's owner: deleting a language is a
    structural change, for project admins."""
    return api.as_client(api.owner)


def test_delete_language_answers_with_the_remaining_languages_and_its_operation(api, admin):
    api.create("title", {"en": "Title", "de": "Titel"})
    response = admin.delete("/languages", {"code": "de"})
    assert response.status_code == 200
    assert response.json == {"languages": [{"code": "en", "name": "English", "emoji": ""}]}
    assert response.headers["Loko-Operation"]


def test_delete_language_with_an_api_key_needs_a_session(api):
    api.create("title", {"de": "Titel"})
    response = api.delete("/languages", {"code": "de"})
    assert response.status_code == 403
    assert "de" in api.codes()


def test_delete_language_removes_its_values_and_records(api, admin):
    translation = api.create("title", {"en": "Title", "de": "Titel"}, file_name="home")
    admin.delete("/languages", {"code": "de"})
    assert api.export() == {"en": {"home": {"title": "Title"}}}
    assert [(f["file_name"], f["language"]) for f in api.files()] == [("home", "en")]
    api.trash(translation["id"])
    assert api.trash_list()["translations"][0]["values"] == {"en": "Title"}


def test_delete_language_keeps_its_values_in_history_as_deleted(api, admin):
    translation = api.create("title", {"en": "Title", "de": "Titel"})
    operation_id = admin.delete("/languages", {"code": "de"}).headers["Loko-Operation"]
    (entry,) = api.history(action="deleted", operationId=operation_id)
    assert (entry["translation_id"], entry["language"], entry["old_value"]) == (
        translation["id"],
        "de",
        "Titel",
    )


def test_delete_language_permanently_records_purged_values(api, admin):
    translation = api.create("title", {"en": "Title", "de": "Titel"})
    response = admin.delete("/languages", {"code": "de", "permanent": True})
    assert response.status_code == 200
    assert "Loko-Operation" not in response.headers
    (entry,) = api.history(action="purged")
    assert (entry["translation_id"], entry["language"], entry["old_value"]) == (
        translation["id"],
        "de",
        "Titel",
    )


def test_delete_unknown_language_is_not_found(admin):
    response = admin.delete("/languages", {"code": "de"})
    assert response.status_code == 404
    assert "de" in response.json["error"]


def test_delete_language_conflicts_while_it_is_the_link_target(api, main):
    response = api.as_client(api.owner).delete("/languages", {"code": "en-GB"})
    assert response.status_code == 409
    assert "link" in response.json["error"]
    assert "en-GB" in api.codes()


def test_delete_language_conflicts_while_it_is_the_link_source(api, main):
    response = main.delete("/languages", {"code": "en"})
    assert response.status_code == 409
    assert "en" in main.codes()


def test_delete_language_is_allowed_after_unlinking(api, main):
    response = api.owner.put(
        f"/api/projects/{api.project_id}",
        json={"linked_project_id": None, "linked_language_code": None, "linked_language_target_code": None},
    )
    assert response.status_code == 200
    assert api.as_client(api.owner).delete("/languages", {"code": "en-GB"}).status_code == 200
