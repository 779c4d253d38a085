"""Pages: sign up, sign in, sign out and the account page."""

from urllib.parse import urlsplit

from flask import Blueprint, current_app, g, redirect, request, url_for
from flask_babel import gettext

from loko.auth import emails, service
from loko.auth.actors import UserActor
from loko.auth.attempts import attempt_key
from loko.auth.identity import SESSION_COOKIE
from loko.auth.schemas import (
    LoginIn,
    PasswordChange,
    PasswordReset,
    PasswordResetRequest,
    ProfilePatch,
    SignupIn,
)
from loko.auth.signin import (
    ATTEMPTS,
    password_change_limit,
    sign_in_limit,
    with_session_cookie,
    without_session_cookie,
)
from loko.errors import BadRequest
from loko.organizations.schemas import OrganizationCreate
from loko.organizations.service import create_organization
from loko.web.pages import form_input, page_user, redirect_with_notice, render_page, submit

auth_ui = Blueprint("auth_ui", __name__)


def _next_page() -> str:
    """Where to go after signing in: a path on this site only (never another host)."""
    target = request.values.get("next", "")
    if _is_local_path(target):
        return request.script_root + target
    return url_for("organizations_ui.home")


def _is_local_path(target: str) -> bool:
    """A path of this site: no scheme, no host, no control character or backslash (browsers
    and Werkzeug drop or rewrite those, which can turn a slash, a tab, a slash into "//")."""
    if not target.startswith("/") or any(c <= " " or c in "\x7f\\" for c in target):
        return False
    parts = urlsplit(target)
    return not parts.scheme and not parts.netloc and not target.startswith("//")


@auth_ui.route("/signup", methods=["GET", "POST"])
def signup():
    allow = current_app.config["LOKO_ALLOW_SIGNUP"]
    if request.method == "POST":
        created = {}

        def sign_up():
            data = form_input(SignupIn, drop_empty=("name", "organization"))
            created["user"], created["token"] = service.signup(
                **data,
                allow_signup=allow,
                session_days=current_app.config["LOKO_SESSION_DAYS"],
                password_signin=current_app.config["LOKO_PASSWORD_SIGNIN"],
            )

        done = submit(sign_up, then=url_for("organizations_ui.home"), notice=gettext("Welcome to Loko."))
        if done is not None:
            return with_session_cookie(done, created["token"])
    return render_page(
        "auth/signup.html",
        open=current_app.config["LOKO_PASSWORD_SIGNIN"] and service.signup_open(allow),
        form=request.form,
        title=gettext("Create your account"),
    )


@auth_ui.route("/login", methods=["GET", "POST"])
@sign_in_limit
def login():
    if request.method == "POST":
        opened = {}

        def sign_in():
            data = form_input(LoginIn)
            _user, opened["token"] = service.login(
                data["email"],
                data["password"],
                session_days=current_app.config["LOKO_SESSION_DAYS"],
                password_signin=current_app.config["LOKO_PASSWORD_SIGNIN"],
            )

        done = submit(sign_in, then=_next_page(), notice=gettext("Signed in."))
        if done is not None:
            return with_session_cookie(done, opened["token"])
    elif isinstance(g.get("actor"), UserActor):
        return redirect(_next_page())
    return login_page(request.values.get("next", ""))


def login_page(next_path: str, status: int | None = None):
    """The sign-in page: the password form (unless password sign-in is off) and a button for
    each identity provider; a refusal set by the caller is shown on it."""
    password_signin = current_app.config["LOKO_PASSWORD_SIGNIN"]
    return render_page(
        "auth/login.html",
        status,
        form=request.form,
        next=next_path,
        signup_open=password_signin and service.signup_open(current_app.config["LOKO_ALLOW_SIGNUP"]),
        reset_by_email=password_signin and emails.email_available(),
    )


# Reset e-mails asked for one address and e-mail: at most this many an hour (more are not
# sent, and the page answers the same).
RESET_REQUESTS_PER_HOUR = 3


@auth_ui.route("/forgot-password", methods=["GET", "POST"])
def forgot_password():
    """Ask for a link to choose a new password, by e-mail (a job sends it). The answer is the
    same whether an account has the address or not."""
    available = current_app.config["LOKO_PASSWORD_SIGNIN"] and emails.email_available()
    if request.method == "POST" and not available:
        return redirect(url_for("auth_ui.forgot_password"), code=303)
    if request.method == "POST":

        def ask():
            email = form_input(PasswordResetRequest)["email"]
            key = attempt_key(f"password-reset|{request.remote_addr}|{service.normalize_email(email)}")
            if current_app.extensions[ATTEMPTS].reserve(key, 3600).count <= RESET_REQUESTS_PER_HOUR:
                service.request_password_reset(email)

        done = submit(
            ask,
            then=url_for("auth_ui.login"),
            notice=gettext(
                "If an account has this e-mail, a link to choose a new password is on its way. "
                "It works once, within %(minutes)s minutes.",
                minutes=emails.RESET_MINUTES,
            ),
        )
        if done is not None:
            return done
    return render_page(
        "auth/forgot_password.html",
        available=available,
        form=request.form,
        title=gettext("Forgot your password?"),
    )


@auth_ui.route("/reset-password", methods=["GET", "POST"])
def reset_password():
    """A password reset link: choose a new password; every session of the account ends."""
    token = request.values.get("token", "")
    if request.method == "POST":
        done = submit(
            lambda: service.reset_password_with_token(**form_input(PasswordReset)),
            then=url_for("auth_ui.login"),
            notice=gettext("Your new password is set and you were signed out everywhere: sign in with it."),
        )
        if done is not None:
            return done
    valid = bool(token) and service.reset_link_valid(token)
    response = render_page(
        "auth/reset_password.html",
        None if valid or request.method == "POST" else 400,
        token=token if valid else "",
        valid=valid,
        title=gettext("Choose a new password"),
    )
    response.headers["Referrer-Policy"] = "strict-origin"  # never the link (and its token) in a Referer
    return response


# Pages that may answer a sign-out instead of the sign-in page, given the session's cookie
# (None: not theirs). Single sign-on adds one: a session a provider opened may end there too.
SIGN_OUT_PAGES: list = []


@auth_ui.post("/logout")
def logout():
    cookie = request.cookies.get(SESSION_COOKIE)
    elsewhere = None
    if isinstance(g.get("actor"), UserActor):
        # Asked before the session is gone.
        elsewhere = next((page for page in (hook(cookie) for hook in SIGN_OUT_PAGES) if page), None)
        service.logout(g.actor, cookie)
    return without_session_cookie(elsewhere or redirect_with_notice(url_for("auth_ui.login"), "Signed out."))


@auth_ui.route("/account", methods=["GET", "POST"])
def account():
    actor = page_user()
    if request.method == "POST":
        done = submit(
            lambda: create_organization(actor, form_input(OrganizationCreate)["name"]),
            then=lambda organization: url_for(
                "organizations_ui.organization", organization_id=organization["id"]
            ),
            notice=gettext("Organization created."),
        )
        if done is not None:
            return done
    return account_page(actor)


@auth_ui.post("/account/profile")
def rename():
    actor = page_user()
    done = submit(
        lambda: service.rename_user(actor, form_input(ProfilePatch)["name"]),
        then=url_for("auth_ui.account"),
        notice=gettext("Your name was changed."),
    )
    return done if done is not None else account_page(actor)


@auth_ui.post("/account/locale")
def set_locale():
    """The account's language: a shipped one, or blank for the browser's."""
    from loko.web.i18n import normalize_locale

    actor = page_user()
    chosen = request.form.get("locale", "").strip()
    locale = normalize_locale(chosen)

    def choose():
        if chosen and locale is None:
            raise BadRequest(gettext("locale: not a language of the web app."))
        return service.set_user_locale(actor, locale)

    done = submit(choose, then=url_for("auth_ui.account"), notice=lambda _user: gettext("Language saved."))
    return done if done is not None else account_page(actor)


@auth_ui.post("/account/password")
@password_change_limit
def change_password():
    actor = page_user()

    def change():
        data = form_input(PasswordChange)
        service.change_password(
            actor, data["current_password"], data["new_password"], request.cookies.get(SESSION_COOKIE)
        )

    done = submit(
        change,
        then=url_for("auth_ui.account"),
        notice=gettext("Your password was changed; your other sessions were signed out."),
    )
    return done if done is not None else account_page(actor)


def account_page(actor):
    user, organizations = service.profile(actor)
    return render_page(
        "auth/account.html",
        account=user,
        organizations=organizations,
        form=request.form,
        form_for=request.path,
    )
