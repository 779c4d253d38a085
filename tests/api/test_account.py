"""A signed-in user's own account: the name (PATCH /api/auth/me) and the password
(POST /api/auth/password), for every kind of caller."""

import pytest

from loko.auth import service
from loko.auth.models import Session, User
from loko.extensions import db
from tests.factories import PASSWORD, CallerClient, cheap_password_hasher, make_session, user_id

SIGNED_IN = ("viewer", "editor", "project_admin", "org_admin", "org_owner", "outsider")
KEYS = ("read_key", "write_key")
BAD_CREDENTIALS = ("anonymous", "unknown_key", "revoked_key")
NEW_PASSWORD = "a brand new secret"


@pytest.fixture(autouse=True)
def fast_password_hashing(monkeypatch):
    monkeypatch.setattr(service, "_hasher", cheap_password_hasher())


def change_password(caller, current=PASSWORD, new=NEW_PASSWORD):
    return caller.post("/api/auth/password", json={"current_password": current, "new_password": new})


def stored_user(app, world, name):
    with app.app_context():
        user = db.session.get(User, user_id(world.users[name]))
        db.session.expunge(user)
        return user


def session_count(app, world, name) -> int:
    with app.app_context():
        return db.session.query(Session).filter_by(user_id=user_id(world.users[name])).count()


def login(app, email, password):
    return app.test_client().post("/api/auth/login", json={"email": email, "password": password})


# --- the name ----------------------------------------------------------------------------------


@pytest.mark.parametrize("caller", SIGNED_IN)
def test_a_signed_in_user_renames_themself(app, as_caller, world, caller):
    response = as_caller(caller).patch("/api/auth/me", json={"name": "Ada Lovelace"})
    assert response.status_code == 200
    assert response.json["user"]["name"] == "Ada Lovelace"
    assert set(response.json["user"]) == {"id", "email", "name", "created_at"}
    assert as_caller(caller).get("/api/auth/me").json["user"]["name"] == "Ada Lovelace"


@pytest.mark.parametrize("caller", KEYS)
def test_an_api_key_cannot_rename_anyone(as_caller, caller):
    response = as_caller(caller).patch("/api/auth/me", json={"name": "Key"})
    assert response.status_code == 403
    assert "session" in response.json["error"]


@pytest.mark.parametrize("caller", BAD_CREDENTIALS)
def test_renaming_without_valid_credentials_is_unauthorized(as_caller, caller):
    assert as_caller(caller).patch("/api/auth/me", json={"name": "Nobody"}).status_code == 401


@pytest.mark.parametrize(
    "body", [{}, {"name": ""}, {"name": "n" * 129}, {"name": "tab\there"}, {"name": 5}], ids=str
)
def test_a_bad_name_is_refused_naming_the_field_and_nothing_changes(app, as_caller, world, body):
    response = as_caller("editor").patch("/api/auth/me", json=body)
    assert response.status_code == 400
    assert response.json["error"].startswith("name")
    assert stored_user(app, world, "editor").name == "editor"


def test_renaming_refuses_unknown_fields(as_caller):
    response = as_caller("editor").patch("/api/auth/me", json={"name": "Ed", "email": "x@example.test"})
    assert response.status_code == 400
    assert "email" in response.json["error"]


# --- the password ------------------------------------------------------------------------------


@pytest.mark.parametrize("caller", SIGNED_IN)
def test_a_signed_in_user_changes_their_password(app, as_caller, world, caller):
    response = change_password(as_caller(caller))
    assert response.status_code == 200
    assert response.json == {"success": True}
    email = f"{caller}@example.test" if caller != "org_owner" else "owner@example.test"
    assert login(app, email, NEW_PASSWORD).status_code == 200
    assert login(app, email, PASSWORD).status_code == 401


def test_a_password_change_ends_the_other_sessions_and_keeps_this_one(app, as_caller, world):
    with app.app_context():
        other = make_session(db.session.get(User, user_id(world.users["editor"])))
    me = as_caller("editor")
    assert change_password(me).status_code == 200
    assert me.get("/api/auth/me").status_code == 200
    assert CallerClient(app, {"cookie": other}).get("/api/auth/me").status_code == 401
    assert session_count(app, world, "editor") == 1


def test_a_password_change_leaves_other_users_signed_in(app, as_caller, world):
    change_password(as_caller("editor"))
    assert as_caller("viewer").get("/api/auth/me").status_code == 200


def test_a_wrong_current_password_is_refused_and_nothing_changes(app, as_caller, world):
    with app.app_context():
        other = make_session(db.session.get(User, user_id(world.users["editor"])))
    response = change_password(as_caller("editor"), current="not my password")
    assert response.status_code == 403
    assert response.json["error"].startswith("current_password")
    assert login(app, "editor@example.test", PASSWORD).status_code == 200
    assert CallerClient(app, {"cookie": other}).get("/api/auth/me").status_code == 200


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"current_password": PASSWORD, "new_password": "short"}, "new_password"),
        ({"current_password": PASSWORD}, "new_password"),
        ({"new_password": NEW_PASSWORD}, "current_password"),
        ({"current_password": PASSWORD, "new_password": NEW_PASSWORD, "extra": 1}, "extra"),
    ],
    ids=["short", "no-new", "no-current", "unknown-field"],
)
def test_bad_password_input_is_refused_naming_the_field(app, as_caller, body, field):
    response = as_caller("editor").post("/api/auth/password", json=body)
    assert response.status_code == 400
    assert field in response.json["error"]
    assert login(app, "editor@example.test", PASSWORD).status_code == 200


@pytest.mark.parametrize("caller", KEYS)
def test_an_api_key_cannot_change_a_password(as_caller, caller):
    assert change_password(as_caller(caller)).status_code == 403


@pytest.mark.parametrize("caller", BAD_CREDENTIALS)
def test_changing_a_password_without_valid_credentials_is_unauthorized(as_caller, caller):
    assert change_password(as_caller(caller)).status_code == 401


def test_the_new_password_is_stored_only_as_a_hash(app, as_caller, world):
    change_password(as_caller("editor"))
    stored = stored_user(app, world, "editor").password_hash
    assert NEW_PASSWORD not in stored
    assert stored.startswith("$argon2")


def test_a_password_change_answer_holds_no_password(as_caller):
    response = change_password(as_caller("editor"))
    assert NEW_PASSWORD not in response.get_data(as_text=True)
    assert PASSWORD not in response.get_data(as_text=True)


def test_ten_refused_password_changes_a_minute_are_then_answered_429(app, as_caller, world):
    me = as_caller("editor")
    for _ in range(10):
        assert change_password(me, current="wrong guess").status_code == 403
    response = change_password(me)
    assert response.status_code == 429
    assert "Retry-After" in response.headers
    assert login(app, "editor@example.test", PASSWORD).status_code == 200


def test_the_password_change_limit_counts_each_session_apart(as_caller):
    for _ in range(10):
        change_password(as_caller("editor"), current="wrong guess")
    assert change_password(as_caller("viewer")).status_code == 200


def test_a_successful_password_change_is_not_counted(app, as_caller, world):
    me = as_caller("editor")
    for _ in range(9):
        change_password(me, current="wrong guess")
    assert change_password(me).status_code == 200
    assert change_password(me, current=NEW_PASSWORD, new=PASSWORD).status_code == 200
