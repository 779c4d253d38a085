"""Authlib's Flask client for each configured provider: discovery, PKCE (S256), the
authorization URL, the code exchange and the ID token's validation are Authlib's. Its HTTP
goes through ``loko.outbound`` (the guarded client: checked addresses, timeouts, no
redirects, no proxy from the environment) by way of a requests adapter, since Authlib's
Flask client speaks requests.

Authlib and requests are loaded with this module, which ``loko.sso.setup`` imports the first
time a configured provider is used: an installation without single sign-on never loads them."""

import httpx
import requests
from authlib.integrations.flask_client import FlaskOAuth2App, OAuth
from requests.adapters import BaseAdapter
from requests.structures import CaseInsensitiveDict

from loko.outbound import OutboundError, allow_private, http_client
from loko.sso.providers import OidcProvider

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


def fresh_app(app, provider: OidcProvider) -> GuardedOpenIdApp:
    """A client of ``provider`` that reads discovery and keys anew (``loko sso check``)."""
    registry = LokoOAuth()
    registry.app = app
    return openid_app(registry, provider, app.config)
