"""An undo never takes a reviewer's approval away unasked: a value marked reviewed (or sent
back for review) after the change being undone is listed as changed since, with who reviewed
it; the undo is refused until the caller chooses to skip those values or to include them."""

from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import select

from loko.extensions import db
from loko.translations.models import Translation, TranslationValue
from tests.translation_factories import OWNER_NAME, ProjectApi, project_api


@pytest.fixture
def api(app) -> ProjectApi:
    api = project_api(app)
    for code in ("en", "de"):
        assert api.owner.post(api.url("/languages"), json={"code": code}).status_code == 201
    api.upsert("en", {"save": "Save", "open": "Open", "close": "Close"})
    api.upsert("de", {"save": "Speichern", "open": "Öffnen", "close": "Schließen"})
    return api


def moment_after() -> datetime:
    since = datetime.now(UTC) + timedelta(milliseconds=5)
    while datetime.now(UTC) <= since:
        pass
    return since


@pytest.fixture
def reviewed_since(api):
    """The key rewrites two German values after ``since``; the owner then marks one reviewed.
    Answers the undo's selection: the key's changes since then."""
    since = moment_after()
    api.upsert("de", {"save": "Sichern", "open": "Aufmachen"})
    review(api, ["save"], "reviewed")
    return {"actorType": "api_key", "actorId": api.key_id, "since": since.isoformat()}


def review(api, keys, state):
    response = api.owner.post(
        api.url("/translations/review"),
        json={"fileName": "common", "keys": keys, "languages": ["de"], "state": state},
    )
    assert response.status_code == 200, response.json


def undo(api, **body):
    return api.owner.post(api.url("/history/revert"), json=body)


def german(api) -> dict:
    return api.export()["de"]["common"]


def states(app, api) -> dict:
    with app.app_context():
        rows = db.session.execute(
            select(Translation.key, TranslationValue.state)
            .join(TranslationValue, TranslationValue.translation_id == Translation.id)
            .where(Translation.project_id == api.project_id, TranslationValue.language_code == "de")
        ).all()
        db.session.remove()
    return dict(rows)


def test_the_preview_names_a_value_reviewed_since_and_who_reviewed_it(api, reviewed_since):
    answer = undo(api, dryRun=True, **reviewed_since).json
    [conflict] = answer["conflicts"]
    assert (conflict["key"], conflict["language"], conflict["reason"]) == ("save", "de", "reviewed since")
    assert (conflict["expected"], conflict["current"], conflict["by"]) == ("Sichern", "Sichern", OWNER_NAME)
    assert conflict["at"] is not None
    assert [change["key"] for change in answer["changes"]] == ["open"]


def test_an_undo_over_a_review_is_refused_and_changes_nothing(api, reviewed_since):
    response = undo(api, **reviewed_since)
    assert response.status_code == 409
    assert [item["reason"] for item in response.json["details"]["conflicts"]] == ["reviewed since"]
    assert "includeChanged" in response.json["error"]
    assert german(api) == {"save": "Sichern", "open": "Aufmachen", "close": "Schließen"}


def test_skipping_keeps_the_reviewed_value_and_its_approval(app, api, reviewed_since):
    response = undo(api, skipChanged=True, **reviewed_since)
    assert response.status_code == 200, response.json
    assert german(api) == {"save": "Sichern", "open": "Öffnen", "close": "Schließen"}
    assert states(app, api)["save"] == "reviewed"


def test_including_undoes_the_reviewed_value_and_asks_for_a_review_again(app, api, reviewed_since):
    response = undo(api, includeChanged=True, **reviewed_since)
    assert response.status_code == 200, response.json
    assert response.json["summary"]["included"] == 1
    assert [item["key"] for item in response.json["included"]] == ["save"]
    assert german(api) == {"save": "Speichern", "open": "Öffnen", "close": "Schließen"}
    assert states(app, api)["save"] == "needs-review"


def test_a_value_undone_over_its_review_waits_because_it_was_undone(api, reviewed_since):
    assert undo(api, includeChanged=True, **reviewed_since).status_code == 200
    answer = api.get("/translations/review", state="needs-review").json
    assert [(item["key"], item["reason"]) for item in answer["values"]] == [("save", "undone")]


def test_a_value_sent_back_for_review_since_is_a_conflict_too(api):
    since = moment_after()
    api.upsert("de", {"close": "Zumachen"})
    review(api, ["close"], "needs-review")
    response = undo(api, actorType="api_key", actorId=api.key_id, since=since.isoformat())
    assert response.status_code == 409
    [conflict] = response.json["details"]["conflicts"]
    assert (conflict["key"], conflict["reason"], conflict["by"]) == (
        "close",
        "sent back for review since",
        OWNER_NAME,
    )


def test_a_review_before_the_change_is_no_conflict(api):
    review(api, ["close"], "reviewed")
    since = moment_after()
    api.upsert("de", {"close": "Zumachen"})
    response = undo(api, actorType="api_key", actorId=api.key_id, since=since.isoformat())
    assert response.status_code == 200, response.json
    assert german(api)["close"] == "Schließen"


def test_skip_and_include_together_are_refused_naming_the_field(api, reviewed_since):
    response = undo(api, skipChanged=True, includeChanged=True, **reviewed_since)
    assert response.status_code == 400
    assert response.json["error"].startswith("includeChanged")
    assert german(api)["save"] == "Sichern"


def test_including_undoes_a_value_edited_again_since(api):
    since = moment_after()
    api.upsert("de", {"open": "Aufmachen"})
    api.as_client(api.owner).upsert("de", {"open": "Aufklappen"})
    selection = {"actorType": "api_key", "actorId": api.key_id, "since": since.isoformat()}
    assert undo(api, **selection).status_code == 409
    response = undo(api, includeChanged=True, **selection)
    assert response.status_code == 200, response.json
    assert german(api)["open"] == "Öffnen"


def test_a_removal_in_the_preview_carries_the_text_it_removes(api):
    api.upsert("en", {"extra": "Extra"})
    since = moment_after()
    api.upsert("de", {"extra": "Zusatz"})
    answer = undo(api, dryRun=True, actorType="api_key", actorId=api.key_id, since=since.isoformat()).json
    assert answer["changes"] == [
        {
            "fileName": "common",
            "key": "extra",
            "language": "de",
            "action": "deleted",
            "old_value": "Zusatz",
            "new_value": None,
        }
    ]
