"""Per-language roles: an editor, a reviewer or a write key limited to some languages writes
values (and reviews) in those only, on every write path, and leaves keys, files and
languages to callers with every language.

The world adds the languages en (source), de and fr, a key ``greeting`` with a value in each,
and three callers limited to ``de``: an editor, a reviewer and a write key. Each forged
write answers 403 naming the language, and the project's export stays as it was.
"""

import io
import zipfile

import orjson
import pytest

from loko.apikeys.models import ApiKey
from loko.extensions import db
from tests.factories import CallerClient, add_language, add_org_member, make_session, make_user, user_id
from tests.mcp.conftest import posted_tool_call
from tests.pages.conftest import PageClient, alert_of
from tests.translation_factories import ProjectApi

LIMITED = ("de_editor", "de_reviewer", "de_key")
PEOPLE = ("de_editor", "de_reviewer")
REFUSED_FR = "language: you may not edit fr in this project."


@pytest.fixture
def limited(app, world, as_caller):
    """The world with languages, a key with values, and the callers limited to ``de``."""
    with app.app_context():
        for code in ("en", "de", "fr"):
            add_language(_project(world), code)
        for name in PEOPLE:
            user = make_user(f"{name}@example.test", name)
            add_org_member(_organization(world), user)
            world.users[name] = user
            world.credentials[name] = {"cookie": make_session(user)}
    owner = as_caller("org_owner")
    for name, role in (("de_editor", "editor"), ("de_reviewer", "reviewer")):
        response = owner.put(
            f"/api/projects/{world.project_id}/members/{user_id(world.users[name])}",
            json={"role": role, "languages": ["de"]},
        )
        assert response.status_code == 200, response.json
    response = owner.post(f"/api/projects/{world.project_id}/keys", json={"name": "de", "languages": ["de"]})
    assert response.status_code == 201, response.json
    world.credentials["de_key"] = {"bearer": response.json["key"]}
    writer = ProjectApi(as_caller("write_key"), world.project_id)
    world.greeting_id = writer.create("greeting", {"en": "Hello", "de": "Hallo", "fr": "Bonjour"})["id"]
    return world


def _project(world):
    from loko.projects.models import Project

    return db.session.get(Project, world.project_id)


def _organization(world):
    from loko.organizations.models import Organization

    return db.session.get(Organization, world.organization_id)


def _api(app, world, caller) -> ProjectApi:
    return ProjectApi(CallerClient(app, world.credentials[caller]), world.project_id)


def _etag(app, world) -> str:
    return _api(app, world, "org_owner").export_response().headers["ETag"]


def _refused(response, language="fr"):
    assert response.status_code == 403, response.json
    assert response.json["error"] == f"language: you may not edit {language} in this project."


def _patch(api, updates, key="greeting"):
    body = {"key": key, "fileName": "common", "updates": {c: {"value": v} for c, v in updates.items()}}
    return api.patch("/translations", body)


def _bulk(api, language, key="greeting", value="Changed"):
    return api.bulk_upsert_request(language, [{"key": key, "value": value}])


def _import(api, language, document, dry_run=False, background=False):
    return api.client.post(
        api.url("/import"),
        data=orjson.dumps(document),
        query_string={
            "fileName": "common",
            "language": language,
            "format": "json",
            **({"dryRun": "true"} if dry_run else {}),
            **({"async": "true"} if background else {}),
        },
        headers={"Content-Type": "application/octet-stream"},
    )


def _upload(app, world, caller, language, document, dry_run=False) -> tuple[int, str]:
    """An import as the caller makes one: over REST with a key (a dry run, or for good), on
    the import page by a person (whose preview is the dry run). ``(status, message)``."""
    if caller.endswith("_key"):
        response = _import(_api(app, world, caller), language, document, dry_run)
        return response.status_code, response.json.get("error")
    page = PageClient(app, world.credentials[caller])
    response = page.submit(
        f"/projects/{world.project_id}/import",
        {
            "file": (io.BytesIO(orjson.dumps(document)), "common.json"),
            "language": language,
            "format": "json",
            "fileName": "common",
        },
    )
    return response.status_code, alert_of(response)


@pytest.mark.parametrize("dry_run", [True, False], ids=["dry run", "commit"])
@pytest.mark.parametrize("caller", LIMITED)
def test_a_forged_import_in_another_language_is_refused_naming_it(app, limited, caller, dry_run):
    before = _etag(app, limited)
    status, message = _upload(app, limited, caller, "fr", {"greeting": "Salut"}, dry_run)
    assert (status, message) == (403, REFUSED_FR)
    assert _etag(app, limited) == before


@pytest.mark.parametrize("caller", LIMITED)
def test_an_import_in_the_caller_s_language_is_previewed(app, limited, caller):
    status, message = _upload(app, limited, caller, "de", {"greeting": "Moin"}, dry_run=True)
    assert (status, message) == (200, None)


def test_an_import_in_the_key_s_language_is_done(app, limited):
    before = _etag(app, limited)
    response = _import(_api(app, limited, "de_key"), "de", {"greeting": "Moin"})
    assert response.status_code == 200, response.json
    assert _etag(app, limited) != before


# A background import (``async=true``) is a key's (people import on the page).


def test_a_forged_background_import_is_refused_before_it_is_queued(app, limited):
    before = _etag(app, limited)
    _refused(_import(_api(app, limited, "de_key"), "fr", {"greeting": "Salut"}, background=True))
    jobs = _api(app, limited, "org_owner").get("/jobs")
    assert jobs.status_code == 200, jobs.json
    assert jobs.json["jobs"] == []
    assert _etag(app, limited) == before


def test_a_background_import_that_would_create_keys_is_refused_before_it_is_queued(app, limited):
    response = _import(_api(app, limited, "de_key"), "de", {"fresh": "Neu"}, background=True)
    assert response.status_code == 403, response.json
    assert "limited to de" in response.json["error"]


def test_a_background_import_in_the_key_s_language_is_queued(app, limited):
    response = _import(_api(app, limited, "de_key"), "de", {"greeting": "Moin"}, background=True)
    assert response.status_code == 202, response.json


# Every other language-scoped write path, as each limited caller would forge it for fr.
FORGED = {
    "PATCH": lambda api: _patch(api, {"fr": "Salut"}),
    "PATCH with an allowed language": lambda api: _patch(api, {"de": "Servus", "fr": "Salut"}),
    "bulk upsert": lambda api: _bulk(api, "fr"),
    "review (needs-review)": lambda api: api.post(
        "/translations/review",
        {"fileName": "common", "keys": ["greeting"], "languages": ["fr"], "state": "needs-review"},
    ),
    "machine suggestions": lambda api: api.client.get(
        api.url("/suggestions"), query_string={"fileName": "common", "key": "greeting", "language": "fr"}
    ),
    "PATCH of a suggestion saved unedited": lambda api: api.patch(
        "/translations",
        {
            "key": "greeting",
            "fileName": "common",
            "updates": {"fr": {"value": "Salut", "uneditedSuggestion": "machine"}},
        },
    ),
}


@pytest.mark.parametrize("path", FORGED)
@pytest.mark.parametrize("caller", LIMITED)
def test_a_forged_write_in_another_language_is_refused_naming_it(app, limited, caller, path):
    before = _etag(app, limited)
    _refused(FORGED[path](_api(app, limited, caller)))
    assert _etag(app, limited) == before


# The same paths in the caller's own language.
ALLOWED = {
    "PATCH": lambda api: _patch(api, {"de": "Servus"}),
    "bulk upsert": lambda api: _bulk(api, "de"),
    "review (needs-review)": lambda api: api.post(
        "/translations/review",
        {"fileName": "common", "keys": ["greeting"], "languages": ["de"], "state": "needs-review"},
    ),
}


@pytest.mark.parametrize("path", ALLOWED)
@pytest.mark.parametrize("caller", LIMITED)
def test_a_write_in_the_caller_s_language_is_done(app, limited, caller, path):
    before = _etag(app, limited)
    response = ALLOWED[path](_api(app, limited, caller))
    assert response.status_code == 200, response.json
    assert _etag(app, limited) != before


def test_a_read_key_s_import_dry_run_stays_open_to_every_language(app, limited):
    response = _import(_api(app, limited, "read_key"), "fr", {"greeting": "Salut"}, dry_run=True)
    assert response.status_code == 200, response.json


def test_a_limited_reviewer_marks_values_reviewed_in_their_language_only(app, limited):
    api = _api(app, limited, "de_reviewer")
    body = {"fileName": "common", "keys": ["greeting"], "state": "reviewed"}
    _refused(api.post("/translations/review", {**body, "languages": ["fr"]}))
    done = api.post("/translations/review", {**body, "languages": ["de"]})
    assert done.status_code == 200, done.json


@pytest.mark.parametrize("caller", LIMITED)
def test_a_limited_caller_reads_the_review_queue_in_every_language(app, limited, caller):
    _api(app, limited, "write_key").set_values("greeting", {"en": "Hi"})
    response = _api(app, limited, caller).get("/translations/review", state="needs-review")
    assert response.status_code == 200, response.json
    assert [item["language"] for item in response.json["values"]] == ["de", "fr"]


def test_the_answer_names_every_language_refused(app, limited):
    response = _patch(_api(app, limited, "de_editor"), {"en": "Hi", "fr": "Salut"})
    assert response.status_code == 403
    assert response.json["error"] == "language: you may not edit en, fr in this project."
    assert response.json["details"] == {"languages": ["en", "fr"]}


# Undo and revert


def _bulk_operation_in(app, world, language) -> str:
    writer = _api(app, world, "write_key")
    assert _bulk(writer, language, value=f"By the key in {language}").status_code == 200
    (operation, *_) = writer.get("/operations").json["operations"]
    return operation["id"]


@pytest.mark.parametrize("caller", LIMITED)
def test_undoing_an_operation_in_another_language_is_refused(app, limited, caller):
    operation_id = _bulk_operation_in(app, limited, "fr")
    before = _etag(app, limited)
    response = _api(app, limited, caller).post("/history/revert", {"operationId": operation_id})
    _refused(response)
    assert _etag(app, limited) == before


@pytest.mark.parametrize("caller", LIMITED)
def test_undoing_an_operation_in_the_caller_s_language_is_done(app, limited, caller):
    operation_id = _bulk_operation_in(app, limited, "de")
    response = _api(app, limited, caller).post("/history/revert", {"operationId": operation_id})
    assert response.status_code == 200, response.json


def test_an_undo_dry_run_in_another_language_is_refused(app, limited):
    operation_id = _bulk_operation_in(app, limited, "fr")
    response = _api(app, limited, "de_editor").post(
        "/history/revert", {"operationId": operation_id, "dryRun": True}
    )
    _refused(response)


def test_undoing_a_key_s_creation_needs_every_language(app, limited):
    writer = _api(app, limited, "write_key")
    assert _bulk(writer, "de", key="fresh").status_code == 200
    (operation, *_) = writer.get("/operations").json["operations"]
    response = _api(app, limited, "de_editor").post("/history/revert", {"operationId": operation["id"]})
    assert response.status_code == 403
    assert "limited to de" in response.json["error"]


def _history_entry(app, world, language) -> int:
    writer = _api(app, world, "write_key")
    writer.set_values("greeting", {language: f"Changed in {language}"})
    (entry, *_) = writer.history(language=language, action="updated")
    return entry["id"]


@pytest.mark.parametrize("caller", PEOPLE)
def test_reverting_a_history_entry_of_another_language_is_refused_on_the_page(app, limited, caller):
    entry_id = _history_entry(app, limited, "fr")
    before = _etag(app, limited)
    page = PageClient(app, limited.credentials[caller])
    response = page.submit(f"/projects/{limited.project_id}/history/{entry_id}/revert")
    assert response.status_code == 403
    assert alert_of(response) == REFUSED_FR
    assert _etag(app, limited) == before


def test_reverting_a_history_entry_of_the_caller_s_language_is_done(app, limited):
    entry_id = _history_entry(app, limited, "de")
    page = PageClient(app, limited.credentials["de_editor"])
    response = page.submit(f"/projects/{limited.project_id}/history/{entry_id}/revert")
    assert response.status_code == 303


# The editor's forms


def _greeting_id(app, world) -> str:
    return world.greeting_id


@pytest.mark.parametrize("caller", PEOPLE)
def test_the_editor_s_fix_form_for_another_language_is_refused(app, limited, caller):
    before = _etag(app, limited)
    page = PageClient(app, limited.credentials[caller])
    response = page.submit(
        f"/projects/{limited.project_id}/editor/fix",
        {
            "id": _greeting_id(app, limited),
            "language": "fr",
            "check": "whitespace",
            "expected": "Bonjour",
        },
    )
    assert response.status_code == 403
    assert alert_of(response) == REFUSED_FR
    assert _etag(app, limited) == before


def test_the_editor_s_review_form_for_another_language_is_refused(app, limited):
    before = _etag(app, limited)
    page = PageClient(app, limited.credentials["de_reviewer"])
    response = page.submit(
        f"/projects/{limited.project_id}/editor/review",
        {"id": _greeting_id(app, limited), "language": "fr"},
    )
    assert response.status_code == 403
    assert alert_of(response) == REFUSED_FR
    assert _etag(app, limited) == before


def test_the_editor_s_review_form_for_the_reviewer_s_language_is_done(app, limited):
    page = PageClient(app, limited.credentials["de_reviewer"])
    response = page.submit(
        f"/projects/{limited.project_id}/editor/review",
        {"id": _greeting_id(app, limited), "language": "de"},
    )
    assert response.status_code == 303


# MCP (API keys only)


def _mcp(app, world, caller, name, arguments) -> dict:
    return posted_tool_call(CallerClient(app, world.credentials[caller]), name, arguments)


MCP_FORGED = {
    "upsert_translations": {
        "fileName": "common",
        "language": "fr",
        "translations": [{"key": "greeting", "value": "Salut"}],
    },
    "import_file": {
        "fileName": "common",
        "language": "fr",
        "format": "json",
        "content": '{"greeting": "Salut"}',
        "dryRun": False,
    },
    "suggest_translations": {"fileName": "common", "key": "greeting", "language": "fr"},
    "pretranslate": {"languages": ["fr"], "sources": {"memory": {"minScore": 90}}, "dryRun": False},
    "mark_reviewed": {
        "fileName": "common",
        "keys": ["greeting"],
        "languages": ["fr"],
        "state": "needs-review",
    },
}


@pytest.mark.parametrize("tool", MCP_FORGED)
def test_an_mcp_write_tool_in_another_language_is_refused_naming_it(app, limited, tool):
    before = _etag(app, limited)
    result = _mcp(app, limited, "de_key", tool, MCP_FORGED[tool])
    assert result["isError"]
    assert REFUSED_FR in result["content"][0]["text"]
    assert _etag(app, limited) == before


def test_an_mcp_undo_of_another_language_is_refused(app, limited):
    operation_id = _bulk_operation_in(app, limited, "fr")
    result = _mcp(app, limited, "de_key", "undo_changes", {"operationId": operation_id, "dryRun": False})
    assert result["isError"]
    assert REFUSED_FR in result["content"][0]["text"]


def test_an_mcp_upsert_in_the_key_s_language_is_done(app, limited):
    arguments = {**MCP_FORGED["upsert_translations"], "language": "de"}
    result = _mcp(app, limited, "de_key", "upsert_translations", arguments)
    assert not result["isError"], result


def test_an_mcp_key_deletion_by_a_limited_key_is_refused(app, limited):
    before = _etag(app, limited)
    result = _mcp(app, limited, "de_key", "delete_translation", {"id": limited.greeting_id})
    assert result["isError"]
    assert "limited to de" in result["content"][0]["text"]
    assert _etag(app, limited) == before


def test_an_mcp_key_creation_by_a_limited_key_is_refused(app, limited):
    arguments = {"key": "fresh", "fileName": "common", "values": {"de": "Neu"}}
    result = _mcp(app, limited, "de_key", "create_translation", arguments)
    assert result["isError"]
    assert "limited to de" in result["content"][0]["text"]


# Keys, files and languages: every language needed


def _ids(app, world) -> dict:
    writer = _api(app, world, "write_key")
    trashed = writer.create("trashed", {"en": "Old"})
    writer.trash(trashed["id"])
    return {"id": _greeting_id(app, world), "trashed": trashed["id"]}


KEY_MANAGEMENT = [
    ("POST", "/translations", {"key": "fresh", "fileName": "common", "values": {"de": "Neu"}}),
    ("PUT", "/translations", {"operation": "bulk-delete", "fileName": "common", "keys": ["greeting"]}),
    ("DELETE", "/translations", {"id": "{id}"}),
    ("POST", "/translations/trash", {"id": "{trashed}"}),
    ("DELETE", "/translations/trash", {"id": "{trashed}"}),
    ("PATCH", "/translations/details", {"key": "greeting", "fileName": "common", "comment": "Home page"}),
    ("POST", "/files", {"fileName": "extra", "languages": [{"code": "de"}]}),
    ("PATCH", "/files", {"fileName": "common", "newFileName": "main"}),
    ("DELETE", "/files", {"fileName": "common"}),
    ("DELETE", "/files", {"fileName": "common", "languageCode": "fr"}),
    ("DELETE", "/files", {"fileName": "common", "languageCode": "de"}),
    ("POST", "/languages", {"code": "it"}),
    ("PATCH", "/languages", {"currentCode": "de", "name": "Deutsch"}),
]


@pytest.mark.parametrize(
    ("method", "path", "body"), KEY_MANAGEMENT, ids=[f"{m} {p}" for m, p, _ in KEY_MANAGEMENT]
)
@pytest.mark.parametrize("caller", LIMITED)
def test_managing_keys_files_and_languages_needs_every_language(app, limited, caller, method, path, body):
    ids = _ids(app, limited)
    filled = {name: value.format(**ids) if isinstance(value, str) else value for name, value in body.items()}
    before = _etag(app, limited)
    response = _api(app, limited, caller).client.open(
        method, f"/api/projects/{limited.project_id}{path}", json=filled
    )
    assert response.status_code == 403, response.json
    assert response.json["error"].startswith("Your edits in this project are limited to de;")
    assert _etag(app, limited) == before


@pytest.mark.parametrize("caller", LIMITED)
def test_a_patch_that_would_create_a_key_is_refused(app, limited, caller):
    before = _etag(app, limited)
    response = _patch(_api(app, limited, caller), {"de": "Neu"}, key="fresh")
    assert response.status_code == 403
    assert response.json["error"].startswith("key: 'fresh' is not in the file 'common'")
    assert _etag(app, limited) == before


@pytest.mark.parametrize("caller", LIMITED)
def test_a_bulk_upsert_that_would_create_a_key_is_refused(app, limited, caller):
    before = _etag(app, limited)
    response = _bulk(_api(app, limited, caller), "de", key="fresh")
    assert response.status_code == 403
    assert "'fresh'" in response.json["error"]
    assert _etag(app, limited) == before


def test_an_import_that_would_create_keys_is_refused(app, limited):
    response = _import(_api(app, limited, "de_key"), "de", {"greeting": "Hallo!", "fresh": "Neu"})
    assert response.status_code == 403
    assert "limited to de" in response.json["error"]


def test_an_import_of_a_zip_with_another_language_names_it(app, limited):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("de/common.json", orjson.dumps({"greeting": "Hallo!"}))
        archive.writestr("fr/common.json", orjson.dumps({"greeting": "Salut"}))
    response = _api(app, limited, "de_key").client.post(
        f"/api/projects/{limited.project_id}/import",
        data=buffer.getvalue(),
        query_string={"pathTemplate": "{language}/{fileName}.json", "format": "json"},
        headers={"Content-Type": "application/zip"},
    )
    _refused(response)


# Who is limited, and how it shows


def test_the_project_tells_a_limited_caller_their_languages(app, limited):
    project = (
        _api(app, limited, "de_editor").client.get(f"/api/projects/{limited.project_id}").json["project"]
    )
    assert (project["editableLanguages"], project["canManageKeys"], project["canEditTranslations"]) == (
        ["de"],
        False,
        True,
    )


@pytest.mark.parametrize("caller", ["editor", "write_key", "org_owner"])
def test_callers_not_limited_manage_keys(app, limited, caller):
    project = _api(app, limited, caller).client.get(f"/api/projects/{limited.project_id}").json["project"]
    assert (project["editableLanguages"], project["canManageKeys"]) == (None, True)


def _set_member(app, world, name, **body):
    return CallerClient(app, world.credentials["org_owner"]).put(
        f"/api/projects/{world.project_id}/members/{user_id(world.users[name])}", json=body
    )


def test_a_member_s_languages_are_answered(app, limited):
    response = _set_member(app, limited, "de_editor", role="editor", languages=["fr", "de"])
    assert response.status_code == 200
    assert response.json["member"]["languages"] == ["de", "fr"]


def test_leaving_languages_out_keeps_the_limit(app, limited):
    response = _set_member(app, limited, "de_editor", role="reviewer")
    assert response.json["member"]["languages"] == ["de"]


@pytest.mark.parametrize("languages", [None, []])
def test_null_or_empty_languages_lift_the_limit(app, limited, languages):
    response = _set_member(app, limited, "de_editor", role="editor", languages=languages)
    assert response.json["member"]["languages"] is None
    assert _patch(_api(app, limited, "de_editor"), {"fr": "Salut"}).status_code == 200


@pytest.mark.parametrize("role", ["viewer", "admin"])
def test_a_role_that_is_never_limited_drops_the_limit(app, limited, role):
    response = _set_member(app, limited, "de_editor", role=role, languages=["de"])
    assert response.json["member"]["languages"] is None


def test_a_language_the_project_does_not_have_is_refused(app, limited):
    response = _set_member(app, limited, "de_editor", role="editor", languages=["de", "it"])
    assert response.status_code == 400
    assert response.json["error"] == "languages.1: 'it' is not a language of this project."


def test_a_language_code_that_is_not_one_is_refused(app, limited):
    response = _set_member(app, limited, "de_editor", role="editor", languages=["not a code"])
    assert response.status_code == 400
    assert "languages" in response.json["error"]


@pytest.mark.parametrize("caller", ["de_editor", "editor", "viewer", "write_key", "outsider"])
def test_only_project_admins_set_a_member_s_languages(app, limited, caller):
    response = CallerClient(app, limited.credentials[caller]).put(
        f"/api/projects/{limited.project_id}/members/{user_id(limited.users['de_editor'])}",
        json={"role": "editor", "languages": None},
    )
    assert response.status_code in (403, 404)


def test_a_renamed_language_stays_in_the_limits(app, limited):
    owner = _api(app, limited, "org_owner")
    assert owner.patch("/languages", {"currentCode": "de", "code": "de-AT"}).status_code == 200
    assert _patch(_api(app, limited, "de_editor"), {"de-AT": "Servus"}).status_code == 200
    assert _patch(_api(app, limited, "de_key"), {"de-AT": "Servus"}).status_code == 200


def test_a_limited_key_is_listed_with_its_languages(app, limited):
    keys = CallerClient(app, limited.credentials["org_owner"]).get(f"/api/projects/{limited.project_id}/keys")
    by_name = {item["name"]: item for item in keys.json["keys"]}
    assert (by_name["de"]["languages"], by_name["write_key"]["languages"]) == (["de"], None)


def test_the_limit_is_stored_per_key(app, limited):
    with app.app_context():
        stored = db.session.execute(db.select(ApiKey.languages).where(ApiKey.name == "de")).scalar_one()
    assert orjson.loads(stored) == ["de"]


def _pretranslate(api, language, dry_run=False):
    body = {"languages": [language], "sources": {"memory": {"minScore": 90}}, "dryRun": dry_run}
    return api.post("/pretranslate", body)


@pytest.mark.parametrize("dry_run", [False, True])
@pytest.mark.parametrize("caller", LIMITED)
def test_a_pretranslation_of_another_language_is_refused_naming_it(app, limited, caller, dry_run):
    _refused(_pretranslate(_api(app, limited, caller), "fr", dry_run))


@pytest.mark.parametrize("caller", LIMITED)
def test_a_pretranslation_of_the_caller_s_language_is_not_refused(app, limited, caller):
    assert _pretranslate(_api(app, limited, caller), "de").status_code != 403
