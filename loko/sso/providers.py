"""The identity providers an administrator configured: ``LOKO_OIDC_PROVIDERS``, a JSON list
(from the environment) or a list of dicts (in ``config.py``), read once when the app is built.

Each provider is an OpenID Connect issuer with a client registered for this Loko:

- ``name`` (required): ``[a-z0-9-]``, at most 32 characters; it is part of the redirect URI
  ``<site>/auth/oidc/<name>/callback``.
- ``issuer`` (required): the issuer URL; discovery reads ``<issuer>/.well-known/openid-configuration``.
- ``client_id`` (required), ``client_secret`` (omit for a public client: PKCE alone).
- ``label``: the sign-in button's text (default: the name).
- ``scopes``: default ``["openid", "email", "profile"]``; ``openid`` is always included.
- ``allowed_domains``: e-mail domains whose users may create an account on first sign-in
  (their e-mail must be verified); default none.
- ``invitation_required``: accounts are created only through an invitation link (default false).
- ``default_organization`` (an organization id) and ``default_role`` (``member``, ``admin``
  or ``owner``; default ``member``): where an account created on first sign-in is a
  member; without it the new user gets an organization of their own.
- ``trust_email``: take the provider's ``email`` as verified even without
  ``email_verified`` (default false). Only for a directory whose administrators set every
  address, such as a single-tenant Entra ID, which sends no ``email_verified``.
- ``sign_out_at_provider``: signing out of Loko also sends the browser to the provider's
  ``end_session_endpoint`` (RP-initiated logout), which returns it to the sign-in page
  (default false).
- ``allow_private``: the issuer may be on a private or loopback address (default false;
  ``LOKO_OUTBOUND_ALLOW_PRIVATE`` allows it for every outbound call).

Nothing here imports Flask.
"""

import json
import re
from dataclasses import dataclass, field
from urllib.parse import urlsplit

NAME = re.compile(r"^[a-z0-9](?:[a-z0-9-]{0,30}[a-z0-9])?$")
ROLES = ("member", "admin", "owner")
DEFAULT_SCOPES = ("openid", "email", "profile")
MAX_ISSUER = 255
KNOWN_KEYS = frozenset(
    {
        "name",
        "label",
        "issuer",
        "client_id",
        "client_secret",
        "scopes",
        "allowed_domains",
        "invitation_required",
        "default_organization",
        "default_role",
        "allow_private",
        "trust_email",
        "sign_out_at_provider",
    }
)


class ProviderConfigError(ValueError):
    """``LOKO_OIDC_PROVIDERS`` is not a valid list of providers; the message names the field."""


@dataclass(frozen=True)
class OidcProvider:
    name: str
    issuer: str
    client_id: str
    client_secret: str | None = None
    label: str = ""
    scopes: tuple[str, ...] = DEFAULT_SCOPES
    allowed_domains: frozenset[str] = field(default_factory=frozenset)
    invitation_required: bool = False
    default_organization: str | None = None
    default_role: str = "member"
    allow_private: bool = False
    trust_email: bool = False
    sign_out_at_provider: bool = False

    @property
    def discovery_url(self) -> str:
        return self.issuer.rstrip("/") + "/.well-known/openid-configuration"

    @property
    def scope(self) -> str:
        return " ".join(self.scopes)

    def may_create_account(self, email: str) -> bool:
        """Whether a new user with this (verified) e-mail may get an account without an
        invitation."""
        if self.invitation_required:
            return False
        domain = email.rpartition("@")[2].lower()
        return domain in self.allowed_domains


def parse_providers(raw) -> dict[str, OidcProvider]:
    """The providers of ``LOKO_OIDC_PROVIDERS`` by name; ProviderConfigError naming the
    provider and field that is wrong."""
    if raw in (None, "", []):
        return {}
    if isinstance(raw, str):
        try:
            raw = json.loads(raw)
        except ValueError as error:
            raise ProviderConfigError(f"LOKO_OIDC_PROVIDERS: not valid JSON ({error})") from None
    if not isinstance(raw, list):
        raise ProviderConfigError("LOKO_OIDC_PROVIDERS: must be a list of providers")
    providers: dict[str, OidcProvider] = {}
    for index, entry in enumerate(raw):
        provider = _provider(entry, f"LOKO_OIDC_PROVIDERS[{index}]")
        if provider.name in providers:
            raise ProviderConfigError(f"LOKO_OIDC_PROVIDERS[{index}].name: {provider.name!r} is used twice")
        providers[provider.name] = provider
    return providers


def _provider(entry, where: str) -> OidcProvider:
    if not isinstance(entry, dict):
        raise ProviderConfigError(f"{where}: must be an object")
    unknown = sorted(set(entry) - KNOWN_KEYS)
    if unknown:
        raise ProviderConfigError(f"{where}: unknown field {unknown[0]!r}")

    def text(key: str, required: bool = True) -> str | None:
        value = entry.get(key)
        if value is None and not required:
            return None
        if not isinstance(value, str) or not value.strip():
            raise ProviderConfigError(f"{where}.{key}: required, a non-empty string")
        return value.strip()

    name = text("name")
    if not NAME.match(name):
        raise ProviderConfigError(f"{where}.name: lower-case letters, digits and '-', at most 32 characters")
    issuer = text("issuer")
    if len(issuer) > MAX_ISSUER:
        raise ProviderConfigError(f"{where}.issuer: at most {MAX_ISSUER} characters")
    parts = urlsplit(issuer)
    if parts.scheme not in ("https", "http") or not parts.hostname or parts.query or parts.fragment:
        raise ProviderConfigError(
            f"{where}.issuer: an https URL (http only with allow_private) without query or fragment"
        )
    scopes = entry.get("scopes", list(DEFAULT_SCOPES))
    if not isinstance(scopes, list) or not all(isinstance(s, str) and s and " " not in s for s in scopes):
        raise ProviderConfigError(f"{where}.scopes: a list of scope names")
    if "openid" not in scopes:
        scopes = ["openid", *scopes]
    domains = entry.get("allowed_domains", [])
    if not isinstance(domains, list) or not all(isinstance(d, str) and d.strip() for d in domains):
        raise ProviderConfigError(f"{where}.allowed_domains: a list of e-mail domains")
    role = entry.get("default_role", "member")
    if role not in ROLES:
        raise ProviderConfigError(f"{where}.default_role: one of {', '.join(ROLES)}")
    for flag in ("invitation_required", "allow_private", "trust_email", "sign_out_at_provider"):
        if not isinstance(entry.get(flag, False), bool):
            raise ProviderConfigError(f"{where}.{flag}: true or false")
    return OidcProvider(
        name=name,
        issuer=issuer,
        client_id=text("client_id"),
        client_secret=text("client_secret", required=False),
        label=text("label", required=False) or name,
        scopes=tuple(scopes),
        allowed_domains=frozenset(d.strip().lower().lstrip("@") for d in domains),
        invitation_required=entry.get("invitation_required", False),
        default_organization=text("default_organization", required=False),
        default_role=role,
        allow_private=entry.get("allow_private", False),
        trust_email=entry.get("trust_email", False),
        sign_out_at_provider=entry.get("sign_out_at_provider", False),
    )
