"""The review queue: GET /translations/review lists values by state, reason, check, language
and file, each with why it waits for a review; the reason is stored by every path that sends a
value to review (a source change, an agent, a person asking, a suggestion saved unedited in the
PATCH itself) and cleared when the value leaves needs-review."""

import types

import pytest

from loko.checks import Issue, registry
from tests.factories import CALLERS, CallerClient
from tests.mcp.conftest import posted_tool_call
from tests.translation_factories import ProjectApi, project_api

# anonymous, unknown_key, revoked_key, other_project_key, read_key, write_key, viewer, editor,
# project_admin, org_admin, org_owner, outsider
READ_QUEUE = (401, 401, 401, 403, 200, 200, 200, 200, 200, 200, 200, 404)


@pytest.fixture
def api(app) -> ProjectApi:
    """A project in en (the source), de and fr, with two keys written by a person."""
    api = project_api(app)
    for code in ("en", "de", "fr"):
        assert api.owner.post(api.url("/languages"), json={"code": code}).status_code == 201
    api.upsert("en", {"title": "Title", "save": "Save"})
    api.upsert("de", {"title": "Titel", "save": "Speichern"})
    api.upsert("fr", {"title": "Titre"})
    return api


def queue(api: ProjectApi, **params) -> dict:
    response = api.get("/translations/review", **params)
    assert response.status_code == 200, response.json
    return response.json


def waiting(api: ProjectApi, **params) -> list[tuple]:
    """``(key, language, reason)`` of the values waiting for a review."""
    return [
        (item["key"], item["language"], item["reason"])
        for item in queue(api, state="needs-review", **params)["values"]
    ]


def owner(api: ProjectApi) -> ProjectApi:
    return api.as_client(api.owner)


def review(api: ProjectApi, keys, languages, state):
    response = api.owner.post(
        api.url("/translations/review"),
        json={"fileName": "common", "keys": keys, "languages": languages, "state": state},
    )
    assert response.status_code == 200, response.json


def patch(api: ProjectApi, language: str, value: str, **extra):
    return api.patch(
        "/translations",
        {"key": "title", "fileName": "common", "updates": {language: {"value": value, **extra}}},
    )


def mcp_call(app, api: ProjectApi, name: str, arguments: dict) -> dict:
    result = posted_tool_call(CallerClient(app, api.credentials), name, arguments)
    assert not result["isError"], result
    return result


# -- the listing -----------------------------------------------------------------------------


def test_every_value_is_listed_with_its_key_file_language_state_and_reason(api):
    answer = queue(api)
    assert answer["total"] == 5
    first = answer["values"][0]
    assert set(first) == {
        "translationId",
        "key",
        "fileName",
        "language",
        "value",
        "state",
        "reason",
        "checks",
        "updatedAt",
    }
    assert [(item["key"], item["language"], item["value"], item["state"]) for item in answer["values"]] == [
        ("save", "de", "Speichern", "translated"),
        ("save", "en", "Save", "translated"),
        ("title", "de", "Titel", "translated"),
        ("title", "en", "Title", "translated"),
        ("title", "fr", "Titre", "translated"),
    ]
    assert {item["reason"] for item in answer["values"]} == {None}


def test_the_state_filter_lists_a_reviewers_queue(api):
    api.set_values("title", {"en": "Heading"})
    assert waiting(api) == [("title", "de", "source-changed"), ("title", "fr", "source-changed")]


def test_the_language_and_file_filters_narrow_the_list(api):
    api.upsert("de", {"title": "Titel"}, file_name="other")
    api.set_values("title", {"en": "Heading"})
    assert waiting(api, language="fr") == [("title", "fr", "source-changed")]
    assert [(item["fileName"], item["language"]) for item in queue(api, fileName="other")["values"]] == [
        ("other", "de")
    ]


def test_the_check_filter_lists_the_values_with_an_open_issue_of_that_check(api, monkeypatch):
    def shouting(target):
        if target.language != target.source_language and target.value.isupper():
            return [Issue("shouting", f"{target.value} is in capitals.")]
        return []

    monkeypatch.setitem(
        registry.CHECKS, "shouting", types.SimpleNamespace(CODE="shouting", TITLE="Capitals", check=shouting)
    )
    api.set_values("save", {"de": "SPEICHERN"})
    answer = queue(api, check="shouting")
    assert [(item["key"], item["language"], item["checks"]) for item in answer["values"]] == [
        ("save", "de", ["shouting"])
    ]
    assert answer["total"] == 1


def test_the_reason_filter_keeps_the_values_waiting_for_that_reason(api):
    api.set_values("title", {"en": "Heading"})
    review(api, ["save"], ["de"], "needs-review")
    assert waiting(api, reason="requested") == [("save", "de", "requested")]


def test_pages_follow_limit_and_offset_and_count_every_match(api):
    answer = queue(api, limit=2, offset=2)
    assert answer["total"] == 5
    assert [(item["key"], item["language"]) for item in answer["values"]] == [
        ("title", "de"),
        ("title", "en"),
    ]


def test_a_trashed_key_is_not_listed(api):
    api.set_values("title", {"en": "Heading"})
    [title] = [item for item in queue(api)["values"] if item["key"] == "title"][:1]
    api.trash(title["translationId"])
    assert waiting(api) == []


@pytest.mark.parametrize(
    ("params", "field"),
    [({"state": "approved"}, "state"), ({"reason": "bored"}, "reason"), ({"limit": 0}, "limit")],
)
def test_a_bad_filter_is_refused_naming_it(api, params, field):
    response = api.get("/translations/review", **params)
    assert response.status_code == 400
    assert response.json["error"].startswith(f"{field}: ")


def test_who_may_read_the_queue(api, world, as_caller):
    project = ProjectApi(as_caller("write_key"), world.project_id)
    project.create("title", {"en": "Title", "de": "Titel"})
    actual = {
        caller: as_caller(caller).get(f"/api/projects/{world.project_id}/translations/review").status_code
        for caller in CALLERS
    }
    assert actual == dict(zip(CALLERS, READ_QUEUE, strict=True))


# -- why a value waits -----------------------------------------------------------------------


def test_an_agents_value_waits_because_an_agent_wrote_it(app, api):
    arguments = {"fileName": "common", "language": "fr", "translations": [{"key": "save", "value": "Sauver"}]}
    mcp_call(app, api, "upsert_translations", arguments)
    assert waiting(api) == [("save", "fr", "agent")]


def test_asking_for_a_review_waits_because_it_was_requested(api):
    review(api, ["title"], ["de"], "needs-review")
    assert waiting(api) == [("title", "de", "requested")]


def test_a_source_change_is_the_latest_reason(api):
    review(api, ["title"], ["de"], "needs-review")
    api.set_values("title", {"en": "Heading"})
    assert waiting(api) == [("title", "de", "source-changed"), ("title", "fr", "source-changed")]


def test_marking_reviewed_clears_the_reason(api):
    api.set_values("title", {"en": "Heading"})
    review(api, ["title"], ["de"], "reviewed")
    [value] = [item for item in queue(api, language="de")["values"] if item["key"] == "title"]
    assert (value["state"], value["reason"]) == ("reviewed", None)


def test_a_persons_write_clears_the_reason(api):
    api.set_values("title", {"en": "Heading"})
    api.set_values("title", {"de": "Überschrift"})
    api.upsert("fr", {"title": "Titre principal"})
    assert waiting(api) == []
    assert {item["reason"] for item in queue(api)["values"]} == {None}


# -- a suggestion saved unedited, in the PATCH itself ----------------------------------------


@pytest.mark.parametrize(
    ("suggestion", "reason"), [("machine", "machine-unedited"), ("memory", "memory-unedited")]
)
@pytest.mark.parametrize("caller", ["write_key", "owner"])
def test_a_suggestion_saved_unedited_waits_for_a_review_after_one_patch(api, caller, suggestion, reason):
    writer = api if caller == "write_key" else owner(api)
    response = patch(writer, "de", "Titel (Maschine)", uneditedSuggestion=suggestion)
    assert response.status_code == 200, response.json
    assert response.json["results"]["de"]["updated"] is True
    assert waiting(api) == [("title", "de", reason)]


def test_a_new_value_saved_as_a_suggestion_waits_too(api):
    response = api.patch(
        "/translations",
        {
            "key": "save",
            "fileName": "common",
            "updates": {"fr": {"value": "Sauver", "uneditedSuggestion": "machine"}},
        },
    )
    assert response.status_code == 200, response.json
    assert waiting(api) == [("save", "fr", "machine-unedited")]


def test_only_the_flagged_language_waits(api):
    response = api.patch(
        "/translations",
        {
            "key": "title",
            "fileName": "common",
            "updates": {
                "de": {"value": "Titel!", "uneditedSuggestion": "machine"},
                "fr": {"value": "Titre!", "uneditedSuggestion": None},
            },
        },
    )
    assert response.status_code == 200, response.json
    assert waiting(api) == [("title", "de", "machine-unedited")]


def test_an_unchanged_value_keeps_its_state(api):
    review(api, ["title"], ["de"], "reviewed")
    assert patch(owner(api), "de", "Titel", uneditedSuggestion="machine").status_code == 200
    assert waiting(api) == []


def test_an_unknown_suggestion_origin_is_refused_and_nothing_is_written(api):
    response = patch(api, "de", "Titel?", uneditedSuggestion="guess")
    assert response.status_code == 400
    assert "uneditedSuggestion" in str(response.json)
    assert api.export()["de"]["common"]["title"] == "Titel"


def test_a_refused_write_sets_no_state(api):
    response = patch(api, "de", "Titel?", uneditedSuggestion="machine", expected="Something else")
    assert response.status_code == 409
    assert waiting(api) == []
