"""An undo in the browser never drops a reviewer's approvals unasked: an owner undoing a
German translator's changes sees the values a reviewer approved since, named with the
reviewer, and must choose to keep them or to undo them too; a removal shows its text."""

import re
import time
from datetime import UTC, datetime

from playwright.sync_api import expect

from tests.browser.conftest import check_accessibility
from tests.browser.test_editor import add_keys, call, member, new_project, stored


def three_people(new_page):
    """The owner's project; a German translator rewrites three values after ``since``; a
    reviewer then approves two of them. (owner page, project id, translator id, since)."""
    owner = new_page()
    project_id = new_project(owner, "Olga", languages=("en", "de"))
    add_keys(owner, project_id, "en", {"save": "Save", "open": "Open", "close": "Close", "extra": "Extra"})
    add_keys(owner, project_id, "de", {"save": "Speichern", "open": "Öffnen", "close": "Schließen"})
    translator, reviewer = new_page(), new_page()
    translator_id = member(owner, project_id, translator, "Tessa", "editor", ["de"])
    member(owner, project_id, reviewer, "Rita", "reviewer")
    time.sleep(0.01)
    since = datetime.now(UTC).replace(microsecond=0)
    time.sleep(1.1)
    add_keys(
        translator,
        project_id,
        "de",
        {"save": "Sichern", "open": "Aufmachen", "close": "Zumachen", "extra": "Zusatz"},
    )
    call(
        reviewer,
        "POST",
        f"/api/projects/{project_id}/translations/review",
        {"fileName": "common", "keys": ["save", "open"], "languages": ["de"], "state": "reviewed"},
    )
    return owner, project_id, translator_id, since


def open_undo(owner, project_id: str, translator_id: str, since: datetime) -> None:
    owner.goto(
        f"/projects/{project_id}/undo?actor=user:{translator_id}&since={since.strftime('%Y-%m-%dT%H:%M:%S')}"
    )
    expect(owner.get_by_role("heading", name="What the undo does")).to_be_visible()


def test_the_preview_names_the_reviewer_s_approvals(new_page):
    owner, project_id, translator_id, since = three_people(new_page)
    open_undo(owner, project_id, translator_id, since)
    changed = owner.locator("table").first
    expect(changed).to_contain_text("reviewed since by Rita")
    expect(changed.locator("tbody tr")).to_have_count(2)
    check_accessibility(owner, "undo-over-reviews")


def test_the_undo_refuses_without_a_choice(new_page):
    owner, project_id, translator_id, since = three_people(new_page)
    open_undo(owner, project_id, translator_id, since)
    owner.get_by_role("button", name="Undo these changes").click()
    expect(owner.get_by_role("heading", name="What the undo does")).to_be_visible()
    assert stored(owner, project_id)["de"]["common"]["save"] == "Sichern"


def test_keeping_the_approvals_undoes_only_the_rest(new_page):
    owner, project_id, translator_id, since = three_people(new_page)
    open_undo(owner, project_id, translator_id, since)
    owner.get_by_label(re.compile("Keep the later changes and approvals")).check()
    owner.get_by_role("button", name="Undo these changes").click()
    expect(owner.get_by_role("status").or_(owner.locator(".notice"))).to_contain_text("Undone")
    german = stored(owner, project_id)["de"]["common"]
    assert (german["save"], german["open"], german["close"]) == ("Sichern", "Aufmachen", "Schließen")


def test_undoing_them_too_puts_every_value_back(new_page):
    owner, project_id, translator_id, since = three_people(new_page)
    open_undo(owner, project_id, translator_id, since)
    owner.get_by_label(re.compile("Undo them too")).check()
    owner.get_by_role("button", name="Undo these changes").click()
    expect(owner.get_by_role("status").or_(owner.locator(".notice"))).to_contain_text("Undone")
    german = stored(owner, project_id)["de"]["common"]
    assert (german["save"], german["open"], german["close"]) == ("Speichern", "Öffnen", "Schließen")


def test_a_removal_shows_the_text_it_removes(new_page):
    owner, project_id, translator_id, since = three_people(new_page)
    open_undo(owner, project_id, translator_id, since)
    removal = owner.locator("tr", has=owner.locator("code.key", has_text="extra"))
    expect(removal).to_contain_text("removed")
    expect(removal.locator("del")).to_have_text("Zusatz")
