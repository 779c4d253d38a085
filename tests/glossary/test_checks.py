"""The glossary check on every write path: a term not translated as the glossary says, a
forbidden translation or term used; the same issues by a single write, a bulk write and an
import; the stored issues following a change to the glossary."""

import orjson
import pytest

from loko.jobs.worker import Worker
from tests.glossary.conftest import add_term, create_key, glossary_url, issues

MISSING = "The source has the glossary term 'file'; the value lacks its translation 'Datei'."
FORBIDDEN = "The value uses 'Akte', which the glossary forbids for 'file'."


def run_jobs(app) -> int:
    worker, ran = Worker(app), 0
    while worker.run_one():
        ran += 1
    return ran


def glossary_messages(client, world, language="de") -> dict:
    return {
        item["key"]: item["message"] for item in issues(client, world, check="glossary", language=language)
    }


@pytest.fixture
def glossary(app, world, as_caller, bilingual):
    add_term(as_caller, world, translations=(("de", "Datei", False), ("de", "Akte", True)))
    run_jobs(app)
    return bilingual


def test_a_value_lacking_the_terms_translation_has_an_issue(app, world, as_caller, glossary):
    create_key(glossary, world, "save", {"en": "Save the file", "de": "Dokument speichern"})
    assert glossary_messages(glossary, world) == {"save": MISSING}


def test_a_value_using_the_translation_has_none(app, world, as_caller, glossary):
    create_key(glossary, world, "save", {"en": "Save the file", "de": "Datei speichern"})
    assert glossary_messages(glossary, world) == {}


def test_a_forbidden_translation_is_an_issue(app, world, as_caller, glossary):
    create_key(glossary, world, "save", {"en": "Save the file", "de": "Datei als Akte speichern"})
    assert glossary_messages(glossary, world) == {"save": FORBIDDEN}


def test_a_forbidden_term_in_a_source_text_is_an_issue(app, world, as_caller, glossary):
    add_term(as_caller, world, "login", (), forbidden=True)
    create_key(glossary, world, "enter", {"en": "Enter your login"})
    assert glossary_messages(glossary, world, "en") == {
        "enter": "The value uses 'login', a term the glossary forbids."
    }


def test_a_case_sensitive_term_is_found_in_its_case_only(app, world, as_caller, glossary):
    add_term(as_caller, world, "Go", (("de", "Go", False),), caseSensitive=True)
    create_key(glossary, world, "lang", {"en": "Written in Go", "de": "In Golang geschrieben"})
    create_key(glossary, world, "move", {"en": "Let's go", "de": "Los"})
    assert glossary_messages(glossary, world) == {}
    create_key(glossary, world, "other", {"en": "Go away", "de": "Weg"})
    assert set(glossary_messages(glossary, world)) == {"other"}


def test_a_term_found_only_inside_a_longer_term_is_left_to_it(app, world, as_caller, glossary):
    add_term(as_caller, world, "file name", (("de", "Dateiname", False),))
    add_term(as_caller, world, "name", (("de", "Bezeichnung", False),))
    create_key(glossary, world, "rename", {"en": "Change the file name", "de": "Den Dateinamen ändern"})
    assert glossary_messages(glossary, world) == {}
    create_key(glossary, world, "both", {"en": "The file name and its name", "de": "Der Dateiname"})
    assert glossary_messages(glossary, world) == {
        "both": "The source has the glossary term 'name'; the value lacks its translation 'Bezeichnung'."
    }


def test_a_longer_term_without_a_translation_in_the_language_hides_no_other(app, world, as_caller, glossary):
    add_term(as_caller, world, "file name", (("fr", "nom de fichier", False),))
    create_key(glossary, world, "rename", {"en": "Change the file name", "de": "Den Namen ändern"})
    assert glossary_messages(glossary, world) == {"rename": MISSING}


def test_another_organizations_glossary_does_not_apply(app, world, as_caller, glossary):
    outsider = as_caller("outsider")
    response = outsider.post(
        f"/api/organizations/{_outsider_org(outsider)}/glossary/terms",
        json={"language": "en", "term": "save", "translations": [{"language": "de", "text": "sichern"}]},
    )
    assert response.status_code == 201, response.json
    create_key(glossary, world, "save", {"en": "Save", "de": "Speichern"})
    assert glossary_messages(glossary, world) == {}


def _outsider_org(client) -> str:
    response = client.get("/api/organizations")
    return response.json["organizations"][0]["id"]


def test_a_single_patch_by_key_finds_the_issue(app, world, as_caller, glossary):
    create_key(glossary, world, "save", {"en": "Save the file"})
    response = as_caller("write_key").patch(
        f"/api/projects/{world.project_id}/translations",
        json={"key": "save", "fileName": "common", "updates": {"de": {"value": "Speichern"}}},
    )
    assert response.status_code == 200, response.json
    assert glossary_messages(glossary, world) == {"save": MISSING}


def _bulk(client, world, language, items):
    response = client.put(
        f"/api/projects/{world.project_id}/translations",
        json={
            "operation": "bulk-upsert",
            "fileName": "common",
            "languageCode": language,
            "translations": [{"key": k, "value": v} for k, v in items.items()],
        },
    )
    assert response.status_code == 200, response.json


SOURCES = {f"k{i}": f"Open file {i}" if i % 2 else f"Open folder {i}" for i in range(40)}
TRANSLATIONS = {f"k{i}": f"Datei {i} öffnen" if i % 4 == 1 else f"Öffne {i}" for i in range(40)}


def test_a_bulk_write_and_an_import_store_the_same_issues_as_single_writes(app, world, as_caller, glossary):
    client = as_caller("write_key")
    _bulk(client, world, "en", SOURCES)
    _bulk(client, world, "de", TRANSLATIONS)
    by_bulk = glossary_messages(glossary, world)
    assert set(by_bulk) == {k for i, k in enumerate(SOURCES) if i % 2 and i % 4 != 1}
    _bulk(client, world, "de", {key: "" for key in TRANSLATIONS})
    response = client.post(
        f"/api/projects/{world.project_id}/import",
        query_string={"fileName": "common", "language": "de", "format": "json"},
        data=orjson.dumps(TRANSLATIONS),
        headers={"Content-Type": "application/octet-stream"},
    )
    assert response.status_code == 200, response.json
    assert glossary_messages(glossary, world) == by_bulk
    for key, value in TRANSLATIONS.items():
        as_caller("write_key").patch(
            f"/api/projects/{world.project_id}/translations",
            json={"key": key, "fileName": "common", "updates": {"de": {"value": value + " "}}},
        )
    assert glossary_messages(glossary, world) == by_bulk


def test_the_stored_issues_follow_a_change_to_the_glossary(app, world, as_caller, glossary):
    create_key(glossary, world, "open", {"en": "Open the folder", "de": "Verzeichnis öffnen"})
    assert glossary_messages(glossary, world) == {}
    term = add_term(as_caller, world, "folder", (("de", "Ordner", False),))
    run_jobs(app)
    assert set(glossary_messages(glossary, world)) == {"open"}
    response = as_caller("org_owner").delete(glossary_url(world, f"/terms/{term['id']}"))
    assert response.status_code == 200
    run_jobs(app)
    assert glossary_messages(glossary, world) == {}


def test_the_check_turned_off_finds_nothing(app, world, as_caller, glossary):
    response = glossary.put(f"/api/projects/{world.project_id}", json={"checks": {"glossary": "off"}})
    assert response.status_code == 200, response.json
    create_key(glossary, world, "save", {"en": "Save the file", "de": "Speichern"})
    assert glossary_messages(glossary, world) == {}


def _patch(client, world, value):
    response = client.patch(
        f"/api/projects/{world.project_id}/translations",
        json={"key": "save", "fileName": "common", "updates": {"de": {"value": value}}},
    )
    assert response.status_code == 200, response.json


def test_a_write_reads_the_glossary_s_terms_once_per_revision(app, world, as_caller, glossary):
    from tests.integration.test_query_counts import counted_statements

    create_key(glossary, world, "save", {"en": "Save the file"})
    client = as_caller("write_key")
    _patch(client, world, "Speichern")  # the terms of this revision are read here, or before
    with counted_statements(app) as statements:
        _patch(client, world, "Datei speichern")
    assert not [s for s in statements if "glossary" in s]
    add_term(as_caller, world, "save", (("de", "speichern", False),))
    with counted_statements(app) as statements:
        _patch(client, world, "Datei sichern")
    assert len([s for s in statements if "glossary_terms" in s]) == 1
    assert glossary_messages(glossary, world) == {
        "save": "The source has the glossary term 'save'; the value lacks its translation 'speichern'."
    }


def test_a_write_without_a_glossary_reads_nothing_of_it(app, world, as_caller, bilingual):
    from tests.integration.test_query_counts import counted_statements

    # With a German value already, the file's German record is there: the PATCH reads the key
    # once (one that adds a record starts again, alone, and reads it twice).
    create_key(bilingual, world, "save", {"en": "Save the file", "de": "Datei sichern"})
    with counted_statements(app) as statements:
        _patch(as_caller("write_key"), world, "Speichern")
    assert not [s for s in statements if "glossary_terms" in s]
    assert sum("glossaries" in s for s in statements) == 1  # joined to the settings' query
