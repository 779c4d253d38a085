"""The editor and the checks: the "With issues" and "Needs review" filters, each issue shown
beside its value with its fix one form away, and the review state of each value with the
"Mark reviewed" forms, for each kind of caller."""

import html
import re

import pytest
from sqlalchemy import select

from loko.extensions import db
from loko.organizations.models import Organization
from loko.projects.models import Project
from loko.translations.models import Translation, TranslationValue
from tests.factories import add_org_member, make_session, make_user, set_project_role
from tests.pages.conftest import MEMBERS, SIGNED_OUT, alert_of, notice_of
from tests.pages.test_editor import api, editor_url, keys_of  # noqa: F401 - the api fixture
from tests.translation_factories import ProjectApi

REVIEWERS = ("reviewer", "project_admin", "org_admin", "org_owner")
NOT_REVIEWERS = ("viewer", "editor")
EDITORS = ("editor", "reviewer", "project_admin", "org_admin", "org_owner")


@pytest.fixture
def reviewer(app, world):
    """A member of the organization with the project's reviewer role, as ``page_as("reviewer")``."""
    with app.app_context():
        user = make_user("reviewer@example.test", "reviewer")
        add_org_member(db.session.get(Organization, world.organization_id), user, "member")
        set_project_role(db.session.get(Project, world.project_id), user, "reviewer")
        world.credentials["reviewer"] = {"cookie": make_session(user)}


@pytest.fixture
def values(api: ProjectApi, reviewer):  # noqa: F811 - the api fixture
    """``spaced`` has a trailing space in German (a whitespace issue); ``changed`` had its
    English source changed after its German value was written, so that value needs review;
    ``clean`` has neither."""
    api.create("clean", {"en": "Fine", "de": "Gut"})
    api.create("spaced", {"en": "Save", "de": "Speichern "})
    api.create("changed", {"en": "Bye", "de": "Tschüss"})
    api.set_values("changed", {"en": "Goodbye"})
    return api


def fix_form(response, key: str) -> dict:
    """The fields of the first "Apply fix" form of ``key``'s row."""
    row = re.search(rf'<tr data-id="[^"]+" data-key="{key}".*?</tr>', response.text, re.S).group(0)
    form = re.search(r'<form method="post"[^>]*editor/fix">(.*?)</form>', row, re.S).group(1)
    return {
        name: html.unescape(value)
        for name, value in re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', form)
        if name != "csrf_token"
    }


def row_of(response, key: str) -> str:
    return re.search(rf'<tr data-id="[^"]+" data-key="{key}".*?</tr>', response.text, re.S).group(0)


@pytest.fixture
def stored(app, world):
    """``stored("key")``: the key's values as the database holds them."""

    def read(key: str) -> dict:
        with app.app_context():
            return dict(
                db.session.execute(
                    select(TranslationValue.language_code, TranslationValue.value)
                    .join(Translation, Translation.id == TranslationValue.translation_id)
                    .where(Translation.project_id == world.project_id, Translation.key == key)
                ).all()
            )

    return read


@pytest.mark.parametrize("caller", [*MEMBERS, "reviewer"])
def test_the_issues_filter_lists_the_keys_with_an_issue_in_a_shown_language(page_as, world, values, caller):
    response = page_as(caller).get(editor_url(world, issues="any"))
    assert response.status_code == 200
    assert keys_of(response) == ["spaced"]


def test_the_issues_filter_takes_one_check(page_as, world, values):
    client = page_as("viewer")
    assert keys_of(client.get(editor_url(world, issues="whitespace"))) == ["spaced"]
    assert keys_of(client.get(editor_url(world, issues="double-space"))) == []


def test_the_issues_filter_lists_the_checks_by_title(page_as, world, values):
    text = page_as("viewer").get(editor_url(world)).text
    assert (
        '<option value="whitespace">Leading or trailing whitespace differs from the source</option>' in text
    )
    assert '<option value="double-space">Double space</option>' in text


def test_an_unknown_check_is_named(page_as, world, values):
    response = page_as("viewer").get(editor_url(world, issues="spelling"))
    assert response.status_code == 400
    assert "issues" in response.text


def test_the_issues_filter_combines_with_the_search_and_stays_in_the_links(page_as, world, values):
    values.upsert("en", {f"extra.{i:02d}": f"Value {i}" for i in range(60)})
    values.upsert("de", {f"extra.{i:02d}": f"Wert {i} " for i in range(60)})
    response = page_as("viewer").get(editor_url(world, issues="whitespace", q="extra"))
    assert keys_of(response)[0] == "extra.00" and "spaced" not in keys_of(response)
    assert re.search(r'rel="next"[^>]*href="[^"]*issues=whitespace', response.text)


@pytest.mark.parametrize("caller", [*MEMBERS, "reviewer"])
def test_the_needs_review_filter_lists_the_values_waiting_for_a_review(page_as, world, values, caller):
    response = page_as(caller).get(editor_url(world, review="needed"))
    assert response.status_code == 200
    assert keys_of(response) == ["changed"]
    assert '<option value="needed" selected>Needs review</option>' in response.text


def test_the_needs_review_filter_only_looks_at_the_languages_shown(page_as, world, values):
    assert keys_of(page_as("viewer").get(editor_url(world, review="needed", lang="en"))) == []


@pytest.mark.parametrize("caller", SIGNED_OUT)
def test_the_filters_send_the_signed_out_to_sign_in(page_as, world, values, caller):
    response = page_as(caller).get(editor_url(world, issues="any", review="needed"))
    assert response.status_code == 302


def test_each_issue_shows_beside_its_value_with_the_checks_title(page_as, world, values):
    row = row_of(page_as("viewer").get(editor_url(world)), "spaced")
    assert "Leading or trailing whitespace differs from the source</span>: " in row


def test_the_review_state_shows_in_words(page_as, world, values):
    row = row_of(page_as("viewer").get(editor_url(world)), "changed")
    assert "Needs review</span>" in row


@pytest.mark.parametrize("caller", EDITORS)
def test_editors_are_offered_the_fix(page_as, world, values, caller):
    assert "Apply fix" in row_of(page_as(caller).get(editor_url(world)), "spaced")


def test_a_viewer_is_not_offered_the_fix(page_as, world, values):
    assert "Apply fix" not in row_of(page_as("viewer").get(editor_url(world)), "spaced")


def test_applying_the_fix_writes_the_value_and_goes_back_to_the_view(page_as, world, values, stored):
    client = page_as("editor")
    form = fix_form(client.get(editor_url(world, issues="any")), "spaced")
    assert form["expected"] == "Speichern " and form["view"] == "issues=any&source=en&lang=de"
    response = client.submit(f"/projects/{world.project_id}/editor/fix", form)
    assert response.status_code == 303
    assert response.location.endswith("/editor?issues=any&source=en&lang=de")
    assert notice_of(client) == "Fix applied to spaced in de."
    assert stored("spaced")["de"] == "Speichern"
    assert keys_of(client.get(editor_url(world, issues="any"))) == []


def test_a_fix_does_not_overwrite_a_value_changed_meanwhile(page_as, world, values, stored):
    client = page_as("editor")
    form = fix_form(client.get(editor_url(world)), "spaced")
    values.set_values("spaced", {"de": "Sichern "})
    response = client.submit(f"/projects/{world.project_id}/editor/fix", form)
    assert response.status_code == 409
    assert alert_of(response).startswith("updates.de.expected")
    assert stored("spaced")["de"] == "Sichern "


def test_a_forged_fix_by_a_viewer_is_refused(page_as, world, values, stored):
    form = fix_form(page_as("editor").get(editor_url(world)), "spaced")
    response = page_as("viewer").submit(f"/projects/{world.project_id}/editor/fix", form)
    assert response.status_code == 403
    assert stored("spaced")["de"] == "Speichern "


@pytest.mark.parametrize("caller", SIGNED_OUT)
def test_a_fix_posted_signed_out_goes_to_sign_in(page_as, world, values, stored, caller):
    form = fix_form(page_as("editor").get(editor_url(world)), "spaced")
    response = page_as(caller).submit(f"/projects/{world.project_id}/editor/fix", form)
    assert response.status_code in (302, 303, 401)
    assert stored("spaced")["de"] == "Speichern "


def test_a_fix_without_such_an_issue_is_a_conflict(page_as, world, values):
    client = page_as("editor")
    form = fix_form(client.get(editor_url(world)), "spaced") | {"check": "double-space"}
    response = client.submit(f"/projects/{world.project_id}/editor/fix", form)
    assert response.status_code == 409
    assert alert_of(response).startswith("check: double-space")


@pytest.mark.parametrize("caller", REVIEWERS)
def test_reviewers_are_offered_mark_reviewed(page_as, world, values, caller):
    text = page_as(caller).get(editor_url(world)).text
    assert "Mark reviewed</button>" in row_of_text(text, "changed")
    assert "Mark all shown reviewed in" in text


def test_mark_all_shown_reviewed_is_not_offered_for_the_projects_source_language(page_as, world, values):
    text = page_as("org_owner").get(editor_url(world, source="de", lang="en")).text
    assert 'data-review-all="en"' not in text and "Mark all shown reviewed in English" not in text


@pytest.mark.parametrize("caller", NOT_REVIEWERS)
def test_who_may_not_review_sees_no_review_button(page_as, world, values, caller):
    text = page_as(caller).get(editor_url(world)).text
    assert "Mark reviewed" not in text and "Mark all shown reviewed" not in text


def row_of_text(text: str, key: str) -> str:
    return re.search(rf'<tr data-id="[^"]+" data-key="{key}".*?</tr>', text, re.S).group(0)


def review_form(client, world, key: str) -> dict:
    row = row_of(client.get(editor_url(world)), key)
    translation_id = re.search(r'data-id="([^"]+)"', row).group(1)
    return {"id": translation_id, "language": "de", "view": "review=needed"}


def test_marking_reviewed_sets_the_state_and_leaves_the_filter(page_as, world, values):
    client = page_as("reviewer")
    response = client.submit(
        f"/projects/{world.project_id}/editor/review", review_form(client, world, "changed")
    )
    assert response.status_code == 303
    assert response.location.endswith("/editor?review=needed")
    assert notice_of(client) == "Values marked reviewed: 1."
    assert keys_of(client.get(editor_url(world, review="needed"))) == []
    assert "Reviewed</span>" in row_of(client.get(editor_url(world)), "changed")


def test_marking_every_shown_value_reviewed(page_as, world, values):
    client = page_as("org_owner")
    ids = re.findall(r'<tr data-id="([^"]+)"', client.get(editor_url(world)).text)
    response = client.submit(
        f"/projects/{world.project_id}/editor/review", {"id": ids, "language": "de", "view": ""}
    )
    assert response.status_code == 303
    assert notice_of(client) == "Values marked reviewed: 3."


@pytest.mark.parametrize("caller", NOT_REVIEWERS)
def test_a_forged_review_by_who_may_not_review_is_refused(page_as, world, values, caller):
    form = review_form(page_as("org_owner"), world, "changed")
    response = page_as(caller).submit(f"/projects/{world.project_id}/editor/review", form)
    assert response.status_code == 403
    assert keys_of(page_as("viewer").get(editor_url(world, review="needed"))) == ["changed"]


@pytest.mark.parametrize("caller", SIGNED_OUT)
def test_a_review_posted_signed_out_changes_nothing(page_as, world, values, caller):
    form = review_form(page_as("org_owner"), world, "changed")
    response = page_as(caller).submit(f"/projects/{world.project_id}/editor/review", form)
    assert response.status_code in (302, 303, 401)
    assert keys_of(page_as("viewer").get(editor_url(world, review="needed"))) == ["changed"]


def test_an_outsider_posting_a_fix_or_a_review_finds_no_project(page_as, world, values, stored):
    fix = fix_form(page_as("editor").get(editor_url(world)), "spaced")
    review = review_form(page_as("org_owner"), world, "changed")
    assert page_as("outsider").submit(f"/projects/{world.project_id}/editor/fix", fix).status_code == 404
    assert (
        page_as("outsider").submit(f"/projects/{world.project_id}/editor/review", review).status_code == 404
    )
    assert stored("spaced")["de"] == "Speichern "


def test_the_rows_fragment_keeps_the_view_in_its_forms(page_as, world, values):
    response = page_as("editor").get(editor_url(world, "/rows", issues="any"))
    assert fix_form(response, "spaced")["view"] == "issues=any&source=en&lang=de"
