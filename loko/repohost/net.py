"""Every outbound call of the repository integration, and the address check they share.

A project's repository URL is typed by a project manager, so without a check it could aim
Loko's server at the machine itself, its private network or a cloud metadata service. Unless
``LOKO_REPOHOST_ALLOW_PRIVATE`` is set (``allow_private``), a host is refused when *any*
address it resolves to is not a public one: private, loopback, link-local (169.254.169.254
among them), multicast, reserved, unspecified, shared (100.64.0.0/10), unique-local IPv6
(fc00::/7), or an IPv4 address of those kinds carried in IPv6 (IPv4-mapped, 6to4, NAT64).

Checking a name and then letting a library connect to it would resolve the name twice, and a
hostile DNS server can answer a public address to the check and a private one to the
connection (DNS rebinding). So both clients here resolve once, check every address, and
connect to a checked address itself, not to the name:

- ``http_client`` (httpx, for the providers' APIs): its transport hands httpcore a network
  backend whose ``connect_tcp`` resolves, checks, and then connects to the IP literal. The
  request keeps its URL, so the ``Host`` header, TLS SNI and the certificate check all still
  use the host name. No proxy from the environment is used (a proxy would be what is checked),
  redirects are not followed, and the scheme must be https unless private addresses are
  allowed (the tests serve plain http on the loopback).
- ``git_pool_manager`` (urllib3, which dulwich speaks git through): its connections override
  ``_new_conn``, urllib3's one place that opens a socket, in the same way; the same rules on
  scheme, credentials in the URL, redirects and proxies apply.

Refusals raise ``AddressRefused``, a ``ProviderError`` whose ``problem`` is "refused", so a
caller that words provider failures words this one too. Its message names the host, never the
addresses it resolved to; the log has both, and never a credential: URLs carrying userinfo
are refused before any request, and no header is logged.
"""

import contextlib
import contextvars
import ipaddress
import logging
import os
import socket
import ssl
import threading
import time
from functools import cache, lru_cache
from urllib.parse import urlsplit

import httpcore
import httpx
import urllib3
from urllib3.exceptions import ConnectTimeoutError, NameResolutionError, NewConnectionError
from urllib3.poolmanager import pool_classes_by_scheme
from urllib3.util import parse_url
from urllib3.util.connection import create_connection

from loko.repohost.providers.base import ProviderError

log = logging.getLogger(__name__)

CONNECT_TIMEOUT = 10.0
READ_TIMEOUT = 30.0
# One API request, from connecting to the last byte of the answer, whatever its pace.
REQUEST_DEADLINE = 60.0
# One git operation (a fetch, or a fetch and a push), whatever its pace: well under the 15
# minutes after which another run may take over the project.
GIT_DEADLINE = 300.0
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


class AddressRefused(ProviderError):
    """A host resolves to an address that outbound calls may not reach."""

    def __init__(self, message: str):
        super().__init__(message, problem="refused")


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
                "LOKO_REPOHOST_ALLOW_PRIVATE to allow repository hosts on a private network"
            )
    return addresses


def check_host(host: str, port: int, allow_private: bool) -> None:
    """AddressRefused when ``host`` resolves to a non-public address (unless allowed);
    ProviderError ("unavailable") when it does not resolve."""
    if allow_private:
        return
    try:
        resolve(host, port, allow_private)
    except socket.gaierror as error:
        raise ProviderError(f"{host} cannot be resolved ({error.strerror})", problem="unavailable") from error


def check_url(url: str, allow_private: bool) -> None:
    """AddressRefused unless ``url`` is https (http too when private addresses are allowed),
    carries no credentials, and its host passes ``check_host``."""
    parts = urlsplit(url)
    _check_parts(parts.scheme, parts.hostname, "@" in parts.netloc, allow_private)
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError as error:
        raise AddressRefused("the URL's port is not a number") from error
    check_host(parts.hostname, port, allow_private)


def _check_parts(scheme: str, host: str | None, userinfo: bool, allow_private: bool) -> None:
    allowed = ("https", "http") if allow_private else ("https",)
    if scheme not in allowed:
        raise AddressRefused(f"the URL must use {' or '.join(allowed)}, not {scheme or 'no scheme'}")
    if userinfo:
        raise AddressRefused("the URL must not carry a user name or password")
    if not host:
        raise AddressRefused("the URL names no host")


def _ssl_context() -> ssl.SSLContext:
    """The one trust store of every outbound call, API or git: certifi's, or the one named by
    ``SSL_CERT_FILE`` / ``SSL_CERT_DIR`` (a private certificate authority). Loading it costs
    about 20 ms, so it is built once per store and shared (a context is safe to share)."""
    return _ssl_context_for(os.environ.get("SSL_CERT_FILE"), os.environ.get("SSL_CERT_DIR"))


@lru_cache(maxsize=8)
def _ssl_context_for(_cert_file: str | None, _cert_dir: str | None) -> ssl.SSLContext:
    return httpx.create_ssl_context()


# httpx, for the providers' APIs

_deadline: contextvars.ContextVar[float] = contextvars.ContextVar("loko_request_deadline", default=0.0)


def http_client(allow_private: bool) -> httpx.Client:
    """An httpx client whose every connection goes to a checked address, with timeouts
    (connect 10 s, each read or write 30 s, a whole request at most 60 s) and no redirects."""
    return httpx.Client(
        transport=_CheckedTransport(allow_private),
        timeout=httpx.Timeout(
            connect=CONNECT_TIMEOUT, read=READ_TIMEOUT, write=READ_TIMEOUT, pool=CONNECT_TIMEOUT
        ),
        follow_redirects=False,
        trust_env=False,
        headers={"User-Agent": USER_AGENT},
    )


class _CheckedTransport(httpx.HTTPTransport):
    def __init__(self, allow_private: bool):
        ssl_context = _ssl_context()
        super().__init__(verify=ssl_context)
        # httpx takes no network backend, httpcore's pool does: the pool httpx built is
        # replaced by the same pool around the checking backend.
        self._pool = httpcore.ConnectionPool(
            ssl_context=ssl_context,
            max_connections=10,
            max_keepalive_connections=5,
            keepalive_expiry=5.0,
            network_backend=_CheckedBackend(allow_private),
        )
        self.allow_private = allow_private

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        url = request.url
        _check_parts(url.scheme, url.host, bool(url.userinfo), self.allow_private)
        # The body is read after this returns, by the same thread: the deadline set here is
        # the one its reads see.
        _deadline.set(time.monotonic() + REQUEST_DEADLINE)
        return super().handle_request(request)


class _CheckedBackend(httpcore.SyncBackend):
    def __init__(self, allow_private: bool):
        self.allow_private = allow_private

    def connect_tcp(self, host, port, timeout=None, local_address=None, socket_options=None):
        try:
            addresses = resolve(host, port, self.allow_private)
        except socket.gaierror as error:
            raise httpcore.ConnectError(f"{host} cannot be resolved ({error.strerror})") from error
        last_error: Exception | None = None
        for address in addresses:
            try:
                stream = super().connect_tcp(
                    address,
                    port,
                    timeout=_remaining(timeout, httpcore.ConnectTimeout),
                    local_address=local_address,
                    socket_options=socket_options,
                )
            except (httpcore.ConnectError, httpcore.ConnectTimeout) as error:
                last_error = error
            else:
                return _DeadlineStream(stream)
        raise last_error or httpcore.ConnectError(f"{host} has no address")


class _DeadlineStream(httpcore.NetworkStream):
    """A connection whose every read and write waits no longer than the current request's
    deadline allows, so a server that answers a byte at a time still ends in time."""

    def __init__(self, stream: httpcore.NetworkStream):
        self._stream = stream

    def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        return self._stream.read(max_bytes, _remaining(timeout, httpcore.ReadTimeout))

    def write(self, buffer: bytes, timeout: float | None = None) -> None:
        self._stream.write(buffer, _remaining(timeout, httpcore.WriteTimeout))

    def close(self) -> None:
        self._stream.close()

    def start_tls(self, ssl_context, server_hostname=None, timeout=None) -> httpcore.NetworkStream:
        stream = self._stream.start_tls(
            ssl_context, server_hostname, _remaining(timeout, httpcore.ConnectTimeout)
        )
        return _DeadlineStream(stream)

    def get_extra_info(self, info: str):
        return self._stream.get_extra_info(info)


def _remaining(timeout: float | None, error: type[Exception]) -> float:
    deadline = _deadline.get()
    if not deadline:
        return timeout if timeout is not None else REQUEST_DEADLINE
    left = deadline - time.monotonic()
    if left <= 0:
        raise error(f"the request took longer than {REQUEST_DEADLINE:.0f} s")
    return left if timeout is None else min(timeout, left)


# urllib3, for git through dulwich


class GitDeadline:
    """The deadline of one git operation: when it passes, every socket the operation opened
    is shut down (a read waiting on a slow host returns at once) and no new one is opened, so
    the operation ends however slowly the host sends. Entered around the operation, in its
    thread; ``expired`` tells afterwards whether it was cut short."""

    def __init__(self, seconds: float):
        self.seconds = seconds
        self.expired = False
        self._sockets: list[socket.socket] = []
        self._lock = threading.Lock()
        self._timer = threading.Timer(seconds, self._expire)
        self._timer.daemon = True
        self._token = None

    def __enter__(self) -> "GitDeadline":
        self._token = _git_deadline.set(self)
        self._timer.start()
        return self

    def __exit__(self, *_exc) -> None:
        self._timer.cancel()
        _git_deadline.reset(self._token)
        with self._lock:
            sockets, self._sockets = self._sockets, []
        for duplicate in sockets:
            duplicate.close()

    def opened(self, sock: socket.socket) -> None:
        """Watch a new connection's socket. A duplicate of its descriptor is kept: TLS wraps
        the socket into a new object and detaches the original, while a shutdown through any
        descriptor of the connection still ends it."""
        with self._lock:
            if not self.expired:
                self._sockets.append(sock.dup())
                return
        sock.close()
        raise TimeoutError(f"the git operation took longer than {self.seconds:g} s")

    def _expire(self) -> None:
        with self._lock:
            self.expired = True
            for duplicate in self._sockets:
                with contextlib.suppress(OSError):  # the connection has ended already
                    duplicate.shutdown(socket.SHUT_RDWR)


_git_deadline: contextvars.ContextVar[GitDeadline | None] = contextvars.ContextVar(
    "loko_git_deadline", default=None
)


def git_pool_manager(allow_private: bool) -> "_GitPoolManager":
    """A urllib3 pool manager for one git operation through dulwich, whose every connection
    goes to a checked address: connect 10 s, each read 30 s, no retries, no redirects, no
    proxy. ``close()`` it when the operation ends."""
    manager = _GitPoolManager(
        allow_private,
        num_pools=4,
        headers={"User-Agent": USER_AGENT},
        timeout=urllib3.Timeout(connect=CONNECT_TIMEOUT, read=READ_TIMEOUT),
        retries=False,
        ssl_context=_ssl_context(),
    )
    manager.pool_classes_by_scheme = _checked_pool_classes(allow_private)
    return manager


class _GitPoolManager(urllib3.PoolManager):
    """Made for one git operation: ``close`` ends it, closing the answers dulwich left open
    when it raised (an unauthorized or missing repository) along with the idle connections."""

    def __init__(self, allow_private: bool, **kw):
        super().__init__(**kw)
        self.allow_private = allow_private
        self._responses: list[urllib3.BaseHTTPResponse] = []

    def urlopen(self, method, url, redirect=True, **kw):
        parts = parse_url(url)
        _check_parts(parts.scheme, parts.host, parts.auth is not None, self.allow_private)
        # A redirect would lead the credentials' requests to a URL nobody checked.
        response = super().urlopen(method, url, redirect=False, **kw)
        self._responses.append(response)
        return response

    def close(self) -> None:
        for response in self._responses:
            response.close()
        self._responses.clear()
        self.clear()


class _CheckedConnection:
    """Mixed into urllib3's connection classes: resolve, check, connect to the address."""

    allow_private = False

    def _new_conn(self) -> socket.socket:
        try:
            addresses = resolve(self._dns_host, self.port, self.allow_private)
        except socket.gaierror as error:
            raise NameResolutionError(self.host, self, error) from error
        last_error: OSError | None = None
        deadline = _git_deadline.get()
        for address in addresses:
            try:
                sock = create_connection(
                    (address, self.port),
                    self.timeout,
                    source_address=self.source_address,
                    socket_options=self.socket_options,
                )
                if deadline is not None:
                    deadline.opened(sock)
                return sock
            except TimeoutError as error:
                raise ConnectTimeoutError(
                    self, f"connecting to {self.host} timed out after {self.timeout} s"
                ) from error
            except OSError as error:
                last_error = error
        raise NewConnectionError(self, f"cannot connect to {self.host}: {last_error}")


@cache
def _checked_pool_classes(allow_private: bool) -> dict[str, type]:
    classes = {}
    for scheme, pool_class in pool_classes_by_scheme.items():
        connection_class = type(
            f"Checked{pool_class.ConnectionCls.__name__}",
            (_CheckedConnection, pool_class.ConnectionCls),
            {"allow_private": allow_private},
        )
        classes[scheme] = type(
            f"Checked{pool_class.__name__}", (pool_class,), {"ConnectionCls": connection_class}
        )
    return classes
