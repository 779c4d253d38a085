"""``loko reset-password EMAIL``: a new password (random and printed once, typed, or read from
stdin) and every session of that user signed out."""

import pytest

from loko.auth import service
from loko.auth.models import Session, User
from loko.extensions import db
from tests.factories import PASSWORD, CallerClient, cheap_password_hasher, make_session, make_user

NEW_PASSWORD = "a brand new secret"


@pytest.fixture(autouse=True)
def fast_password_hashing(monkeypatch):
    monkeypatch.setattr(service, "_hasher", cheap_password_hasher())


@pytest.fixture
def ada(app):
    with app.app_context():
        user = make_user("ada@example.test", "Ada")
        return {"id": user.id, "session": make_session(user)}


def signs_in(app, password, email="ada@example.test") -> bool:
    response = app.test_client().post("/api/auth/login", json={"email": email, "password": password})
    return response.status_code == 200


def sessions_of(app, user_id) -> int:
    with app.app_context():
        return db.session.query(Session).filter_by(user_id=user_id).count()


def test_reset_password_prints_a_new_random_password_once(app, runner, ada):
    result = runner.invoke(args=["reset-password", "ADA@example.test"])
    assert result.exit_code == 0, result.output
    (password,) = result.stdout.split()
    assert len(password) >= 16
    assert signs_in(app, password)
    assert not signs_in(app, PASSWORD)


def test_reset_password_makes_a_different_password_each_time(runner, ada):
    first = runner.invoke(args=["reset-password", "ada@example.test"]).stdout
    second = runner.invoke(args=["reset-password", "ada@example.test"]).stdout
    assert first != second


def test_reset_password_signs_out_every_session_of_the_user(app, runner, ada):
    with app.app_context():
        other = make_user("grace@example.test", "Grace")
        other_session = make_session(other)
    runner.invoke(args=["reset-password", "ada@example.test"])
    assert sessions_of(app, ada["id"]) == 0
    assert CallerClient(app, {"cookie": ada["session"]}).get("/api/auth/me").status_code == 401
    assert CallerClient(app, {"cookie": other_session}).get("/api/auth/me").status_code == 200


def test_reset_password_reads_the_password_from_stdin(app, runner, ada):
    result = runner.invoke(
        args=["reset-password", "ada@example.test", "--password-stdin"], input=NEW_PASSWORD + "\n"
    )
    assert result.exit_code == 0, result.output
    assert NEW_PASSWORD not in result.output
    assert signs_in(app, NEW_PASSWORD)


def test_reset_password_asks_for_the_password_twice(app, runner, ada):
    result = runner.invoke(
        args=["reset-password", "ada@example.test", "--prompt"], input=f"{NEW_PASSWORD}\n{NEW_PASSWORD}\n"
    )
    assert result.exit_code == 0, result.output
    assert NEW_PASSWORD not in result.output
    assert signs_in(app, NEW_PASSWORD)


def test_reset_password_refuses_a_short_password_and_changes_nothing(app, runner, ada):
    result = runner.invoke(args=["reset-password", "ada@example.test", "--password-stdin"], input="short\n")
    assert result.exit_code != 0
    assert "new_password" in result.output
    assert sessions_of(app, ada["id"]) == 1
    assert signs_in(app, PASSWORD)


def test_reset_password_of_an_unknown_email_fails_clearly(app, runner, ada):
    result = runner.invoke(args=["reset-password", "nobody@example.test"])
    assert result.exit_code == 1
    assert "No user has the email 'nobody@example.test'" in result.output
    assert sessions_of(app, ada["id"]) == 1


def test_reset_password_stores_only_a_hash(app, runner, ada):
    runner.invoke(args=["reset-password", "ada@example.test", "--password-stdin"], input=NEW_PASSWORD + "\n")
    with app.app_context():
        stored = db.session.get(User, ada["id"]).password_hash
    assert NEW_PASSWORD not in stored
