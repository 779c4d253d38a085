"""Accounts and credentials: sign-up, sign-in, sign-out, sessions and API keys
(decisions sections 2, 3 and 10)."""

import hashlib
from datetime import timedelta

import pytest
import sqlalchemy as sa

from loko.apikeys.models import ApiKey
from loko.auth import service
from loko.auth.models import Session, User
from loko.database import utcnow
from loko.extensions import db
from loko.projects.models import Project
from tests.factories import CallerClient, cheap_password_hasher, expire_session, make_key

PASSWORD = "correct horse battery"
COOKIE = "sb-access-token"

signup_closed = pytest.mark.parametrize("config_overrides", [{"LOKO_ALLOW_SIGNUP": False}], ids=["closed"])
secure_cookies = pytest.mark.parametrize(
    "config_overrides", [{"LOKO_COOKIE_SECURE": True}], ids=["secure-cookie"]
)


@pytest.fixture(autouse=True)
def fast_password_hashing(monkeypatch):
    monkeypatch.setattr(service, "_hasher", cheap_password_hasher())


def signup(client, email="ada@example.test", password=PASSWORD, **extra):
    return client.post("/api/auth/signup", json={"email": email, "password": password, **extra})


def login(client, email="ada@example.test", password=PASSWORD, **kwargs):
    return client.post("/api/auth/login", json={"email": email, "password": password}, **kwargs)


def session_cookie_header(response) -> dict:
    """The attributes of the session cookie set by ``response``, by lower-case name."""
    (header,) = [h for h in response.headers.getlist("Set-Cookie") if h.startswith(f"{COOKIE}=")]
    name_value, *attributes = header.split("; ")
    parsed = {"value": name_value.split("=", 1)[1]}
    for attribute in attributes:
        name, _, value = attribute.partition("=")
        parsed[name.lower()] = value or True
    return parsed


def rows(app, table) -> list[dict]:
    with app.app_context():
        return [dict(row._mapping) for row in db.session.execute(sa.select(table.__table__))]


# --- sign-up ---------------------------------------------------------------------------


def test_signup_creates_the_user_and_signs_in(client):
    response = signup(client, name="Ada")
    assert response.status_code == 201
    user = response.json["user"]
    assert set(user) == {"id", "email", "name", "created_at"}
    assert user["email"] == "ada@example.test"
    assert user["name"] == "Ada"
    assert session_cookie_header(response)["value"]
    assert client.get("/api/auth/me").json["user"]["id"] == user["id"]


def test_signup_never_returns_the_password_or_its_hash(client):
    body = signup(client).get_data(as_text=True)
    assert PASSWORD not in body
    assert "password" not in body


def test_signup_stores_the_password_as_an_argon2_hash(app, client):
    signup(client)
    (user,) = rows(app, User)
    assert user["password_hash"].startswith("$argon2")
    assert PASSWORD not in user["password_hash"]


def test_signup_creates_an_organization_named_after_the_user(client):
    signup(client, name="Ada")
    (organization,) = client.get("/api/auth/me").json["organizations"]
    assert organization["name"] == "Ada's organization"
    assert organization["role"] == "owner"


def test_signup_names_the_organization_as_asked(client):
    signup(client, name="Ada", organization="Analytical Engines")
    (organization,) = client.get("/api/auth/me").json["organizations"]
    assert organization["name"] == "Analytical Engines"


def test_signup_without_a_name_uses_the_email_local_part(client):
    response = signup(client, email="grace@example.test")
    assert response.json["user"]["name"] == "grace"


def test_signup_stores_the_email_in_lower_case(client):
    response = signup(client, email="Ada@Example.TEST")
    assert response.json["user"]["email"] == "ada@example.test"


def test_signup_with_a_taken_email_conflicts_whatever_its_case(app, client):
    signup(client, email="ada@example.test")
    response = signup(app.test_client(), email="ADA@example.TEST")
    assert response.status_code == 409
    assert "email" in response.json["error"]


def test_signup_accepts_a_password_of_eight_characters(client):
    assert signup(client, password="8 chars!").status_code == 201


def test_signup_rejects_a_password_shorter_than_eight_characters(app, client):
    response = signup(client, password="7 chars")
    assert response.status_code == 400
    assert "password" in response.json["error"]
    assert rows(app, User) == []


def test_signup_rejects_an_invalid_email(client):
    response = signup(client, email="not-an-email")
    assert response.status_code == 400
    assert "email" in response.json["error"]


@signup_closed
def test_first_user_may_sign_up_while_signup_is_closed(client):
    assert signup(client).status_code == 201


@signup_closed
def test_later_users_may_not_sign_up_while_signup_is_closed(app, client):
    signup(client)
    response = signup(app.test_client(), email="grace@example.test")
    assert response.status_code == 403
    assert len(rows(app, User)) == 1


def test_later_users_may_sign_up_while_signup_is_open(app, client):
    signup(client)
    response = signup(app.test_client(), email="grace@example.test")
    assert response.status_code == 201
    assert session_cookie_header(response)["value"]


# --- sign-in ---------------------------------------------------------------------------


def test_login_answers_with_the_user_and_a_session_cookie(app, client):
    signup(client)
    response = login(app.test_client())
    assert response.status_code == 200
    assert response.json["user"]["email"] == "ada@example.test"
    assert session_cookie_header(response)["value"]


def test_login_cookie_is_http_only_same_site_lax_for_the_whole_site(app, client):
    signup(client)
    cookie = session_cookie_header(login(app.test_client()))
    assert cookie["httponly"] is True
    assert cookie["samesite"] == "Lax"
    assert cookie["path"] == "/"


def test_login_cookie_is_not_secure_by_default(app, client):
    signup(client)
    assert "secure" not in session_cookie_header(login(app.test_client()))


@secure_cookies
def test_login_cookie_is_secure_when_configured(app, client):
    signup(client)
    assert session_cookie_header(login(app.test_client()))["secure"] is True


def test_login_cookie_lasts_the_session_lifetime(app, client):
    signup(client)
    assert session_cookie_header(login(app.test_client()))["max-age"] == str(14 * 86400)


def test_login_ignores_the_case_of_the_email(app, client):
    signup(client)
    assert login(app.test_client(), email="ADA@example.test").status_code == 200


def test_login_with_a_wrong_password_is_unauthorized(app, client):
    signup(client)
    response = login(app.test_client(), password="wrong password")
    assert response.status_code == 401
    assert COOKIE not in response.headers.get("Set-Cookie", "")


def test_login_gives_the_same_message_for_an_unknown_email_and_a_wrong_password(app, client):
    signup(client)
    wrong_password = login(app.test_client(), password="wrong password")
    unknown_email = login(app.test_client(), email="nobody@example.test")
    assert unknown_email.status_code == wrong_password.status_code == 401
    assert unknown_email.json == wrong_password.json


def test_login_is_rate_limited_after_ten_failures_a_minute(app, client):
    signup(client)
    statuses = [login(client, password="wrong password").status_code for _ in range(11)]
    assert statuses == [401] * 10 + [429]


def test_rate_limited_login_answers_json_with_retry_after(app, client):
    signup(client)
    for _ in range(10):
        login(client, password="wrong password")
    response = login(client, password="wrong password")
    assert response.status_code == 429
    assert isinstance(response.json["error"], str)
    assert int(response.headers["Retry-After"]) > 0


def test_rate_limited_login_refuses_even_the_right_password(app, client):
    signup(client)
    for _ in range(10):
        login(client, password="wrong password")
    assert login(client).status_code == 429


def test_login_rate_limit_does_not_block_another_email(app, client):
    signup(client)
    signup(app.test_client(), email="grace@example.test")
    for _ in range(10):
        login(client, password="wrong password")
    assert login(client, email="grace@example.test", password="wrong password").status_code == 401
    assert login(client, email="grace@example.test").status_code == 200


def test_login_rate_limit_does_not_block_another_address(app, client):
    signup(client)
    for _ in range(10):
        login(client, password="wrong password")
    response = login(client, environ_base={"REMOTE_ADDR": "192.0.2.7"})
    assert response.status_code == 200


def test_successful_logins_do_not_count_towards_the_rate_limit(app, client):
    signup(client)
    for _ in range(10):
        assert login(client).status_code == 200
    assert login(client, password="wrong password").status_code == 401


def test_login_from_a_cross_origin_page_is_forbidden(app, client):
    signup(client)
    response = login(app.test_client(), headers={"Origin": "https://evil.example"})
    assert response.status_code == 403


# --- sign-out and sessions ---------------------------------------------------------------


def test_no_cookie_but_the_session_cookie_is_ever_set(client):
    cookies = signup(client).headers.getlist("Set-Cookie") + login(client).headers.getlist("Set-Cookie")
    assert cookies and all(cookie.startswith("sb-access-token=") for cookie in cookies)


def test_logout_deletes_the_session_server_side(app, client):
    token = session_cookie_header(signup(client))["value"]
    assert client.post("/api/auth/logout").json == {"success": True}
    assert rows(app, Session) == []
    replay = CallerClient(app, {"cookie": token})
    assert replay.get("/api/auth/me").status_code == 401


def test_logout_clears_the_cookie(client):
    signup(client)
    response = client.post("/api/auth/logout")
    assert session_cookie_header(response)["value"] == ""
    assert client.get("/api/auth/me").status_code == 401


def test_logout_keeps_the_users_other_sessions(app, client):
    signup(client)
    other = app.test_client()
    login(other)
    client.post("/api/auth/logout")
    assert other.get("/api/auth/me").status_code == 200


def test_me_describes_the_user_and_their_organizations(client):
    user = signup(client, name="Ada", organization="Engines").json["user"]
    me = client.get("/api/auth/me")
    assert me.status_code == 200
    assert me.json["user"] == user
    (organization,) = me.json["organizations"]
    assert set(organization) == {"id", "name", "role"}
    assert (organization["name"], organization["role"]) == ("Engines", "owner")


def test_me_lists_organizations_the_user_was_added_to(app, client):
    signup(client, email="ada@example.test")
    grace = app.test_client()
    signup(grace, email="grace@example.test", organization="Grace's lab")
    (ada_org,) = client.get("/api/auth/me").json["organizations"]
    client.post(
        f"/api/organizations/{ada_org['id']}/members", json={"email": "grace@example.test", "role": "admin"}
    )
    roles = {o["name"]: o["role"] for o in grace.get("/api/auth/me").json["organizations"]}
    assert roles == {"Grace's lab": "owner", ada_org["name"]: "admin"}


def test_me_without_credentials_is_unauthorized(client):
    response = client.get("/api/auth/me")
    assert response.status_code == 401
    assert isinstance(response.json["error"], str)


def test_expired_session_is_unauthorized(app, client):
    token = session_cookie_header(signup(client))["value"]
    with app.app_context():
        expire_session(token)
    assert client.get("/api/auth/me").status_code == 401


def test_session_expires_after_the_configured_days(app, client):
    signup(client)
    (session,) = rows(app, Session)
    assert session["expires_at"] - session["created_at"] == timedelta(days=14)


def test_session_token_is_stored_only_as_its_sha256(app, client):
    token = session_cookie_header(signup(client))["value"]
    (session,) = rows(app, Session)
    assert session["token_hash"] == hashlib.sha256(token.encode()).hexdigest()
    assert not any(token in str(value) for value in session.values())


def test_session_token_has_at_least_32_random_bytes(client):
    token = session_cookie_header(signup(client))["value"]
    assert len(token) >= 43  # 32 bytes in URL-safe base64


def test_bearer_header_decides_over_a_session_cookie(as_caller, world):
    caller = as_caller("org_owner")
    caller.headers["Authorization"] = f"Bearer {world.credentials['write_key']['bearer']}"
    response = caller.get("/api/auth/me")
    assert response.status_code == 403
    assert "session" in response.json["error"]


def test_unknown_bearer_key_is_unauthorized_even_with_a_valid_cookie(as_caller):
    caller = as_caller("org_owner")
    caller.headers["Authorization"] = "Bearer loko_not-a-real-key"
    assert caller.get("/api/auth/me").status_code == 401


def test_key_without_the_loko_prefix_is_unauthorized(app, world):
    response = CallerClient(app, {"bearer": "not-a-loko-key"}).get(f"/api/projects/{world.project_id}")
    assert response.status_code == 401


# --- cross-site writes -------------------------------------------------------------------


def test_cookie_write_from_another_origin_is_forbidden(as_caller):
    response = as_caller("org_owner").post(
        "/api/organizations", json={"name": "Forged"}, headers={"Origin": "https://evil.example"}
    )
    assert response.status_code == 403
    assert "Cross-origin" in response.json["error"]


def test_cookie_write_marked_cross_site_by_the_browser_is_forbidden(as_caller):
    response = as_caller("org_owner").post(
        "/api/organizations", json={"name": "Forged"}, headers={"Sec-Fetch-Site": "cross-site"}
    )
    assert response.status_code == 403


def test_cookie_write_from_the_same_origin_is_allowed(as_caller):
    response = as_caller("org_owner").post(
        "/api/organizations", json={"name": "Mine"}, headers={"Origin": "http://localhost"}
    )
    assert response.status_code == 201


def test_cookie_write_with_a_form_body_is_unsupported(as_caller):
    response = as_caller("org_owner").post("/api/organizations", data={"name": "Forged"})
    assert response.status_code == 415
    assert "application/json" in response.json["error"]


def test_cookie_write_with_a_text_body_is_unsupported(as_caller):
    response = as_caller("org_owner").post(
        "/api/organizations", data='{"name": "Forged"}', content_type="text/plain"
    )
    assert response.status_code == 415


def test_cookie_read_from_another_origin_is_allowed(as_caller):
    response = as_caller("org_owner").get("/api/auth/me", headers={"Origin": "https://evil.example"})
    assert response.status_code == 200


def test_key_write_is_not_treated_as_cross_site(as_caller, world):
    response = as_caller("write_key").put(
        f"/api/projects/{world.project_id}", json={"name": "X"}, headers={"Origin": "https://tool.example"}
    )
    assert response.status_code == 403
    assert "session" in response.json["error"]


# --- API keys as credentials -------------------------------------------------------------


def test_api_key_is_stored_only_as_its_sha256(app, as_caller, world):
    key = (
        as_caller("org_owner").post(f"/api/projects/{world.project_id}/keys", json={"name": "ci"}).json["key"]
    )
    (record,) = [r for r in rows(app, ApiKey) if r["name"] == "ci"]
    assert record["key_hash"] == hashlib.sha256(key.encode()).hexdigest()
    assert not any(key in str(value) for value in record.values())


def test_api_key_prefix_is_its_first_twelve_characters(app, as_caller, world):
    created = as_caller("org_owner").post(f"/api/projects/{world.project_id}/keys", json={"name": "ci"}).json
    (record,) = [r for r in rows(app, ApiKey) if r["name"] == "ci"]
    assert record["prefix"] == created["key"][:12] == created["apiKey"]["prefix"]


def test_revoked_key_is_unauthorized_at_once(app, as_caller, world):
    owner = as_caller("org_owner")
    key = owner.post(f"/api/projects/{world.project_id}/keys", json={"name": "ci"}).json
    client = CallerClient(app, {"bearer": key["key"]})
    assert client.get(f"/api/projects/{world.project_id}").status_code == 200
    owner.delete(f"/api/projects/{world.project_id}/keys/{key['apiKey']['id']}")
    assert client.get(f"/api/projects/{world.project_id}").status_code == 401


def test_api_key_use_sets_last_used_at(app, world):
    with app.app_context():
        key, key_id = make_key(_project(world))
    before = utcnow()
    CallerClient(app, {"bearer": key}).get(f"/api/projects/{world.project_id}")
    with app.app_context():
        last_used_at = db.session.get(ApiKey, key_id).last_used_at
    assert last_used_at is not None
    assert last_used_at >= before - timedelta(seconds=1)


def test_unused_api_key_has_no_last_used_at(app, world):
    with app.app_context():
        _key, key_id = make_key(_project(world))
        assert db.session.get(ApiKey, key_id).last_used_at is None


def _project(world):
    return db.session.get(Project, world.project_id)
