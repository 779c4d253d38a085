"""Comments on keys over REST: who may read, add, resolve, edit and delete them, the thread's
filters, bad input named by its field, and comments through the key's trash and purge."""

import pytest

from loko.comments.models import Comment
from loko.extensions import db
from tests.comments.conftest import Thread, make_key
from tests.factories import CALLERS, user_id

# anonymous, unknown_key, revoked_key, other_project_key, read_key, write_key, viewer,
# editor, project_admin, org_admin, org_owner, outsider
READ = (401, 401, 401, 403, 200, 200, 200, 200, 200, 200, 200, 404)
WRITE = (401, 401, 401, 403, 403, 200, 403, 200, 200, 200, 200, 404)
# Deleting someone else's comment: project admins and organization owners and admins.
MODERATE = (401, 401, 401, 403, 403, 403, 403, 403, 200, 200, 200, 404)
MISSING = "0190a0a0-0000-7000-8000-000000000000"


def _expected(statuses, caller, success=200):
    status = statuses[CALLERS.index(caller)]
    return success if status == 200 else status


@pytest.mark.parametrize("caller", CALLERS)
def test_reading_a_thread_follows_the_policy(thread, comment, as_caller, caller):
    comment()
    response = as_caller(caller).get(thread.url)
    assert response.status_code == _expected(READ, caller)


@pytest.mark.parametrize("caller", CALLERS)
def test_adding_a_comment_follows_the_policy(thread, as_caller, caller):
    response = as_caller(caller).post(thread.url, json={"body": "Too long for the button?"})
    assert response.status_code == _expected(WRITE, caller, 201), response.json


@pytest.mark.parametrize("caller", CALLERS)
def test_resolving_someone_elses_comment_follows_the_policy(thread, comment, as_caller, caller):
    url = thread.comment_url(comment()["id"])
    response = as_caller(caller).patch(url, json={"resolved": True})
    assert response.status_code == _expected(WRITE, caller), response.json


@pytest.mark.parametrize("caller", CALLERS)
def test_deleting_someone_elses_comment_follows_the_policy(thread, comment, as_caller, caller):
    url = thread.comment_url(comment("org_owner")["id"])
    response = as_caller(caller).delete(url)
    assert response.status_code == _expected(MODERATE, caller), response.json


@pytest.mark.parametrize("caller", ["editor", "write_key"])
def test_the_author_deletes_their_own_comment(thread, comment, as_caller, caller):
    url = thread.comment_url(comment(caller)["id"])
    assert as_caller(caller).delete(url).status_code == 200
    assert as_caller(caller).get(thread.url).json["comments"] == []


@pytest.mark.parametrize("caller", ["editor", "write_key"])
def test_the_author_changes_the_text_and_it_is_marked_edited(thread, comment, as_caller, caller):
    written = comment(caller, "Is thsi formal?")
    response = as_caller(caller).patch(thread.comment_url(written["id"]), json={"body": "Is this formal?"})
    assert response.status_code == 200, response.json
    assert response.json["comment"]["body"] == "Is this formal?"
    assert written["editedAt"] is None and response.json["comment"]["editedAt"] is not None


@pytest.mark.parametrize("caller", ["editor", "org_owner", "spare_key"])
def test_nobody_else_changes_the_text(thread, comment, as_caller, caller):
    url = thread.comment_url(comment("write_key", "Original")["id"])
    response = as_caller(caller).patch(url, json={"body": "Changed"})
    assert response.status_code == 403
    assert response.json["error"].startswith("body:")
    assert as_caller("viewer").get(thread.url).json["comments"][0]["body"] == "Original"


def test_a_comment_names_its_author_and_starts_open(thread, comment, world):
    made = comment("write_key", "Keep it short")
    assert made["author"] == {"type": "api_key", "id": world.key_ids["write_key"], "name": "write_key"}
    assert (made["body"], made["language"], made["resolved"], made["resolvedBy"]) == (
        "Keep it short",
        None,
        False,
        None,
    )
    assert made["translationId"] == thread.translation_id


def test_a_user_is_named_as_the_author(comment, world):
    made = comment("editor")
    assert made["author"] == {"type": "user", "id": user_id(world.users["editor"]), "name": "editor"}


def test_resolving_records_who_and_reopening_clears_it(thread, comment, as_caller, world):
    url = thread.comment_url(comment()["id"])
    resolved = as_caller("editor").patch(url, json={"resolved": True}).json["comment"]
    assert resolved["resolved"] is True and resolved["resolvedAt"] is not None
    assert resolved["resolvedBy"] == {"type": "user", "id": user_id(world.users["editor"]), "name": "editor"}
    reopened = as_caller("write_key").patch(url, json={"resolved": False}).json["comment"]
    assert (reopened["resolved"], reopened["resolvedAt"], reopened["resolvedBy"]) == (False, None, None)


def test_the_thread_is_oldest_first_and_filters_by_language_and_status(thread, comment, as_caller):
    whole = comment(body="About the key")
    german = comment(body="Zu förmlich", language="de")
    done = comment(body="Fixed already", language="de")
    as_caller("editor").patch(thread.comment_url(done["id"]), json={"resolved": True})
    reader = as_caller("read_key")

    def bodies(**query):
        response = reader.get(thread.url, query_string=query)
        assert response.status_code == 200, response.json
        return [item["body"] for item in response.json["comments"]]

    assert bodies() == [whole["body"], german["body"], done["body"]]
    assert bodies(language="de") == [german["body"], done["body"]]
    assert bodies(status="open") == [whole["body"], german["body"]]
    assert bodies(status="resolved", language="DE") == [done["body"]]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({}, "body"),
        ({"body": ""}, "body"),
        ({"body": "   \n "}, "body"),
        ({"body": "x" * 5001}, "body"),
        ({"body": 5}, "body"),
        ({"body": "Hi", "language": "not a code"}, "language"),
        ({"body": "Hi", "author": "me"}, "author"),
    ],
)
def test_bad_comments_are_refused_naming_the_field(thread, as_caller, body, field):
    response = as_caller("editor").post(thread.url, json=body)
    assert response.status_code == 400
    assert field in response.json["error"]


def test_the_body_may_be_5000_characters(thread, as_caller):
    response = as_caller("editor").post(thread.url, json={"body": "x" * 5000})
    assert response.status_code == 201


def test_a_language_the_project_lacks_is_not_found(thread, as_caller):
    response = as_caller("editor").post(thread.url, json={"body": "Hi", "language": "fr"})
    assert response.status_code == 404
    assert response.json["error"].startswith("language:")


@pytest.mark.parametrize(
    ("body", "field"), [({}, "resolved"), ({"resolved": "maybe"}, "resolved"), ({"body": ""}, "body")]
)
def test_a_bad_change_is_refused_naming_the_field(thread, comment, as_caller, body, field):
    response = as_caller("editor").patch(thread.comment_url(comment()["id"]), json=body)
    assert response.status_code == 400
    assert field in response.json["error"]


def test_an_unknown_key_or_comment_is_not_found(thread, comment, as_caller):
    editor = as_caller("editor")
    unknown_key = Thread(thread.project_id, MISSING)
    assert editor.get(unknown_key.url).status_code == 404
    assert editor.post(unknown_key.url, json={"body": "Hi"}).status_code == 404
    assert editor.patch(thread.comment_url(MISSING), json={"resolved": True}).status_code == 404
    assert editor.delete(thread.comment_url(MISSING)).status_code == 404


def test_another_projects_key_and_comment_are_not_found(world, thread, comment, as_caller):
    outsider = as_caller("outsider")
    theirs = Thread(world.project_id, make_key(outsider, world.other_project_id, "elsewhere"))
    assert as_caller("editor").get(theirs.url).status_code == 404
    # Our comment through another key of our project, and through their project.
    ours = comment()["id"]
    other_key = Thread(world.project_id, make_key(as_caller("org_owner"), world.project_id, "farewell"))
    assert as_caller("editor").patch(other_key.comment_url(ours), json={"resolved": True}).status_code == 404
    in_their_project = Thread(world.other_project_id, theirs.translation_id).comment_url(ours)
    assert outsider.delete(in_their_project).status_code == 404


def test_comments_stay_through_the_trash_and_restore(world, thread, comment, as_caller):
    made = comment(body="Keep me")
    owner = as_caller("org_owner")
    translations = f"/api/projects/{world.project_id}/translations"
    assert owner.delete(translations, json={"id": thread.translation_id}).status_code == 200
    assert [item["id"] for item in owner.get(thread.url).json["comments"]] == [made["id"]]
    refused = owner.post(thread.url, json={"body": "New"})
    assert refused.status_code == 409
    assert refused.json["error"].startswith("translationId:")
    assert owner.post(f"{translations}/trash", json={"id": thread.translation_id}).status_code == 200
    assert [item["body"] for item in owner.get(thread.url).json["comments"]] == ["Keep me"]


def test_purging_the_key_deletes_its_comments(app, world, thread, comment, as_caller):
    comment()
    comment(language="de")
    translations = f"/api/projects/{world.project_id}/translations"
    response = as_caller("org_owner").delete(
        translations, json={"id": thread.translation_id, "permanent": True}
    )
    assert response.status_code == 200
    with app.app_context():
        assert db.session.query(Comment).count() == 0


def test_a_renamed_language_carries_its_comments(world, thread, comment, as_caller):
    comment(language="de")
    languages = f"/api/projects/{world.project_id}/languages"
    renamed = as_caller("org_owner").patch(languages, json={"currentCode": "de", "code": "de-AT"})
    assert renamed.status_code == 200, renamed.json
    assert [item["language"] for item in as_caller("viewer").get(thread.url).json["comments"]] == ["de-AT"]


def test_deleting_a_language_deletes_its_comments_only(world, thread, comment, as_caller):
    comment(body="About the key")
    comment(body="About German", language="de")
    languages = f"/api/projects/{world.project_id}/languages"
    assert as_caller("org_owner").delete(languages, json={"code": "de"}).status_code == 200
    assert [item["body"] for item in as_caller("viewer").get(thread.url).json["comments"]] == [
        "About the key"
    ]
