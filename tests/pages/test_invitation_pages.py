"""Invitation links on the members page (create, shown once, revoke) and the page a link
opens (join signed in, or sign up), for every kind of caller."""

import re
from datetime import timedelta

import pytest
from sqlalchemy import update

from loko.auth import service as auth_service
from loko.auth.models import User
from loko.auth.tokens import token_hash
from loko.database import utcnow
from loko.extensions import db
from loko.organizations.models import Invitation, OrganizationMember
from tests.factories import cheap_password_hasher, make_session, make_user
from tests.pages.conftest import SIGNED_OUT, PageClient, alert_of, notice_of

NEW_PASSWORD = "a brand new secret"


@pytest.fixture(autouse=True)
def fast_password_hashing(monkeypatch):
    monkeypatch.setattr(auth_service, "_hasher", cheap_password_hasher())


def members_page(world):
    return f"/orgs/{world.organization_id}/members"


def invite_path(world):
    return f"/orgs/{world.organization_id}/invitations"


def text_of(response) -> str:
    return response.get_data(as_text=True)


def shown_link(response) -> str:
    return re.search(r'<code id="new-invitation">([^<]+)</code>', text_of(response)).group(1)


def token_in(link: str) -> str:
    return link.split("token=", 1)[1]


def create_link(browser, world, **data):
    created = browser.submit(invite_path(world), {"role": "member", "expires_in_days": "7", **data})
    assert created.status_code == 303, alert_of(created)
    return shown_link(browser.get(created.location))


def invitations(app) -> list:
    with app.app_context():
        rows = db.session.query(Invitation).all()
        db.session.expunge_all()
        return rows


def set_invitation(app, token, **values):
    with app.app_context():
        db.session.execute(
            update(Invitation).where(Invitation.token_hash == token_hash(token)).values(**values)
        )
        db.session.commit()


def membership(app, world, email):
    with app.app_context():
        user = db.session.query(User).filter_by(email=email).one_or_none()
        if user is None:
            return None
        member = db.session.get(OrganizationMember, (world.organization_id, user.id))
        return None if member is None else member.role


def stranger(app) -> PageClient:
    return PageClient(app, {})


def newcomer(app) -> PageClient:
    with app.app_context():
        cookie = make_session(make_user("newcomer@example.test", "Newcomer"))
    return PageClient(app, {"cookie": cookie})


# --- the members page --------------------------------------------------------------------------


@pytest.mark.parametrize("caller", ["org_owner", "org_admin"])
def test_owners_and_admins_are_offered_invitation_links(page_as, world, caller):
    text = text_of(page_as(caller).get(members_page(world)))
    assert "Create invitation link" in text
    assert ('<option value="owner"' in text.split('id="f-invite-role"', 1)[1].split("</select>")[0]) == (
        caller == "org_owner"
    )


@pytest.mark.parametrize("caller", ["viewer", "editor", "project_admin"])
def test_members_are_not_offered_invitation_links(page_as, world, caller):
    text = text_of(page_as(caller).get(members_page(world)))
    assert "Create invitation link" not in text
    assert 'id="invitations"' not in text


@pytest.mark.parametrize("caller", ["org_owner", "org_admin"])
def test_a_new_link_is_shown_once_after_the_redirect(app, page_as, world, caller):
    browser = page_as(caller)
    created = browser.submit(invite_path(world), {"role": "admin", "expires_in_days": "3"})
    assert created.status_code == 303
    assert created.location == members_page(world) + "#invitations"
    assert "token=" not in text_of(created)
    assert notice_of(browser).startswith("Invitation link created")
    shown = browser.get(members_page(world))
    link = shown_link(shown)
    assert link.startswith("http://localhost/join?token=")
    assert "Copy link" in text_of(shown)
    assert token_in(link) not in text_of(browser.get(members_page(world)))
    (stored,) = invitations(app)
    assert stored.role == "admin"
    assert stored.token_hash == token_hash(token_in(link))
    assert timedelta(days=2, hours=23) < stored.expires_at - utcnow() <= timedelta(days=3)


def test_pending_invitations_are_listed_with_a_revoke_button(page_as, world):
    browser = page_as("org_owner")
    create_link(browser, world, role="admin")
    text = text_of(browser.get(members_page(world)))
    assert "No pending invitations." not in text
    assert "Revoke this admin invitation?" in text


def pending_rows(response) -> str:
    """The pending invitations' table body."""
    return text_of(response).split('id="invitations"', 1)[1].split("<tbody>", 1)[1].split("</tbody>", 1)[0]


def test_the_form_offers_an_optional_note(page_as, world):
    text = text_of(page_as("org_owner").get(members_page(world)))
    assert '<label for="f-invite-note">Note (optional)</label>' in text
    field = text.split('id="f-invite-note"', 1)[1].split(">", 1)[0]
    assert 'name="note"' in field and 'maxlength="200"' in field and "required" not in field


def test_the_note_shows_in_the_pending_list(page_as, world):
    browser = page_as("org_owner")
    create_link(browser, world, note="for Maria, German reviewer")
    create_link(browser, world)
    rows = pending_rows(browser.get(members_page(world)))
    notes = re.findall(r"<tr>\s*<td>member</td>\s*<td>(.*?)</td>", rows)
    assert notes == ['<span class="muted">none</span>', "for Maria, German reviewer"]
    assert "Revoke this member invitation (for Maria, German reviewer)?" in rows


def test_the_new_link_is_shown_with_its_note(page_as, world):
    browser = page_as("org_owner")
    browser.submit(invite_path(world), {"role": "member", "expires_in_days": "7", "note": "for Maria"})
    shown = text_of(browser.get(members_page(world)))
    assert "New invitation link (member, for Maria)" in shown


def test_a_refused_link_keeps_the_typed_note(page_as, world):
    typed = {"role": "member", "expires_in_days": "31", "note": "for Maria"}
    response = page_as("org_owner").submit(invite_path(world), typed)
    assert response.status_code == 400
    field = text_of(response).split('id="f-invite-note"', 1)[1].split(">", 1)[0]
    assert 'value="for Maria"' in field


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"expires_in_days": "31"}, "expires_in_days"),
        ({"expires_in_days": "x"}, "expires_in_days"),
        ({"role": "boss"}, "role"),
        ({"note": "n" * 201}, "note"),
    ],
    ids=["31-days", "not-a-number", "unknown-role", "201-character-note"],
)
def test_bad_invitation_input_is_refused_on_the_page(app, page_as, world, data, field):
    response = page_as("org_owner").submit(
        invite_path(world), {"role": "member", "expires_in_days": "7", **data}
    )
    assert response.status_code == 400
    assert alert_of(response).startswith(f"{field}:")
    assert invitations(app) == []


def test_an_admin_cannot_create_an_owner_link(app, page_as, world):
    response = page_as("org_admin").submit(invite_path(world), {"role": "owner", "expires_in_days": "7"})
    assert response.status_code == 403
    assert invitations(app) == []


@pytest.mark.parametrize("caller", ["viewer", "editor", "project_admin"])
def test_a_member_cannot_create_a_link(app, page_as, world, caller):
    assert page_as(caller).submit(invite_path(world), {"role": "member"}).status_code == 403
    assert invitations(app) == []


def test_an_outsider_cannot_create_a_link(app, page_as, world):
    assert page_as("outsider").submit(invite_path(world), {"role": "member"}).status_code == 404
    assert invitations(app) == []


@pytest.mark.parametrize("caller", SIGNED_OUT)
def test_the_signed_out_cannot_create_a_link(app, page_as, world, caller):
    assert page_as(caller).submit(invite_path(world), {"role": "member"}).status_code == 401
    assert invitations(app) == []


def test_creating_a_link_needs_the_csrf_token(app, page_as, world):
    assert page_as("org_owner").post(invite_path(world), data={"role": "member"}).status_code == 403
    assert invitations(app) == []


@pytest.mark.parametrize("caller", ["org_owner", "org_admin"])
def test_revoking_a_link_on_the_page(app, page_as, world, caller):
    link = create_link(page_as("org_owner"), world)
    (stored,) = invitations(app)
    browser = page_as(caller)
    response = browser.submit(f"{invite_path(world)}/{stored.id}/revoke")
    assert response.status_code == 303
    assert notice_of(browser) == "Invitation revoked: its link no longer works."
    opened = stranger(app).get(f"/join?token={token_in(link)}")
    assert opened.status_code == 410
    assert "was revoked" in text_of(opened)


@pytest.mark.parametrize("caller", ["viewer", "editor", "project_admin", "outsider"])
def test_only_owners_and_admins_revoke_a_link_on_the_page(app, page_as, world, caller):
    create_link(page_as("org_owner"), world)
    (stored,) = invitations(app)
    response = page_as(caller).submit(f"{invite_path(world)}/{stored.id}/revoke")
    assert response.status_code == (404 if caller == "outsider" else 403)
    assert invitations(app)[0].revoked_at is None


# --- the page a link opens ---------------------------------------------------------------------


def test_a_stranger_opening_a_link_is_offered_to_sign_up_or_sign_in(app, page_as, world):
    link = create_link(page_as("org_owner"), world, role="admin")
    response = stranger(app).get(f"/join?token={token_in(link)}")
    assert response.status_code == 200
    text = text_of(response)
    assert "<h1>Join Acme</h1>" in text
    assert "<strong>admin</strong>" in text
    assert "Create account and join" in text
    assert f'href="/login?next=/join?token%3D{token_in(link)}"' in text


@pytest.mark.parametrize("config_overrides", [{"LOKO_ALLOW_SIGNUP": False}], ids=["signup-closed"])
def test_a_stranger_signs_up_through_a_link_even_when_sign_up_is_closed(app, page_as, world):
    link = create_link(page_as("org_owner"), world, role="admin")
    browser = stranger(app)
    response = browser.submit(
        "/join/signup",
        {"token": token_in(link), "name": "Grace", "email": "grace@example.test", "password": NEW_PASSWORD},
    )
    assert response.status_code == 303
    assert response.location == f"/orgs/{world.organization_id}"
    assert notice_of(browser) == "Welcome to Loko: you joined Acme as admin."
    assert membership(app, world, "grace@example.test") == "admin"
    assert browser.get(response.location).status_code == 200


def test_a_signed_in_person_joins_with_one_button(app, page_as, world):
    link = create_link(page_as("org_owner"), world)
    browser = newcomer(app)
    page = browser.get(f"/join?token={token_in(link)}")
    assert "Join Acme</button>" in text_of(page)
    response = browser.submit("/join", {"token": token_in(link)})
    assert response.status_code == 303
    assert response.location == f"/orgs/{world.organization_id}"
    assert notice_of(browser) == "You joined Acme as member."
    assert membership(app, world, "newcomer@example.test") == "member"


def test_a_used_link_shows_a_clear_page(app, page_as, world):
    link = create_link(page_as("org_owner"), world)
    newcomer(app).submit("/join", {"token": token_in(link)})
    response = stranger(app).get(f"/join?token={token_in(link)}")
    assert response.status_code == 410
    assert "already been used" in text_of(response)
    assert "Create account and join" not in text_of(response)


def test_an_expired_link_shows_a_clear_page(app, page_as, world):
    link = create_link(page_as("org_owner"), world)
    set_invitation(app, token_in(link), expires_at=utcnow() - timedelta(seconds=1))
    response = stranger(app).get(f"/join?token={token_in(link)}")
    assert response.status_code == 410
    assert "has expired" in text_of(response)


@pytest.mark.parametrize("token", ["", "made-up"])
def test_an_unknown_link_shows_a_clear_page(app, token):
    response = stranger(app).get(f"/join?token={token}")
    assert response.status_code == 404
    assert "not valid" in text_of(response)


def test_signing_up_with_a_used_link_is_refused_and_creates_no_account(app, page_as, world):
    link = create_link(page_as("org_owner"), world)
    newcomer(app).submit("/join", {"token": token_in(link)})
    response = stranger(app).submit(
        "/join/signup", {"token": token_in(link), "email": "late@example.test", "password": NEW_PASSWORD}
    )
    assert response.status_code == 410
    assert membership(app, world, "late@example.test") is None


def test_a_short_password_is_refused_and_the_link_stays_usable(app, page_as, world):
    link = create_link(page_as("org_owner"), world)
    browser = stranger(app)
    response = browser.submit(
        "/join/signup", {"token": token_in(link), "email": "g@example.test", "password": "short"}
    )
    assert response.status_code == 400
    assert alert_of(response).startswith("password:")
    assert 'value="g@example.test"' in text_of(response)
    assert invitations(app)[0].accepted_at is None


def test_a_member_opening_a_link_is_told_and_the_link_stays_unused(app, page_as, world):
    link = create_link(page_as("org_owner"), world, role="admin")
    response = page_as("viewer").submit("/join", {"token": token_in(link)})
    assert response.status_code == 409
    assert "already a member" in alert_of(response)
    assert invitations(app)[0].accepted_at is None


def test_joining_needs_the_csrf_token(app, page_as, world):
    link = create_link(page_as("org_owner"), world)
    assert newcomer(app).post("/join", data={"token": token_in(link)}).status_code == 403
    response = stranger(app).post(
        "/join/signup", data={"token": token_in(link), "email": "g@example.test", "password": NEW_PASSWORD}
    )
    assert response.status_code == 403
    assert invitations(app)[0].accepted_at is None


def test_joining_signed_out_through_the_join_button_asks_to_sign_in(app, page_as, world):
    link = create_link(page_as("org_owner"), world)
    assert stranger(app).submit("/join", {"token": token_in(link)}).status_code == 401
    assert invitations(app)[0].accepted_at is None
