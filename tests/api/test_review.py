"""Review states: POST /translations/review (who may mark values reviewed), GET /checks
(who may read it), the export of reviewed values only, and the reviewer role."""

import pytest

from tests.factories import CALLERS, add_org_member, make_session, make_user, set_project_role
from tests.translation_factories import ProjectApi

CALLER_LIST = (*CALLERS, "reviewer")
# anonymous, unknown_key, revoked_key, other_project_key, read_key, write_key, viewer, editor,
# project_admin, org_admin, org_owner, outsider, reviewer
MARK_REVIEWED = (401, 401, 401, 403, 403, 403, 403, 403, 200, 200, 200, 404, 200)
ASK_FOR_REVIEW = (401, 401, 401, 403, 403, 200, 403, 200, 200, 200, 200, 404, 200)
READ_CHECKS = (401, 401, 401, 403, 200, 200, 200, 200, 200, 200, 200, 404, 200)


@pytest.fixture
def callers(app, world, as_caller):
    from loko.extensions import db
    from loko.organizations.models import Organization
    from loko.projects.models import Project

    with app.app_context():
        user = make_user("reviewer@example.test", "reviewer")
        add_org_member(db.session.get(Organization, world.organization_id), user, "member")
        set_project_role(db.session.get(Project, world.project_id), user, "reviewer")
        world.credentials["reviewer"] = {"cookie": make_session(user)}
    return as_caller


@pytest.fixture
def writer(callers, world) -> ProjectApi:
    api = ProjectApi(callers("write_key"), world.project_id)
    api.create("title", {"en": "Title", "de": "Titel"})
    return api


def review(client, world, state="reviewed", keys=("title",), languages=("de",)):
    return client.post(
        f"/api/projects/{world.project_id}/translations/review",
        json={"fileName": "common", "keys": list(keys), "languages": list(languages), "state": state},
    )


def waiting(api: ProjectApi) -> dict:
    response = api.get("/checks")
    assert response.status_code == 200, response.json
    return {row["language"]: row["values"] for row in response.json["needsReview"]}


@pytest.mark.parametrize(
    ("state", "statuses"), [("reviewed", MARK_REVIEWED), ("needs-review", ASK_FOR_REVIEW)]
)
def test_who_may_set_review_states(callers, world, writer, state, statuses):
    # Marking reviewed changes nothing once reviewed: each caller starts from the other state.
    actual = {}
    for caller in CALLER_LIST:
        review(callers("org_owner"), world, "needs-review" if state == "reviewed" else "reviewed")
        actual[caller] = review(callers(caller), world, state).status_code
    assert actual == dict(zip(CALLER_LIST, statuses, strict=True))


def test_a_key_is_told_that_reviewing_takes_a_person(callers, world, writer):
    response = review(callers("write_key"), world)
    assert response.status_code == 403
    assert "signed-in user session" in response.json["error"]


def test_who_may_read_the_checks(callers, world, writer):
    actual = {
        caller: callers(caller).get(f"/api/projects/{world.project_id}/checks").status_code
        for caller in CALLER_LIST
    }
    assert actual == dict(zip(CALLER_LIST, READ_CHECKS, strict=True))


def test_marking_reviewed_counts_the_values_whose_state_changed(callers, world, writer):
    assert review(callers("reviewer"), world, languages=("de", "en")).json == {"updated": 2}
    assert review(callers("reviewer"), world, languages=("de", "en")).json == {"updated": 0}


def test_unknown_keys_are_ignored_and_an_unknown_language_is_refused(callers, world, writer):
    assert review(callers("reviewer"), world, keys=("title", "nope")).json == {"updated": 1}
    response = review(callers("reviewer"), world, languages=("de", "fr"))
    assert response.status_code == 400
    assert response.json["error"].startswith("languages.1: 'fr' is not a language")


def test_a_reviewed_value_written_again_is_translated(callers, world, writer):
    review(callers("reviewer"), world)
    writer.set_values("title", {"de": "Neuer Titel"})
    export = writer.export(state="reviewed")
    assert "de" not in export or "title" not in export["de"].get("common", {})


def test_a_source_change_asks_for_a_review_again(callers, world, writer):
    review(callers("reviewer"), world)
    writer.set_values("title", {"en": "Heading"})
    assert waiting(writer) == {"de": 1}
    review(callers("reviewer"), world)
    assert waiting(writer) == {}


def test_the_export_of_reviewed_values_leaves_the_others_out(callers, world, writer):
    writer.create("menu", {"en": "Menu", "de": "Menü"})
    review(callers("reviewer"), world, keys=("title",), languages=("de",))
    assert writer.export(state="reviewed") == {"de": {"common": {"title": "Titel"}}, "en": {"common": {}}}
    assert writer.export()["de"]["common"] == {"menu": "Menü", "title": "Titel"}


def test_the_export_etag_differs_with_the_state_filter(callers, world, writer):
    plain = writer.export_response().headers["ETag"]
    assert writer.export_response(state="reviewed").headers["ETag"] != plain


def test_the_reviewer_role_is_set_on_a_member(callers, world, app):
    from loko.extensions import db
    from loko.organizations.models import Organization

    with app.app_context():
        user = make_user("second@example.test", "second")
        add_org_member(db.session.get(Organization, world.organization_id), user, "member")
        user_id = user.id
    response = callers("org_owner").put(
        f"/api/projects/{world.project_id}/members/{user_id}", json={"role": "reviewer"}
    )
    assert response.status_code == 200, response.json
    assert response.json["member"]["role"] == "reviewer"
    project = callers("reviewer").get(f"/api/projects/{world.project_id}").json["project"]
    assert (project["canReviewTranslations"], project["canEditTranslations"], project["canEdit"]) == (
        True,
        True,
        False,
    )
