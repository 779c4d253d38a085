"""Git over HTTP for the repository integration, through the shared outbound room.

``loko/outbound.py`` holds what every outbound call shares (the address check, the httpx
client, the trust store); this module adds git's own client: ``git_pool_manager`` (urllib3,
which dulwich speaks git through), whose connections override ``_new_conn``, urllib3's one
place that opens a socket, to resolve, check and connect to a checked address, with the same
rules on scheme, credentials in the URL, redirects and proxies as ``outbound.http_client``.
"""

import contextlib
import contextvars
import socket
import threading
from functools import cache

import urllib3
from urllib3.exceptions import ConnectTimeoutError, NameResolutionError, NewConnectionError
from urllib3.poolmanager import pool_classes_by_scheme
from urllib3.util import parse_url
from urllib3.util.connection import create_connection

from loko import outbound

# One git operation (a fetch, or a fetch and a push), whatever its pace: well under the 15
# minutes after which another run may take over the project.
GIT_DEADLINE = 300.0


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
        headers={"User-Agent": outbound.USER_AGENT},
        timeout=urllib3.Timeout(connect=outbound.CONNECT_TIMEOUT, read=outbound.READ_TIMEOUT),
        retries=False,
        ssl_context=outbound.ssl_context(),
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
        outbound.check_parts(parts.scheme, parts.host, parts.auth is not None, self.allow_private)
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
            addresses = outbound.resolve(self._dns_host, self.port, self.allow_private)
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
