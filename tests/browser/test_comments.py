"""Comments in a real browser: from the editor's details panel, add a comment about one
language, resolve it and reopen it in the open dialog, finding every control by its label;
the grid's row counts the open ones."""

from playwright.sync_api import expect

from tests.browser.conftest import check_accessibility
from tests.browser.test_editor import add_keys, new_project, open_editor, still_same_document


def row_header(page):
    """The row's key cell, read while the details dialog covers the grid."""
    return page.locator('tr[data-key="cart.pay"] th.key')


def test_a_comment_is_added_resolved_and_reopened_from_the_details_panel(page):
    project_id = new_project(page, languages=("en", "de"))
    add_keys(page, project_id, "en", {"cart.pay": "Pay now"})
    open_editor(page, project_id)

    page.get_by_role("button", name="Details of cart.pay").click()
    details = page.get_by_role("dialog", name="cart.pay")
    expect(details.get_by_text("No comments yet.")).to_be_visible()
    details.get_by_label("New comment").fill("Du or Sie here?")
    details.get_by_label("Comment about").select_option(label="German (de)")
    check_accessibility(page)
    details.get_by_role("button", name="Add comment").click()
    expect(page.get_by_text("Comment added.")).to_be_visible()
    expect(details).to_be_visible()
    expect(details.get_by_text("Du or Sie here?")).to_be_visible()
    expect(details.locator(".comment-meta")).to_contain_text("Ada")
    expect(row_header(page)).to_contain_text("1 open comment")

    details.get_by_role("button", name="Resolve comment: Du or Sie here?").click()
    expect(page.get_by_text("Comment resolved.")).to_be_visible()
    expect(details.get_by_text("resolved", exact=True)).to_be_visible()
    expect(row_header(page)).not_to_contain_text("open comment")
    check_accessibility(page)

    details.get_by_role("button", name="Reopen comment: Du or Sie here?").click()
    expect(page.get_by_text("Comment reopened.")).to_be_visible()
    expect(details.get_by_role("button", name="Resolve comment: Du or Sie here?")).to_be_visible()
    page.keyboard.press("Escape")
    expect(details).to_be_hidden()
    expect(page.get_by_role("rowheader", name="cart.pay")).to_contain_text("1 open comment")
    assert still_same_document(page)
