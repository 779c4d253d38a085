"""Proposals in a real browser: a contributor proposes from the editor's details, a second
person votes there, a reviewer accepts from the review queue with the keyboard and the value
is exported; a reviewer bulk-accepts 40 best-voted proposals and undoes it."""

from playwright.sync_api import expect

from tests.browser.conftest import check_accessibility
from tests.browser.test_editor import add_keys, call, member, new_project, open_editor, stored


def _queue(page, project_id: str, query: str = "") -> None:
    page.goto(f"/projects/{project_id}/proposals{query}")
    expect(page.get_by_role("heading", name="Proposals", exact=True)).to_be_visible()


def test_a_contributor_proposes_a_second_person_votes_and_a_reviewer_accepts_by_keyboard(page, new_page):
    project_id = new_project(page, "Rita", languages=("en", "de"))
    add_keys(page, project_id, "en", {"cart.pay": "Pay now"})
    contributor, voter = new_page(), new_page()
    member(page, project_id, contributor, "Cora", "contributor")
    member(page, project_id, voter, "Viktor", "contributor")

    open_editor(contributor, project_id)
    contributor.get_by_role("button", name="Details of cart.pay").click()
    details = contributor.get_by_role("dialog", name="cart.pay")
    details.get_by_label("Propose in").select_option(label="German (de)")
    details.get_by_label("Proposed text").fill("Jetzt bezahlen")
    check_accessibility(contributor)
    details.get_by_role("button", name="Propose").click()
    expect(contributor.get_by_text("Proposal added.")).to_be_visible()

    open_editor(voter, project_id)
    voter.get_by_role("button", name="Details of cart.pay").click()
    voter_details = voter.get_by_role("dialog", name="cart.pay")
    voter_details.get_by_role("button", name="Vote +1 for the de proposal Jetzt bezahlen").click()
    expect(voter.get_by_text("Vote saved.")).to_be_visible()

    _queue(page, project_id)
    row = page.get_by_role("row", name="cart.pay (de): Jetzt bezahlen")
    expect(row).to_contain_text("+1")
    check_accessibility(page)
    page.keyboard.press("j")
    expect(row).to_be_focused()
    page.keyboard.press("a")
    expect(page.get_by_text("Proposal accepted.")).to_be_visible()
    expect(page.get_by_text("No open proposals.")).to_be_visible()
    assert "Jetzt bezahlen" in str(stored(page, project_id))


def test_a_reviewer_rejects_with_the_keyboard(page, new_page):
    project_id = new_project(page, "Rita", languages=("en", "de"))
    add_keys(page, project_id, "en", {"cart.pay": "Pay now"})
    contributor = new_page()
    member(page, project_id, contributor, "Cora", "contributor")
    translation_id = _ids(page, project_id)["cart.pay"]
    call(
        contributor,
        "POST",
        f"/api/projects/{project_id}/proposals",
        {"translationId": translation_id, "language": "de", "text": "Zahlen!"},
    )
    _queue(page, project_id)
    page.keyboard.press("j")
    page.keyboard.press("r")
    expect(page.get_by_text("Proposal rejected.")).to_be_visible()


def _ids(page, project_id: str) -> dict:
    """``{key: translation id}`` through the editor's grid rows."""
    open_editor(page, project_id)
    rows = page.locator("tr[data-key]")
    expect(rows.first).to_be_visible()
    return {
        rows.nth(index).get_attribute("data-key"): rows.nth(index).get_attribute("data-id")
        for index in range(rows.count())
    }


def test_a_reviewer_bulk_accepts_forty_best_voted_proposals_and_undoes_it(page, new_page):
    project_id = new_project(page, "Rita", languages=("en", "de"))
    names = [f"item{index:02d}" for index in range(40)]
    add_keys(page, project_id, "en", {name: f"Item {name}" for name in names})
    first, second = new_page(), new_page()
    member(page, project_id, first, "Cora", "contributor")
    member(page, project_id, second, "Viktor", "contributor")
    ids = _ids(page, project_id)
    base = f"/api/projects/{project_id}/proposals"
    for name in names:
        call(first, "POST", base, {"translationId": ids[name], "language": "de", "text": f"Ding {name}"})
        best = call(
            second, "POST", base, {"translationId": ids[name], "language": "de", "text": f"Sache {name}"}
        )
        call(first, "POST", f"{base}/{best['proposal']['id']}/vote", {"value": 1})

    _queue(page, project_id, "?limit=100")
    page.get_by_label("Select all on this page").check()
    page.get_by_role("button", name="Accept the best-voted of each selected key").click()
    expect(page.get_by_text("Accepted 40 proposals (superseded 40).")).to_be_visible()
    values = str(stored(page, project_id))
    assert all(f"Sache {name}" in values for name in names) and "Ding" not in values
    check_accessibility(page)
    page.get_by_role("button", name="Undo it").click()
    expect(page.get_by_text("Undone: the values are back and the proposals open again.")).to_be_visible()
    assert "Sache" not in str(stored(page, project_id))
    expect(page.locator("tr[data-proposal]")).to_have_count(50)  # a page of the 80 open again
    expect(page.get_by_role("link", name="Next page")).to_be_visible()
