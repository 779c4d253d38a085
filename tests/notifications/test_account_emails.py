"""Invitation links and password resets by e-mail, through the durable jobs to a real SMTP
server on the loopback (aiosmtpd): the link arrives and works, and its secret is never
logged, stored in clear or put in a job's result. Without SMTP, today's behaviour stays."""

import logging
import re

import pytest
from sqlalchemy import select

from loko.auth import service as auth_service
from loko.extensions import db
from loko.jobs.models import Job
from loko.notifications.service import ACCOUNT_EMAIL_JOB
from tests.factories import CallerClient, cheap_password_hasher
from tests.notifications.conftest import run_jobs
from tests.pages.conftest import PageClient, alert_of, notice_of

NEW_PASSWORD = "a brand new secret"


@pytest.fixture(autouse=True)
def fast_password_hashing(monkeypatch):
    monkeypatch.setattr(auth_service, "_hasher", cheap_password_hasher())


def _link(message, prefix: str) -> str:
    text = message.get_body(("plain",)).get_content()
    found = re.search(re.escape(prefix) + r"\S+", text)
    assert found, text
    return found.group(0)


def _stored_jobs(app) -> list[tuple[str, str, str | None]]:
    with app.app_context():
        return [
            (job.state, job.payload, job.result)
            for job in db.session.scalars(select(Job).where(Job.kind == ACCOUNT_EMAIL_JOB))
        ]


def _secret_nowhere(app, caplog, token: str) -> None:
    """Not in Loko's log (the test SMTP server's own ``mail.log`` shows what it receives), nor
    in the jobs' rows."""
    logged = "\n".join(
        f"{record.getMessage()} {record.exc_text or ''}"
        for record in caplog.records
        if not record.name.startswith("mail.")
    )
    assert token not in logged
    for _state, payload, result in _stored_jobs(app):
        assert token not in payload and token not in (result or "")


# -- Invitations ----------------------------------------------------------------------------


def test_an_invitation_with_an_email_sends_the_join_link(app, world, as_caller, inbox, caplog):
    caplog.set_level(logging.DEBUG)
    response = as_caller("org_owner").post(
        f"/api/organizations/{world.organization_id}/invitations",
        json={"role": "member", "email": "maria@example.test"},
    )
    assert response.status_code == 201, response.json
    assert response.json["emailed"] is True
    assert response.json["invitation"]["note"] == "maria@example.test"
    token = response.json["token"]
    assert inbox.messages == []  # never inside the request
    run_jobs(app)
    assert len(inbox.messages) == 1
    message = inbox.messages[0]
    assert message["To"] == "maria@example.test"
    assert "invites you to" in message["Subject"]
    link = _link(message, "http://loko.example.test/join?token=")
    assert link.endswith(token)
    assert "as member" in message.get_body(("plain",)).get_content()
    joined = CallerClient(app, {}).get(link.removeprefix("http://loko.example.test"))
    assert joined.status_code == 200
    assert [(state, result) for state, _payload, result in _stored_jobs(app)] == [("succeeded", '{"sent":1}')]
    _secret_nowhere(app, caplog, token)


def test_the_members_page_emails_an_invitation(app, world, inbox):
    owner = PageClient(app, world.credentials["org_owner"])
    page = owner.get(f"/orgs/{world.organization_id}/members").get_data(as_text=True)
    assert 'id="f-invite-email"' in page
    response = owner.submit(
        f"/orgs/{world.organization_id}/invitations",
        {"role": "admin", "expires_in_days": "3", "email": "lena@example.test"},
    )
    assert response.status_code == 303, alert_of(response)
    assert "e-mailed to lena@example.test" in notice_of(owner)
    run_jobs(app)
    assert [message["To"] for message in inbox.messages] == ["lena@example.test"]
    assert "as admin" in inbox.messages[0].get_body(("plain",)).get_content()


@pytest.mark.parametrize("config_overrides", [{}], indirect=True)
def test_without_smtp_an_invitation_is_a_link_to_hand_on(app, world, as_caller):
    path = f"/api/organizations/{world.organization_id}/invitations"
    refused = as_caller("org_owner").post(path, json={"email": "maria@example.test"})
    assert refused.status_code == 400 and refused.json["error"].startswith("email:")
    made = as_caller("org_owner").post(path, json={})
    assert made.status_code == 201 and made.json["emailed"] is False
    page = PageClient(app, world.credentials["org_owner"]).get(f"/orgs/{world.organization_id}/members")
    assert 'id="f-invite-email"' not in page.get_data(as_text=True)
    assert _stored_jobs(app) == []


# -- Password resets ------------------------------------------------------------------------


def _ask_reset(app, email: str) -> PageClient:
    browser = PageClient(app, {})
    response = browser.submit("/forgot-password", {"email": email})
    assert response.status_code == 303, alert_of(response)
    assert "a link to choose a new password is on its way" in notice_of(browser)
    return browser


def test_forgot_password_emails_a_link_that_sets_a_new_password_once(app, world, inbox, caplog):
    caplog.set_level(logging.DEBUG)
    assert 'href="/forgot-password"' in PageClient(app, {}).get("/login").get_data(as_text=True)
    old_session = CallerClient(app, world.credentials["editor"])
    assert old_session.get("/api/auth/me").status_code == 200
    browser = _ask_reset(app, "Editor@Example.test")
    assert inbox.messages == []
    run_jobs(app)
    assert [message["To"] for message in inbox.messages] == ["editor <editor@example.test>"]
    link = _link(inbox.messages[0], "http://loko.example.test/reset-password?token=")
    token = link.partition("token=")[2]
    path = link.removeprefix("http://loko.example.test")
    form = browser.get(path)
    assert form.status_code == 200 and 'name="new_password"' in form.get_data(as_text=True)
    assert form.headers["Referrer-Policy"] == "strict-origin"
    short = browser.submit("/reset-password", {"token": token, "new_password": "short"})
    assert short.status_code == 400 and "new_password" in alert_of(short)
    done = browser.submit("/reset-password", {"token": token, "new_password": NEW_PASSWORD})
    assert done.status_code == 303, alert_of(done)
    assert old_session.get("/api/auth/me").status_code == 401
    login = CallerClient(app, {}).post(
        "/api/auth/login", json={"email": "editor@example.test", "password": NEW_PASSWORD}
    )
    assert login.status_code == 200, login.json
    # Used once: the password it was made for has changed.
    again = browser.submit("/reset-password", {"token": token, "new_password": "another new secret"})
    assert again.status_code == 400 and alert_of(again).startswith("token:")
    assert browser.get(path).status_code == 400
    _secret_nowhere(app, caplog, token)


def test_an_unknown_address_gets_the_same_answer_and_no_email(app, world, inbox):
    _ask_reset(app, "nobody@example.test")
    run_jobs(app)
    assert inbox.messages == [] and _stored_jobs(app) == []


def test_an_altered_reset_link_is_refused(app, world):
    response = PageClient(app, {}).get("/reset-password?token=forged.token.value")
    assert response.status_code == 400
    assert 'name="new_password"' not in response.get_data(as_text=True)


def test_reset_emails_to_one_address_are_limited(app, world, inbox):
    for _ in range(5):
        _ask_reset(app, "viewer@example.test")
    run_jobs(app)
    assert len(inbox.messages) == 3


@pytest.mark.parametrize("config_overrides", [{}], indirect=True)
def test_without_smtp_there_is_no_reset_by_email(app, world):
    browser = PageClient(app, {})
    assert "/forgot-password" not in browser.get("/login").get_data(as_text=True)
    page = browser.get("/forgot-password").get_data(as_text=True)
    assert "sends no e-mail" in page and 'name="email"' not in page
    asked = browser.submit("/forgot-password", {"email": "editor@example.test"})
    assert asked.status_code == 303 and asked.location.endswith("/forgot-password")
    assert _stored_jobs(app) == []
