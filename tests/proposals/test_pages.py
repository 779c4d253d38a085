"""The review queue's page and the editor's proposals: who sees the queue and its buttons, an
accept, a reject with its reason, a bulk accept and its undo, and proposing and voting from a
key's details."""

import pytest

from tests.pages.conftest import alert_of, notice_of, page_as  # noqa: F401 (a fixture)

PAGE_CALLERS = ("viewer", "editor", "reviewer", "contributor", "project_admin", "org_owner", "outsider")


def queue(world) -> str:
    return f"/projects/{world.project_id}/proposals"


@pytest.mark.parametrize("caller", PAGE_CALLERS)
def test_the_queue_shows_its_decisions_to_those_who_decide(page_as, key, proposal, caller):  # noqa: F811
    proposal("contributor2")
    response = page_as(caller).get(queue(key))
    if caller == "outsider":
        assert response.status_code == 404
        return
    source = response.get_data(as_text=True)
    assert response.status_code == 200 and "Hallo" in source
    decides = caller in ("reviewer", "project_admin", "org_owner")
    assert ('value="accept"' in source) is decides
    assert ("proposals.js" in source) and ("<script>" not in source)


def test_anonymous_is_sent_to_sign_in(app, key):
    response = app.test_client().get(queue(key))
    assert response.status_code in (302, 303)


def test_accept_and_reject_from_the_queue(page_as, key, proposal, as_caller):  # noqa: F811
    first, second = proposal("contributor", "Hallo"), proposal("contributor2", "Servus")
    page = page_as("reviewer")
    done = page.submit(f"{queue(key)}/{second['id']}", {"action": "reject", "reason": "Regional"})
    assert done.status_code == 303 and notice_of(page) == "Proposal rejected."
    done = page.submit(f"{queue(key)}/{first['id']}", {"action": "accept"})
    assert done.status_code == 303 and notice_of(page) == "Proposal accepted."
    rejected = as_caller("viewer").get(key.url(second["id"])).json["proposal"]
    assert rejected["rejectionReason"] == "Regional"


def test_an_editor_cannot_accept_from_the_page(page_as, key, proposal):  # noqa: F811
    made = proposal()
    response = page_as("editor").submit(f"{queue(key)}/{made['id']}", {"action": "accept"})
    assert response.status_code == 403 and alert_of(response)


def test_a_bulk_accept_offers_its_undo(page_as, key, proposal, as_caller):  # noqa: F811
    made = proposal("contributor", "Hallo")
    page = page_as("reviewer")
    done = page.submit(f"{queue(key)}/bulk", {"action": "accept", "proposalId": [made["id"]]})
    assert done.status_code == 303 and "undo=" in done.location
    source = page.get(done.location).get_data(as_text=True)
    assert 'id="undo-bulk"' in source
    operation_id = done.location.split("undo=")[1]
    undone = page.submit(f"{queue(key)}/undo", {"operationId": operation_id})
    assert undone.status_code == 303
    assert as_caller("viewer").get(key.url(made["id"])).json["proposal"]["state"] == "open"


def test_a_contributor_proposes_and_a_second_person_votes_from_the_key_details(page_as, key, as_caller):  # noqa: F811
    base = f"/projects/{key.project_id}/editor/keys/{key.translation_id}"
    details = page_as("contributor").get(base).get_data(as_text=True)
    assert 'id="proposal-text"' in details
    made = page_as("contributor").submit(f"{base}/proposals", {"language": "de", "text": "Hallo"})
    assert made.status_code == 303, made.get_data(as_text=True)
    proposal = as_caller("viewer").get(key.base).json["proposals"][0]
    voted = page_as("contributor2").submit(f"{base}/proposals/{proposal['id']}/vote", {"value": "1"})
    assert voted.status_code == 303
    assert as_caller("viewer").get(key.url(proposal["id"])).json["proposal"]["votes"] == 1
    viewer_details = page_as("viewer").get(base).get_data(as_text=True)
    assert 'id="proposal-text"' not in viewer_details and "Hallo" in viewer_details


def test_an_admin_sets_who_proposes_from_the_queue(page_as, key, as_caller):  # noqa: F811
    page = page_as("project_admin")
    assert "Save proposal settings" in page.get(queue(key)).get_data(as_text=True)
    assert "Save proposal settings" not in page_as("reviewer").get(queue(key)).get_data(as_text=True)
    done = page.submit(
        f"{queue(key)}/settings",
        {"protectReviewed": "true", "mode-de": "votes", "votes-de": "3", "mode-en": "direct"},
    )
    assert done.status_code == 303 and notice_of(page) == "Proposal settings saved."
    settings = as_caller("viewer").get(f"/api/projects/{key.project_id}/proposal-settings").json
    assert settings["protectReviewed"] is True
    assert settings["languages"]["de"] == {"mode": "votes", "autoAcceptVotes": 3}


def test_the_votes_mode_without_a_number_is_refused_on_the_page(page_as, key):  # noqa: F811
    response = page_as("project_admin").submit(f"{queue(key)}/settings", {"mode-de": "votes"})
    assert response.status_code == 400 and "autoAcceptVotes" in alert_of(response)


def test_a_reviewer_cannot_save_the_settings(page_as, key):  # noqa: F811
    response = page_as("reviewer").submit(f"{queue(key)}/settings", {"mode-de": "propose"})
    assert response.status_code == 403
