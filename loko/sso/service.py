"""Signing in with an OpenID provider: start (a pending sign-in and the provider's URL),
finish (the callback: the state used once, the code exchanged, the ID token validated, the
account found, linked or created, a Loko session opened), and the configuration check.

Network calls (discovery, keys, the code exchange) happen outside any transaction: the
pending sign-in is stored before the browser leaves, and spent before the code is exchanged.
"""

from dataclasses import dataclass
from datetime import timedelta

import requests
from authlib.integrations.base_client.errors import OAuthError
from joserfc.errors import (
    BadSignatureError,
    ClaimError,
    ExpiredTokenError,
    InvalidClaimError,
    JoseError,
    MissingClaimError,
)
from sqlalchemy import delete, select
from sqlalchemy.exc import IntegrityError

from loko.audit import service as audit
from loko.auth.models import User
from loko.auth.service import MAX_EMAIL, MAX_NAME, create_user, normalize_email, open_session, user_actor
from loko.auth.tokens import new_session_token, token_hash
from loko.database import unit_of_work, utcnow
from loko.errors import BadGateway, Conflict, LokoError, Unauthorized
from loko.extensions import db
from loko.organizations.models import Organization, OrganizationMember
from loko.organizations.service import _usable_invitation, _use_invitation
from loko.sso.client import GuardedOpenIdApp
from loko.sso.models import PendingSignIn, SsoSession, UserIdentity
from loko.sso.providers import OidcProvider

PENDING_MINUTES = 10
# Clock difference tolerated between Loko and the provider when checking exp and iat.
CLOCK_LEEWAY_SECONDS = 60
MAX_NEXT = 2048
MAX_SUBJECT = 255  # the columns of user_identities


class SignInRefused(Unauthorized):
    """The provider's answer signs nobody in; the message says why, for the sign-in page."""


class ProviderUnavailable(BadGateway):
    """The provider could not be reached, or answered something that is not OpenID Connect."""


def _same_issuer(configured: str, discovered: str | None) -> bool:
    return bool(discovered) and configured.rstrip("/") == discovered.rstrip("/")


def discovery(provider: OidcProvider, client: GuardedOpenIdApp) -> dict:
    """The provider's discovery document; ProviderUnavailable when it cannot be read, or it
    names another issuer than the one configured."""
    try:
        metadata = client.load_server_metadata()
    except (requests.RequestException, ValueError) as error:
        raise ProviderUnavailable(
            f"{provider.label} cannot be reached at {provider.discovery_url}: {_reason(error)}"
        ) from error
    if not _same_issuer(provider.issuer, metadata.get("issuer")):
        raise ProviderUnavailable(
            f"{provider.label}'s discovery document names the issuer {metadata.get('issuer')!r}, "
            f"not the configured {provider.issuer!r}"
        )
    for endpoint in ("authorization_endpoint", "token_endpoint", "jwks_uri"):
        if not metadata.get(endpoint):
            raise ProviderUnavailable(f"{provider.label}'s discovery document has no {endpoint}")
    return metadata


def _reason(error: Exception) -> str:
    response = getattr(error, "response", None)
    if response is not None:
        return f"HTTP {response.status_code}"
    return str(error) or type(error).__name__


@dataclass(frozen=True)
class Started:
    url: str
    browser_token: str


def start_sign_in(
    provider: OidcProvider,
    client: GuardedOpenIdApp,
    redirect_uri: str,
    next_path: str | None = None,
    invitation_token: str | None = None,
) -> Started:
    """Store a pending sign-in and return the provider's authorization URL (with state,
    nonce and a PKCE S256 challenge) and the token that binds the sign-in to this browser;
    NotFound or InvitationGone for an invitation that cannot be used, ProviderUnavailable."""
    if invitation_token:
        _usable_invitation(invitation_token)
    db.session.rollback()  # no read transaction stays open during the calls to the provider
    discovery(provider, client)
    try:
        authorization = client.create_authorization_url(redirect_uri)
    except (requests.RequestException, RuntimeError) as error:
        raise ProviderUnavailable(f"{provider.label} cannot be reached: {_reason(error)}") from error
    browser_token = new_session_token()
    now = utcnow()
    with unit_of_work():
        db.session.execute(delete(PendingSignIn).where(PendingSignIn.expires_at <= now))
        db.session.add(
            PendingSignIn(
                state_hash=token_hash(authorization["state"]),
                browser_hash=token_hash(browser_token),
                provider=provider.name,
                nonce=authorization["nonce"],
                code_verifier=authorization["code_verifier"],
                next_path=(next_path or None) and next_path[:MAX_NEXT],
                invitation_token=invitation_token or None,
                expires_at=now + timedelta(minutes=PENDING_MINUTES),
            )
        )
    return Started(authorization["url"], browser_token)


@dataclass(frozen=True)
class SignedIn:
    user: User
    session_token: str
    next_path: str | None
    created: bool
    joined: dict | None


def finish_sign_in(
    provider: OidcProvider,
    client: GuardedOpenIdApp,
    answer: dict,
    browser_token: str | None,
    redirect_uri: str,
    *,
    session_days: int,
) -> SignedIn:
    """The callback: spend the pending sign-in of ``answer["state"]`` (once, in the browser
    that started it), exchange the code, validate the ID token (signature, issuer, audience,
    expiry, nonce), then sign in the linked account, link one by verified e-mail, or create
    one as the provider's settings allow. SignInRefused saying why; ProviderUnavailable."""
    state = answer.get("state") or ""
    pending = _spend_pending(state, provider, browser_token)
    if answer.get("error"):
        description = answer.get("error_description") or answer["error"]
        raise SignInRefused(f"{provider.label} did not sign you in: {description[:200]}")
    code = answer.get("code")
    if not code:
        raise SignInRefused(f"{provider.label}'s answer carries no authorization code; sign in again.")
    try:
        token = client.fetch_access_token(
            redirect_uri=redirect_uri, code=code, code_verifier=pending.code_verifier
        )
    except OAuthError as error:
        raise SignInRefused(
            f"{provider.label} refused the authorization code ({error.error}); sign in again."
        ) from error
    except (requests.RequestException, ValueError) as error:
        raise ProviderUnavailable(f"{provider.label} cannot be reached: {_reason(error)}") from error
    try:
        claims = _validated_claims(provider, client, token, pending.nonce)
    except SignInRefused as refusal:
        _record_refusal(provider, None, refusal)
        raise
    if "email" not in claims:
        claims = _with_userinfo(provider, client, token, claims)
    try:
        with unit_of_work():
            user, created, joined = _account_for(provider, claims, pending.invitation_token)
            session_token = open_session(user.id, session_days)
            who, signed_in = user_actor(user), {"provider": provider.name}
            audit.record_for_user(who, user.id, "auth.sign_in", audit.user_target(user), signed_in)
            db.session.add(SsoSession(token_hash=token_hash(session_token), provider=provider.name))
    except SignInRefused as refusal:
        _record_refusal(provider, claims, refusal)
        raise
    return SignedIn(user, session_token, pending.next_path, created, joined)


def _record_refusal(provider: OidcProvider, claims: dict | None, refusal: SignInRefused) -> None:
    """A sign-in the provider answered but Loko refused, in the audit log: in the
    organizations of the account its validated e-mail names, or else in the provider's
    default organization (an ID token that did not validate names nobody)."""
    email = claims.get("email") if claims else None
    email = normalize_email(email) if isinstance(email, str) and len(email) <= MAX_EMAIL else None
    details = {"provider": provider.name, "reason": refusal.message}
    with unit_of_work():
        user = (
            db.session.execute(select(User).where(User.email == email)).scalar_one_or_none()
            if email
            else None
        )
        if user is not None:
            audit.record_for_user(None, user.id, "auth.sign_in_failed", audit.user_target(user), details)
        elif provider.default_organization is not None and db.session.get(
            Organization, provider.default_organization
        ):
            target = audit.Target("user", None, email)
            audit.record(None, provider.default_organization, "auth.sign_in_failed", target, details)


def _spend_pending(state: str, provider: OidcProvider, browser_token: str | None):
    """Delete the pending sign-in of ``state`` and return it: a second callback with the same
    state finds nothing. SignInRefused when unknown, expired, of another provider or started
    in another browser."""
    with unit_of_work():
        row = db.session.execute(
            delete(PendingSignIn)
            .where(PendingSignIn.state_hash == token_hash(state))
            .returning(
                PendingSignIn.browser_hash,
                PendingSignIn.provider,
                PendingSignIn.nonce,
                PendingSignIn.code_verifier,
                PendingSignIn.next_path,
                PendingSignIn.invitation_token,
                PendingSignIn.expires_at,
            )
        ).one_or_none()
    if row is None:
        raise SignInRefused(
            "This sign-in answer is not valid: it was already used, or was not started here. Sign in again."
        )
    if row.expires_at <= utcnow():
        raise SignInRefused(f"This sign-in took longer than {PENDING_MINUTES} minutes; sign in again.")
    if row.provider != provider.name or not browser_token or row.browser_hash != token_hash(browser_token):
        raise SignInRefused(
            "This sign-in was started in another browser or for another provider; sign in again."
        )
    return row


def _validated_claims(provider: OidcProvider, client: GuardedOpenIdApp, token: dict, nonce: str) -> dict:
    if "id_token" not in token:
        raise SignInRefused(f"{provider.label} sent no ID token; check that the openid scope is allowed.")
    metadata = discovery(provider, client)
    options = {
        "iss": {"essential": True, "values": [metadata["issuer"]]},
        "aud": {"essential": True, "values": [provider.client_id]},
        "sub": {"essential": True},
    }
    try:
        claims = client.parse_id_token(
            token, nonce=nonce, claims_options=options, leeway=CLOCK_LEEWAY_SECONDS
        )
    except ExpiredTokenError as error:
        raise SignInRefused(
            f"{provider.label}'s ID token has expired; sign in again (if this repeats, check "
            "the clocks of this server and the provider)."
        ) from error
    except (InvalidClaimError, MissingClaimError) as error:
        raise SignInRefused(_claim_problem(provider, getattr(error, "claim", ""))) from error
    except BadSignatureError as error:
        raise SignInRefused(f"{provider.label}'s ID token has a signature that does not verify.") from error
    except (ClaimError, JoseError, ValueError) as error:
        raise SignInRefused(f"{provider.label}'s ID token is not valid ({type(error).__name__}).") from error
    except requests.RequestException as error:
        raise ProviderUnavailable(f"{provider.label}'s keys cannot be read: {_reason(error)}") from error
    return dict(claims)


def _with_userinfo(provider: OidcProvider, client: GuardedOpenIdApp, token: dict, claims: dict) -> dict:
    """The ID token's claims completed by the userinfo endpoint (many providers keep the
    e-mail out of the ID token); only an answer about the same subject counts."""
    if not discovery(provider, client).get("userinfo_endpoint"):
        return claims
    try:
        userinfo = client.userinfo(token=token)
    except (requests.RequestException, ValueError) as error:
        raise ProviderUnavailable(f"{provider.label}'s userinfo cannot be read: {_reason(error)}") from error
    if str(userinfo.get("sub")) != str(claims["sub"]):
        raise SignInRefused(f"{provider.label}'s userinfo is about another subject than its ID token.")
    extra = {key: userinfo[key] for key in ("email", "email_verified", "name") if key in userinfo}
    return {**claims, **extra}


def _claim_problem(provider: OidcProvider, claim: str) -> str:
    if claim == "aud":
        return (
            f"{provider.label}'s ID token was issued for another application (wrong audience): "
            f"it does not name this Loko's client_id {provider.client_id!r}."
        )
    if claim == "iss":
        return f"{provider.label}'s ID token was issued by another issuer than {provider.issuer!r}."
    if claim == "nonce":
        return f"{provider.label}'s ID token does not answer this sign-in (nonce); sign in again."
    return f"{provider.label}'s ID token has a missing or invalid {claim or 'claim'}."


def _email_verified(claims: dict) -> bool:
    # Some providers send the boolean as a string.
    return claims.get("email_verified") in (True, "true")


def _account_for(provider: OidcProvider, claims: dict, invitation_token: str | None):
    """The user these claims sign in, and whether the account was created now, and the
    organization an invitation made them join (in the caller's transaction)."""
    issuer, subject = claims["iss"], str(claims["sub"])
    if len(subject) > MAX_SUBJECT or len(issuer) > MAX_SUBJECT:
        raise SignInRefused(f"{provider.label}'s subject or issuer is longer than {MAX_SUBJECT} characters.")
    email = normalize_email(claims["email"]) if isinstance(claims.get("email"), str) else ""
    if len(email) > MAX_EMAIL:
        email = ""  # no address Loko could keep: as if none was sent
    verified = bool(email) and (provider.trust_email or _email_verified(claims))
    now = utcnow()
    identity = db.session.execute(
        select(UserIdentity).where(UserIdentity.issuer == issuer, UserIdentity.subject == subject)
    ).scalar_one_or_none()
    if identity is not None:
        identity.last_sign_in_at = now
        identity.email = email or identity.email
        user = db.session.get(User, identity.user_id)
        return user, False, _join(invitation_token, user.id)
    user = None
    if verified:
        user = db.session.execute(select(User).where(User.email == email)).scalar_one_or_none()
    created = user is None
    joined = None
    if created:
        user, joined = _new_account(provider, claims, email, verified, invitation_token)
    else:
        joined = _join(invitation_token, user.id)
    db.session.add(
        UserIdentity(
            user_id=user.id,
            provider=provider.name,
            issuer=issuer,
            subject=subject,
            email=email or None,
            created_at=now,
            last_sign_in_at=now,
        )
    )
    try:
        db.session.flush()
    except IntegrityError:
        # The same identity signing in twice at once: the other sign-in linked it first.
        raise SignInRefused("This account was signed in twice at once; sign in again.") from None
    return user, created, joined


def _join(invitation_token: str | None, user_id: str) -> dict | None:
    if not invitation_token:
        return None
    try:
        return _use_invitation(invitation_token, user_id)
    except Conflict:
        return None  # already a member: the link stays unused, the sign-in goes on


def _new_account(provider, claims, email, verified, invitation_token):
    if not email:
        raise SignInRefused(
            f"{provider.label} sent no e-mail address, which a new Loko account needs; ask an "
            "administrator to allow the email scope."
        )
    name = claims.get("name") if isinstance(claims.get("name"), str) else None
    if invitation_token:
        user, _ = _create(email, name, with_organization=False)
        return user, _use_invitation(invitation_token, user.id)
    if not verified:
        raise SignInRefused(
            f"Your e-mail address at {provider.label} is not verified, so it can neither be matched "
            "to a Loko account nor create one."
        )
    if not provider.may_create_account(email):
        raise SignInRefused(
            f"No Loko account is linked to this {provider.label} account, and new accounts for "
            f"{email.rpartition('@')[2]} need an invitation: ask an administrator for an invitation link."
        )
    if provider.default_organization is None:
        user, _ = _create(email, name, with_organization=True)
        return user, None
    organization = db.session.get(Organization, provider.default_organization)
    if organization is None:
        raise SignInRefused(
            f"{provider.label}'s default_organization does not exist; ask an administrator to correct it."
        )
    user, _ = _create(email, name, with_organization=False)
    db.session.add(
        OrganizationMember(organization_id=organization.id, user_id=user.id, role=provider.default_role)
    )
    return user, {"id": organization.id, "name": organization.name, "role": provider.default_role}


def _create(email, name, *, with_organization):
    try:
        return create_user(
            email, None, (name or "").strip()[:MAX_NAME] or None, with_organization=with_organization
        )
    except Conflict:
        raise SignInRefused(
            "A Loko account already has this e-mail address, but the provider does not say the "
            "address is verified; sign in with that account's password instead."
        ) from None
    except LokoError as error:
        raise SignInRefused(error.message) from None


def session_provider(session_token: str | None) -> str | None:
    """The name of the provider that opened the session of ``session_token``, if one did."""
    if not session_token:
        return None
    return db.session.execute(
        select(SsoSession.provider).where(SsoSession.token_hash == token_hash(session_token))
    ).scalar_one_or_none()


def provider_sign_out_url(provider: OidcProvider, client: GuardedOpenIdApp, after: str) -> str | None:
    """Where to send the browser to end its session at ``provider`` (RP-initiated logout),
    coming back to ``after``; None when the provider is not set to, or has no
    end_session_endpoint, or cannot be reached (signing out of Loko never waits on it)."""
    if not provider.sign_out_at_provider:
        return None
    try:
        if not discovery(provider, client).get("end_session_endpoint"):
            return None
        return client.create_logout_url(post_logout_redirect_uri=after, client_id=provider.client_id)["url"]
    except (LokoError, RuntimeError):
        return None


@dataclass
class CheckReport:
    provider: OidcProvider
    lines: list[str]
    ok: bool


def check_provider(provider: OidcProvider, client: GuardedOpenIdApp, redirect_uri: str) -> CheckReport:
    """Read ``provider``'s discovery and keys and build a sign-in URL without storing it:
    what ``loko sso check`` prints. Never raises for the provider's faults; ``ok`` says."""
    lines = [f"{provider.name}: issuer {provider.issuer}"]
    try:
        metadata = discovery(provider, client)
        lines.append(f"  discovery: ok ({provider.discovery_url})")
        for endpoint in ("authorization_endpoint", "token_endpoint", "jwks_uri", "end_session_endpoint"):
            lines.append(f"  {endpoint}: {metadata.get(endpoint) or '(none)'}")
        methods = metadata.get("code_challenge_methods_supported") or []
        if "S256" not in methods:
            lines.append(
                "  warning: the provider does not announce PKCE S256 (code_challenge_methods_supported)"
            )
        try:
            keys = client.fetch_jwk_set().get("keys", [])
        except (requests.RequestException, ValueError) as error:
            raise ProviderUnavailable(
                f"the keys at {metadata['jwks_uri']} cannot be read: {_reason(error)}"
            ) from error
        if not keys:
            raise ProviderUnavailable(f"the key set at {metadata['jwks_uri']} has no keys")
        kids = ", ".join(str(key.get("kid", "(no kid)")) for key in keys)
        lines.append(f"  keys: {len(keys)} ({kids})")
        authorization = client.create_authorization_url(redirect_uri)
        lines.append(f"  redirect URI to register: {redirect_uri}")
        lines.append(f"  dry sign-in URL: {authorization['url']}")
    except LokoError as error:
        lines.append(f"  FAILED: {error.message}")
        return CheckReport(provider, lines, ok=False)
    except (requests.RequestException, RuntimeError) as error:
        lines.append(f"  FAILED: {_reason(error)}")
        return CheckReport(provider, lines, ok=False)
    return CheckReport(provider, lines, ok=True)
