"""Pages of single sign-on: the button that sends the browser to a provider, and the
callback the provider sends it back to. The service (and with it Authlib) is imported
when a page needs it: an installation without providers never loads it."""

from flask import Blueprint, current_app, g, redirect, request, url_for

from loko.auth import service as auth_service
from loko.auth.actors import UserActor
from loko.auth.identity import SESSION_COOKIE
from loko.auth.signin import with_session_cookie
from loko.auth.views import SIGN_OUT_PAGES, _is_local_path, login_page
from loko.errors import NotFound
from loko.sso.setup import REGISTRY, configured
from loko.web.pages import REFUSED, attempt, redirect_with_notice, render_page

sso_ui = Blueprint("sso_ui", __name__)

BROWSER_COOKIE = "loko-sso"


def _cookie_path() -> str:
    return (request.script_root or "") + "/auth/oidc/"


def _provider(name: str):
    provider, client = configured(name)
    if provider is None:
        raise NotFound(f"No identity provider is named {name!r} on this installation.")
    return provider, client


def _callback_url(name: str) -> str:
    return url_for("sso_ui.callback", name=name, _external=True)


@sso_ui.get("/auth/oidc/<name>/start")
def start(name):
    from loko.sso import service  # Authlib's, loaded on first use

    provider, client = _provider(name)
    target = request.args.get("next", "")
    started = attempt(
        lambda: service.start_sign_in(
            provider,
            client,
            _callback_url(name),
            next_path=target if _is_local_path(target) else None,
            invitation_token=request.args.get("invitation") or None,
        )
    )
    if started is REFUSED:
        return login_page(target)
    response = redirect(started.url, code=302)
    response.set_cookie(
        BROWSER_COOKIE,
        started.browser_token,
        max_age=service.PENDING_MINUTES * 60,
        httponly=True,
        samesite="Lax",
        secure=current_app.config["LOKO_COOKIE_SECURE"],
        path=_cookie_path(),
    )
    return response


@sso_ui.get("/auth/oidc/<name>/callback")
def callback(name):
    from loko.sso import service

    provider, client = _provider(name)
    signed_in = attempt(
        lambda: service.finish_sign_in(
            provider,
            client,
            request.args.to_dict(),
            request.cookies.get(BROWSER_COOKIE),
            _callback_url(name),
            session_days=current_app.config["LOKO_SESSION_DAYS"],
        )
    )
    if signed_in is REFUSED:
        response = login_page("")
    else:
        notice = f"Signed in with {provider.label}."
        if signed_in.joined:
            notice += f" You joined {signed_in.joined['name']} as {signed_in.joined['role']}."
        target = (
            request.script_root + signed_in.next_path
            if signed_in.next_path
            else url_for("organizations_ui.home")
        )
        if isinstance(g.get("actor"), UserActor):
            # The browser's previous session is replaced, not left behind.
            auth_service.logout(g.actor, request.cookies.get(SESSION_COOKIE))
        response = with_session_cookie(redirect_with_notice(target, notice), signed_in.session_token)
    response.delete_cookie(BROWSER_COOKIE, path=_cookie_path())
    return response


def sign_out_at_provider_page(session_token: str | None):
    """For the sign-out: when a provider set to ``sign_out_at_provider`` opened the session,
    a page that sends the browser on to the provider's end-session URL; None otherwise."""
    if not current_app.extensions[REGISTRY]["providers"]:
        return None
    from loko.sso import service

    name = service.session_provider(session_token)
    provider, client = configured(name) if name else (None, None)
    if provider is None:
        return None
    url = service.provider_sign_out_url(provider, client, url_for("auth_ui.login", _external=True))
    if url is None:
        return None
    return render_page("sso/signed_out.html", end_session_url=url, label=provider.label)


SIGN_OUT_PAGES.append(sign_out_at_provider_page)
