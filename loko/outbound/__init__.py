"""Every outbound HTTP call Loko makes (a repository host's API, a webhook, a machine
translation provider), and the address check they share.

An address Loko calls is typed by a user (a repository URL, a webhook endpoint, a provider's
base URL), so without a check it could aim Loko's server at the machine itself, its private
network or a cloud metadata service. Unless the administrator sets
``LOKO_OUTBOUND_ALLOW_PRIVATE`` (or its older name ``LOKO_REPOHOST_ALLOW_PRIVATE``;
``allow_private``), a host is refused when *any* address it resolves to is not a public one:
private, loopback, link-local (169.254.169.254 among them), multicast, reserved, unspecified,
shared (100.64.0.0/10), unique-local IPv6 (fc00::/7), or an IPv4 address of those kinds
carried in IPv6 (IPv4-mapped, 6to4, NAT64).

Checking a name and then letting a library connect to it would resolve the name twice, and a
hostile DNS server can answer a public address to the check and a private one to the
connection (DNS rebinding). So ``http_client`` (httpx) resolves once, checks every address,
and connects to a checked address itself, not to the name: its transport hands httpcore a
network backend whose ``connect_tcp`` resolves, checks, and then connects to the IP literal.
The request keeps its URL, so the ``Host`` header, TLS SNI and the certificate check all still
use the host name. No proxy from the environment is used (a proxy would be what is checked),
redirects are not followed, and the scheme must be https unless private addresses are allowed
(the tests serve plain http on the loopback). Git over HTTP (``repohost/net.py``) builds its
urllib3 connections on the same ``resolve``, ``check_parts`` and ``ssl_context``.

Refusals raise ``AddressRefused``, an ``OutboundError`` whose ``problem`` is "refused", so a
caller that words its providers' failures words this one too. Its message names the host,
never the addresses it resolved to; the log has both, and never a credential: URLs carrying
userinfo are refused before any request, and no header is logged.

This module is shared plumbing: it imports no feature.
"""

import ipaddress
import logging
import os
import socket
import ssl
import threading
from collections.abc import Mapping
from functools import lru_cache
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

if TYPE_CHECKING:
    import httpx

log = logging.getLogger(__name__)

CONNECT_TIMEOUT = 10.0
READ_TIMEOUT = 30.0
# One API request, from connecting to the last byte of the answer, whatever its pace.
REQUEST_DEADLINE = 60.0
USER_AGENT = "Loko"

_SHARED = ipaddress.ip_network("100.64.0.0/10")
_NAT64 = ipaddress.ip_network("64:ff9b::/96")
_REFUSED_NETWORKS = tuple(
    ipaddress.ip_network(network)
    for network in (
        "0.0.0.0/8",
        "100.64.0.0/10",
        "169.254.0.0/16",
        "192.0.0.0/24",
        "198.18.0.0/15",
        "240.0.0.0/4",
        "fc00::/7",
        "fe80::/10",
        "fec0::/10",
        "64:ff9b:1::/48",
    )
)


class OutboundError(Exception):
    """An outbound call failed or was refused; ``message`` says what happened, for a 502 or
    a 400. Each feature words it as its own providers' failure (repohost's ``ProviderError``
    is this class).

    ``status`` is the remote HTTP status (None for a network failure); ``problem`` names the
    kind of failure ("refused", "unavailable", "unauthorized", ...) so that callers can word
    it precisely.
    """

    def __init__(self, message: str, status: int | None = None, problem: str = "refused"):
        super().__init__(message)
        self.message, self.status, self.problem = message, status, problem


class AddressRefused(OutboundError):
    """A host resolves to an address that outbound calls may not reach."""

    def __init__(self, message: str):
        super().__init__(message, problem="refused")


def allow_private(config: Mapping) -> bool:
    """Whether the administrator lets outbound calls reach private addresses:
    ``LOKO_OUTBOUND_ALLOW_PRIVATE``, or its older name ``LOKO_REPOHOST_ALLOW_PRIVATE``."""
    return bool(config.get("LOKO_OUTBOUND_ALLOW_PRIVATE") or config.get("LOKO_REPOHOST_ALLOW_PRIVATE"))


def address_allowed(ip: str) -> bool:
    """True when ``ip`` (a literal, no DNS) is a public address that may be reached."""
    try:
        address = ipaddress.ip_address(ip.split("%", 1)[0])
    except ValueError:
        return False
    if address.version == 6:
        embedded = address.ipv4_mapped or address.sixtofour
        if embedded is None and address in _NAT64:
            embedded = ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
        if embedded is not None:
            address = embedded
    return not (
        not address.is_global
        or address.is_private
        or address.is_loopback
        or address.is_link_local
        or address.is_multicast
        or address.is_reserved
        or address.is_unspecified
        or address in _SHARED
        or any(address in network for network in _REFUSED_NETWORKS if network.version == address.version)
        or (address.version == 6 and address.is_site_local)
    )


def resolve(host: str, port: int, allow_private: bool) -> list[str]:
    """The addresses ``host`` resolves to, in the resolver's order; AddressRefused when one of
    them may not be reached. socket.gaierror when the name does not resolve."""
    addresses: list[str] = []
    for _family, _type, _proto, _name, sockaddr in socket.getaddrinfo(host, port, type=socket.SOCK_STREAM):
        address = str(sockaddr[0])
        if address not in addresses:
            addresses.append(address)
    if not allow_private:
        refused = [address for address in addresses if not address_allowed(address)]
        if refused:
            log.warning("refused %s:%s, which resolves to %s", host, port, ", ".join(refused))
            raise AddressRefused(
                f"{host} resolves to a private, loopback or link-local address; set "
                "LOKO_OUTBOUND_ALLOW_PRIVATE to allow hosts on a private network"
            )
    return addresses


def check_host(host: str, port: int, allow_private: bool) -> None:
    """AddressRefused when ``host`` resolves to a non-public address (unless allowed);
    OutboundError ("unavailable") when it does not resolve."""
    if allow_private:
        return
    try:
        resolve(host, port, allow_private)
    except socket.gaierror as error:
        raise OutboundError(f"{host} cannot be resolved ({error.strerror})", problem="unavailable") from error


def check_url(url: str, allow_private: bool) -> None:
    """AddressRefused unless ``url`` is https (http too when private addresses are allowed),
    carries no credentials, and its host passes ``check_host``."""
    parts = urlsplit(url)
    check_parts(parts.scheme, parts.hostname, "@" in parts.netloc, allow_private)
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError as error:
        raise AddressRefused("the URL's port is not a number") from error
    check_host(parts.hostname, port, allow_private)


def check_parts(scheme: str, host: str | None, userinfo: bool, allow_private: bool) -> None:
    allowed = ("https", "http") if allow_private else ("https",)
    if scheme not in allowed:
        raise AddressRefused(f"the URL must use {' or '.join(allowed)}, not {scheme or 'no scheme'}")
    if userinfo:
        raise AddressRefused("the URL must not carry a user name or password")
    if not host:
        raise AddressRefused("the URL names no host")


def ssl_context() -> ssl.SSLContext:
    """The one trust store of every outbound call, API or git: certifi's, or the one named by
    ``SSL_CERT_FILE`` / ``SSL_CERT_DIR`` (a private certificate authority). Loading it costs
    about 20 ms, so it is built once per store and shared (a context is safe to share)."""
    return _ssl_context_for(os.environ.get("SSL_CERT_FILE"), os.environ.get("SSL_CERT_DIR"))


@lru_cache(maxsize=8)
def _ssl_context_for(_cert_file: str | None, _cert_dir: str | None) -> ssl.SSLContext:
    import httpx

    return httpx.create_ssl_context()


# httpx, for every API Loko calls. httpx (with httpcore and, through its command line, rich
# and pygments) is loaded with the first call, not with the application: most processes
# never make one, and loading it costs about 15 MB and 90 ms.

_kept = threading.local()


def http_client(allow_private: bool) -> "httpx.Client":
    """An httpx client whose every connection goes to a checked address, with timeouts
    (connect 10 s, each read or write 30 s, a whole request at most 60 s) and no redirects."""
    from loko.outbound.transport import checked_client

    return checked_client(allow_private)


def kept_http_client(allow_private: bool) -> "httpx.Client":
    """This thread's ``http_client`` for ``allow_private``, kept for the thread's next calls
    (a worker delivering one webhook after another), so an endpoint that keeps its
    connections open is not connected to again for each request. Never closed by the
    caller; a forked process builds its own."""
    if getattr(_kept, "pid", None) != os.getpid():
        _kept.pid, _kept.clients = os.getpid(), {}
    client = _kept.clients.get(allow_private)
    if client is None or client.is_closed:
        client = _kept.clients[allow_private] = http_client(allow_private)
    return client
