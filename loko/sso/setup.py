"""Single sign-on as ``create_app`` sets it up: the configured providers, read at start (a
bad ``LOKO_OIDC_PROVIDERS`` stops the app from starting, naming the field), and each
provider's Authlib client, made the first time it is used (``loko.sso.client``, which loads
Authlib and requests only then)."""

import threading

from flask import current_app

from loko.sso.providers import parse_providers

REGISTRY = "loko_oidc"
_making = threading.Lock()


def init_sso(app) -> None:
    """Read ``LOKO_OIDC_PROVIDERS`` and keep the providers; their clients come on first use."""
    providers = parse_providers(app.config.get("LOKO_OIDC_PROVIDERS"))
    app.extensions[REGISTRY] = {"providers": providers, "apps": None}
    app.context_processor(sign_in_buttons)


def _clients(app) -> dict:
    """Each provider's Authlib client, registered once per app (the registry keeps each
    provider's discovery and keys for the app's lifetime)."""
    setup = app.extensions[REGISTRY]
    with _making:
        if setup["apps"] is None:
            from loko.sso.client import LokoOAuth, openid_app

            registry = LokoOAuth(app)
            providers = setup["providers"]
            setup["apps"] = {name: openid_app(registry, p, app.config) for name, p in providers.items()}
    return setup["apps"]


def configured(name: str):
    """The provider named ``name`` and its Authlib client, or ``(None, None)``."""
    app = current_app._get_current_object()
    provider = app.extensions[REGISTRY]["providers"].get(name)
    if provider is None:
        return None, None
    return provider, _clients(app)[name]


def sign_in_buttons() -> dict:
    """What the sign-in and invitation pages show: a button per provider, and whether the
    password form is there."""
    providers = current_app.extensions[REGISTRY]["providers"].values()
    return {
        "sso_providers": [{"name": p.name, "label": p.label} for p in providers],
        "password_signin": current_app.config["LOKO_PASSWORD_SIGNIN"],
    }
