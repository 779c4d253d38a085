"""The memory over REST: a project's lookup, the organization's TMX export and import (a
background job), the suggestions answer, the project's sharing setting, and who may do each."""

import base64

import pytest

from loko.jobs.worker import Worker
from tests.factories import CALLERS
from tests.memory.test_tmx import document, tu

# anonymous, unknown_key, revoked_key, other_project_key, read_key, write_key, viewer,
# editor, project_admin, org_admin, org_owner, outsider.
VIEW = (401, 401, 401, 403, 200, 200, 200, 200, 200, 200, 200, 404)
MANAGERS = (401, 401, 401, 403, 403, 403, 403, 403, 403, 200, 200, 404)


@pytest.fixture
def stored(app, world, as_caller):
    owner = as_caller("org_owner")
    for code in ("en", "de"):
        assert (
            owner.post(f"/api/projects/{world.project_id}/languages", json={"code": code}).status_code == 201
        )
    for key, en, de in (("save", "Save the file", "Datei speichern"), ("cancel", "Cancel", "Abbrechen")):
        created = owner.post(
            f"/api/projects/{world.project_id}/translations",
            json={"key": key, "fileName": "common", "values": {"en": en, "de": de}},
        )
        assert created.status_code == 201, created.json
    return world


def expected(statuses, caller, success):
    status = statuses[CALLERS.index(caller)]
    return success if status == 200 else status


def run_jobs(app) -> int:
    worker, ran = Worker(app), 0
    while worker.run_one():
        ran += 1
    return ran


def upload(data: bytes) -> dict:
    return {"file": base64.b64encode(data).decode()}


def memory_url(world) -> str:
    return f"/api/projects/{world.project_id}/memory"


@pytest.mark.parametrize("caller", CALLERS)
def test_the_lookup_answers_each_caller_as_the_policy_says(stored, as_caller, caller):
    response = as_caller(caller).get(
        memory_url(stored), query_string={"text": "Save the file", "language": "de"}
    )
    assert response.status_code == expected(VIEW, caller, 200), response.json


def test_the_lookup_answers_matches_best_first(stored, as_caller):
    answer = (
        as_caller("viewer")
        .get(memory_url(stored), query_string={"text": "Save the files", "language": "de"})
        .json
    )
    assert answer["sourceLanguage"] == "en"
    [match] = answer["matches"]
    assert (match["text"], match["source"], match["key"], match["file"], match["origin"]) == (
        "Datei speichern",
        "Save the file",
        "save",
        "common",
        "project",
    )
    assert 90 <= match["score"] < 100


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ({"language": "de"}, "text"),
        ({"text": "x" * 2001, "language": "de"}, "text"),
        ({"text": "Save", "language": "not a code"}, "language"),
        ({"text": "Save", "language": "de", "limit": "0"}, "limit"),
        ({"text": "Save", "language": "de", "minScore": "101"}, "minScore"),
        ({"text": "Save", "language": "de", "other": "1"}, "other"),
    ],
)
def test_a_bad_lookup_is_refused_naming_the_field(stored, as_caller, query, field):
    response = as_caller("viewer").get(memory_url(stored), query_string=query)
    assert response.status_code == 400
    assert field in str(response.json)


def test_a_lookup_into_the_source_language_conflicts(stored, as_caller):
    response = as_caller("viewer").get(memory_url(stored), query_string={"text": "Save", "language": "en"})
    assert response.status_code == 409


@pytest.mark.parametrize("caller", CALLERS)
def test_the_export_answers_each_caller_as_the_policy_says(stored, as_caller, caller):
    response = as_caller(caller).get(f"/api/organizations/{stored.organization_id}/memory.tmx")
    assert response.status_code == expected(MANAGERS, caller, 200)


def test_the_export_holds_every_entry_and_imports_back(app, stored, as_caller):
    exported = as_caller("org_admin").get(f"/api/organizations/{stored.organization_id}/memory.tmx")
    assert exported.mimetype == "application/x-tmx+xml"
    with app.app_context():
        from loko.memory import tmx

        units = tmx.read(exported.data, 100)
    assert sorted((unit.source, unit.target) for unit in units) == [
        ("Cancel", "Abbrechen"),
        ("Save the file", "Datei speichern"),
    ]


@pytest.mark.parametrize("caller", CALLERS)
def test_the_import_answers_each_caller_as_the_policy_says(stored, as_caller, caller):
    response = as_caller(caller).post(
        f"/api/organizations/{stored.organization_id}/memory/imports",
        json=upload(document(tu(("en", "Open"), ("de", "Öffnen")))),
    )
    assert response.status_code == expected(MANAGERS, caller, 202), response.json


def test_an_imported_file_s_units_are_found_after_its_job(app, stored, as_caller):
    owner = as_caller("org_owner")
    queued = owner.post(
        f"/api/organizations/{stored.organization_id}/memory/imports",
        json=upload(document(tu(("en", "Open the settings"), ("de", "Einstellungen öffnen")))),
    )
    assert queued.json["job"]["state"] == "queued"
    assert run_jobs(app) >= 1
    job = owner.get(
        f"/api/organizations/{stored.organization_id}/memory/imports/{queued.json['job']['id']}"
    ).json
    assert (job["job"]["state"], job["job"]["result"]["unitsAdded"]) == ("succeeded", 1)
    [match] = (
        as_caller("viewer")
        .get(memory_url(stored), query_string={"text": "Open the settings", "language": "de"})
        .json["matches"]
    )
    assert (match["text"], match["origin"]) == ("Einstellungen öffnen", "tmx")


def test_a_hostile_file_fails_its_job_with_the_reason(app, stored, as_caller):
    owner = as_caller("org_owner")
    doctype = '<!DOCTYPE tmx [<!ENTITY secret SYSTEM "file:///etc/passwd">]>\n'
    queued = owner.post(
        f"/api/organizations/{stored.organization_id}/memory/imports",
        json=upload(document(tu(("en", "&secret;"), ("de", "x")), doctype=doctype)),
    )
    run_jobs(app)
    job = owner.get(
        f"/api/organizations/{stored.organization_id}/memory/imports/{queued.json['job']['id']}"
    ).json
    assert job["job"]["state"] == "failed"
    assert "not allowed" in job["job"]["error"]


@pytest.mark.parametrize("body", [{}, {"file": ""}, {"file": "not base64!"}, {"file": "QQ==", "other": 1}])
def test_a_bad_import_is_refused(stored, as_caller, body):
    response = as_caller("org_owner").post(
        f"/api/organizations/{stored.organization_id}/memory/imports", json=body
    )
    assert response.status_code == 400


def test_another_organization_s_import_job_is_not_found(app, stored, as_caller):
    queued = as_caller("org_owner").post(
        f"/api/organizations/{stored.organization_id}/memory/imports",
        json=upload(document(tu(("en", "a"), ("de", "b")))),
    )
    other = as_caller("outsider").get("/api/organizations").json
    other_id = next(org["id"] for org in other["organizations"] if org["id"] != stored.organization_id)
    response = as_caller("outsider").get(
        f"/api/organizations/{other_id}/memory/imports/{queued.json['job']['id']}"
    )
    assert response.status_code == 404


def test_memory_matches_come_first_in_the_suggestions(app, stored, as_caller):
    owner = as_caller("org_owner")
    owner.post(
        f"/api/projects/{stored.project_id}/translations",
        json={"key": "save2", "fileName": "common", "values": {"en": "Save the files"}},
    )
    answer = (
        as_caller("editor")
        .get(
            f"/api/projects/{stored.project_id}/suggestions",
            query_string={"fileName": "common", "key": "save2", "language": "de"},
        )
        .json
    )
    [first] = answer["suggestions"]
    assert (first["source"], first["text"], first["key"], first["project"]) == (
        "memory",
        "Datei speichern",
        "save",
        "Web app",
    )
    assert first["score"] >= 90


def test_a_new_project_is_not_shared(stored, as_caller):
    project = as_caller("org_owner").get(f"/api/projects/{stored.project_id}").json["project"]
    assert project["memory_shared"] is False


def test_a_project_admin_shares_the_project_with_the_organization_s_memory(stored, as_caller):
    changed = as_caller("project_admin").put(
        f"/api/projects/{stored.project_id}", json={"memory_shared": True}
    )
    assert (changed.status_code, changed.json["project"]["memory_shared"]) == (200, True)


def test_the_old_opt_out_field_is_refused_naming_it(stored, as_caller):
    refused = as_caller("org_owner").put(f"/api/projects/{stored.project_id}", json={"memory_enabled": False})
    assert refused.status_code == 400
    assert "memory_enabled" in refused.json["error"]
