"""Who may do what with proposals: every operation for each kind of caller (anonymous, keys,
the world's members, a reviewer and a contributor), and what a contributor, an editor of a
language in the propose mode and protected reviewed values leave to proposals."""

import pytest

from tests.factories import CALLERS, user_id
from tests.proposals.conftest import block, make_public, set_settings

EVERYONE = (*CALLERS, "reviewer", "contributor", "visitor", "blocked_visitor", "org_member")
# anonymous, unknown_key, revoked_key, other_project_key, read_key, write_key, viewer, editor,
# project_admin, org_admin, org_owner, outsider, reviewer, contributor, visitor, blocked_visitor,
# org_member (in the organization, not in the project). In a private project the last three
# are refused as the outsider is (404) or as a member of the organization without a project
# role is (403).
PRIVATE = {
    "read": (401, 401, 401, 403, 200, 200, 200, 200, 200, 200, 200, 404, 200, 200, 404, 404, 403),
    "propose": (401, 401, 401, 403, 403, 200, 403, 200, 200, 200, 200, 404, 200, 200, 404, 404, 403),
    "vote": (401, 401, 401, 403, 403, 403, 403, 200, 200, 200, 200, 404, 200, 200, 404, 404, 403),
    "decide": (401, 401, 401, 403, 403, 403, 403, 403, 200, 200, 200, 404, 200, 403, 404, 404, 403),
    "settings": (401, 401, 401, 403, 403, 403, 403, 403, 200, 200, 200, 404, 403, 403, 404, 404, 403),
    "read_settings": (401, 401, 401, 403, 200, 200, 200, 200, 200, 200, 200, 404, 200, 200, 404, 404, 403),
}
# A public project: whoever is signed in and not a member (the outsider, the visitors, the
# organization's member without a project role) reads proposals, proposes and votes, but the
# blocked visitor, who only reads; deciding and the settings stay refused as for non-members.
PUBLIC = {
    **PRIVATE,
    "read": (401, 401, 401, 403, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200),
    "propose": (401, 401, 401, 403, 403, 200, 403, 200, 200, 200, 200, 200, 200, 200, 200, 403, 200),
    "vote": (401, 401, 401, 403, 403, 403, 403, 200, 200, 200, 200, 200, 200, 200, 200, 403, 200),
}
# German in the propose mode (suggest-only): the editor and the write key still propose, and
# deciding stays the reviewers'.
MATRICES = {"private": PRIVATE, "public": PUBLIC, "suggest_only": PRIVATE}


@pytest.fixture(autouse=True)
def one_database_for_the_private_matrices(request):
    """The private and suggest-only matrices run on SQLite, the public one on both: the
    policy reads the same rows the same way on PostgreSQL, and the whole matrix on both
    databases cost about a minute and a half of the suite's time."""
    params = getattr(request.node, "callspec", None)
    params = params.params if params is not None else {}
    if params.get("database_url") == "postgresql" and params.get("scenario", "public") != "public":
        pytest.skip("the private and suggest-only matrices run on SQLite; PostgreSQL runs the public one")


@pytest.fixture(params=sorted(MATRICES))
def scenario(request, key, as_caller, people):
    """The project as each matrix wants it: private, public (the blocked visitor blocked), or
    private with German in the propose mode."""
    if request.param == "public":
        make_public(as_caller, key.project_id)
    if request.param == "suggest_only":
        set_settings(as_caller, key.project_id, languages={"de": {"mode": "propose"}})
    block(as_caller, key.project_id, user_id(people.users["blocked_visitor"]))
    return request.param


def expected(operation, caller, scenario, success=200):
    status = MATRICES[scenario][operation][EVERYONE.index(caller)]
    return success if status == 200 else status


@pytest.mark.parametrize("caller", EVERYONE)
def test_reading_the_queue_follows_the_policy(key, proposal, as_caller, caller, scenario):
    proposal()
    response = as_caller(caller).get(key.base)
    assert response.status_code == expected("read", caller, scenario), response.json
    if response.status_code == 200:
        assert [item["text"] for item in response.json["proposals"]] == ["Hallo"]


@pytest.mark.parametrize("caller", EVERYONE)
def test_reading_a_keys_proposals_and_one_proposal_follows_the_policy(
    key, proposal, as_caller, caller, scenario
):
    made = proposal()
    client = as_caller(caller)
    listed = client.get(f"/api/projects/{key.project_id}/translations/{key.translation_id}/proposals")
    one = client.get(key.url(made["id"]))
    texts = client.get(f"{key.base}/texts", query_string={"language": "de"})
    assert (listed.status_code, one.status_code, texts.status_code) == (
        expected("read", caller, scenario),
    ) * 3


@pytest.mark.parametrize("caller", EVERYONE)
def test_proposing_follows_the_policy(key, as_caller, caller, scenario):
    response = as_caller(caller).post(
        key.base, json={"translationId": key.translation_id, "language": "de", "text": f"Hallo {caller}"}
    )
    assert response.status_code == expected("propose", caller, scenario, 201), response.json
    if response.status_code == 201:
        assert response.json["proposal"]["state"] == "open"


@pytest.mark.parametrize("caller", EVERYONE)
def test_voting_follows_the_policy(key, proposal, as_caller, caller, scenario):
    made = proposal("contributor2")
    response = as_caller(caller).post(key.url(made["id"], "vote"), json={"value": 1})
    assert response.status_code == expected("vote", caller, scenario), response.json


@pytest.mark.parametrize("caller", EVERYONE)
def test_accepting_follows_the_policy(key, proposal, as_caller, caller, scenario):
    made = proposal("contributor2")
    response = as_caller(caller).post(key.url(made["id"], "accept"), json={})
    assert response.status_code == expected("decide", caller, scenario), response.json


@pytest.mark.parametrize("caller", EVERYONE)
def test_rejecting_follows_the_policy(key, proposal, as_caller, caller, scenario):
    made = proposal("contributor2")
    response = as_caller(caller).post(key.url(made["id"], "reject"), json={"reason": "Too formal"})
    assert response.status_code == expected("decide", caller, scenario), response.json


@pytest.mark.parametrize("caller", EVERYONE)
def test_bulk_decisions_follow_the_policy(key, proposal, as_caller, caller, scenario):
    made = proposal("contributor2")
    client = as_caller(caller)
    rejected = client.post(f"{key.base}/bulk-reject", json={"proposalIds": [made["id"]]})
    assert rejected.status_code == expected("decide", caller, scenario), rejected.json
    accepted = client.post(f"{key.base}/bulk-accept", json={"proposalIds": [made["id"]]})
    assert accepted.status_code == expected("decide", caller, scenario), accepted.json


@pytest.mark.parametrize("caller", EVERYONE)
def test_changing_the_settings_follows_the_policy(key, as_caller, caller, scenario):
    url = f"/api/projects/{key.project_id}/proposal-settings"
    response = as_caller(caller).patch(url, json={"languages": {"de": {"mode": "propose"}}})
    assert response.status_code == expected("settings", caller, scenario), response.json
    assert as_caller(caller).get(url).status_code == expected("read_settings", caller, scenario)


@pytest.mark.parametrize("caller", EVERYONE)
def test_blocking_follows_the_policy(key, people, as_caller, caller, scenario):
    url = f"/api/projects/{key.project_id}/proposal-blocks"
    target = user_id(people.users["visitor"])
    client = as_caller(caller)
    status = expected("settings", caller, scenario)
    assert client.put(f"{url}/{target}").status_code == (201 if status == 200 else status)
    assert client.get(url).status_code == status
    assert client.delete(f"{url}/{target}").status_code == status


def _patch(client, key, language="de", value="Hallo"):
    return client.patch(
        f"/api/projects/{key.project_id}/translations",
        json={"key": "greeting", "fileName": "common", "updates": {language: {"value": value}}},
    )


def test_a_contributor_never_writes_values(key, as_caller):
    response = _patch(as_caller("contributor"), key)
    assert response.status_code == 403
    assert "proposes" in response.json["error"]


def test_a_contributor_comments(key, as_caller):
    url = f"/api/projects/{key.project_id}/translations/{key.translation_id}/comments"
    assert as_caller("contributor").post(url, json={"body": "Formal or not?"}).status_code == 201


@pytest.mark.parametrize("caller", ["editor", "write_key"])
def test_under_propose_an_editor_or_a_write_key_only_proposes(key, as_caller, caller, proposal):
    set_settings(as_caller, key.project_id, languages={"de": {"mode": "propose"}})
    refused = _patch(as_caller(caller), key)
    assert refused.status_code == 403
    assert refused.json["error"].startswith("language:") and refused.json["details"]["propose"] is True
    assert _patch(as_caller(caller), key, "en", "Hello there").status_code == 200
    assert proposal(caller)["author"]["name"] == caller


@pytest.mark.parametrize("caller", ["reviewer", "project_admin", "org_owner"])
def test_under_propose_a_reviewer_still_writes(key, as_caller, caller):
    set_settings(as_caller, key.project_id, languages={"de": {"mode": "propose"}})
    assert _patch(as_caller(caller), key).status_code == 200


def _review(as_caller, key):
    response = as_caller("reviewer").post(
        f"/api/projects/{key.project_id}/translations/review",
        json={"fileName": "common", "keys": ["greeting"], "languages": ["de"], "state": "reviewed"},
    )
    assert response.status_code == 200, response.json


@pytest.mark.parametrize("caller", ["editor", "write_key"])
def test_a_protected_reviewed_value_is_changed_only_through_a_proposal(key, as_caller, caller, proposal):
    assert _patch(as_caller("editor"), key, value="Hallo").status_code == 200
    _review(as_caller, key)
    set_settings(as_caller, key.project_id, protectReviewed=True)
    refused = _patch(as_caller(caller), key, value="Hallo!")
    assert refused.status_code == 403 and refused.json["error"].startswith("updates.de.value:")
    bulk = as_caller(caller).put(
        f"/api/projects/{key.project_id}/translations",
        json={
            "operation": "bulk-upsert",
            "fileName": "common",
            "languageCode": "de",
            "translations": [{"key": "greeting", "value": "Hallo!"}],
        },
    )
    assert bulk.status_code == 403 and bulk.json["error"].startswith("items.0.value:")
    assert proposal(caller, "Hallo!")["state"] == "open"
    assert _patch(as_caller("reviewer"), key, value="Servus").status_code == 200


def test_an_unreviewed_value_stays_writable_under_protection(key, as_caller):
    set_settings(as_caller, key.project_id, protectReviewed=True)
    assert _patch(as_caller("editor"), key).status_code == 200
