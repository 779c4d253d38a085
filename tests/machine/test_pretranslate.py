"""Pre-translation over REST: a background job that fills only the missing values of some
languages from the memory and/or a provider, writes them as needing a review, as one
operation undone as one, never overwrites a value written meanwhile, never saves a result
whose placeholders differ, waits out a 429, stops when cancelled, and reports exactly what
it saved; who may start one."""

import sys
import threading
import types

import pytest
from sqlalchemy import select

from loko.auth.actors import ApiKeyActor
from loko.extensions import db
from loko.jobs.worker import Worker
from loko.machine import pretranslate
from loko.mcp.tools import call_tool
from loko.translations.models import Translation, TranslationValue
from tests.factories import CALLERS
from tests.machine.conftest import stand_in
from tests.machine.test_api import add_provider

# anonymous, unknown_key, revoked_key, other_project_key, read_key, write_key, viewer,
# editor, project_admin, org_admin, org_owner, outsider: whoever may edit translations.
STARTERS = (401, 401, 401, 403, 403, 202, 403, 202, 202, 202, 202, 404)
SOURCE = {
    "title": "Inbox",
    "greeting": "Hello {name}",
    "count": "You have %d new messages",
    "empty": "Nothing here",
}


@pytest.fixture
def config_overrides():
    return {"LOKO_OUTBOUND_ALLOW_PRIVATE": True}


def url(world, path: str = "/pretranslate") -> str:
    return f"/api/projects/{world.project_id}{path}"


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


def upsert(client, world, language: str, values: dict, file_name: str = "common") -> None:
    response = client.put(
        url(world, "/translations"),
        json={
            "operation": "bulk-upsert",
            "fileName": file_name,
            "languageCode": language,
            "translations": [{"key": key, "value": value} for key, value in values.items()],
        },
    )
    assert response.status_code == 200, response.json


def values(app, world, language: str, file_name: str = "common") -> dict:
    """``{key: value}`` of the active keys of ``file_name`` in ``language``."""
    with app.app_context():
        rows = db.session.execute(
            select(Translation.key, TranslationValue.value)
            .join(TranslationValue, TranslationValue.translation_id == Translation.id)
            .where(
                Translation.project_id == world.project_id,
                Translation.file_name == file_name,
                Translation.deleted_at.is_(None),
                TranslationValue.language_code == language,
            )
        ).all()
        db.session.rollback()
    return dict(rows)


def start(client, world, **body):
    return client.post(url(world), json={"languages": ["de"], **body})


def run_jobs(app) -> int:
    worker, ran = Worker(app), 0
    while worker.run_one():
        ran += 1
    return ran


def job_of(client, world, job_id: str) -> dict:
    return client.get(url(world, f"/jobs/{job_id}")).json["job"]


def pretranslated(app, client, world, **body) -> dict:
    """Start a job, run it, and answer the finished job."""
    response = start(client, world, **body)
    assert response.status_code == 202, response.json
    run_jobs(app)
    return job_of(client, world, response.json["job"]["id"])


@pytest.fixture
def libre(as_caller, world):
    with stand_in("libretranslate") as running:
        running.provider = add_provider(as_caller, world, running)
        yield running


def states(client, world, language: str) -> dict:
    response = client.get(url(world, "/checks"), query_string={"language": language})
    return {row["language"]: row["values"] for row in response.json["needsReview"]}


def test_a_pretranslation_answers_202_with_the_queued_job(app, project, owner, libre):
    response = start(owner, project, sources={"provider": libre.provider["id"]})
    assert response.status_code == 202, response.json
    job = response.json["job"]
    assert (job["kind"], job["state"]) == ("pretranslate", "queued")
    assert libre.calls == []  # nothing asked before the job runs


def test_the_job_fills_only_the_missing_values_and_reports_them(app, project, owner, libre):
    upsert(owner, project, "de", {"title": "Posteingang", "empty": ""})
    job = pretranslated(app, owner, project, sources={"provider": libre.provider["id"]})
    assert job["state"] == "succeeded", job
    assert values(app, project, "de") == {
        "title": "Posteingang",
        "greeting": "[de] Hello {name}",
        "count": "[de] You have %d new messages",
        "empty": "[de] Nothing here",
    }
    report = job["result"]
    assert (report["missing"], report["filled"], report["fromProvider"], report["fromMemory"]) == (3, 3, 3, 0)
    assert (report["refused"], report["failed"], report["skipped"], report["unmatched"]) == (0, 0, 0, 0)
    assert job["progress"] == {"done": 3, "total": 3}


def test_a_key_without_source_text_is_not_filled(app, project, owner, libre):
    upsert(owner, project, "en", {"blank": ""})
    upsert(owner, project, "fr", {"only.french": "Bonjour"})
    job = pretranslated(app, owner, project, sources={"provider": libre.provider["id"]})
    assert job["result"]["missing"] == 4
    assert "blank" not in values(app, project, "de") and "only.french" not in values(app, project, "de")


def test_the_values_written_need_a_review(app, project, owner, libre):
    pretranslated(app, owner, project, sources={"provider": libre.provider["id"]})
    assert states(owner, project, "de") == {"de": 4}


def test_the_values_written_wait_because_they_were_pre_translated(app, project, owner, libre):
    pretranslated(app, owner, project, sources={"provider": libre.provider["id"]})
    response = owner.get(url(project, "/translations/review"), query_string={"state": "needs-review"})
    assert {item["reason"] for item in response.json["values"]} == {"pre-translated"}


def test_only_the_chosen_files_and_filtered_keys_are_filled(app, project, owner, libre):
    upsert(owner, project, "en", {"title": "Settings", "greeting": "Hello {name}"}, file_name="settings")
    job = pretranslated(
        app,
        owner,
        project,
        files=["settings"],
        filter={"search": "hello"},
        sources={"provider": libre.provider["id"]},
    )
    assert job["result"]["filled"] == 1
    assert values(app, project, "de") == {}
    assert libre.texts_of(libre.calls[0]["body"]) == ["Hello ⟦0⟧"]


def test_several_languages_are_filled_in_one_job(app, project, owner, libre):
    job = pretranslated(
        app, owner, project, languages=["de", "fr"], sources={"provider": libre.provider["id"]}
    )
    assert job["result"]["filled"] == 8
    assert values(app, project, "fr")["title"] == "[fr] Inbox"


def test_a_text_used_by_several_keys_is_asked_once(app, project, owner, libre):
    upsert(owner, project, "en", {"title.again": "Inbox", "title.third": "Inbox"})
    job = pretranslated(app, owner, project, sources={"provider": libre.provider["id"]})
    assert job["result"]["filled"] == 6
    assert sorted(libre.texts_of(libre.calls[0]["body"])) == sorted(
        ["Inbox", "Hello ⟦0⟧", "You have ⟦0⟧ new messages", "Nothing here"]
    )


def test_the_provider_is_asked_in_batches_several_at_a_time(app, project, owner, libre):
    upsert(owner, project, "en", {f"item.{number}": f"Item {number}" for number in range(120)})
    job = pretranslated(app, owner, project, sources={"provider": libre.provider["id"]})
    assert job["result"]["filled"] == 124
    assert [len(libre.texts_of(call["body"])) for call in libre.calls] == [25, 25, 25, 25, 24]


def test_the_job_is_undone_as_one_operation(app, project, owner, libre):
    upsert(owner, project, "en", {f"item.{number}": f"Item {number}" for number in range(60)})
    job = pretranslated(app, owner, project, sources={"provider": libre.provider["id"]})
    operation_id = job["result"]["operationId"]
    operation = owner.get(url(project, f"/operations/{operation_id}")).json["operation"]
    assert operation["kind"] == "pretranslate"
    assert (operation["details"]["changes"], operation["details"]["fromProvider"]) == (64, 64)
    listed = owner.get(url(project, "/operations"), query_string={"kind": "pretranslate"}).json
    assert listed["total"] == 1  # three batches, three transactions, one operation

    undone = owner.post(url(project, "/history/revert"), json={"operationId": operation_id})
    assert undone.status_code == 200, undone.json
    assert values(app, project, "de") == {}


def test_an_empty_value_filled_comes_back_empty_when_undone(app, project, owner, libre):
    upsert(owner, project, "de", {"empty": ""})
    job = pretranslated(app, owner, project, sources={"provider": libre.provider["id"]})
    owner.post(url(project, "/history/revert"), json={"operationId": job["result"]["operationId"]})
    assert values(app, project, "de") == {"empty": ""}


def test_a_result_with_a_changed_placeholder_is_never_saved(app, project, owner, libre):
    def mangling(text, target):
        return text.replace("⟦0⟧", "⟦1⟧") if text.startswith("Hello") else text.replace("⟦0⟧", "")

    libre.translator = mangling
    job = pretranslated(app, owner, project, sources={"provider": libre.provider["id"]})
    report = job["result"]
    assert (report["filled"], report["refused"]) == (2, 2)
    saved = values(app, project, "de")
    assert "greeting" not in saved and "count" not in saved
    assert set(saved) == {"title", "empty"}
    assert any("placeholder" in error for error in report["errors"])


def test_a_429_is_waited_out_as_its_retry_after_says(app, project, owner, libre, waits):
    libre.fail_next(429, headers={"Retry-After": "3"})
    job = pretranslated(app, owner, project, sources={"provider": libre.provider["id"]})
    assert waits == [3.0]
    assert (job["result"]["filled"], job["result"]["failed"]) == (4, 0)


def test_a_failing_provider_is_counted_and_nothing_is_saved(app, project, owner, libre):
    for _ in range(3):
        libre.fail_next(500)
    job = pretranslated(app, owner, project, sources={"provider": libre.provider["id"]})
    assert job["state"] == "succeeded"
    assert (job["result"]["failed"], job["result"]["filled"]) == (4, 0)
    assert "LibreTranslate failed (500)" in job["result"]["errors"][0]
    assert values(app, project, "de") == {}


def test_a_value_written_during_the_job_is_not_overwritten(app, project, owner, as_caller, libre):
    editor = as_caller("editor")

    def translate_while_someone_writes(text, target):
        if not hasattr(translate_while_someone_writes, "wrote"):
            translate_while_someone_writes.wrote = True
            upsert(editor, project, "de", {"title": "Posteingang"})
        return f"[{target}] {text}"

    libre.translator = translate_while_someone_writes
    job = pretranslated(app, owner, project, sources={"provider": libre.provider["id"]})
    assert values(app, project, "de")["title"] == "Posteingang"
    assert (job["result"]["filled"], job["result"]["skipped"]) == (3, 1)


def test_a_cancelled_job_stops_between_batches(app, project, owner, libre):
    upsert(owner, project, "en", {f"item.{number}": f"Item {number}" for number in range(120)})
    queued = start(owner, project, sources={"provider": libre.provider["id"]}).json["job"]

    first, cancelled = threading.Lock(), threading.Event()

    def cancel_then_translate(text, target):
        # The first request cancels the job; the others (in flight at once) answer after it.
        if first.acquire(blocking=False):
            assert owner.post(url(project, f"/jobs/{queued['id']}/cancel")).status_code == 200
            cancelled.set()
        cancelled.wait(10)
        return f"[{target}] {text}"

    libre.translator = cancel_then_translate
    run_jobs(app)
    job = job_of(owner, project, queued["id"])
    assert job["state"] == "cancelled"
    assert len(libre.calls) < 5  # the batches not asked yet are not asked
    assert values(app, project, "de") == {}


def test_a_result_a_check_refuses_is_left_out_and_the_rest_written(app, project, owner, libre):
    levels = owner.put(url(project, ""), json={"checks": {"whitespace": "refuse"}})
    assert levels.status_code == 200, levels.json
    libre.translator = lambda text, target: f"{text} " if text == "Inbox" else f"[{target}] {text}"
    job = pretranslated(app, owner, project, sources={"provider": libre.provider["id"]})
    report = job["result"]
    assert (report["refusedByChecks"], report["filled"]) == (1, 3)
    assert "title" not in values(app, project, "de")


def test_a_dry_run_answers_what_it_would_fill_and_cost_without_asking(app, project, owner, libre):
    upsert(owner, project, "de", {"title": "Posteingang"})
    response = start(owner, project, dryRun=True, sources={"provider": libre.provider["id"]})
    assert response.status_code == 200, response.json
    assert response.json["missing"] == 3
    assert (response.json["providerTexts"], response.json["providerRequests"]) == (3, 1)
    assert response.json["providerCharacters"] == len("Hello {name}You have %d new messagesNothing here")
    assert libre.calls == []
    assert owner.get(url(project, "/jobs")).json["jobs"] == []


# -- The memory -----------------------------------------------------------------------------


@pytest.fixture
def memory(monkeypatch):
    """A translation memory answering from ``memory.matches`` (``{text: (translation,
    score)}``), where the real one is not installed."""
    package = types.ModuleType("loko.memory")
    service = types.ModuleType("loko.memory.service")
    service.matches = {}
    service.asked = []

    def lookup_many(organization_id, source_language, target_language, texts, *, reach, min_score):
        service.asked.append((source_language, target_language, min_score))
        return {
            text: {"text": service.matches[text][0], "score": service.matches[text][1]}
            for text in texts
            if text in service.matches and service.matches[text][1] >= min_score
        }

    service.lookup_many = lookup_many
    package.service = service
    monkeypatch.setitem(sys.modules, "loko.memory", package)
    monkeypatch.setitem(sys.modules, "loko.memory.service", service)
    return service


def test_without_a_translation_memory_the_memory_source_is_refused(app, project, owner):
    if pretranslate._memory() is not None:
        pytest.skip("the translation memory is installed")
    response = start(owner, project, sources={"memory": {"minScore": 90}})
    assert response.status_code == 400
    assert response.json["error"] == "sources.memory: translation memory is not available"


def test_the_memory_fills_what_it_matches_above_the_score(app, project, owner, memory):
    memory.matches = {"Inbox": ("Posteingang", 100), "Nothing here": ("Hier ist nichts", 80)}
    job = pretranslated(app, owner, project, sources={"memory": {"minScore": 90}})
    assert values(app, project, "de") == {"title": "Posteingang"}
    report = job["result"]
    assert (report["fromMemory"], report["unmatched"], report["missing"]) == (1, 3, 4)
    assert memory.asked == [("en", "de", 90)]


def test_the_provider_translates_what_the_memory_does_not_match(app, project, owner, memory, libre):
    memory.matches = {"Inbox": ("Posteingang", 100)}
    job = pretranslated(
        app, owner, project, sources={"memory": {"minScore": 100}, "provider": libre.provider["id"]}
    )
    assert (job["result"]["fromMemory"], job["result"]["fromProvider"]) == (1, 3)
    assert "Inbox" not in libre.texts_of(libre.calls[0]["body"])
    operation = owner.get(url(project, f"/operations/{job['result']['operationId']}")).json["operation"]
    assert (operation["details"]["fromMemory"], operation["details"]["fromProvider"]) == (1, 3)


def test_a_memory_match_with_other_placeholders_is_never_saved(app, project, owner, memory):
    memory.matches = {"Hello {name}": ("Hallo {user}", 95)}
    job = pretranslated(app, owner, project, sources={"memory": {"minScore": 90}})
    assert job["result"]["refused"] == 1
    assert values(app, project, "de") == {}


# -- Who may, and what is refused -----------------------------------------------------------


@pytest.mark.parametrize("caller", CALLERS)
def test_a_pretranslation_answers_each_caller_as_the_policy_says(app, project, as_caller, libre, caller):
    response = start(as_caller(caller), project, sources={"provider": libre.provider["id"]})
    assert response.status_code == STARTERS[CALLERS.index(caller)], response.json


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"languages": ["xx-invalid-"]}, "languages"),
        ({"languages": ["es"]}, "languages.0"),
        ({"languages": ["en"]}, "languages.0"),
        ({"languages": []}, "languages"),
        ({"files": ["nope"]}, "files.0"),
        ({"sources": {}}, "sources"),
        ({"sources": {"memory": {"minScore": 101}}}, "minScore"),
        ({"sources": {"provider": "0190a0a0-0000-7000-8000-000000000000"}}, "sources.provider"),
        ({"filter": {"search": ""}}, "search"),
        ({"filter": {"changedSince": "yesterday"}}, "changedSince"),
        ({"overwrite": True}, "overwrite"),
    ],
)
def test_bad_input_is_refused_naming_the_field(app, project, owner, libre, body, field):
    response = start(owner, project, **{"sources": {"provider": libre.provider["id"]}, **body})
    assert response.status_code == 400, response.json
    assert field in response.json["error"]


def test_a_disabled_provider_is_refused(app, project, owner, world, libre):
    owner.patch(
        f"/api/organizations/{world.organization_id}/machine-providers/{libre.provider['id']}",
        json={"enabled": False},
    )
    response = start(owner, project, sources={"provider": libre.provider["id"]})
    assert response.status_code == 400
    assert "sources.provider" in response.json["error"]


def test_a_project_without_a_source_language_cannot_be_pretranslated(app, world, owner, libre):
    response = start(owner, world, sources={"provider": libre.provider["id"]})
    assert response.status_code == 409, response.json
    assert "source language" in response.json["error"]


# -- The MCP tool ---------------------------------------------------------------------------


def key_actor(world, name: str) -> ApiKeyActor:
    scope = "write" if name == "write_key" else "read"
    return ApiKeyActor(id=world.key_ids[name], name=name, project_id=world.project_id, scope=scope)


def test_the_mcp_tool_queues_the_same_job(app, project, owner, libre):
    with app.test_request_context():
        result = call_tool(
            key_actor(project, "write_key"),
            "pretranslate",
            {"languages": ["de"], "sources": {"provider": libre.provider["name"]}},
        )
    assert not result.is_error, result
    job = result.structured_content["job"]
    assert job["kind"] == "pretranslate"
    run_jobs(app)
    assert job_of(owner, project, job["id"])["result"]["fromProvider"] == 4
    assert states(owner, project, "de") == {"de": 4}


def test_the_mcp_tool_dry_run_writes_nothing(app, project, libre):
    with app.test_request_context():
        result = call_tool(
            key_actor(project, "write_key"),
            "pretranslate",
            {"languages": ["de"], "sources": {"provider": libre.provider["id"]}, "dryRun": True},
        )
    assert not result.is_error, result
    assert result.structured_content["estimate"]["missing"] == 4
    assert "Nothing was written" in result.content[0].text
    assert libre.calls == []


def test_the_mcp_tool_refuses_a_read_key(app, project, libre):
    with app.test_request_context():
        result = call_tool(
            key_actor(project, "read_key"),
            "pretranslate",
            {"languages": ["de"], "sources": {"provider": libre.provider["id"]}},
        )
    assert result.is_error


def test_only_the_keys_a_tag_filter_keeps_are_filled(app, project, owner, libre):
    tagged = owner.post(url(project, "/tags/bulk"), json={"add": ["web"], "filter": {"search": "greeting"}})
    assert tagged.status_code == 200, tagged.json
    job = pretranslated(
        app,
        owner,
        project,
        languages=["de"],
        filter={"tags": ["web"]},
        sources={"provider": libre.provider["id"]},
    )
    assert set(values(app, project, "de")) == {"greeting"}, job
    other = pretranslated(
        app,
        owner,
        project,
        languages=["fr"],
        filter={"excludeTags": ["web"]},
        sources={"provider": libre.provider["id"]},
    )
    filled = values(app, project, "fr")
    assert "greeting" not in filled and "title" in filled, other
