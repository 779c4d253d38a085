"""Accounts and sessions: sign-up, sign-in, sign-out and resolving credentials to an actor."""

from datetime import UTC, datetime, timedelta
from functools import cache

from sqlalchemy import bindparam, func, or_, select, update
from sqlalchemy.exc import IntegrityError

from loko import events
from loko.apikeys.models import ApiKey
from loko.auth import emails
from loko.auth.actors import ApiKeyActor, UserActor
from loko.auth.models import Session, User
from loko.auth.policy import proposal_languages_count, require_user, rules_read_with_key, stored_languages
from loko.auth.tokens import API_KEY_PREFIX, new_session_token, token_hash
from loko.database import DriverQuery, driver_timestamp, unit_of_work, utcnow
from loko.errors import BadRequest, Conflict, Forbidden, NotFound, Unauthorized
from loko.extensions import db
from loko.organizations.models import Organization, OrganizationMember
from loko.projects.models import Project

LAST_USED_RESOLUTION = timedelta(minutes=1)
INVALID_LOGIN = "Invalid email or password."
PASSWORD_SIGNIN_OFF = (
    "Password sign-in is turned off on this installation; sign in with your identity provider."  # noqa: S105
)
# The stored hash of an account without a password (made by single sign-on): no password
# matches it, as it is not an argon2 hash.
NO_PASSWORD = "!"  # noqa: S105
MAX_EMAIL = 320
MAX_NAME = 128


def normalize_email(email: str) -> str:
    return email.strip().lower()


@cache
def _hasher():
    """argon2's hasher, loaded with the first password hashed or checked (an idle server
    never needs it)."""
    from argon2 import PasswordHasher

    return PasswordHasher()


def hash_password(password: str) -> str:
    return _hasher().hash(password)


@cache
def _dummy_hash() -> str:
    """A hash to check unknown emails against, so they take as long as wrong passwords;
    made on first use, as an argon2 hash takes 64 MiB for a moment."""
    return _hasher().hash("loko-timing-equaliser")


def _password_matches(stored_hash: str, password: str) -> bool:
    from argon2.exceptions import InvalidHashError, VerificationError

    try:
        return _hasher().verify(stored_hash, password)
    except (VerificationError, InvalidHashError):
        return False


def user_actor(user: User) -> UserActor:
    return UserActor(id=user.id, email=user.email, name=user.name, locale=user.locale)


def create_user(
    email: str,
    password: str | None,
    name: str | None = None,
    organization: str | None = None,
    *,
    with_organization: bool = True,
):
    """Create a user who owns a new organization (none when ``with_organization`` is false:
    the user joins one by invitation), without a password when ``password`` is None (single
    sign-on); BadRequest when the email is too long once
    lower-cased, Conflict when it is taken.

    The caller owns the transaction (sign-up and the CLI wrap it in a unit of work).
    """
    email = normalize_email(email)
    if len(email) > MAX_EMAIL:
        # Lower-casing can lengthen a string ("İ" becomes two code points).
        raise BadRequest(f"email: at most {MAX_EMAIL} characters.")
    name = name or email.split("@", 1)[0][:MAX_NAME]
    password_hash = hash_password(password) if password is not None else NO_PASSWORD
    user = User(email=email, name=name, password_hash=password_hash)
    org = Organization(name=organization or _default_organization_name(name)) if with_organization else None
    db.session.add_all([user, org] if org is not None else [user])
    try:
        db.session.flush()
    except IntegrityError:
        raise Conflict("email: a user with this email already exists.") from None
    if org is not None:
        db.session.add(OrganizationMember(organization_id=org.id, user_id=user.id, role="owner"))
        db.session.flush()
    return user, org


def _default_organization_name(user_name: str) -> str:
    suffix = "'s organization"
    return user_name[: MAX_NAME - len(suffix)] + suffix


def signup_open(allow_signup: bool) -> bool:
    """Whether a visitor may create an account: when sign-up is open, or nobody has yet."""
    return allow_signup or db.session.execute(db.select(User.id).limit(1)).first() is None


def signup(
    email,
    password,
    name=None,
    organization=None,
    *,
    allow_signup: bool,
    session_days: int,
    password_signin: bool = True,
):
    """Register a user and sign them in; Forbidden when sign-up is closed or password sign-in
    is turned off, Conflict on a taken email."""
    if not password_signin:
        raise Forbidden(PASSWORD_SIGNIN_OFF)
    with unit_of_work():
        if not signup_open(allow_signup):
            raise Forbidden("Sign-up is closed on this installation; ask an administrator for an account.")
        user, _org = create_user(email, password, name, organization)
        token = open_session(user.id, session_days)
    return user, token


def login(email: str, password: str, *, session_days: int, password_signin: bool = True):
    """Check the credentials and open a session; Unauthorized with one message for any
    mismatch, Forbidden when password sign-in is turned off. Both outcomes for a known email
    are kept in the audit log of the user's organizations."""
    if not password_signin:
        raise Forbidden(PASSWORD_SIGNIN_OFF)
    with unit_of_work():
        user = db.session.execute(
            db.select(User).where(User.email == normalize_email(email))
        ).scalar_one_or_none()
        if user is None:
            _password_matches(_dummy_hash(), password)
            raise Unauthorized(INVALID_LOGIN)
        if _password_matches(user.password_hash, password):
            token = open_session(user.id, session_days)
            events.audited_for_user(user_actor(user), user.id, "auth.sign_in", events.user_target(user))
            return user, token
        # Kept (committed) before the refusal, in each of the user's organizations.
        events.audited_for_user(None, user.id, "auth.sign_in_failed", events.user_target(user))
    raise Unauthorized(INVALID_LOGIN)


def logout(actor, session_token: str) -> None:
    """Delete the caller's session server-side; Unauthorized without a valid session,
    Forbidden for an API key."""
    user = require_user(actor)
    with unit_of_work():
        db.session.execute(db.delete(Session).where(Session.token_hash == token_hash(session_token)))
        events.audited_for_user(user, user.id, "auth.sign_out", events.Target("user", user.id, user.email))


def rename_user(actor, name: str) -> User:
    """Change the signed-in user's name; Forbidden for an API key."""
    caller = require_user(actor)
    with unit_of_work():
        user = db.session.get(User, caller.id)
        user.name = name
    return user


def set_user_locale(actor, locale: str | None) -> User:
    """Set the language of the signed-in user's pages (None: the browser's); Forbidden for
    an API key. The caller passes a shipped locale."""
    caller = require_user(actor)
    with unit_of_work():
        user = db.session.get(User, caller.id)
        user.locale = locale
    return user


def change_password(actor, current_password: str, new_password: str, session_token: str | None) -> None:
    """Change the signed-in user's password and end their other sessions (the one of
    ``session_token`` stays); Forbidden when ``current_password`` is wrong, and for an
    API key."""
    caller = require_user(actor)
    with unit_of_work():
        user = db.session.get(User, caller.id)
        if not _password_matches(user.password_hash, current_password):
            raise Forbidden("current_password: this is not your current password; nothing was changed.")
        user.password_hash = hash_password(new_password)
        end_sessions(user.id, keep=session_token)


def reset_password(email: str, new_password: str) -> User:
    """Set a user's password from the server (``loko reset-password``) and end all their
    sessions; NotFound for an unknown email."""
    with unit_of_work():
        user = db.session.execute(
            db.select(User).where(User.email == normalize_email(email))
        ).scalar_one_or_none()
        if user is None:
            raise NotFound(f"No user has the email {email!r}.")
        user.password_hash = hash_password(new_password)
        end_sessions(user.id)
    return user


def request_password_reset(email: str, *, password_signin: bool = True) -> bool:
    """E-mail a link to choose a new password to the account of ``email`` (a job queued
    here; the link expires and works once, see ``auth.emails``). Nothing for an unknown
    address, and nothing without SMTP or password sign-in; the caller answers the same
    either way, so an address is never confirmed. Returns whether an e-mail was queued."""
    if not password_signin or not emails.email_available():
        return False
    with unit_of_work():
        user = db.session.execute(
            db.select(User).where(User.email == normalize_email(email))
        ).scalar_one_or_none()
        if user is None:
            return False
        link = emails.public_link(
            "auth_ui.reset_password", token=emails.reset_token(user.id, user.password_hash)
        )
        emails.queue_email(
            (user.name, user.email),
            "Choose a new password for Loko",
            [
                f"Someone asked to choose a new password for the Loko account {user.email}.",
                f"Open the link within {emails.RESET_MINUTES} minutes to choose one; it works once. "
                "If you did not ask, ignore this e-mail: your password stays as it is.",
            ],
            link,
        )
    return True


RESET_LINK_INVALID = (
    "token: this link to choose a new password is not valid any more (used, expired or altered); "
    "ask for a new one."
)


def reset_password_with_token(token: str, new_password: str) -> User:
    """Set the password of the account a reset link names and end all its sessions;
    BadRequest naming ``token`` for a link used, expired or altered."""
    with unit_of_work():
        user_id = emails.read_reset_token(token, _password_hash_of)
        if user_id is None:
            raise BadRequest(RESET_LINK_INVALID)
        user = db.session.get(User, user_id)
        user.password_hash = hash_password(new_password)
        end_sessions(user.id)
    return user


def reset_link_valid(token: str) -> bool:
    return emails.read_reset_token(token, _password_hash_of) is not None


def _password_hash_of(user_id: str) -> str | None:
    user = db.session.get(User, user_id)
    return None if user is None else user.password_hash


def end_sessions(user_id: str, keep: str | None = None) -> None:
    """Delete a user's sessions, except the one of the token ``keep``."""
    statement = db.delete(Session).where(Session.user_id == user_id)
    if keep:
        statement = statement.where(Session.token_hash != token_hash(keep))
    db.session.execute(statement)


def open_session(user_id: str, session_days: int) -> str:
    token = new_session_token()
    now = utcnow()
    db.session.add(
        Session(
            token_hash=token_hash(token),
            user_id=user_id,
            created_at=now,
            expires_at=now + timedelta(days=session_days),
        )
    )
    db.session.execute(db.delete(Session).where(Session.user_id == user_id, Session.expires_at < now))
    return token


def actor_for_session(session_token: str) -> UserActor:
    """Resolve a session cookie; Unauthorized when unknown or expired."""
    row = db.session.execute(
        db.select(User)
        .join(Session, Session.user_id == User.id)
        .where(Session.token_hash == token_hash(session_token), Session.expires_at > utcnow())
    ).scalar_one_or_none()
    if row is None:
        raise Unauthorized("Session is invalid or has expired; sign in again.")
    return user_actor(row)


def live_key(key_hash):
    """The condition on ``api_keys`` of a key that works: this hash, not revoked."""
    return (ApiKey.key_hash == key_hash) & ApiKey.revoked_at.is_(None)


def recently_used(fresh_since):
    """True (1) when the key's use was noted at or after ``fresh_since``: then it need not
    be noted again (``last_use_noted_since``)."""
    return (ApiKey.last_used_at >= fresh_since).label("recently_used")


def last_use_noted_since(now):
    """Since when a noted use of a key is recent enough not to be noted again."""
    return now - LAST_USED_RESOLUTION


# One query by the driver, on a pooled connection of its own: a request that only reads
# starts no session transaction for its caller, and a write's transaction starts with its
# own first statement.
_LIVE_KEY_COLUMNS = (
    ApiKey.id,
    ApiKey.name,
    ApiKey.project_id,
    ApiKey.scope,
    recently_used(bindparam("fresh_since")),
    ApiKey.languages,
    ApiKey.expires_at,
)
LIVE_API_KEY = DriverQuery(select(*_LIVE_KEY_COLUMNS).where(live_key(bindparam("key_hash"))))
# On PostgreSQL, where each query is a round trip, the key's project's rules come with it
# (``policy.rules_read_with_key``): the permission of the request then asks nothing more.
# On SQLite the permission reads them in the write's own transaction, under its lock.
LIVE_API_KEY_WITH_RULES = DriverQuery(
    select(*_LIVE_KEY_COLUMNS, Project.protect_reviewed, proposal_languages_count())
    .select_from(ApiKey)
    .join(Project, Project.id == ApiKey.project_id)
    .where(live_key(bindparam("key_hash")))
)


def api_key_lookup(key: str) -> tuple[ApiKeyActor, bool] | None:
    """The actor of a live API key, and whether its use was noted recently enough not to be
    noted again; None when the key is unknown, revoked or not a key. An expired key has an
    actor too (``ApiKeyActor.expired``): its callers compare its expiry with their now."""
    if not key.startswith(API_KEY_PREFIX):
        return None
    engine = db.engine
    fresh_since = last_use_noted_since(utcnow())
    with_rules = engine.dialect.name == "postgresql"
    row = (LIVE_API_KEY_WITH_RULES if with_rules else LIVE_API_KEY).first(
        engine,
        {"key_hash": token_hash(key), "fresh_since": driver_timestamp(fresh_since, engine.dialect.name)},
    )
    if row is None:
        return None
    key_id, name, project_id, scope, noted, languages, expires_at = row[:7]
    if with_rules:
        rules_read_with_key(project_id, row[7], row[8])
    limited = stored_languages(languages)
    actor = ApiKeyActor(
        id=key_id,
        name=name,
        project_id=project_id,
        scope=scope,
        languages=None if limited is None else tuple(sorted(limited)),
        expires_at=_aware(expires_at),
    )
    return actor, bool(noted)


def _aware(moment):
    """A timestamp the driver read (naive UTC on SQLite) as an aware UTC datetime."""
    if moment is None or (isinstance(moment, datetime) and moment.tzinfo is not None):
        return moment
    if isinstance(moment, str):
        moment = datetime.fromisoformat(moment)
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment


def expired_message(expires_at) -> str:
    return f"API key expired on {expires_at.strftime('%Y-%m-%d %H:%M UTC')}."


def actor_for_api_key(key: str, address: str | None = None) -> ApiKeyActor:
    """Resolve a Bearer API key and note its use and the client ``address`` it came from (at
    most once a minute); Unauthorized when unknown, revoked or expired."""
    found = api_key_lookup(key)
    if found is None:
        raise Unauthorized(
            "Invalid API key." if not key.startswith(API_KEY_PREFIX) else "Invalid or revoked API key."
        )
    actor, noted = found
    if actor.expired(utcnow()):
        raise Unauthorized(expired_message(actor.expires_at))
    if not noted:
        now = utcnow()
        fresh_since = last_use_noted_since(now)
        with unit_of_work():
            db.session.execute(
                update(ApiKey)
                .where(
                    ApiKey.id == actor.id,
                    or_(ApiKey.last_used_at.is_(None), ApiKey.last_used_at < fresh_since),
                )
                .values(last_used_at=now, last_used_from=(address or None) and address[:64])
            )
    return actor


def profile(actor) -> tuple[User, list[dict]]:
    """The signed-in user's record and organizations; Forbidden for an API key."""
    user = require_user(actor)
    return db.session.get(User, user.id), organizations_of(user.id)


def organizations_of(user_id: str) -> list[dict]:
    rows = db.session.execute(
        db.select(Organization.id, Organization.name, OrganizationMember.role)
        .join(OrganizationMember, OrganizationMember.organization_id == Organization.id)
        .where(OrganizationMember.user_id == user_id)
        .order_by(func.lower(Organization.name), Organization.id)
    ).all()
    return [{"id": r.id, "name": r.name, "role": r.role} for r in rows]
