"""Authlib's Flask client for each configured provider: discovery, PKCE (S256), the
authorization URL, the code exchange and the ID token's validation are Authlib's. Its HTTP
goes through ``loko.outbound`` (the guarded client: checked addresses, timeouts, no
redirects, no proxy from the environment) by way of a requests adapter, since Authlib's
Flask client speaks requests."""

import httpx
import requests
from authlib.integrations.flask_client import FlaskOAuth2App, OAuth
from flask import current_app
from requests.adapters import BaseAdapter
from requests.structures import CaseInsensitiveDict

from loko.outbound import OutboundError, allow_private, http_client
from loko.sso.providers import OidcProvider, parse_providers

REGISTRY = "loko_oidc"
# Dropped from an answer passed on to requests: httpx has already decoded the body.
_DECODED_HEADERS = frozenset({"content-encoding", "content-length", "transfer-encoding"})


class OutboundAdapter(BaseAdapter):
    """A requests transport that sends every request through ``loko.outbound.http_client``."""

    def __init__(self, allow_private: bool):
        super().__init__()
        self.client = http_client(allow_private)

    def send(self, request, stream=False, timeout=None, verify=True, cert=None, proxies=None):
        try:
            answer = self.client.request(
                request.method, request.url, headers=dict(request.headers), content=request.body
            )
        except OutboundError as error:
            raise requests.ConnectionError(error.message, request=request) from error
        except httpx.HTTPError as error:
            raise requests.ConnectionError(str(error) or type(error).__name__, request=request) from error
        response = requests.Response()
        response.status_code = answer.status_code
        response.reason = answer.reason_phrase
        response.headers = CaseInsensitiveDict(
            {k: v for k, v in answer.headers.items() if k.lower() not in _DECODED_HEADERS}
        )
        response._content = answer.content
        response.encoding = answer.encoding
        response.url = request.url
        response.request = request
        return response

    def close(self):
        self.client.close()


class GuardedOpenIdApp(FlaskOAuth2App):
    """Authlib's Flask OpenID client whose every request goes through ``loko.outbound``."""

    allow_private = False

    def _guarded(self, session):
        session.trust_env = False
        adapter = OutboundAdapter(self.allow_private)
        session.mount("https://", adapter)
        session.mount("http://", adapter)
        return session

    def _get_session(self):
        return self._guarded(super()._get_session())

    def _get_oauth_client(self, **metadata):
        return self._guarded(super()._get_oauth_client(**metadata))


class LokoOAuth(OAuth):
    oauth2_client_cls = GuardedOpenIdApp


def openid_app(registry: OAuth, provider: OidcProvider, config) -> GuardedOpenIdApp:
    """Register ``provider`` with Authlib's registry (discovery is read on first use)."""
    app = registry.register(
        provider.name,
        client_id=provider.client_id,
        client_secret=provider.client_secret,
        server_metadata_url=provider.discovery_url,
        client_kwargs={
            "scope": provider.scope,
            "code_challenge_method": "S256",
            "token_endpoint_auth_method": "client_secret_basic" if provider.client_secret else "none",
        },
    )
    app.allow_private = provider.allow_private or allow_private(config)
    return app


def init_sso(app) -> None:
    """Read ``LOKO_OIDC_PROVIDERS`` (a bad value stops the app from starting, naming the
    field) and register each provider with Authlib."""
    providers = parse_providers(app.config.get("LOKO_OIDC_PROVIDERS"))
    # The registry keeps each provider's discovery and keys for this app's lifetime.
    registry = LokoOAuth(app)
    app.extensions[REGISTRY] = {
        "providers": providers,
        "registry": registry,
        "apps": {name: openid_app(registry, provider, app.config) for name, provider in providers.items()},
    }
    app.context_processor(sign_in_buttons)


def fresh_app(app, provider: OidcProvider) -> GuardedOpenIdApp:
    """A client of ``provider`` that reads discovery and keys anew (``loko sso check``)."""
    registry = LokoOAuth()
    registry.app = app
    return openid_app(registry, provider, app.config)


def configured(name: str):
    """The provider named ``name`` and its Authlib client, or ``(None, None)``."""
    setup = current_app.extensions[REGISTRY]
    return setup["providers"].get(name), setup["apps"].get(name)


def sign_in_buttons() -> dict:
    """What the sign-in and invitation pages show: a button per provider, and whether the
    password form is there."""
    providers = current_app.extensions[REGISTRY]["providers"].values()
    return {
        "sso_providers": [{"name": p.name, "label": p.label} for p in providers],
        "password_signin": current_app.config["LOKO_PASSWORD_SIGNIN"],
    }
