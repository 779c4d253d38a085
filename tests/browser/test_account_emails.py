"""Account e-mails in a real browser, on a server that e-mails through a local SMTP server: a
forgotten password is reset through the e-mailed link, and an invitation e-mailed from the
members page reaches the invitee, whose link opens the join page."""

import re
import time

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import _free_port, check_accessibility, running_loko, sign_up, unique_email
from tests.browser.test_tasks import smtp  # noqa: F401  (a fixture)

NEW_PASSWORD = "an entirely new secret"


@pytest.fixture(scope="module")
def server_url(tmp_path_factory, smtp):  # noqa: F811
    port, _inbox = smtp
    loko_port = _free_port()
    settings = {
        "LOKO_PUBLIC_URL": f"http://127.0.0.1:{loko_port}",
        "LOKO_SMTP_HOST": "127.0.0.1",
        "LOKO_SMTP_PORT": str(port),
        "LOKO_SMTP_TLS": "none",
        "LOKO_MAIL_FROM": "loko@example.test",
    }
    with running_loko(tmp_path_factory.mktemp("browser-account-emails"), loko_port, **settings) as url:
        yield url


def _mail_to(inbox, address: str, timeout: float = 30.0):
    """The first message to ``address``, waiting for the server's jobs to send it."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for message in inbox.messages:
            if address in message["To"]:
                return message
        time.sleep(0.2)
    raise AssertionError(f"no e-mail to {address} within {timeout} s")


def _link(message, path: str) -> str:
    found = re.search(
        r"http://\S+" + re.escape(path) + r"\?token=\S+", message.get_body(("plain",)).get_content()
    )
    assert found, message.get_body(("plain",)).get_content()
    return found.group(0)


def test_a_forgotten_password_is_reset_through_the_emailed_link(new_page, smtp):  # noqa: F811
    _port, inbox = smtp
    email = sign_up(new_page(), "Rosa")
    page = new_page()
    page.goto("/login")
    page.get_by_role("link", name="Forgot your password?").click()
    check_accessibility(page)
    page.get_by_label("Email").fill(email)
    page.get_by_role("button", name="Send the link").click()
    expect(page.get_by_role("status")).to_contain_text("a link to choose a new password is on its way")
    link = _link(_mail_to(inbox, email), "/reset-password")
    page.goto(link)
    check_accessibility(page)
    page.get_by_label("New password").fill(NEW_PASSWORD)
    page.get_by_role("button", name="Set the new password").click()
    expect(page.get_by_role("status")).to_contain_text("Your new password is set")
    page.get_by_label("Email").fill(email)
    page.get_by_label("Password").fill(NEW_PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(re.compile(r"/orgs/"))
    # The link worked once.
    page.goto(link)
    expect(page.get_by_text("This link is not valid any more")).to_be_visible()


def test_an_invitation_emailed_from_the_members_page_opens_the_join_page(new_page, smtp):  # noqa: F811
    _port, inbox = smtp
    owner = new_page()
    sign_up(owner, "Olga", organization="Mailers")
    owner.get_by_role("link", name="Members").first.click()
    invitee = unique_email("invitee")
    owner.get_by_label("E-mail the link to (optional)").fill(invitee)
    owner.get_by_role("button", name="Create invitation link").click()
    expect(owner.get_by_role("status")).to_contain_text(f"e-mailed to {invitee}")
    check_accessibility(owner)
    message = _mail_to(inbox, invitee)
    assert "Mailers" in message["Subject"]
    guest = new_page()
    guest.goto(_link(message, "/join"))
    expect(guest.get_by_role("heading", level=1)).to_contain_text("Mailers")
