# ruff: noqa: F811
"""Machines as proposers: a pre-translation never overwrites a reviewed value the project
protects (an empty one is all it would fill) and proposes its text instead, and a job asked
for proposals writes proposals, not values."""

from tests.machine.test_pretranslate import (  # noqa: F401 (fixtures)
    config_overrides,
    libre,
    owner,
    pretranslated,
    project,
    upsert,
    url,
    values,
)
from tests.pages.conftest import page_as  # noqa: F401 (a fixture)


def _proposals(client, world) -> dict:
    page = client.get(url(world, "/proposals?limit=500")).json["proposals"]
    return {item["key"]: item for item in page}


def test_a_protected_reviewed_value_gets_a_proposal_not_an_overwrite(app, project, owner, libre):
    upsert(owner, project, "de", {"empty": ""})
    reviewed = owner.post(
        url(project, "/translations/review"),
        json={"fileName": "common", "keys": ["empty"], "languages": ["de"], "state": "reviewed"},
    )
    assert reviewed.status_code == 200, reviewed.json
    settings = owner.patch(url(project, "/proposal-settings"), json={"protectReviewed": True})
    assert settings.status_code == 200
    job = pretranslated(app, owner, project, sources={"provider": libre.provider["id"]})
    assert job["state"] == "succeeded", job
    assert values(app, project, "de")["empty"] == ""
    assert job["result"]["proposed"] == 1
    proposed = _proposals(owner, project)
    assert list(proposed) == ["empty"]
    assert (proposed["empty"]["origin"], proposed["empty"]["state"]) == ("machine", "open")
    assert "title" in values(app, project, "de")  # the rest is filled as before


def test_a_job_asked_for_proposals_writes_proposals_not_values(app, project, owner, libre):
    job = pretranslated(app, owner, project, sources={"provider": libre.provider["id"]}, asProposals=True)
    assert job["state"] == "succeeded", job
    assert values(app, project, "de") == {}
    assert job["result"]["filled"] == 0 and job["result"]["proposed"] == 4
    assert {item["origin"] for item in _proposals(owner, project).values()} == {"machine"}


def test_an_editor_of_a_propose_language_pretranslates_as_proposals_only(
    app, project, owner, libre, as_caller
):
    assert (
        owner.patch(
            url(project, "/proposal-settings"), json={"languages": {"de": {"mode": "propose"}}}
        ).status_code
        == 200
    )
    editor = as_caller("editor")
    refused = editor.post(
        url(project, "/pretranslate"),
        json={"languages": ["de"], "sources": {"provider": libre.provider["id"]}},
    )
    assert refused.status_code == 403
    job = pretranslated(app, editor, project, sources={"provider": libre.provider["id"]}, asProposals=True)
    assert job["state"] == "succeeded" and job["result"]["proposed"] == 4


def test_the_pretranslate_page_starts_a_job_writing_proposals(app, project, owner, libre, page_as):
    from tests.machine.test_pretranslate import run_jobs

    browser = page_as("org_owner")
    response = browser.submit(
        f"/projects/{project.project_id}/pretranslate",
        {"languages": "de", "provider": libre.provider["id"], "as_proposals": "true"},
    )
    assert response.status_code == 303
    run_jobs(app)
    assert values(app, project, "de") == {}
    assert len(_proposals(owner, project)) == 4
