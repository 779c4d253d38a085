"""What proposing, voting and deciding do: the vote rules, an accept writing the value through
the write path (history crediting the proposer) and superseding the others, an edit keeping
the credit, rejects with reasons, the queue's filters and keyset pages, bulk accepts and rejects
as one operation undone as one, and acceptance at a number of net votes."""

import pytest

from tests.proposals.conftest import make_key, set_settings


def _vote(as_caller, key, caller, proposal_id, value=1):
    return as_caller(caller).post(key.url(proposal_id, "vote"), json={"value": value})


def _value(as_caller, key, language="de", translation_id=None):
    response = as_caller("viewer").get(f"/api/projects/{key.project_id}/translations?language={language}")
    assert response.status_code == 200
    return response.json


def test_nobody_votes_on_their_own_proposal(key, proposal, as_caller):
    made = proposal("contributor")
    response = _vote(as_caller, key, "contributor", made["id"])
    assert response.status_code == 403 and response.json["error"].startswith("value:")


def test_one_vote_per_person_changed_and_taken_back(key, proposal, as_caller):
    made = proposal("contributor")
    assert _vote(as_caller, key, "editor", made["id"], 1).json["proposal"]["votes"] == 1
    assert _vote(as_caller, key, "editor", made["id"], 1).json["proposal"]["votes"] == 1
    assert _vote(as_caller, key, "reviewer", made["id"], 1).json["proposal"]["votes"] == 2
    down = _vote(as_caller, key, "editor", made["id"], -1).json["proposal"]
    assert (down["votes"], down["myVote"]) == (0, -1)
    back = _vote(as_caller, key, "editor", made["id"], 0).json["proposal"]
    assert (back["votes"], back["myVote"]) == (1, None)


def test_a_vote_of_another_value_is_refused_naming_the_field(key, proposal, as_caller):
    response = _vote(as_caller, key, "editor", proposal()["id"], 2)
    assert response.status_code == 400 and "value" in response.json["error"]


def test_the_same_text_proposed_again_is_a_vote_for_it(key, proposal, as_caller):
    made = proposal("contributor", "Hallo")
    again = as_caller("contributor2").post(
        key.base, json={"translationId": key.translation_id, "language": "de", "text": "Hallo"}
    )
    assert again.status_code == 200 and again.json["created"] is False
    assert (again.json["proposal"]["id"], again.json["proposal"]["votes"]) == (made["id"], 1)
    assert again.json["proposal"]["myVote"] == 1


def test_proposing_ones_own_open_text_again_is_a_conflict(key, proposal, as_caller):
    proposal("contributor", "Hallo")
    again = as_caller("contributor").post(
        key.base, json={"translationId": key.translation_id, "language": "de", "text": "Hallo"}
    )
    assert again.status_code == 409 and again.json["error"].startswith("text:")


def test_proposing_the_current_value_is_a_conflict(key, as_caller):
    response = as_caller("contributor").post(
        key.base, json={"translationId": key.translation_id, "language": "en", "text": "Greeting"}
    )
    assert response.status_code == 409 and response.json["error"].startswith("text:")


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"language": "de", "text": "Hallo"}, "translationId"),
        ({"translationId": "0190a0a0-0000-7000-8000-000000000000", "language": "de", "text": " "}, "text"),
        (
            {"translationId": "0190a0a0-0000-7000-8000-000000000000", "language": "de", "text": "x", "y": 1},
            "y",
        ),
    ],
)
def test_bad_input_is_a_400_naming_the_field(key, as_caller, body, field):
    response = as_caller("contributor").post(key.base, json=body)
    assert response.status_code == 400 and field in response.json["error"]


def test_an_unknown_key_or_language_is_a_404_naming_it(key, as_caller):
    client = as_caller("contributor")
    unknown_key = client.post(
        key.base,
        json={"translationId": "0190a0a0-0000-7000-8000-000000000000", "language": "de", "text": "Hallo"},
    )
    unknown_language = client.post(
        key.base, json={"translationId": key.translation_id, "language": "fr", "text": "Salut"}
    )
    assert unknown_key.status_code == 404 and unknown_key.json["error"].startswith("translationId:")
    assert unknown_language.status_code == 404 and unknown_language.json["error"].startswith("language:")


def test_accepting_writes_the_value_credits_the_proposer_and_supersedes_the_others(key, proposal, as_caller):
    chosen = proposal("contributor", "Hallo")
    other = proposal("contributor2", "Servus")
    response = as_caller("reviewer").post(key.url(chosen["id"], "accept"), json={})
    assert response.status_code == 200, response.json
    assert (response.json["accepted"], response.json["written"], response.json["superseded"]) == (1, 1, 1)
    assert response.headers["Loko-Operation"] == response.json["operationId"]
    assert response.json["proposal"]["state"] == "accepted"
    assert response.json["proposal"]["decidedBy"]["name"] == "Reviewer"
    assert as_caller("viewer").get(key.url(other["id"])).json["proposal"]["state"] == "superseded"
    history = as_caller("viewer").get(f"/api/projects/{key.project_id}/translations/history").json["history"]
    entry = next(item for item in history if item["language"] == "de")
    assert (entry["new_value"], entry["actor"]["name"]) == ("Hallo", "Contributor")
    assert "Hallo" in str(_value(as_caller, key))


def test_an_accepted_proposal_is_no_longer_decided(key, proposal, as_caller):
    made = proposal()
    assert as_caller("reviewer").post(key.url(made["id"], "accept"), json={}).status_code == 200
    for action in ("accept", "reject"):
        response = as_caller("reviewer").post(key.url(made["id"], action), json={})
        assert response.status_code == 409 and response.json["error"].startswith("proposalId:")
    assert _vote(as_caller, key, "editor", made["id"]).status_code == 409


def test_accepting_with_an_edit_keeps_the_credit(key, proposal, as_caller):
    made = proposal("contributor", "Halo")
    response = as_caller("reviewer").post(key.url(made["id"], "accept"), json={"text": "Hallo"})
    assert response.json["proposal"]["acceptedText"] == "Hallo"
    history = as_caller("viewer").get(f"/api/projects/{key.project_id}/translations/history").json["history"]
    entry = next(item for item in history if item["language"] == "de")
    assert (entry["new_value"], entry["actor"]["name"]) == ("Hallo", "Contributor")


def test_rejecting_keeps_the_reason(key, proposal, as_caller):
    made = proposal()
    response = as_caller("reviewer").post(key.url(made["id"], "reject"), json={"reason": "Too informal"})
    assert response.status_code == 200
    assert (response.json["proposal"]["state"], response.json["proposal"]["rejectionReason"]) == (
        "rejected",
        "Too informal",
    )
    assert as_caller("viewer").get(key.base).json["proposals"] == []


def test_undoing_an_accept_restores_the_value_and_reopens_the_proposals(key, proposal, as_caller):
    chosen, other = proposal("contributor", "Hallo"), proposal("contributor2", "Servus")
    accepted = as_caller("reviewer").post(key.url(chosen["id"], "accept"), json={}).json
    undo = as_caller("reviewer").post(
        f"/api/projects/{key.project_id}/history/revert", json={"operationId": accepted["operationId"]}
    )
    assert undo.status_code == 200, undo.json
    states = {item["id"]: item["state"] for item in as_caller("viewer").get(key.base).json["proposals"]}
    assert states == {chosen["id"]: "open", other["id"]: "open"}
    assert "Hallo" not in str(_value(as_caller, key))


def test_the_queue_filters_sorts_and_pages(key, proposal, as_caller):
    second = make_key(as_caller("org_owner"), key.project_id, "farewell")
    low = proposal("contributor", "Hallo")
    high = proposal("contributor2", "Tschüss", translation_id=second)
    _vote(as_caller, key, "editor", high["id"])
    client = as_caller("viewer")
    by_votes = client.get(f"{key.base}?sort=votes").json["proposals"]
    assert [item["id"] for item in by_votes] == [high["id"], low["id"]]
    assert [item["id"] for item in client.get(f"{key.base}?sort=oldest").json["proposals"]] == [
        low["id"],
        high["id"],
    ]
    assert [item["id"] for item in client.get(f"{key.base}?minVotes=1").json["proposals"]] == [high["id"]]
    mine = client.get(f"{key.base}?authorId={low['author']['id']}").json["proposals"]
    assert [item["id"] for item in mine] == [low["id"]]
    assert client.get(f"{key.base}?language=en").json["proposals"] == []
    assert client.get(f"{key.base}?olderThanDays=1").json["proposals"] == []
    first = client.get(f"{key.base}?limit=1").json
    assert [item["id"] for item in first["proposals"]] == [high["id"]]
    rest = client.get(f"{key.base}?limit=1&cursor={first['nextCursor']}").json
    assert ([item["id"] for item in rest["proposals"]], rest["nextCursor"]) == ([low["id"]], None)
    wrong = client.get(f"{key.base}?sort=oldest&cursor={first['nextCursor']}")
    assert wrong.status_code == 400 and wrong.json["error"].startswith("cursor:")


def _forty(as_caller, key):
    """40 keys with English values, each with two German proposals, the second voted +1."""
    owner = as_caller("org_owner")
    names = [f"item{index}" for index in range(40)]
    response = owner.put(
        f"/api/projects/{key.project_id}/translations",
        json={
            "operation": "bulk-upsert",
            "fileName": "common",
            "languageCode": "en",
            "translations": [{"key": name, "value": f"Item {name}"} for name in names],
        },
    )
    assert response.status_code == 200, response.json
    best = []
    for name in names:
        translation_id = _translation_id(as_caller, key, name)
        for author, text in (("contributor", f"Ding {name}"), ("contributor2", f"Sache {name}")):
            made = (
                as_caller(author)
                .post(key.base, json={"translationId": translation_id, "language": "de", "text": text})
                .json["proposal"]
            )
        _vote(as_caller, key, "editor", made["id"])
        best.append(made["id"])
    return names, best


def _translation_id(as_caller, key, name):
    from loko.extensions import db
    from loko.translations.models import Translation

    return db.session.execute(
        db.select(Translation.id).where(Translation.project_id == key.project_id, Translation.key == name)
    ).scalar_one()


def test_bulk_accepting_forty_best_voted_is_one_operation_undone_as_one(app, key, as_caller):
    with app.app_context():
        names, best = _forty(as_caller, key)
    reviewer = as_caller("reviewer")
    response = reviewer.post(f"{key.base}/bulk-accept", json={"proposalIds": best})
    assert response.status_code == 200, response.json
    assert (response.json["accepted"], response.json["written"], response.json["superseded"]) == (40, 40, 40)
    operation_id = response.json["operationId"]
    operation = reviewer.get(f"/api/projects/{key.project_id}/operations/{operation_id}").json["operation"]
    assert (operation["kind"], operation["undoable"]) == ("proposals-accept", True)
    assert reviewer.get(key.base).json["proposals"] == []
    exported = str(_value(as_caller, key))
    assert all(f"Sache {name}" in exported for name in names)
    undo = reviewer.post(f"/api/projects/{key.project_id}/history/revert", json={"operationId": operation_id})
    assert undo.status_code == 200, undo.json
    assert "Sache" not in str(_value(as_caller, key))
    reopened = reviewer.get(f"{key.base}?limit=500").json["proposals"]
    assert len(reopened) == 80 and {item["state"] for item in reopened} == {"open"}


def test_bulk_rejecting_is_one_operation_the_undo_reopens(key, proposal, as_caller):
    made = [proposal("contributor", "Hallo")["id"], proposal("contributor2", "Servus")["id"]]
    reviewer = as_caller("reviewer")
    response = reviewer.post(f"{key.base}/bulk-reject", json={"proposalIds": made, "reason": "Off"})
    assert (response.status_code, response.json["rejected"]) == (200, 2)
    assert reviewer.get(key.base).json["proposals"] == []
    undo = reviewer.post(
        f"/api/projects/{key.project_id}/history/revert", json={"operationId": response.json["operationId"]}
    )
    assert undo.status_code == 200, undo.json
    assert len(reviewer.get(key.base).json["proposals"]) == 2


def test_a_language_in_the_votes_mode_accepts_at_the_net_votes_set(key, proposal, as_caller):
    set_settings(as_caller, key.project_id, languages={"de": {"mode": "votes", "autoAcceptVotes": 2}})
    made = proposal("contributor", "Hallo")
    assert _vote(as_caller, key, "contributor2", made["id"]).json["proposal"]["state"] == "open"
    accepted = _vote(as_caller, key, "editor", made["id"]).json["proposal"]
    assert (accepted["state"], accepted["decidedBy"]["type"]) == ("accepted", "system")
    assert "Hallo" in str(_value(as_caller, key))


def test_the_votes_mode_needs_a_number_of_votes(key, as_caller):
    response = as_caller("org_owner").patch(
        f"/api/projects/{key.project_id}/proposal-settings", json={"languages": {"de": {"mode": "votes"}}}
    )
    assert response.status_code == 400 and response.json["error"].startswith("languages.de.autoAcceptVotes")


def test_proposals_are_never_exported(key, proposal, as_caller):
    proposal("contributor", "Vorschlag")
    assert "Vorschlag" not in str(_value(as_caller, key))
