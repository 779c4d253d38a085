"""Public projects: what a signed-in person who is not a member reads and does there (source
texts, current values and the proposals of their languages; proposing and voting, rate
limited; nothing else), what they read of a private project (nothing), and an admin's block."""

import re
import uuid

import pytest

from loko.proposals.limits import VISITOR_LIMIT
from tests.factories import user_id
from tests.proposals.conftest import block, make_key, make_public

# The operations a public visitor may read, as the OpenAPI document names their paths.
VISITOR_READS = {
    "/api/projects/{project_id}/proposals",
    "/api/projects/{project_id}/proposals/{proposalId}",
    "/api/projects/{project_id}/proposals/texts",
    "/api/projects/{project_id}/translations/{translationId}/proposals",
}


QUERY_VALUES = {"fileName": "common", "key": "greeting", "text": "Greeting"}


def _project_gets(client) -> dict[str, dict]:
    """The project's GET paths, each with the query it is sent: its required parameters and
    ``language=de`` where it takes a language."""
    document = client.get("/api/openapi.json").json
    found = {}
    for path, operations in sorted(document["paths"].items()):
        if not path.startswith("/api/projects/{project_id}") or "get" not in operations:
            continue
        parameters = [p for p in operations["get"].get("parameters", ()) if p["in"] == "query"]
        query = {p["name"]: QUERY_VALUES.get(p["name"], "x") for p in parameters if p.get("required")}
        if any(p["name"] == "language" for p in parameters):
            query["language"] = "de"
        found[path] = query
    return found


def _filled(path: str, project_id: str) -> str:
    path = path.replace("{project_id}", project_id)
    return re.sub(r"\{[^}]+\}", lambda _match: str(uuid.uuid4()), path)


def _statuses(as_caller, caller: str, project_id: str, paths: dict[str, dict]) -> dict[str, int]:
    client = as_caller(caller)
    return {
        path: client.get(_filled(path, project_id), query_string=query).status_code
        for path, query in paths.items()
    }


def test_a_visitor_of_a_private_project_reads_nothing(key, proposal, as_caller, app):
    proposal()
    paths = _project_gets(as_caller("org_owner"))
    assert set(paths) >= VISITOR_READS
    statuses = _statuses(as_caller, "visitor", key.project_id, paths)
    assert {path: status for path, status in statuses.items() if status != 404} == {}
    # The same of the organization's member without a project role: refused, never read.
    member = _statuses(as_caller, "org_member", key.project_id, paths)
    assert not [path for path, status in member.items() if status < 400]


def test_a_public_visitor_reads_only_texts_values_and_proposals(key, proposal, as_caller):
    proposal()
    paths = _project_gets(as_caller("org_owner"))
    private = _statuses(as_caller, "visitor", key.project_id, paths)
    make_public(as_caller, key.project_id)
    public = _statuses(as_caller, "visitor", key.project_id, paths)
    changed = {path for path in paths if public[path] != private[path]}
    # Nothing but the proposals and the texts opened; the key's and proposal's own paths
    # (given unknown ids here) answer their 404 either way.
    assert changed <= VISITOR_READS and "/api/projects/{project_id}/proposals" in changed
    assert "/api/projects/{project_id}/proposals/texts" in changed
    assert all(public[path] == 404 for path in paths if path not in VISITOR_READS)


def test_a_visitor_reads_the_source_texts_and_current_values(key, as_caller):
    owner = as_caller("org_owner")
    response = owner.patch(
        f"/api/projects/{key.project_id}/translations",
        json={"key": "greeting", "fileName": "common", "updates": {"de": {"value": "Hallo"}}},
    )
    assert response.status_code == 200, response.json
    make_public(as_caller, key.project_id)
    texts = as_caller("visitor").get(f"{key.base}/texts", query_string={"language": "de"})
    assert texts.status_code == 200, texts.json
    assert texts.json == {
        "sourceLanguage": "en",
        "language": "de",
        "items": [
            {
                "translationId": key.translation_id,
                "key": "greeting",
                "fileName": "common",
                "source": "Greeting",
                "value": "Hallo",
            }
        ],
        "nextOffset": None,
    }


def test_a_visitor_reads_and_proposes_in_no_other_language(key, proposal, as_caller, people):
    owner = as_caller("org_owner")
    assert owner.post(f"/api/projects/{key.project_id}/languages", json={"code": "fr"}).status_code == 201
    made = {code: proposal("contributor", f"Text {code}", code) for code in ("en", "de", "fr")}
    make_public(as_caller, key.project_id)
    visitor = as_caller("visitor")
    queue = visitor.get(key.base)
    assert sorted(item["language"] for item in queue.json["proposals"]) == ["de", "fr"]
    listed = visitor.get(f"/api/projects/{key.project_id}/translations/{key.translation_id}/proposals")
    assert sorted(item["language"] for item in listed.json["proposals"]) == ["de", "fr"]
    # The source language's drafts are not theirs to read, nor to add to.
    assert visitor.get(key.url(made["en"]["id"])).status_code == 404
    assert visitor.get(key.base, query_string={"language": "en"}).status_code == 404
    assert visitor.get(f"{key.base}/texts", query_string={"language": "en"}).status_code == 404
    refused = visitor.post(
        key.base, json={"translationId": key.translation_id, "language": "en", "text": "Hi"}
    )
    assert refused.status_code == 403 and refused.json["error"].startswith("language:")
    assert visitor.get(key.url(made["fr"]["id"])).json["proposal"]["text"] == "Text fr"


def test_a_visitor_neither_comments_nor_writes_nor_exports(key, as_caller):
    make_public(as_caller, key.project_id)
    visitor = as_caller("visitor")
    base = f"/api/projects/{key.project_id}"
    comment = visitor.post(f"{base}/translations/{key.translation_id}/comments", json={"body": "Hi"})
    write = visitor.patch(
        f"{base}/translations",
        json={"key": "greeting", "fileName": "common", "updates": {"de": {"value": "Hallo"}}},
    )
    assert (comment.status_code, write.status_code) == (404, 404)
    assert visitor.get(f"{base}/translations").status_code == 404  # the export
    assert visitor.get(base).status_code == 404  # the project's settings and flags
    # The organization's member without a project role is refused as before (403).
    assert as_caller("org_member").get(f"{base}/translations").status_code == 403


def test_a_blocked_visitor_reads_but_neither_proposes_nor_votes_until_unblocked(
    key, proposal, as_caller, people
):
    made = proposal()
    make_public(as_caller, key.project_id)
    blocked = user_id(people.users["visitor"])
    block(as_caller, key.project_id, blocked)
    visitor = as_caller("visitor")
    body = {"translationId": key.translation_id, "language": "de", "text": "Grüß dich"}
    refused = visitor.post(key.base, json=body)
    assert refused.status_code == 403 and "blocked" in refused.json["error"]
    assert visitor.post(key.url(made["id"], "vote"), json={"value": 1}).status_code == 403
    assert visitor.get(key.base).status_code == 200
    listing = as_caller("project_admin").get(f"/api/projects/{key.project_id}/proposal-blocks")
    assert [(row["userId"], row["email"]) for row in listing.json["blocks"]] == [
        (blocked, "visitor@example.test")
    ]
    again = as_caller("org_owner").put(f"/api/projects/{key.project_id}/proposal-blocks/{blocked}")
    assert again.status_code == 200 and again.json["created"] is False
    lifted = as_caller("org_owner").delete(f"/api/projects/{key.project_id}/proposal-blocks/{blocked}")
    assert lifted.status_code == 200
    assert visitor.post(key.base, json=body).status_code == 201
    gone = as_caller("org_owner").delete(f"/api/projects/{key.project_id}/proposal-blocks/{blocked}")
    assert gone.status_code == 404 and gone.json["error"].startswith("userId:")


def test_blocking_an_unknown_person_names_the_user(key, as_caller):
    response = as_caller("org_owner").put(f"/api/projects/{key.project_id}/proposal-blocks/{uuid.uuid4()}")
    assert response.status_code == 404 and response.json["error"].startswith("userId:")


def test_a_visitors_proposals_and_votes_are_rate_limited(key, proposal, as_caller):
    made = proposal("contributor", "Servus")
    make_public(as_caller, key.project_id)
    visitor = as_caller("visitor")
    for number in range(VISITOR_LIMIT - 1):
        body = {"translationId": key.translation_id, "language": "de", "text": f"Hallo {number}"}
        assert visitor.post(key.base, json=body).status_code == 201
    assert visitor.post(key.url(made["id"], "vote"), json={"value": 1}).status_code == 200
    limited = visitor.post(
        key.base, json={"translationId": key.translation_id, "language": "de", "text": "One more"}
    )
    assert limited.status_code == 429, limited.json
    assert int(limited.headers["Retry-After"]) > 0 and limited.json["error"].startswith("Too many")
    # Members are not counted: a contributor proposes on.
    assert proposal("contributor", "Noch eine")["state"] == "open"
    assert (
        as_caller("blocked_visitor")
        .post(key.base, json={"translationId": key.translation_id, "language": "de", "text": "Other person"})
        .status_code
        == 201
    )


def test_a_project_is_private_until_an_admin_makes_it_public(key, as_caller):
    url = f"/api/projects/{key.project_id}"
    assert as_caller("org_owner").get(url).json["project"]["public"] is False
    refused = as_caller("editor").put(url, json={"public": True})
    assert refused.status_code == 403
    make_public(as_caller, key.project_id)
    make_public(as_caller, key.project_id, False)
    assert as_caller("visitor").get(key.base).status_code == 404


@pytest.mark.parametrize("value", ["maybe", 2, None])
def test_public_must_be_a_boolean(key, as_caller, value):
    response = as_caller("org_owner").put(f"/api/projects/{key.project_id}", json={"public": value})
    assert response.status_code == 400 and response.json["error"].startswith("public")


def test_a_second_key_shows_in_the_texts_pages(key, as_caller):
    make_key(as_caller("org_owner"), key.project_id, "farewell")
    make_public(as_caller, key.project_id)
    first = as_caller("visitor").get(f"{key.base}/texts", query_string={"language": "de", "limit": 1})
    assert [item["key"] for item in first.json["items"]] == ["farewell"] and first.json["nextOffset"] == 1
    second = as_caller("visitor").get(
        f"{key.base}/texts", query_string={"language": "de", "limit": 1, "offset": 1}
    )
    assert [item["key"] for item in second.json["items"]] == ["greeting"] and second.json[
        "nextOffset"
    ] is None
