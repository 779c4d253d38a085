"""Checks on every write path: the issues stored for a value, a refusing check's 400 with
nothing written, the review states the writes set, and GET /checks."""

import types

import orjson
import pytest

from loko.checks import Issue, registry
from loko.quality import service as quality_service
from loko.quality.service import CHECKED_LATER_ABOVE
from tests.translation_factories import ProjectApi, project_api
from tests.webhooks.conftest import run_jobs


def _shouting(target):
    """A check for the tests: a translation in capitals where its source (if any) is not."""
    is_source = target.language == target.source_language
    if not is_source and target.value.isupper() and not (target.source or "").isupper():
        return [Issue("shouting", f"{target.value} is in capitals.", target.value.capitalize())]
    return []


SHOUTING = types.SimpleNamespace(CODE="shouting", TITLE="In capitals", check=_shouting)
ISSUE = {
    "key": "title",
    "fileName": "common",
    "language": "de",
    "check": "shouting",
    "message": "LAUT is in capitals.",
    "fix": "Laut",
    "value": "LAUT",
    "state": "translated",
    "reason": None,
}


@pytest.fixture(autouse=True)
def shouting(monkeypatch):
    monkeypatch.setitem(registry.CHECKS, "shouting", SHOUTING)


@pytest.fixture
def api(app) -> ProjectApi:
    api = project_api(app)
    api.create("title", {"en": "Loud"})
    return api


def checks(api: ProjectApi, **params) -> dict:
    response = api.get("/checks", **params)
    assert response.status_code == 200, response.json
    return response.json


def set_levels(api: ProjectApi, **levels):
    response = api.owner.put(api.url(), json={"checks": levels})
    assert response.status_code == 200, response.json
    return response.json["project"]["checks"]


def imported(api: ProjectApi, document: dict, status: int = 200, **params):
    response = api.client.post(
        api.url("/import"),
        data=orjson.dumps(document),
        query_string={"fileName": "common", "language": "de", "format": "json", **params},
        headers={"Content-Type": "application/octet-stream"},
    )
    assert response.status_code == status, response.json
    return response.json


def undo_last_operation(api: ProjectApi):
    operation = api.get("/operations").json["operations"][0]
    response = api.post("/history/revert", {"operationId": operation["id"]})
    assert response.status_code == 200, response.json


def write_by_patch(api):
    api.set_values("title", {"de": "LAUT"})


def write_by_create(api):
    api.create("title", {"de": "LAUT"}, file_name="other")


def write_by_bulk(api):
    api.upsert("de", {"title": "LAUT"})


def write_by_import(api):
    imported(api, {"title": "LAUT"})


def write_by_undo(api):
    api.set_values("title", {"de": "LAUT"})
    api.upsert("de", {"title": "Laut"})
    assert checks(api)["issues"] == []
    undo_last_operation(api)


WRITES = [write_by_patch, write_by_create, write_by_bulk, write_by_import, write_by_undo]


@pytest.mark.parametrize("write", WRITES, ids=lambda write: write.__name__)
def test_every_write_path_stores_the_same_issue(api, write):
    write(api)

    found = checks(api)
    expected = {**ISSUE, "fileName": "other"} if write is write_by_create else ISSUE
    assert found["issues"] == [expected]
    assert found["counts"] == [{"language": "de", "check": "shouting", "issues": 1}]
    assert found["total"] == 1


def test_a_corrected_value_loses_its_issue(api):
    api.set_values("title", {"de": "LAUT"})
    api.set_values("title", {"de": "Laut"})
    assert checks(api)["issues"] == []


def test_a_value_removed_takes_its_issues_with_it(api):
    api.set_values("title", {"de": "LAUT"})
    (translation,) = [t for t in api.export()["de"]["common"]]
    response = api.delete("/files", {"fileName": "common", "languageCode": "de"})
    assert response.status_code == 200, response.json
    assert translation == "title"
    assert checks(api)["total"] == 0


def test_a_trashed_key_issues_are_not_listed(api):
    translation = api.create("menu", {"de": "MENU"})
    api.trash(translation["id"])
    assert checks(api)["total"] == 0


def test_the_max_length_check_follows_the_key_details(api):
    api.set_values("title", {"de": "Sehr lang"})
    response = api.patch("/translations/details", {"key": "title", "fileName": "common", "maxLength": 4})
    assert response.status_code == 200, response.json
    found = checks(api, check="max-length")
    assert [(row["language"], row["check"]) for row in found["issues"]] == [("de", "max-length")]
    assert found["issues"][0]["message"] == "The value has 9 characters; the key holds at most 4."


def test_checks_turned_off_do_not_run_and_lose_their_issues(api):
    api.set_values("title", {"de": "LAUT"})
    assert set_levels(api, shouting="off")["shouting"] == "off"
    assert checks(api)["total"] == 0
    api.upsert("de", {"other": "NOCH LAUTER"})
    assert checks(api)["total"] == 0


def test_the_filters_narrow_counts_and_list(api):
    api.set_values("title", {"de": "LAUT", "fr": "FORT"})
    api.create("menu", {"de": "MENU"}, file_name="nav")
    assert checks(api, language="fr")["total"] == 1
    assert checks(api, fileName="nav")["issues"][0]["key"] == "menu"
    assert checks(api, check="max-length")["total"] == 0
    assert [row["key"] for row in checks(api, limit=2, offset=1)["issues"]] == ["title", "menu"]


def test_levels_are_a_project_setting_with_warn_by_default(api):
    project = api.owner.get(api.url()).json["project"]
    assert project["checks"] == dict.fromkeys(registry.CHECKS, "warn")
    assert {"placeholders", "max-length", "shouting"} <= set(project["checks"])


@pytest.mark.parametrize(
    ("levels", "field"),
    [({"nonsense": "warn"}, "checks.nonsense"), ({"shouting": "loud"}, "checks.shouting")],
)
def test_an_unknown_check_or_level_is_refused(api, levels, field):
    response = api.owner.put(api.url(), json={"checks": levels})
    assert response.status_code == 400
    assert field in response.json["error"]


def test_a_key_cannot_change_the_levels(api):
    response = api.client.put(api.url(), json={"checks": {"shouting": "off"}})
    assert response.status_code == 403


# Refusing checks: a 400 naming each issue, and nothing written.


def refuse(api):
    set_levels(api, shouting="refuse")
    return api.export_response().headers["ETag"]


def test_a_refused_patch_names_the_value_and_writes_nothing(api):
    etag = refuse(api)
    response = api.patch(
        "/translations", {"key": "title", "fileName": "common", "updates": {"de": {"value": "LAUT"}}}
    )
    assert response.status_code == 400
    assert response.json["error"] == "updates.de.value: shouting: LAUT is in capitals."
    assert api.export_response().headers["ETag"] == etag


@pytest.mark.parametrize(
    "send",
    [
        lambda api: api.bulk_upsert_request("de", {"fine": "Gut", "title": "LAUT"}),
        lambda api: api.post("/translations", {"key": "new", "fileName": "common", "values": {"de": "LAUT"}}),
    ],
    ids=["bulk", "create"],
)
def test_a_refused_write_names_key_and_language_and_writes_nothing(api, send):
    etag = refuse(api)
    response = send(api)
    assert response.status_code == 400
    assert "(de): shouting: LAUT is in capitals." in response.json["error"]
    assert response.json["details"]["issues"][0]["check"] == "shouting"
    assert api.export_response().headers["ETag"] == etag
    assert api.history(language="de") == []


def test_a_refused_import_writes_nothing_and_its_dry_run_lists_the_refusals(api):
    etag = refuse(api)
    dry = imported(api, {"title": "LAUT", "menu": "Menü"}, dryRun="true")
    assert dry["checks"] == {
        "refused": [
            {
                "key": "title",
                "fileName": "common",
                "language": "de",
                "check": "shouting",
                "message": "LAUT is in capitals.",
            }
        ],
        "warnings": 0,
    }
    answer = imported(api, {"title": "LAUT", "menu": "Menü"}, status=400)
    assert "common title (de): shouting" in answer["error"]
    assert api.export_response().headers["ETag"] == etag


def test_a_dry_run_counts_the_warnings(api):
    dry = imported(api, {"title": "LAUT", "menu": "MENÜ"}, dryRun="true")
    assert dry["checks"] == {"refused": [], "warnings": 2}


def test_a_source_change_is_never_refused_for_the_other_languages(api):
    api.set_values("title", {"de": "LAUT"})
    refuse(api)
    api.set_values("title", {"en": "Quiet"})
    assert checks(api)["total"] == 1


# Review states.


def states(api: ProjectApi) -> dict:
    found = checks(api)
    return {row["language"]: row["values"] for row in found["needsReview"]}


def test_a_write_by_a_key_or_person_is_translated(api):
    api.set_values("title", {"de": "Laut"})
    assert states(api) == {}


def test_a_source_change_asks_for_a_review_of_the_other_languages(api):
    api.set_values("title", {"de": "Laut", "fr": "Fort"})
    api.set_values("title", {"en": "Noisy"})
    assert states(api) == {"de": 1, "fr": 1}


def test_a_source_written_with_its_translations_leaves_them_translated(api):
    api.set_values("title", {"en": "Noisy", "de": "Laut"})
    assert states(api) == {}


def test_an_unchanged_value_keeps_its_state(api, as_caller):
    api.set_values("title", {"de": "Laut"})
    api.set_values("title", {"en": "Noisy"})
    api.set_values("title", {"de": "Laut"})
    assert states(api) == {"de": 1}


def test_a_new_source_value_rechecks_the_other_languages(api):
    api.set_values("title", {"de": "LAUT"})
    api.set_values("title", {"en": "LOUD"})
    assert checks(api)["total"] == 0


# A large write: the checks at refuse run in it, the rest right after its commit.


def large(prefix: str, count: int = CHECKED_LATER_ABOVE + 1, **values) -> dict:
    items = {f"{prefix}{number:04d}": "Leise" for number in range(count)}
    return {**items, **values}


def test_a_large_write_has_its_issues_stored_by_a_job_after_its_commit(app, api):
    api.upsert("de", large("bulk.", title="LAUT", menu="MENÜ"))
    assert checks(api)["total"] == 0
    assert run_jobs(app) == 1
    assert [(row["key"], row["check"]) for row in checks(api)["issues"]] == [
        ("menu", "shouting"),
        ("title", "shouting"),
    ]


def test_a_large_send_changing_few_values_has_them_checked_against_their_source_in_it(app, api):
    api.set_values("greeting", {"en": "Hello {name}"})
    api.upsert("de", large("bulk."))
    run_jobs(app)
    api.upsert("de", large("bulk.", greeting="Hallo"))
    assert [(row["key"], row["check"]) for row in checks(api)["issues"]] == [("greeting", "placeholders")]


def test_a_large_write_is_still_refused_by_a_check_at_refuse(api):
    etag = refuse(api)
    response = api.bulk_upsert_request("de", large("bulk.", title="LAUT"))
    assert response.status_code == 400
    assert "title (de): shouting: LAUT is in capitals." in response.json["error"]
    assert api.export_response().headers["ETag"] == etag


def test_a_large_source_change_rechecks_the_other_languages_after_its_commit(app, api):
    api.set_values("title", {"de": "LAUT"})
    api.upsert("en", large("bulk.", title="LOUD"))
    run_jobs(app)
    assert checks(api)["total"] == 0


def test_a_value_corrected_before_the_job_runs_keeps_no_issue(app, api):
    api.upsert("de", large("bulk.", title="LAUT"))
    api.set_values("title", {"de": "Laut"})
    run_jobs(app)
    assert checks(api)["total"] == 0


def interfering_once(monkeypatch, write):
    """``write`` runs once, right after the checks job has read its first batch (before it
    stores that batch's issues)."""
    read = quality_service._batch
    done = []

    def batch(*args):
        found = read(*args)
        if not done:
            done.append(True)
            write()
        return found

    monkeypatch.setattr(quality_service, "_batch", batch)


def test_a_source_changed_while_the_job_checks_leaves_no_stale_issue(app, api, monkeypatch):
    api.set_values("title", {"de": "LAUT"})
    api.upsert("en", large("bulk.", title="Loud again"))
    interfering_once(monkeypatch, lambda: api.set_values("title", {"en": "LOUD"}))
    run_jobs(app)
    assert checks(api)["total"] == 0


def test_a_check_turned_off_while_the_job_checks_gets_no_issue_back(app, api, monkeypatch):
    api.upsert("de", large("bulk.", title="LAUT", menu="MENÜ"))
    interfering_once(monkeypatch, lambda: set_levels(api, shouting="off"))
    run_jobs(app)
    assert checks(api)["total"] == 0
