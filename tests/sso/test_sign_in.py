"""Signing in with an OpenID provider, end to end against a real provider on the loopback:
the account found, linked or created, the session opened; and every refusal shown on the
sign-in page with no session."""

import html
import re
from urllib.parse import parse_qs, urlsplit

import pytest
from sqlalchemy import func, select

from loko.auth.actors import UserActor
from loko.auth.models import Session, User
from loko.auth.service import create_user
from loko.database import unit_of_work
from loko.extensions import db
from loko.organizations.models import Organization, OrganizationMember
from loko.organizations.service import create_invitation
from loko.sso.models import PendingSignIn, SsoSession, UserIdentity
from tests.audit.helpers import only, recorded
from tests.pages.conftest import ALL_CALLERS, PageClient, alert_of, notice_of
from tests.sso.conftest import SITE
from tests.sso.provider import free_port, provider_entry

PASSWORD = "correct horse battery"


def start(browser: PageClient, name: str = "local", **query):
    return browser.get(f"/auth/oidc/{name}/start", query_string=query)


def provider_answer(browser: PageClient, login: str, name: str = "local", **form) -> str:
    """Start a sign-in and sign in at the provider; the callback URL it sends back."""
    from tests.sso.provider import sign_in_at_provider

    started = start(browser, name, **form)
    assert started.status_code == 302, started.get_data(as_text=True)
    return sign_in_at_provider(started.location, login, f"{SITE}/auth/oidc/")


def follow(browser: PageClient, callback_url: str):
    parts = urlsplit(callback_url)
    return browser.get(f"{parts.path}?{parts.query}")


def sso_sign_in(browser: PageClient, login: str, name: str = "local", **form):
    return follow(browser, provider_answer(browser, login, name, **form))


def count(model) -> int:
    return db.session.execute(select(func.count()).select_from(model)).scalar_one()


def signed_in_as(browser: PageClient) -> str | None:
    response = browser.get("/api/auth/me")
    return response.get_json()["user"]["email"] if response.status_code == 200 else None


def password_user(app, email: str) -> UserActor:
    """A user who signs up with a password (and owns an organization of their own)."""
    with app.app_context(), unit_of_work():
        user, _ = create_user(email, PASSWORD)
        return UserActor(user.id, user.email, user.name)


def test_the_sign_in_url_carries_state_nonce_and_a_pkce_challenge(browser):
    started = start(browser)
    query = parse_qs(urlsplit(started.location).query)
    assert query["response_type"] == ["code"]
    assert query["client_id"] == ["loko"]
    assert query["redirect_uri"] == [f"{SITE}/auth/oidc/local/callback"]
    assert query["code_challenge_method"] == ["S256"]
    assert set(query) >= {"state", "nonce", "code_challenge"}
    assert set(query["scope"][0].split()) == {"openid", "email", "profile"}


def test_the_pending_sign_in_keeps_only_a_hash_of_the_state(browser, app):
    state = parse_qs(urlsplit(start(browser).location).query)["state"][0]
    with app.app_context():
        stored = db.session.execute(select(PendingSignIn.state_hash)).scalar_one()
    assert stored != state and len(stored) == 64


def test_first_sign_in_creates_the_account_with_an_organization_of_its_own(browser, app):
    response = sso_sign_in(browser, "newcomer@example.test")
    assert response.status_code == 303
    assert response.location == "/"
    assert notice_of(browser) == "Signed in with Local ID."
    assert signed_in_as(browser) == "newcomer@example.test"
    with app.app_context():
        user = db.session.execute(select(User).where(User.email == "newcomer@example.test")).scalar_one()
        identity = db.session.execute(select(UserIdentity)).scalar_one()
        roles = (
            db.session.execute(select(OrganizationMember.role).where(OrganizationMember.user_id == user.id))
            .scalars()
            .all()
        )
    assert (identity.user_id, identity.subject, identity.provider) == (
        user.id,
        "newcomer@example.test",
        "local",
    )
    assert roles == ["owner"]


def test_an_account_made_by_sign_in_has_no_password(browser, app):
    sso_sign_in(browser, "nopass@example.test")
    other = PageClient(app, {})
    response = other.post("/api/auth/login", json={"email": "nopass@example.test", "password": "!"})
    assert response.status_code == 401


def test_the_second_sign_in_opens_the_same_account(browser, app):
    sso_sign_in(browser, "again@example.test")
    again = PageClient(app, {})
    sso_sign_in(again, "again@example.test")
    assert signed_in_as(again) == "again@example.test"
    with app.app_context():
        assert count(User) == 1
        assert count(UserIdentity) == 1


def test_a_verified_email_links_the_existing_password_account(browser, app):
    user = password_user(app, "ada@example.test")
    sso_sign_in(browser, "ada@example.test")
    assert signed_in_as(browser) == "ada@example.test"
    with app.app_context():
        assert db.session.execute(select(UserIdentity.user_id)).scalar_one() == user.id
        assert count(User) == 1


def test_an_unverified_email_neither_links_nor_creates_an_account(browser, app):
    password_user(app, "unverified@example.test")
    response = sso_sign_in(browser, "unverified@example.test")
    assert response.status_code == 401
    assert "not verified" in alert_of(response)
    assert signed_in_as(browser) is None
    with app.app_context():
        assert count(UserIdentity) == 0


def test_a_provider_trusted_for_its_emails_links_an_unverified_one(browser, app):
    user = password_user(app, "unverified@example.test")
    sso_sign_in(browser, "unverified@example.test", name="trusting")
    assert signed_in_as(browser) == "unverified@example.test"
    with app.app_context():
        assert db.session.execute(select(UserIdentity.user_id)).scalar_one() == user.id


def test_a_domain_not_allowed_is_refused_naming_the_invitation(browser, app):
    response = sso_sign_in(browser, "someone@elsewhere.test")
    assert response.status_code == 401
    assert "elsewhere.test need an invitation" in alert_of(response)
    assert signed_in_as(browser) is None
    with app.app_context():
        assert count(User) == 0


def test_a_provider_that_requires_invitations_creates_no_account_without_one(browser, app):
    response = sso_sign_in(browser, "ben@example.test", name="invite")
    assert response.status_code == 401
    assert "ask an administrator for an invitation" in alert_of(response)
    with app.app_context():
        assert count(User) == 0


def test_an_invitation_link_creates_the_account_in_its_organization(browser, app):
    owner = password_user(app, "owner@example.test")
    with app.app_context():
        organization_id = db.session.execute(
            select(OrganizationMember.organization_id).where(OrganizationMember.user_id == owner.id)
        ).scalar_one()
        token, _ = create_invitation(owner, organization_id, "member")
    response = sso_sign_in(browser, "carla@example.test", name="invite", invitation=token)
    assert response.status_code == 303
    assert "You joined" in notice_of(browser)
    with app.app_context():
        carla = db.session.execute(select(User.id).where(User.email == "carla@example.test")).scalar_one()
        memberships = db.session.execute(
            select(OrganizationMember.organization_id, OrganizationMember.role).where(
                OrganizationMember.user_id == carla
            )
        ).all()
    assert memberships == [(organization_id, "member")]


def test_a_default_organization_receives_new_accounts_with_the_default_role(
    browser, app, team_organization_id
):
    with app.app_context(), unit_of_work():
        db.session.add(Organization(id=team_organization_id, name="Team"))
    sso_sign_in(browser, "dora@example.test", name="team")
    with app.app_context():
        dora = db.session.execute(select(User.id).where(User.email == "dora@example.test")).scalar_one()
        memberships = db.session.execute(
            select(OrganizationMember.organization_id, OrganizationMember.role).where(
                OrganizationMember.user_id == dora
            )
        ).all()
    assert memberships == [(team_organization_id, "admin")]


def test_an_id_token_for_another_audience_is_refused(browser, app):
    response = sso_sign_in(browser, "eve@example.test", name="wrongaud")
    assert response.status_code == 401
    assert "wrong audience" in alert_of(response)
    assert browser.client.get_cookie("sb-access-token") is None
    with app.app_context():
        assert count(User) == 0
        assert count(Session) == 0


def test_an_expired_id_token_is_refused(browser, app):
    response = sso_sign_in(browser, "eve@example.test", name="expired")
    assert response.status_code == 401
    assert "ID token has expired" in alert_of(response)
    assert browser.client.get_cookie("sb-access-token") is None
    with app.app_context():
        assert count(Session) == 0


def test_a_replayed_state_is_refused(browser, app):
    answer = provider_answer(browser, "fay@example.test")
    assert follow(browser, answer).status_code == 303
    browser.post("/logout", data={"csrf_token": browser.csrf_token()})
    replay = PageClient(app, {})
    replay.client.set_cookie("loko-sso", "anything", path="/auth/oidc/")
    response = follow(replay, answer)
    assert response.status_code == 401
    assert "already used" in alert_of(response)
    assert replay.client.get_cookie("sb-access-token") is None


def test_the_same_answer_twice_in_one_browser_signs_in_once(browser, app):
    answer = provider_answer(browser, "gil@example.test")
    follow(browser, answer)
    response = follow(browser, answer)
    assert response.status_code == 401
    with app.app_context():
        assert count(Session) == 1


def test_an_answer_opened_in_another_browser_is_refused(browser, app):
    answer = provider_answer(browser, "hal@example.test")
    response = follow(PageClient(app, {}), answer)
    assert response.status_code == 401
    assert "another browser" in alert_of(response)
    with app.app_context():
        assert count(User) == 0


def test_a_refusal_by_the_provider_is_shown(browser):
    state = parse_qs(urlsplit(start(browser).location).query)["state"][0]
    response = browser.get(
        f"/auth/oidc/local/callback?state={state}&error=access_denied&error_description=No+thanks"
    )
    assert response.status_code == 401
    assert alert_of(response) == "Local ID did not sign you in: No thanks"


def test_the_page_asked_for_before_signing_in_is_opened_after(browser):
    response = sso_sign_in(browser, "ida@example.test", next="/account")
    assert response.location == "/account"


def test_a_next_page_on_another_site_is_ignored(browser):
    response = sso_sign_in(browser, "jo@example.test", next="//evil.test/")
    assert response.location == "/"


def test_signing_out_ends_the_loko_session(browser, app):
    sso_sign_in(browser, "kim@example.test")
    browser.post("/logout", data={"csrf_token": browser.csrf_token()})
    assert signed_in_as(browser) is None
    with app.app_context():
        assert count(Session) == 0


def test_an_unknown_provider_is_not_found(browser):
    assert browser.get("/auth/oidc/nobody/callback?state=x&code=y").status_code == 404
    assert start(browser, "nobody").status_code == 404


def test_starting_a_sign_in_is_a_link_not_a_form(browser):
    assert browser.submit("/auth/oidc/local/start").status_code == 405


def test_the_sign_in_page_shows_a_button_per_provider(browser):
    page = browser.get("/login").get_data(as_text=True)
    assert "Sign in with Local ID" in page
    assert "Sign in with expired" in page
    assert 'name="password"' in page


@pytest.mark.parametrize("config_overrides", [{"LOKO_OIDC_PROVIDERS": []}], ids=["none"])
def test_without_providers_the_sign_in_page_has_no_buttons(browser):
    assert "Sign in with" not in browser.get("/login").get_data(as_text=True)


@pytest.mark.parametrize("caller", ALL_CALLERS)
def test_any_caller_may_start_a_sign_in(page_as, oidc_issuer, caller):
    response = page_as(caller).get("/auth/oidc/local/start")
    assert response.status_code == 302
    assert response.location.startswith(f"{oidc_issuer}/auth?")


@pytest.mark.parametrize("caller", ALL_CALLERS)
def test_no_caller_signs_in_with_a_state_that_was_never_issued(page_as, caller):
    response = page_as(caller).get("/auth/oidc/local/callback?state=forged&code=forged")
    assert response.status_code == 401
    assert "already used, or was not started here" in alert_of(response)


@pytest.mark.parametrize(
    "config_overrides",
    [{"LOKO_OIDC_PROVIDERS": [provider_entry(f"http://127.0.0.1:{free_port()}", "gone", label="Gone ID")]}],
    ids=["unreachable"],
)
def test_an_unreachable_provider_is_shown_as_such(browser):
    response = start(browser, "gone")
    assert response.status_code == 502
    assert alert_of(response).startswith("Gone ID cannot be reached")


def test_the_invitation_page_offers_to_join_with_each_provider(browser, app):
    owner = password_user(app, "inviter@example.test")
    with app.app_context():
        organization_id = db.session.execute(
            select(OrganizationMember.organization_id).where(OrganizationMember.user_id == owner.id)
        ).scalar_one()
        token, _ = create_invitation(owner, organization_id, "member")
    page = browser.get(f"/join?token={token}").get_data(as_text=True)
    assert "Join with Local ID" in page
    assert f"/auth/oidc/local/start?invitation={token}" in page


def test_a_used_invitation_starts_no_sign_in(browser):
    response = start(browser, "invite", invitation="y" * 43)
    assert response.status_code == 404
    assert "invitation link is not valid" in alert_of(response)


def test_an_overlong_subject_is_refused(browser, app):
    response = sso_sign_in(browser, "x" * 250 + "@example.test")
    assert response.status_code == 401
    assert "longer than 255 characters" in alert_of(response)
    with app.app_context():
        assert count(User) == 0


def test_signing_out_stays_at_loko_for_a_provider_not_set_to_sign_out_there(browser):
    sso_sign_in(browser, "lea@example.test")
    response = browser.post("/logout", data={"csrf_token": browser.csrf_token()})
    assert response.location == "/login"


def test_signing_out_also_ends_the_session_at_a_provider_set_to(browser, app, oidc_issuer):
    sso_sign_in(browser, "max@example.test", name="trusting")
    response = browser.post("/logout", data={"csrf_token": browser.csrf_token()})
    assert response.status_code == 200
    end_session = re.search(r'url=([^"]+)"', response.get_data(as_text=True)).group(1)
    end_session = html.unescape(end_session)
    query = parse_qs(urlsplit(end_session).query)
    assert end_session.startswith(f"{oidc_issuer}/session/end?")
    assert query["post_logout_redirect_uri"] == [f"{SITE}/login"]
    assert query["client_id"] == ["loko"]
    assert signed_in_as(browser) is None
    with app.app_context():
        assert count(Session) == 0
        assert count(SsoSession) == 0


def test_a_password_session_signs_out_at_loko_only(browser, app):
    password_user(app, "nia@example.test")
    browser.submit("/login", {"email": "nia@example.test", "password": PASSWORD})
    response = browser.post("/logout", data={"csrf_token": browser.csrf_token()})
    assert response.location == "/login"


def test_signing_in_again_replaces_the_browser_s_session(browser, app):
    sso_sign_in(browser, "olu@example.test")
    sso_sign_in(browser, "olu@example.test")
    assert signed_in_as(browser) == "olu@example.test"
    with app.app_context():
        assert count(Session) == 1


def test_a_sign_in_with_a_provider_is_recorded_in_the_audit_log(browser, app):
    sso_sign_in(browser, "newcomer@example.test")
    with app.app_context():
        user = db.session.execute(select(User).where(User.email == "newcomer@example.test")).scalar_one()
        organization_id = db.session.execute(
            select(OrganizationMember.organization_id).where(OrganizationMember.user_id == user.id)
        ).scalar_one()
    event = only(app, organization_id, "auth.sign_in")
    assert event["actor"] == ("user", user.id, "newcomer@example.test")
    assert event["details"] == {"provider": "local"}


def _memberships(app, email: str) -> list[str]:
    with app.app_context():
        return list(
            db.session.scalars(
                select(OrganizationMember.organization_id)
                .join(User, User.id == OrganizationMember.user_id)
                .where(User.email == email)
            )
        )


def test_a_refused_sign_in_of_a_known_email_is_recorded_in_its_organizations(browser, app):
    user = password_user(app, "unverified@example.test")
    sso_sign_in(browser, "unverified@example.test")
    (organization_id,) = _memberships(app, "unverified@example.test")
    event = only(app, organization_id, "auth.sign_in_failed")
    assert event["actor"] == ("anonymous", None, None)
    assert event["target"] == ("user", user.id, "unverified@example.test")
    assert event["details"]["provider"] == "local"
    assert "not verified" in event["details"]["reason"]


def test_a_refused_sign_in_of_an_unknown_email_is_recorded_in_the_default_organization(
    browser, app, team_organization_id
):
    with app.app_context(), unit_of_work():
        db.session.add(Organization(id=team_organization_id, name="Team"))
    sso_sign_in(browser, "someone@elsewhere.test", name="team")
    event = only(app, team_organization_id, "auth.sign_in_failed")
    assert event["target"] == ("user", None, "someone@elsewhere.test")
    assert event["details"]["provider"] == "team"
    assert "need an invitation" in event["details"]["reason"]


def test_an_id_token_that_does_not_validate_is_recorded_nowhere_without_a_default_organization(browser, app):
    password_user(app, "eve@example.test")
    sso_sign_in(browser, "eve@example.test", name="wrongaud")
    assert recorded(app, action="auth.sign_in_failed") == []
