"""The glossary's changes, file imports, pre-translations, and language and file deletes are
recorded in the audit log with who did them and a small summary; the log filters by kind,
and sign-ins are apart: listed only when filtered for."""

import io
import json

import pytest

from loko.audit import service as audit
from loko.database import unit_of_work
from tests.audit.helpers import only, recorded
from tests.factories import user_id
from tests.glossary.conftest import add_term, glossary_url
from tests.machine.conftest import stand_in
from tests.machine.test_api import add_provider

CSV = "language,term,translation_language,translation\r\nen,file,de,Datei\r\nen,folder,de,Ordner\r\n"


@pytest.fixture
def config_overrides():
    return {"LOKO_OUTBOUND_ALLOW_PRIVATE": True}


def owner_actor(world):
    return ("user", user_id(world.users["org_owner"]), "owner@example.test")


def project_url(world, path: str) -> str:
    return f"/api/projects/{world.project_id}{path}"


@pytest.fixture
def owner(as_caller):
    return as_caller("org_owner")


@pytest.fixture
def writer(as_caller):
    """The project's write key: imports send files, which a signed-in session cannot."""
    return as_caller("write_key")


@pytest.fixture
def project(world, owner, writer):
    """English (the source) and German, with two keys in ``common``."""
    for code in ("en", "de"):
        assert owner.post(project_url(world, "/languages"), json={"code": code}).status_code == 201
    imported(writer, world, {"title": "Inbox", "empty": "Nothing here"})
    return world


def imported(client, world, values: dict, language: str = "en", file_name: str = "common", **options):
    upload = (io.BytesIO(json.dumps(values).encode()), f"{file_name}.json")
    response = client.post(
        project_url(world, "/import"),
        data={"file": upload, "format": "json", "language": language, "fileName": file_name, **options},
        content_type="multipart/form-data",
    )
    assert response.status_code == 200, response.json
    return response.json


def log(client, world, **query) -> list[str]:
    response = client.get(f"/api/organizations/{world.organization_id}/audit", query_string=query)
    assert response.status_code == 200, response.json
    return [event["action"] for event in response.json["events"]]


# --- the glossary --------------------------------------------------------------------------------


def test_a_term_created_is_recorded_with_its_term_and_language(app, world, as_caller):
    term = add_term(as_caller, world, "file")
    event = only(app, world.organization_id, "glossary.term_created")
    assert event["actor"] == owner_actor(world)
    assert event["target"] == ("glossary_term", term["id"], "file")
    assert event["details"] == {"term": "file", "language": "en"}


def test_a_term_changed_is_recorded_with_the_fields_changed(app, world, as_caller):
    term = add_term(as_caller, world, "file")
    response = as_caller("org_admin").patch(
        glossary_url(world, f"/terms/{term['id']}"), json={"note": "A document", "forbidden": True}
    )
    assert response.status_code == 200, response.json
    event = only(app, world.organization_id, "glossary.term_updated")
    assert event["actor"][2] == "org_admin@example.test"
    assert event["details"]["fields"] == ["forbidden", "note"]


def test_a_term_deleted_is_recorded(app, world, as_caller):
    term = add_term(as_caller, world, "file")
    assert as_caller("org_owner").delete(glossary_url(world, f"/terms/{term['id']}")).status_code == 200
    event = only(app, world.organization_id, "glossary.term_deleted")
    assert event["target"] == ("glossary_term", term["id"], "file")


def test_a_glossary_import_is_recorded_with_its_counts(app, world, as_caller):
    response = as_caller("org_owner").post(
        glossary_url(world, "/import"), json={"format": "csv", "content": CSV}
    )
    assert response.status_code == 200, response.json
    event = only(app, world.organization_id, "glossary.imported")
    assert event["details"] == {
        "format": "csv",
        "mode": "merge",
        "created": 2,
        "updated": 0,
        "deleted": 0,
        "unchanged": 0,
    }


def test_a_glossary_dry_run_records_nothing(app, world, as_caller):
    response = as_caller("org_owner").post(
        glossary_url(world, "/import"), json={"format": "csv", "content": CSV, "dryRun": True}
    )
    assert response.status_code == 200, response.json
    assert recorded(app, world.organization_id, "glossary.imported") == []


def test_a_refused_term_records_nothing(app, world, as_caller):
    response = as_caller("editor").post(glossary_url(world), json={"language": "en", "term": "file"})
    assert response.status_code == 403
    assert recorded(app, world.organization_id, "glossary.term_created") == []


# --- imports, pre-translations, deletes ----------------------------------------------------------


def test_a_file_import_is_recorded_with_its_files_and_summary(app, project, writer):
    imported(writer, project, {"title": "Posteingang"}, language="de")
    event = recorded(app, project.organization_id, "import.files")[-1]
    assert event["actor"][0] == "api_key"
    assert event["target"][0] == "project"
    assert event["details"]["project"]["id"] == project.project_id
    assert event["details"]["files"] == [{"fileName": "common", "languages": ["de"]}]
    assert (event["details"]["created"], event["details"]["fileCount"]) == (1, 1)
    assert event["details"]["operationId"]


def test_an_import_that_changes_nothing_is_not_recorded(app, project, writer):
    before = len(recorded(app, project.organization_id, "import.files"))
    imported(writer, project, {"title": "Inbox", "empty": "Nothing here"})
    assert len(recorded(app, project.organization_id, "import.files")) == before


def test_a_dry_run_import_is_not_recorded(app, project, writer):
    before = len(recorded(app, project.organization_id, "import.files"))
    imported(writer, project, {"title": "Posteingang"}, language="de", dryRun="true")
    assert len(recorded(app, project.organization_id, "import.files")) == before


def test_a_pretranslation_started_is_recorded_with_what_it_was_asked(app, project, owner, as_caller):
    with stand_in("libretranslate") as running:
        provider = add_provider(as_caller, project, running)
        response = owner.post(
            project_url(project, "/pretranslate"),
            json={"languages": ["de"], "files": ["common"], "sources": {"provider": provider["id"]}},
        )
    assert response.status_code == 202, response.json
    event = only(app, project.organization_id, "pretranslation.started")
    assert event["actor"] == owner_actor(project)
    details = event["details"]
    assert (details["languages"], details["files"], details["provider"]) == (
        ["de"],
        ["common"],
        "LibreTranslate",
    )
    assert details["jobId"] == response.json["job"]["id"]


def test_a_language_deleted_is_recorded_with_its_values(app, project, owner, writer):
    imported(writer, project, {"title": "Posteingang"}, language="de")
    response = owner.delete(project_url(project, "/languages"), json={"code": "de"})
    assert response.status_code == 200, response.json
    event = only(app, project.organization_id, "language.deleted")
    assert event["target"] == ("language", "de", "de")
    assert event["details"]["values"] == 1
    assert event["details"]["permanent"] is False


def test_a_file_deleted_is_recorded_with_its_keys(app, project, owner):
    response = owner.delete(project_url(project, "/files"), json={"fileName": "common"})
    assert response.status_code == 200, response.json
    event = only(app, project.organization_id, "file.deleted")
    assert event["target"] == ("file", None, "common")
    assert (event["details"]["fileName"], event["details"]["keys"]) == ("common", 2)
    assert event["details"]["language"] is None


def test_an_undo_is_recorded_with_what_it_undid(app, project, owner):
    deleted = owner.delete(project_url(project, "/files"), json={"fileName": "common"})
    operation_id = deleted.headers["Loko-Operation"]
    response = owner.post(project_url(project, "/history/revert"), json={"operationId": operation_id})
    assert response.status_code == 200, response.json
    event = only(app, project.organization_id, "undo.applied")
    assert event["details"]["undoes"] == {"operationId": operation_id}
    assert (event["details"]["restored"], event["details"]["operationId"]) == (
        2,
        response.json["operationId"],
    )


def test_an_undo_dry_run_records_nothing(app, project, owner):
    deleted = owner.delete(project_url(project, "/files"), json={"fileName": "common"})
    body = {"operationId": deleted.headers["Loko-Operation"], "dryRun": True}
    assert owner.post(project_url(project, "/history/revert"), json=body).status_code == 200
    assert recorded(app, project.organization_id, "undo.applied") == []


def test_a_refused_delete_records_nothing(app, project, as_caller):
    response = as_caller("viewer").delete(project_url(project, "/files"), json={"fileName": "common"})
    assert response.status_code == 403
    assert recorded(app, project.organization_id, "file.deleted") == []


# --- reading by kind -----------------------------------------------------------------------------


@pytest.fixture
def mixed(app, world):
    with app.app_context(), unit_of_work():
        for action in ("auth.sign_in", "glossary.term_created", "import.files", "auth.sign_out"):
            audit.record(None, world.organization_id, action)
    return world


def test_sign_ins_are_left_out_of_the_default_list(owner, mixed):
    assert log(owner, mixed) == ["import.files", "glossary.term_created"]


def test_sign_ins_are_listed_when_filtered_for(owner, mixed):
    assert log(owner, mixed, kind="auth") == ["auth.sign_out", "auth.sign_in"]


def test_the_kind_filter_lists_that_kind_only(owner, mixed):
    assert log(owner, mixed, kind="glossary") == ["glossary.term_created"]


def test_an_action_filter_naming_sign_ins_lists_them(owner, mixed):
    assert log(owner, mixed, action="auth.sign_in") == ["auth.sign_in"]


def test_an_unknown_kind_is_a_400_naming_the_field(owner, mixed):
    response = owner.get(f"/api/organizations/{mixed.organization_id}/audit", query_string={"kind": "x"})
    assert response.status_code == 400
    assert "kind" in response.json["details"]


def test_the_page_filters_by_kind(owner, mixed):
    page = owner.get(f"/orgs/{mixed.organization_id}/audit", query_string={"kind": "import"})
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    assert "<code>import.files</code>" in text
    assert "<code>glossary.term_created</code>" not in text
