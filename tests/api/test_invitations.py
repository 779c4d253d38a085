"""Invitation links to an organization (/api/organizations/{id}/invitations,
/api/invitations/accept and /api/invitations/signup), for every kind of caller."""

import uuid
from datetime import timedelta

import pytest
from sqlalchemy import update

from loko.auth import service as auth_service
from loko.auth.models import User
from loko.auth.tokens import token_hash
from loko.database import utcnow
from loko.extensions import db
from loko.organizations.models import Invitation, OrganizationMember
from tests.factories import CallerClient, cheap_password_hasher, make_session, make_user, user_id

MEMBERS = ("viewer", "editor", "project_admin")
KEYS = ("read_key", "write_key", "other_project_key")
BAD_CREDENTIALS = ("anonymous", "unknown_key", "revoked_key")
NEW_PASSWORD = "a brand new secret"


@pytest.fixture(autouse=True)
def fast_password_hashing(monkeypatch):
    monkeypatch.setattr(auth_service, "_hasher", cheap_password_hasher())


def invitations_path(world):
    return f"/api/organizations/{world.organization_id}/invitations"


def invite(caller, world, **body):
    return caller.post(invitations_path(world), json=body)


def token_of(response) -> str:
    return response.json["token"]


@pytest.fixture
def newcomer(app):
    """A person with an account, in no organization of the world."""
    with app.app_context():
        user = make_user("newcomer@example.test", "Newcomer")
        return {"id": user.id, "client": CallerClient(app, {"cookie": make_session(user)})}


def role_in_org(app, world, uid):
    with app.app_context():
        member = db.session.get(OrganizationMember, (world.organization_id, uid))
        return None if member is None else member.role


def stored_invitations(app) -> list[Invitation]:
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


def accept(client, token):
    return client.post("/api/invitations/accept", json={"token": token})


def signup(app, token, email="new@example.test", **extra):
    return app.test_client().post(
        "/api/invitations/signup", json={"token": token, "email": email, "password": NEW_PASSWORD, **extra}
    )


# --- create ------------------------------------------------------------------------------------


@pytest.mark.parametrize("caller", ["org_owner", "org_admin"])
def test_an_owner_or_admin_creates_an_invitation_link(app, as_caller, world, caller):
    before = utcnow()
    response = invite(as_caller(caller), world, role="admin")
    assert response.status_code == 201
    body = response.json
    assert set(body) == {"url", "token", "invitation", "emailed"} and body["emailed"] is False
    assert body["url"] == f"http://localhost/join?token={body['token']}"
    invitation = body["invitation"]
    assert set(invitation) == {
        "id",
        "organization_id",
        "role",
        "created_at",
        "expires_at",
        "created_by",
        "note",
    }
    assert (invitation["organization_id"], invitation["role"]) == (world.organization_id, "admin")
    assert invitation["created_by"]["id"] == user_id(world.users[caller])
    (stored,) = stored_invitations(app)
    assert timedelta(days=7) <= stored.expires_at - before < timedelta(days=7, minutes=1)


def test_an_invitation_defaults_to_the_member_role(as_caller, world):
    assert invite(as_caller("org_owner"), world).json["invitation"]["role"] == "member"


def test_an_invitation_can_expire_sooner_or_later(app, as_caller, world):
    before = utcnow()
    invite(as_caller("org_owner"), world, expires_in_days=30)
    (stored,) = stored_invitations(app)
    assert timedelta(days=30) <= stored.expires_at - before < timedelta(days=30, minutes=1)


def test_an_invitation_with_a_note_is_listed_with_it(as_caller, world):
    owner = as_caller("org_owner")
    created = invite(owner, world, note="for Maria, German reviewer")
    assert created.status_code == 201
    assert created.json["invitation"]["note"] == "for Maria, German reviewer"
    (listed,) = owner.get(invitations_path(world)).json["invitations"]
    assert (listed["id"], listed["note"]) == (created.json["invitation"]["id"], "for Maria, German reviewer")


def test_an_invitation_without_a_note_has_a_null_note(as_caller, world):
    owner = as_caller("org_owner")
    assert invite(owner, world).json["invitation"]["note"] is None
    assert owner.get(invitations_path(world)).json["invitations"][0]["note"] is None


@pytest.mark.parametrize("note", ["", "   ", None], ids=["empty", "blank", "null"])
def test_a_blank_or_null_note_is_no_note(app, as_caller, world, note):
    assert invite(as_caller("org_owner"), world, note=note).json["invitation"]["note"] is None
    (stored,) = stored_invitations(app)
    assert stored.note is None


def test_a_note_is_kept_without_its_surrounding_spaces(app, as_caller, world):
    created = invite(as_caller("org_owner"), world, note="  for Maria \n")
    assert created.json["invitation"]["note"] == "for Maria"
    (stored,) = stored_invitations(app)
    assert stored.note == "for Maria"


def test_a_note_of_200_characters_is_kept(as_caller, world):
    created = invite(as_caller("org_owner"), world, note="n" * 200)
    assert created.status_code == 201
    assert created.json["invitation"]["note"] == "n" * 200


def test_the_link_is_stored_only_as_a_hash(app, as_caller, world):
    token = token_of(invite(as_caller("org_owner"), world))
    (stored,) = stored_invitations(app)
    assert stored.token_hash == token_hash(token)
    assert token not in repr(vars(stored))


def test_each_link_is_different(as_caller, world):
    owner = as_caller("org_owner")
    assert token_of(invite(owner, world)) != token_of(invite(owner, world))


def test_only_an_owner_invites_an_owner(app, as_caller, world):
    response = invite(as_caller("org_admin"), world, role="owner")
    assert response.status_code == 403
    assert "owner" in response.json["error"]
    assert stored_invitations(app) == []
    assert invite(as_caller("org_owner"), world, role="owner").status_code == 201


@pytest.mark.parametrize("caller", MEMBERS)
def test_a_member_cannot_invite(app, as_caller, world, caller):
    response = invite(as_caller(caller), world)
    assert response.status_code == 403
    assert stored_invitations(app) == []


def test_an_outsider_cannot_see_the_organization_to_invite(app, as_caller, world):
    assert invite(as_caller("outsider"), world).status_code == 404
    assert stored_invitations(app) == []


@pytest.mark.parametrize("caller", KEYS)
def test_an_api_key_cannot_invite(app, as_caller, world, caller):
    response = invite(as_caller(caller), world)
    assert response.status_code == 403
    assert "session" in response.json["error"]


@pytest.mark.parametrize("caller", BAD_CREDENTIALS)
def test_inviting_without_valid_credentials_is_unauthorized(as_caller, world, caller):
    assert invite(as_caller(caller), world).status_code == 401


def test_inviting_to_an_unknown_organization_is_not_found(as_caller):
    response = as_caller("org_owner").post(f"/api/organizations/{uuid.uuid4()}/invitations", json={})
    assert response.status_code == 404


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"role": "boss"}, "role"),
        ({"expires_in_days": 0}, "expires_in_days"),
        ({"expires_in_days": 31}, "expires_in_days"),
        ({"expires_in_days": "7"}, "expires_in_days"),
        ({"expires_in_days": 1.5}, "expires_in_days"),
        ({"email": "x@example.test"}, "email"),
        ({"note": "n" * 201}, "note"),
        ({"note": "for\x00Maria"}, "note"),
        ({"note": 7}, "note"),
    ],
    ids=[
        "role",
        "zero-days",
        "31-days",
        "days-as-text",
        "fraction",
        "unknown-field",
        "201-character-note",
        "note-with-a-control-character",
        "note-not-text",
    ],
)
def test_bad_invitation_input_is_refused_naming_the_field(app, as_caller, world, body, field):
    response = invite(as_caller("org_owner"), world, **body)
    assert response.status_code == 400
    assert field in response.json["error"]
    assert stored_invitations(app) == []


# --- list and revoke ---------------------------------------------------------------------------


@pytest.mark.parametrize("caller", ["org_owner", "org_admin"])
def test_owners_and_admins_list_pending_invitations_without_their_links(as_caller, world, caller):
    owner = as_caller("org_owner")
    first = invite(owner, world).json
    second = invite(owner, world, role="admin").json
    response = as_caller(caller).get(invitations_path(world))
    assert response.status_code == 200
    listed = response.json["invitations"]
    assert [item["id"] for item in listed] == [second["invitation"]["id"], first["invitation"]["id"]]
    text = response.get_data(as_text=True)
    assert first["token"] not in text
    assert second["token"] not in text


def test_used_expired_and_revoked_invitations_are_not_listed(app, as_caller, world, newcomer):
    owner = as_caller("org_owner")
    used, expired, revoked, pending = (token_of(invite(owner, world)) for _ in range(4))
    accept(newcomer["client"], used)
    set_invitation(app, expired, expires_at=utcnow() - timedelta(seconds=1))
    set_invitation(app, revoked, revoked_at=utcnow())
    (listed,) = owner.get(invitations_path(world)).json["invitations"]
    with app.app_context():
        assert db.session.get(Invitation, listed["id"]).token_hash == token_hash(pending)


@pytest.mark.parametrize("caller", MEMBERS)
def test_a_member_cannot_list_invitations(as_caller, world, caller):
    invite(as_caller("org_owner"), world)
    assert as_caller(caller).get(invitations_path(world)).status_code == 403


def test_an_outsider_cannot_list_invitations(as_caller, world):
    assert as_caller("outsider").get(invitations_path(world)).status_code == 404


@pytest.mark.parametrize("caller", KEYS)
def test_an_api_key_cannot_list_invitations(as_caller, world, caller):
    assert as_caller(caller).get(invitations_path(world)).status_code == 403


@pytest.mark.parametrize("caller", BAD_CREDENTIALS)
def test_listing_invitations_without_valid_credentials_is_unauthorized(as_caller, world, caller):
    assert as_caller(caller).get(invitations_path(world)).status_code == 401


@pytest.mark.parametrize("caller", ["org_owner", "org_admin"])
def test_a_revoked_link_stops_working_at_once(as_caller, world, newcomer, caller):
    created = invite(as_caller("org_owner"), world).json
    path = f"{invitations_path(world)}/{created['invitation']['id']}"
    response = as_caller(caller).delete(path)
    assert response.status_code == 200
    assert response.json == {"success": True}
    refused = accept(newcomer["client"], created["token"])
    assert refused.status_code == 410
    assert "revoked" in refused.json["error"]
    assert as_caller(caller).delete(path).status_code == 404


def test_an_admin_cannot_revoke_an_owner_invitation(as_caller, world):
    created = invite(as_caller("org_owner"), world, role="owner").json
    path = f"{invitations_path(world)}/{created['invitation']['id']}"
    assert as_caller("org_admin").delete(path).status_code == 403
    assert as_caller("org_owner").delete(path).status_code == 200


@pytest.mark.parametrize("caller", [*MEMBERS, "outsider", *KEYS, *BAD_CREDENTIALS])
def test_only_owners_and_admins_revoke_invitations(as_caller, world, newcomer, caller):
    created = invite(as_caller("org_owner"), world).json
    response = as_caller(caller).delete(f"{invitations_path(world)}/{created['invitation']['id']}")
    expected = {"outsider": 404, **dict.fromkeys(BAD_CREDENTIALS, 401)}.get(caller, 403)
    assert response.status_code == expected
    assert accept(newcomer["client"], created["token"]).status_code == 200


def test_revoking_an_invitation_of_another_organization_is_not_found(app, as_caller, world):
    other = as_caller("outsider").get("/api/organizations").json["organizations"][0]["id"]
    created = as_caller("outsider").post(f"/api/organizations/{other}/invitations", json={}).json
    response = as_caller("org_owner").delete(f"{invitations_path(world)}/{created['invitation']['id']}")
    assert response.status_code == 404


# --- accept (signed in) ------------------------------------------------------------------------


def test_a_signed_in_person_joins_with_the_invitations_role(app, as_caller, world, newcomer):
    token = token_of(invite(as_caller("org_owner"), world, role="admin"))
    response = accept(newcomer["client"], token)
    assert response.status_code == 200
    assert response.json == {"organization": {"id": world.organization_id, "name": "Acme", "role": "admin"}}
    assert role_in_org(app, world, newcomer["id"]) == "admin"
    (stored,) = stored_invitations(app)
    assert stored.accepted_by == newcomer["id"]


def test_a_link_works_only_once(app, as_caller, world, newcomer):
    token = token_of(invite(as_caller("org_owner"), world))
    accept(newcomer["client"], token)
    with app.app_context():
        second = CallerClient(app, {"cookie": make_session(make_user("second@example.test"))})
    response = accept(second, token)
    assert response.status_code == 410
    assert "already been used" in response.json["error"]


def test_an_expired_link_is_refused(app, as_caller, world, newcomer):
    token = token_of(invite(as_caller("org_owner"), world))
    set_invitation(app, token, expires_at=utcnow() - timedelta(seconds=1))
    response = accept(newcomer["client"], token)
    assert response.status_code == 410
    assert "expired" in response.json["error"]
    assert role_in_org(app, world, newcomer["id"]) is None


def test_an_unknown_link_is_not_found(newcomer):
    response = accept(newcomer["client"], "not-a-real-token")
    assert response.status_code == 404
    assert "not valid" in response.json["error"]


def test_a_member_accepting_keeps_their_role_and_leaves_the_link_unused(app, as_caller, world):
    token = token_of(invite(as_caller("org_owner"), world, role="admin"))
    response = accept(as_caller("viewer"), token)
    assert response.status_code == 409
    assert role_in_org(app, world, user_id(world.users["viewer"])) == "member"
    (stored,) = stored_invitations(app)
    assert stored.accepted_at is None


@pytest.mark.parametrize("caller", KEYS)
def test_an_api_key_cannot_accept_an_invitation(as_caller, world, caller):
    token = token_of(invite(as_caller("org_owner"), world))
    assert accept(as_caller(caller), token).status_code == 403


@pytest.mark.parametrize("caller", BAD_CREDENTIALS)
def test_accepting_without_valid_credentials_is_unauthorized(as_caller, world, caller):
    token = token_of(invite(as_caller("org_owner"), world))
    assert accept(as_caller(caller), token).status_code == 401


@pytest.mark.parametrize("body", [{}, {"token": ""}, {"token": 5}, {"token": "t", "role": "owner"}], ids=str)
def test_bad_accept_input_is_refused(newcomer, body):
    response = newcomer["client"].post("/api/invitations/accept", json=body)
    assert response.status_code == 400


# --- sign up -----------------------------------------------------------------------------------


@pytest.mark.parametrize("config_overrides", [{"LOKO_ALLOW_SIGNUP": False}], ids=["signup-closed"])
def test_a_new_person_signs_up_with_a_link_even_when_sign_up_is_closed(app, as_caller, world):
    token = token_of(invite(as_caller("org_owner"), world, role="member"))
    assert (
        app.test_client()
        .post("/api/auth/signup", json={"email": "x@example.test", "password": NEW_PASSWORD})
        .status_code
        == 403
    )
    response = signup(app, token, name="Grace")
    assert response.status_code == 201
    assert response.json["organization"] == {"id": world.organization_id, "name": "Acme", "role": "member"}
    assert response.json["user"]["email"] == "new@example.test"
    assert "sb-access-token=" in response.headers["Set-Cookie"]
    with app.app_context():
        user = db.session.query(User).filter_by(email="new@example.test").one()
        uid = user.id
    assert role_in_org(app, world, uid) == "member"
    me = app.test_client()
    me.post("/api/auth/login", json={"email": "new@example.test", "password": NEW_PASSWORD})
    assert [o["id"] for o in me.get("/api/auth/me").json["organizations"]] == [world.organization_id]


def test_signing_up_with_a_used_link_creates_no_account(app, as_caller, world, newcomer):
    token = token_of(invite(as_caller("org_owner"), world))
    accept(newcomer["client"], token)
    response = signup(app, token)
    assert response.status_code == 410
    with app.app_context():
        assert db.session.query(User).filter_by(email="new@example.test").count() == 0


def test_signing_up_with_a_taken_email_leaves_the_link_unused(app, as_caller, world):
    token = token_of(invite(as_caller("org_owner"), world))
    response = signup(app, token, email="EDITOR@example.test")
    assert response.status_code == 409
    assert response.json["error"].startswith("email")
    (stored,) = stored_invitations(app)
    assert stored.accepted_at is None


@pytest.mark.parametrize(
    ("extra", "field"),
    [
        ({"password": "short"}, "password"),
        ({"email": "not-an-email"}, "email"),
        ({"organization": "X"}, "organization"),
    ],
    ids=["short-password", "bad-email", "unknown-field"],
)
def test_bad_signup_input_is_refused_naming_the_field(app, as_caller, world, extra, field):
    token = token_of(invite(as_caller("org_owner"), world))
    response = signup(app, token, **extra)
    assert response.status_code == 400
    assert field in response.json["error"]
    (stored,) = stored_invitations(app)
    assert stored.accepted_at is None


def test_deleting_the_organization_removes_its_invitations(app, as_caller, world):
    token = token_of(invite(as_caller("org_owner"), world))
    as_caller("org_owner").delete(f"/api/organizations/{world.organization_id}")
    assert stored_invitations(app) == []
    assert signup(app, token).status_code == 404
