"""Comments in the editor: the thread in a key's details (author, time, language), the form
that adds a comment and the Resolve and Reopen buttons, for each kind of caller; and the
open comment count of each row of the grid."""

import pytest

from tests.pages.conftest import ALL_CALLERS, alert_of, notice_of
from tests.translation_factories import ProjectApi

# A page caller's answer to a comment form: API keys are no page credentials (signed out,
# a post is refused), viewers may not comment, outsiders do not see the project.
FORM_STATUS = {
    **dict.fromkeys(
        ("anonymous", "unknown_key", "revoked_key", "other_project_key", "read_key", "write_key"), 401
    ),
    "viewer": 403,
    "editor": 303,
    "project_admin": 303,
    "org_admin": 303,
    "org_owner": 303,
    "outsider": 404,
}


@pytest.fixture
def api(as_caller, world) -> ProjectApi:
    api = ProjectApi(as_caller("write_key"), world.project_id)
    api.add_language("en")
    api.add_language("de")
    return api


@pytest.fixture
def key_id(api) -> str:
    return api.create("greeting", {"en": "Hello", "de": "Hallo"})["id"]


def details_url(world, key_id: str) -> str:
    return f"/projects/{world.project_id}/editor/keys/{key_id}"


def thread_url(world, key_id: str) -> str:
    return f"{details_url(world, key_id)}/comments"


def comment_api(api: ProjectApi, key_id: str, body: str, **fields) -> dict:
    response = api.post(f"/translations/{key_id}/comments", {"body": body, **fields})
    assert response.status_code == 201, response.json
    return response.json["comment"]


@pytest.mark.parametrize("caller", ALL_CALLERS)
def test_adding_a_comment_by_form_follows_the_policy(page_as, world, api, key_id, caller):
    response = page_as(caller).submit(thread_url(world, key_id), {"body": "Formal?", "language": ""})
    assert response.status_code == FORM_STATUS[caller]
    comments = api.get(f"/translations/{key_id}/comments").json["comments"]
    assert len(comments) == (1 if FORM_STATUS[caller] == 303 else 0)


@pytest.mark.parametrize("caller", ALL_CALLERS)
def test_resolving_by_form_follows_the_policy(page_as, world, api, key_id, caller):
    comment = comment_api(api, key_id, "Formal?")
    response = page_as(caller).submit(f"{thread_url(world, key_id)}/{comment['id']}", {"resolved": "true"})
    assert response.status_code == FORM_STATUS[caller]
    resolved = api.get(f"/translations/{key_id}/comments").json["comments"][0]["resolved"]
    assert resolved is (FORM_STATUS[caller] == 303)


def test_the_form_adds_a_comment_on_a_language_and_goes_back_to_the_key(page_as, world, api, key_id):
    browser = page_as("editor")
    response = browser.submit(thread_url(world, key_id), {"body": "Du or Sie?", "language": "de"})
    assert response.location == f"/projects/{world.project_id}/editor?id={key_id}"
    assert notice_of(browser) == "Comment added."
    (comment,) = api.get(f"/translations/{key_id}/comments").json["comments"]
    assert (comment["body"], comment["language"], comment["author"]["name"]) == ("Du or Sie?", "de", "editor")


def test_the_thread_shows_author_time_and_language(page_as, world, api, key_id):
    comment = comment_api(api, key_id, "Du or Sie?", language="de")
    text = page_as("viewer").get(details_url(world, key_id)).text
    assert "<strong>write_key</strong>" in text
    assert (
        f'<time datetime="{comment["createdAt"]}' in text.replace("+00:00", "Z") or "<time datetime=" in text
    )
    assert "on <code>de</code>" in text
    assert '<p class="comment-body" lang="de" dir="ltr">Du or Sie?</p>' in text


def test_a_viewer_reads_the_thread_without_forms(page_as, world, api, key_id):
    comment_api(api, key_id, "Formal?")
    text = page_as("viewer").get(details_url(world, key_id)).text
    assert "Formal?" in text
    assert "<form" not in text


def test_an_editor_gets_the_form_with_labelled_controls_and_the_buttons(page_as, world, api, key_id):
    comment_api(api, key_id, "Formal?")
    text = page_as("editor").get(details_url(world, key_id)).text
    assert f'action="{thread_url(world, key_id)}"' in text
    assert '<label for="comment-body">New comment</label>' in text
    assert '<label for="comment-language">Comment about</label>' in text
    assert '<option value="">The whole key</option>' in text
    assert 'aria-label="Resolve comment: Formal?">Resolve</button>' in text


def test_resolve_then_reopen_by_form(page_as, world, api, key_id):
    comment = comment_api(api, key_id, "Formal?")
    browser = page_as("editor")
    url = f"{thread_url(world, key_id)}/{comment['id']}"
    assert browser.submit(url, {"resolved": "true"}).status_code == 303
    assert notice_of(browser) == "Comment resolved."
    text = browser.get(details_url(world, key_id)).text
    assert "resolved</span> by editor" in text
    assert 'aria-label="Reopen comment: Formal?">Reopen</button>' in text
    assert browser.submit(url, {"resolved": "false"}).status_code == 303
    assert notice_of(browser) == "Comment reopened."
    assert api.get(f"/translations/{key_id}/comments").json["comments"][0]["resolved"] is False


@pytest.mark.parametrize("body", ["", "   ", "x" * 5001])
def test_a_bad_comment_is_refused_on_the_page_naming_the_field(page_as, world, api, key_id, body):
    response = page_as("editor").submit(thread_url(world, key_id), {"body": body, "language": ""})
    assert response.status_code == 400
    assert alert_of(response).startswith("body:")
    assert api.get(f"/translations/{key_id}/comments").json["comments"] == []


def test_a_comment_form_without_a_csrf_token_is_refused(page_as, world, api, key_id):
    response = page_as("editor").post(thread_url(world, key_id), data={"body": "Formal?"})
    assert response.status_code in (400, 403)
    assert api.get(f"/translations/{key_id}/comments").json["comments"] == []


def test_markup_in_a_comment_shows_as_text(page_as, world, api, key_id):
    comment_api(api, key_id, "<script>alert(1)</script>")
    text = page_as("viewer").get(details_url(world, key_id)).text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in text
    assert "<script>alert(1)" not in text


def test_each_row_shows_its_open_comments_with_a_label(page_as, world, api, key_id):
    other = api.create("farewell", {"en": "Bye"})["id"]
    comment_api(api, key_id, "One")
    comment_api(api, key_id, "Two", language="de")
    done = comment_api(api, key_id, "Three")
    api.patch(f"/translations/{key_id}/comments/{done['id']}", {"resolved": True})
    comment_api(api, other, "Only one")
    text = page_as("viewer").get(f"/projects/{world.project_id}/editor").text
    assert '<span class="sr-only">2 open comments</span>' in text
    assert '<span class="sr-only">1 open comment</span>' in text
    assert text.count('class="badge comment-count"') == 2
