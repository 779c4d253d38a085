"""A pre-translation's report names each value it did not write (its key, file, language and
why), up to a limit it says it reached; ICU plural and select messages go to the provider
branch by branch, and those that cannot are counted apart; the report says what was asked
and by whom."""

import pytest

from loko.machine import pretranslate
from tests.machine.conftest import stand_in
from tests.machine.test_api import add_provider
from tests.machine.test_pretranslate import SOURCE, pretranslated, upsert, url, values

PLURAL = "{count, plural, one {# message} other {# messages}}"
TWO_PLURALS = "{a, plural, one {# file} other {# files}} in {b, plural, one {# folder} other {# folders}}"


@pytest.fixture
def config_overrides():
    return {"LOKO_OUTBOUND_ALLOW_PRIVATE": True}


@pytest.fixture
def owner(as_caller):
    return as_caller("org_owner")


@pytest.fixture
def project(world, owner):
    """English (the source), German and French; the keys of ``SOURCE`` in ``common``."""
    for code in ("en", "de", "fr"):
        assert owner.post(url(world, "/languages"), json={"code": code}).status_code == 201
    upsert(owner, world, "en", SOURCE)
    return world


@pytest.fixture
def libre(as_caller, world):
    with stand_in("libretranslate") as running:
        running.provider = add_provider(as_caller, world, running)
        yield running


def provider_source(libre) -> dict:
    return {"sources": {"provider": libre.provider["id"]}}


def not_written(report: dict, outcome: str) -> list[dict]:
    return [entry for entry in report["notWritten"] if entry["outcome"] == outcome]


def test_a_refused_value_is_listed_with_its_key_file_language_and_reason(app, project, owner, libre):
    libre.translator = lambda text, target: text.replace("⟦0⟧", "") if text.startswith("Hello") else text
    report = pretranslated(app, owner, project, **provider_source(libre))["result"]
    (entry,) = not_written(report, "refused")
    assert (entry["key"], entry["fileName"], entry["language"]) == ("greeting", "common", "de")
    assert "placeholder" in entry["reason"]
    assert entry["translationId"]


def test_a_failed_request_lists_each_of_its_values(app, project, owner, libre):
    for _ in range(3):
        libre.fail_next(500)
    report = pretranslated(app, owner, project, **provider_source(libre))["result"]
    failed = not_written(report, "failed")
    assert sorted(entry["key"] for entry in failed) == ["count", "empty", "greeting", "title"]
    assert all("LibreTranslate failed (500)" in entry["reason"] for entry in failed)


def test_a_value_written_meanwhile_is_listed_as_skipped(app, project, owner, as_caller, libre):
    editor = as_caller("editor")

    def translate_while_someone_writes(text, target):
        if text == "Inbox":
            upsert(editor, project, "de", {"title": "Posteingang"})
        return f"[{target}] {text}"

    libre.translator = translate_while_someone_writes
    report = pretranslated(app, owner, project, **provider_source(libre))["result"]
    (entry,) = not_written(report, "skipped")
    assert (entry["key"], entry["language"]) == ("title", "de")
    assert "meanwhile" in entry["reason"]


def test_a_value_the_checks_refuse_is_listed_with_the_checks_message(app, project, owner, libre):
    levels = owner.put(f"/api/projects/{project.project_id}", json={"checks": {"whitespace": "refuse"}})
    assert levels.status_code == 200, levels.json
    libre.translator = lambda text, target: f"{text} " if text == "Inbox" else f"[{target}] {text}"
    report = pretranslated(app, owner, project, **provider_source(libre))["result"]
    (entry,) = not_written(report, "refusedByChecks")
    assert entry["key"] == "title"
    assert entry["reason"]


def test_the_list_stops_at_its_limit_and_says_so(app, project, owner, libre, monkeypatch):
    monkeypatch.setattr(pretranslate, "NOT_WRITTEN_LISTED", 2)
    for _ in range(3):
        libre.fail_next(500)
    report = pretranslated(app, owner, project, **provider_source(libre))["result"]
    assert report["failed"] == 4
    assert len(report["notWritten"]) == 2
    assert report["notWrittenTruncated"] is True


def test_a_complete_list_says_it_is_not_truncated(app, project, owner, libre):
    report = pretranslated(app, owner, project, **provider_source(libre))["result"]
    assert (report["notWritten"], report["notWrittenTruncated"]) == ([], False)


def test_an_icu_plural_is_translated_branch_by_branch(app, project, owner, libre):
    upsert(owner, project, "en", {"messages": PLURAL})
    report = pretranslated(app, owner, project, **provider_source(libre))["result"]
    assert (report["notSent"], report["refused"], report["filled"]) == (0, 0, 5)
    sent = [str(call["body"]["q"]) for call in libre.calls]
    assert not any("plural" in text for text in sent)
    assert (
        values(app, project, "de")["messages"]
        == "{count, plural, one {[de] # message} other {[de] # messages}}"
    )


def test_an_icu_message_that_cannot_be_whole_sentences_is_not_sent(app, project, owner, libre):
    upsert(owner, project, "en", {"messages": TWO_PLURALS})
    report = pretranslated(app, owner, project, **provider_source(libre))["result"]
    assert (report["notSent"], report["refused"], report["filled"]) == (1, 0, 4)
    (entry,) = not_written(report, "notSent")
    assert entry["key"] == "messages"
    assert "not sent to machine translation" in entry["reason"]
    sent = [str(call["body"]["q"]) for call in libre.calls]
    assert sent and not any("plural" in text for text in sent)
    assert "messages" not in values(app, project, "de")


def test_the_estimate_leaves_unsendable_icu_messages_out_of_the_providers_share(app, project, owner, libre):
    upsert(owner, project, "en", {"messages": TWO_PLURALS, "one_plural": PLURAL})
    response = owner.post(
        f"/api/projects/{project.project_id}/pretranslate",
        json={"languages": ["de"], "dryRun": True, **provider_source(libre)},
    )
    assert response.status_code == 200, response.json
    assert (response.json["missing"], response.json["toProvider"], response.json["notSent"]) == (6, 5, 1)


def test_the_report_names_the_languages_files_provider_and_who_started_it(app, project, owner, libre):
    job = pretranslated(app, owner, project, files=["common"], **provider_source(libre))
    assert job["result"]["request"] == {
        "languages": ["de"],
        "files": ["common"],
        "provider": "LibreTranslate",
        "memory": None,
    }
    assert job["startedBy"] == {"type": "user", "name": "owner@example.test"}


def test_the_openapi_description_names_the_list_and_its_limit(client):
    document = client.get("/api/openapi.json").json
    description = document["paths"]["/api/projects/{project_id}/pretranslate"]["post"]["description"]
    assert "notWritten" in description
    assert "notWrittenTruncated" in description
    assert "notSent" in description


# --- on the Jobs page ----------------------------------------------------------------------------


def jobs_page(client, world) -> str:
    response = client.get(f"/projects/{world.project_id}/jobs")
    assert response.status_code == 200
    return response.get_data(as_text=True)


def test_the_jobs_page_titles_a_pretranslation_with_what_it_was_asked_and_by_whom(app, project, owner, libre):
    pretranslated(app, owner, project, files=["common"], **provider_source(libre))
    assert "Pre-translation · de · common · LibreTranslate · by owner@example.test</h3>" in jobs_page(
        owner, project
    )


def test_the_jobs_page_links_each_value_not_written_to_the_editor(app, project, owner, libre):
    libre.translator = lambda text, target: text.replace("⟦0⟧", "") if text.startswith("Hello") else text
    job = pretranslated(app, owner, project, **provider_source(libre))
    (entry,) = job["result"]["notWritten"]
    html = jobs_page(owner, project)
    link = f"/projects/{project.project_id}/editor?file=common&amp;id={entry['translationId']}&amp;lang=de"
    assert f'<a href="{link}">greeting</a>' in html
    assert "LibreTranslate refused" in html


def test_an_undone_pretranslation_says_so_and_offers_no_undo(app, project, owner, libre):
    job = pretranslated(app, owner, project, **provider_source(libre))
    assert "Undo this pre-translation" in jobs_page(owner, project)
    undone = owner.post(
        f"/api/projects/{project.project_id}/history/revert",
        json={"operationId": job["result"]["operationId"]},
    )
    assert undone.status_code == 200, undone.json
    html = jobs_page(owner, project)
    assert "Undo this pre-translation" not in html
    assert "This pre-translation has been undone." in html
