"""Public projects' pages: a visitor's Proposals tab (their languages' queue, votes) and the
page of one language's texts to propose from, nothing else of the project; the block and its
lifting from the queue; the settings page's switch."""

import re

import pytest

from tests.factories import user_id
from tests.pages.conftest import alert_of, notice_of, page_as  # noqa: F401 (a fixture)
from tests.proposals.conftest import make_public


def queue(key) -> str:
    return f"/projects/{key.project_id}/proposals"


def test_a_visitor_sees_only_the_proposal_pages_of_a_public_project(page_as, key, proposal, as_caller):  # noqa: F811
    proposal("contributor", "Hallo")
    visitor = page_as("visitor")
    assert visitor.get(queue(key)).status_code == 404
    make_public(as_caller, key.project_id)
    response = visitor.get(queue(key))
    source = response.get_data(as_text=True)
    assert response.status_code == 200 and "Hallo" in source
    assert 'value="up"' in source and 'value="accept"' not in source
    assert f'href="/projects/{key.project_id}/proposals/texts"' in source
    assert f"/projects/{key.project_id}/editor" not in source and "Block from proposing" not in source
    for page in ("", "/editor", "/history", "/settings", "/trash", "/files"):
        assert visitor.get(f"/projects/{key.project_id}{page}").status_code == 404, page


def test_a_visitor_proposes_from_the_texts_page(page_as, key, as_caller):  # noqa: F811
    make_public(as_caller, key.project_id)
    visitor = page_as("visitor")
    page = visitor.get(f"{queue(key)}/texts")
    source = page.get_data(as_text=True)
    assert page.status_code == 200 and "Greeting" in source
    # Their languages only: German, not the source language.
    chooser = re.search(r'<select id="t-language".*?</select>', source, re.S).group(0)
    assert re.findall(r'value="([^"]+)"', chooser) == ["de"]
    done = visitor.submit(
        f"{queue(key)}/texts", {"translationId": key.translation_id, "language": "de", "text": "Grüß Gott"}
    )
    assert done.status_code == 303 and notice_of(visitor) == "Proposal sent: a reviewer decides it."
    listed = as_caller("reviewer").get(key.base).json["proposals"]
    assert [(item["text"], item["author"]["name"]) for item in listed] == [("Grüß Gott", "Visitor")]
    refused = visitor.submit(
        f"{queue(key)}/texts", {"translationId": key.translation_id, "language": "en", "text": "Hi"}
    )
    assert refused.status_code == 403 and alert_of(refused)


def test_an_admin_blocks_and_unblocks_a_visitor_from_the_queue(page_as, key, as_caller, people):  # noqa: F811
    make_public(as_caller, key.project_id)
    visitor = page_as("visitor")
    sent = visitor.submit(
        f"{queue(key)}/texts", {"translationId": key.translation_id, "language": "de", "text": "Servus"}
    )
    assert sent.status_code == 303
    admin = page_as("project_admin")
    source = admin.get(queue(key)).get_data(as_text=True)
    assert "Block from proposing" in source and "Nobody is blocked." in source
    visitor_id = user_id(people.users["visitor"])
    done = admin.submit(f"{queue(key)}/blocks", {"action": "block", "userId": visitor_id})
    assert done.status_code == 303 and notice_of(admin) == "Visitor may no longer propose or vote here."
    source = admin.get(queue(key)).get_data(as_text=True)
    assert "visitor@example.test" in source and "Lift the block" in source
    refused = visitor.submit(
        f"{queue(key)}/texts", {"translationId": key.translation_id, "language": "de", "text": "Grüß dich"}
    )
    assert refused.status_code == 403 and "blocked" in alert_of(refused)
    lifted = admin.submit(f"{queue(key)}/blocks", {"action": "unblock", "userId": visitor_id})
    assert lifted.status_code == 303 and notice_of(admin) == "The block is lifted."
    # An editor neither blocks nor sees the blocks.
    editor = page_as("editor")
    assert "Blocked from proposing" not in editor.get(queue(key)).get_data(as_text=True)
    assert editor.submit(f"{queue(key)}/blocks", {"action": "block", "userId": visitor_id}).status_code == 403


@pytest.mark.parametrize("value", ["true", "false"])
def test_the_settings_page_makes_a_project_public_or_private(page_as, key, as_caller, value):  # noqa: F811
    admin = page_as("project_admin")
    assert 'id="f-public"' in admin.get(f"/projects/{key.project_id}/settings").get_data(as_text=True)
    done = admin.submit(f"/projects/{key.project_id}/settings", {"form": "public", "public": value})
    assert done.status_code == 303
    project = as_caller("org_owner").get(f"/api/projects/{key.project_id}").json["project"]
    assert project["public"] is (value == "true")


def test_no_block_is_offered_for_a_members_proposal(page_as, key, proposal, as_caller):  # noqa: F811
    make_public(as_caller, key.project_id)
    proposal("contributor", "Hallo")
    source = page_as("project_admin").get(queue(key)).get_data(as_text=True)
    assert "Hallo" in source and "Block from proposing" not in source


def test_a_visitor_cannot_vote_on_a_proposal_they_may_not_read(key, proposal, as_caller):
    made = proposal("contributor", "Hi there", "en")
    make_public(as_caller, key.project_id)
    response = as_caller("visitor").post(key.url(made["id"], "vote"), json={"value": 1})
    assert response.status_code == 404 and response.json["error"].startswith("proposalId:")
