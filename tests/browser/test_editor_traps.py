"""What the editor must never let people believe, in a real browser, for an owner, a
translator limited to German and a reviewer: a saved value shows what the checks found and
what it did to the row's other languages at once; approving many values asks first and
names those with issues or waiting for a review; a forbidden glossary term is never put in
by one key press; glossary hints follow the language being edited, and the editor opens on
the languages a person may edit; comments are added and resolved in place."""

import re

from playwright.sync_api import expect

from tests.browser.conftest import check_accessibility
from tests.browser.test_editor import (
    add_keys,
    call,
    cell,
    member,
    new_project,
    open_editor,
    still_same_document,
)


def edit(page, key: str, language: str, text: str) -> None:
    """Open the value, replace its text and save it with Enter, staying on the value."""
    target = cell(page, key, language)
    target.focus()
    page.keyboard.press("Enter")
    page.keyboard.press("Control+A")
    page.keyboard.type(text)
    target.get_by_role("button", name="Save").click()
    expect(target).to_have_class(re.compile(r"\bsaved\b"))


# -- A saved value shows the truth at once -------------------------------------------------


def test_a_saved_value_shows_the_issue_the_checks_found_without_a_reload(page):
    project_id = new_project(page)
    add_keys(page, project_id, "en", {"save": "Save"})
    open_editor(page, project_id)
    edit(page, "save", "de", "Speichern ")
    expect(cell(page, "save", "de").locator(".issues")).to_contain_text(
        "Leading or trailing whitespace differs from the source"
    )
    assert still_same_document(page)
    check_accessibility(page)


def test_a_changed_source_marks_the_other_languages_of_the_row_as_needing_review(new_page):
    owner = new_page()
    project_id = new_project(owner, "Owner", languages=("en", "de", "fr"))
    add_keys(owner, project_id, "en", {"bye": "Bye"})
    add_keys(owner, project_id, "de", {"bye": "Tschüss"})
    add_keys(owner, project_id, "fr", {"bye": "Salut"})
    open_editor(owner, project_id, "?lang=de&lang=fr")
    edit(owner, "bye", "en", "Goodbye")
    expect(cell(owner, "bye", "de").locator(".state")).to_have_text("● Needs review")
    expect(cell(owner, "bye", "fr").locator(".state")).to_have_text("● Needs review")
    assert still_same_document(owner)


# -- Approving asks first ------------------------------------------------------------------


def project_to_review(owner, reviewer) -> str:
    """A project whose German values are one clean, one with an issue (trailing space), one
    waiting for a review (its source changed), with ``reviewer`` a reviewer of it."""
    project_id = new_project(owner, "Owner")
    add_keys(owner, project_id, "en", {"bye": "Bye", "save": "Save", "yes": "Yes"})
    add_keys(owner, project_id, "de", {"bye": "Tschüss", "save": "Speichern ", "yes": "Ja"})
    change = {"key": "bye", "fileName": "common", "updates": {"en": {"value": "Goodbye"}}}
    call(owner, "PATCH", f"/api/projects/{project_id}/translations", change)
    member(owner, project_id, reviewer, "Rita", "reviewer")
    return project_id


def test_marking_all_shown_reviewed_asks_first_and_leaves_out_flagged_values(new_page):
    owner, reviewer = new_page(), new_page()
    project_id = project_to_review(owner, reviewer)
    open_editor(reviewer, project_id)
    reviewer.get_by_text("Mark all shown reviewed in German (3)").click()
    confirm = reviewer.get_by_role("group", name="Mark all shown reviewed in German")
    expect(confirm).to_contain_text("1 has open check issues")
    expect(confirm).to_contain_text("1 waits for a review")
    expect(cell(reviewer, "yes", "de").locator(".state")).to_have_count(0)
    expect(
        confirm.get_by_label("Leave out the 2 values with open issues or waiting for a review")
    ).to_be_checked()
    check_accessibility(reviewer, "editor-review-all-confirm")
    confirm.get_by_role("button", name="Mark reviewed").click()
    expect(cell(reviewer, "yes", "de").locator(".state")).to_have_text("✓ Reviewed")
    expect(cell(reviewer, "bye", "de").locator(".state")).to_have_text("● Needs review")
    expect(cell(reviewer, "save", "de").locator(".state")).to_have_count(0)


def test_marking_all_shown_reviewed_is_never_offered_for_the_source_language(new_page):
    owner, reviewer = new_page(), new_page()
    project_id = project_to_review(owner, reviewer)
    open_editor(reviewer, project_id)
    expect(reviewer.get_by_text("Mark all shown reviewed in German (3)")).to_be_visible()
    expect(reviewer.get_by_text("Mark all shown reviewed in English")).to_have_count(0)


def test_r_marks_one_value_reviewed_in_place(new_page):
    owner, reviewer = new_page(), new_page()
    project_id = project_to_review(owner, reviewer)
    open_editor(reviewer, project_id, "?q=Tsch")
    cell(reviewer, "bye", "de").focus()
    reviewer.keyboard.press("r")
    expect(cell(reviewer, "bye", "de").locator(".state")).to_have_text("✓ Reviewed")
    expect(cell(reviewer, "bye", "de")).to_be_focused()
    expect(reviewer.get_by_label("Search keys and values")).to_have_value("Tsch")
    assert still_same_document(reviewer)


# -- A forbidden term is never one key press away ------------------------------------------


def test_a_forbidden_glossary_term_is_marked_and_never_inserted_by_its_shortcut(new_page):
    owner, translator = new_page(), new_page()
    project_id = new_project(owner, "Owner")
    organization_id = call(owner, "GET", "/api/organizations")["organizations"][0]["id"]
    term = {
        "language": "en",
        "term": "file",
        "translations": [
            {"language": "de", "text": "Datei"},
            {"language": "de", "text": "Akte", "forbidden": True},
        ],
    }
    call(owner, "POST", f"/api/organizations/{organization_id}/glossary/terms", term)
    add_keys(owner, project_id, "en", {"save": "Save the file"})
    member(owner, project_id, translator, "Tessa", "editor", ["de"])
    open_editor(translator, project_id)
    target = cell(translator, "save", "de")
    target.focus()
    translator.keyboard.press("Enter")
    items = target.locator(".suggestion-list > li")
    forbidden = items.filter(has_text="Akte")
    expect(forbidden).to_contain_text("Forbidden")
    expect(forbidden).to_have_class(re.compile(r"\bforbidden\b"))
    position = items.all_inner_texts().index(forbidden.inner_text()) + 1
    translator.keyboard.press(f"Alt+{position}")
    expect(target.locator(".suggestion-note")).to_contain_text(f"no suggestion {position}")
    expect(target.locator("textarea")).to_have_value("")
    check_accessibility(translator, "editor-forbidden-suggestion")


# -- Each person's languages ---------------------------------------------------------------


def project_with_term(owner, translator) -> str:
    """A project in English, Arabic, German and French with a glossary term for ``file``
    in German only, and ``translator`` an editor limited to German."""
    project_id = new_project(owner, "Owner", languages=("en", "ar", "de", "fr"))
    organization_id = call(owner, "GET", "/api/organizations")["organizations"][0]["id"]
    term = {"language": "en", "term": "file", "translations": [{"language": "de", "text": "Datei"}]}
    call(owner, "POST", f"/api/organizations/{organization_id}/glossary/terms", term)
    add_keys(owner, project_id, "en", {"save": "Save the file"})
    member(owner, project_id, translator, "Tessa", "editor", ["de"])
    return project_id


def shown_languages(page) -> list[str]:
    return page.locator("#editor-grid thead th[data-l]").evaluate_all("cells => cells.map(c => c.dataset.l)")


def test_a_translator_limited_to_german_opens_on_the_source_and_german(new_page):
    owner, translator = new_page(), new_page()
    project_id = project_with_term(owner, translator)
    open_editor(translator, project_id)
    assert shown_languages(translator) == ["en", "de"]
    open_editor(owner, project_id)
    assert shown_languages(owner) == ["en", "ar", "de"]


def test_glossary_hints_follow_the_language_the_person_edits_not_the_first_shown(new_page):
    owner, translator = new_page(), new_page()
    project_id = project_with_term(owner, translator)
    open_editor(translator, project_id, "?lang=ar&lang=de")
    assert shown_languages(translator) == ["en", "ar", "de"]
    expect(cell(translator, "save", "en").locator(".glossary-terms")).to_have_text("Glossary: file → Datei")


def test_the_languages_a_person_chose_are_shown_again_on_their_next_visit(new_page):
    owner, translator = new_page(), new_page()
    project_id = project_with_term(owner, translator)
    open_editor(owner, project_id, "?lang=fr")
    assert shown_languages(owner) == ["en", "fr"]
    open_editor(owner, project_id, "?q=Save")
    expect(owner).to_have_url(re.compile(r"lang=fr"))
    assert shown_languages(owner) == ["en", "fr"]
    expect(owner.get_by_label("Search keys and values")).to_have_value("Save")
    open_editor(translator, project_id)
    assert shown_languages(translator) == ["en", "de"]


# -- Comments in place ---------------------------------------------------------------------


def test_a_translator_limited_to_german_comments_in_place(new_page):
    owner, translator = new_page(), new_page()
    project_id = new_project(owner, "Owner", languages=("en", "de", "fr"))
    add_keys(owner, project_id, "en", {"cart.pay": "Pay now", "cart.back": "Back"})
    member(owner, project_id, translator, "Tessa", "editor", ["de"])
    open_editor(translator, project_id, "?q=pay&lang=de")
    translator.get_by_role("button", name="Details of cart.pay").click()
    details = translator.get_by_role("dialog", name="cart.pay")
    details.get_by_label("New comment").fill("Du or Sie here?")
    details.get_by_label("Comment about").select_option(label="German (de)")
    details.get_by_role("button", name="Add comment").click()
    expect(details.locator(".comment-body")).to_have_text("Du or Sie here?")
    expect(details.get_by_label("New comment")).to_have_value("")
    check_accessibility(translator, "editor-comment-in-place")
    details.get_by_role("button", name="Close").first.click()
    expect(translator.get_by_role("rowheader", name="cart.pay")).to_contain_text("1 open comment")
    expect(translator.get_by_label("Search keys and values")).to_have_value("pay")
    assert still_same_document(translator)


def test_resolving_a_comment_keeps_the_editors_view(new_page):
    owner = new_page()
    project_id = new_project(owner, "Owner", languages=("en", "de", "fr"))
    add_keys(owner, project_id, "en", {"cart.pay": "Pay now"})
    open_editor(owner, project_id, "?q=pay&lang=fr")
    owner.get_by_role("button", name="Details of cart.pay").click()
    details = owner.get_by_role("dialog", name="cart.pay")
    details.get_by_label("New comment").fill("Too long?")
    details.get_by_role("button", name="Add comment").click()
    details.get_by_role("button", name="Resolve comment: Too long?").click()
    expect(details.get_by_text("resolved", exact=True)).to_be_visible()
    expect(details.get_by_role("button", name="Reopen comment: Too long?")).to_be_focused()
    details.get_by_role("button", name="Close").first.click()
    expect(owner.get_by_role("rowheader", name="cart.pay")).not_to_contain_text("open comment")
    expect(owner.get_by_label("Search keys and values")).to_have_value("pay")
    assert owner.locator("#editor-grid thead th[data-l]").count() == 2
    assert still_same_document(owner)
