from flask import Blueprint, current_app, request

from loko.auth import service
from loko.auth.identity import SESSION_COOKIE, current_actor
from loko.auth.schemas import (
    LoginIn,
    MeOut,
    PasswordChange,
    ProfilePatch,
    SignupIn,
    SuccessOut,
    UserEnvelope,
)
from loko.auth.signin import password_change_limit, sign_in_limit, with_session_cookie, without_session_cookie
from loko.http import load_body
from loko.openapi import documented

auth_api = Blueprint("auth_api", __name__)


@auth_api.post("/auth/signup")
@documented(
    "Create an account and its organization, and sign in",
    tags=("auth",),
    auth=(),
    body=SignupIn,
    responses={201: UserEnvelope},
    errors=(400, 403, 409),
    description="Open to the very first user, and to anyone when LOKO_ALLOW_SIGNUP is true; "
    "403 when LOKO_PASSWORD_SIGNIN is off.",
)
def signup():
    data = load_body(SignupIn)
    user, token = service.signup(
        **data,
        allow_signup=current_app.config["LOKO_ALLOW_SIGNUP"],
        session_days=current_app.config["LOKO_SESSION_DAYS"],
        password_signin=current_app.config["LOKO_PASSWORD_SIGNIN"],
    )
    response = current_app.json.response(UserEnvelope().dump({"user": user}))
    response.status_code = 201
    return with_session_cookie(response, token)


@auth_api.post("/auth/login")
@sign_in_limit
@documented(
    "Sign in and receive the sb-access-token session cookie",
    tags=("auth",),
    auth=(),
    body=LoginIn,
    responses={200: UserEnvelope},
    errors=(400, 401, 403, 429),
    description="Ten failed attempts a minute for one address and email are answered with 429. "
    "When LOKO_PASSWORD_SIGNIN is off: 403.",
)
def login():
    data = load_body(LoginIn)
    user, token = service.login(
        data["email"],
        data["password"],
        session_days=current_app.config["LOKO_SESSION_DAYS"],
        password_signin=current_app.config["LOKO_PASSWORD_SIGNIN"],
    )
    response = current_app.json.response(UserEnvelope().dump({"user": user}))
    return with_session_cookie(response, token)


@auth_api.post("/auth/logout")
@documented(
    "Sign out: the session is deleted server-side",
    tags=("auth",),
    auth=("session",),
    responses={200: SuccessOut},
    errors=(401, 403),
)
def logout():
    service.logout(current_actor(), request.cookies.get(SESSION_COOKIE))
    return without_session_cookie(current_app.json.response({"success": True}))


@auth_api.get("/auth/me")
@documented(
    "The signed-in user and their organizations",
    tags=("auth",),
    auth=("session",),
    responses={200: MeOut},
    errors=(401, 403),
)
def me():
    user, organizations = service.profile(current_actor())
    return MeOut().dump({"user": user, "organizations": organizations})


@auth_api.patch("/auth/me")
@documented(
    "Change the signed-in user's name",
    tags=("auth",),
    auth=("session",),
    body=ProfilePatch,
    responses={200: UserEnvelope},
    errors=(400, 401, 403),
)
def update_me():
    user = service.rename_user(current_actor(), load_body(ProfilePatch)["name"])
    return UserEnvelope().dump({"user": user})


@auth_api.post("/auth/password")
@password_change_limit
@documented(
    "Change the signed-in user's password; their other sessions end",
    tags=("auth",),
    auth=("session",),
    body=PasswordChange,
    responses={200: SuccessOut},
    errors=(400, 401, 403, 429),
    description="The current password is required (a wrong one: 403 naming current_password). "
    "The new one has at least 8 characters. Every other session of the user is signed out; "
    "the session making the change stays signed in. Ten refused changes a minute for one "
    "session are answered with 429.",
)
def change_password():
    data = load_body(PasswordChange)
    service.change_password(
        current_actor(), data["current_password"], data["new_password"], request.cookies.get(SESSION_COOKIE)
    )
    return {"success": True}
