"""The httpx client of ``loko.outbound``: a transport whose network backend resolves a
host once, checks every address and connects to a checked address itself, and a deadline
for a whole request. Loaded with the first outbound call."""

import contextvars
import socket
import time

import httpcore
import httpx

from loko import outbound

_deadline: contextvars.ContextVar[float] = contextvars.ContextVar("loko_request_deadline", default=0.0)


class _CheckedTransport(httpx.HTTPTransport):
    def __init__(self, allow_private: bool):
        context = outbound.ssl_context()
        super().__init__(verify=context)
        # httpx takes no network backend, httpcore's pool does: the pool httpx built is
        # replaced by the same pool around the checking backend.
        self._pool = httpcore.ConnectionPool(
            ssl_context=context,
            max_connections=10,
            max_keepalive_connections=5,
            keepalive_expiry=5.0,
            network_backend=_CheckedBackend(allow_private),
        )
        self.allow_private = allow_private

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        url = request.url
        outbound.check_parts(url.scheme, url.host, bool(url.userinfo), self.allow_private)
        # The body is read after this returns, by the same thread: the deadline set here is
        # the one its reads see.
        _deadline.set(time.monotonic() + outbound.REQUEST_DEADLINE)
        return super().handle_request(request)


class _CheckedBackend(httpcore.SyncBackend):
    def __init__(self, allow_private: bool):
        self.allow_private = allow_private

    def connect_tcp(self, host, port, timeout=None, local_address=None, socket_options=None):
        try:
            addresses = outbound.resolve(host, port, self.allow_private)
        except socket.gaierror as error:
            raise httpcore.ConnectError(f"{host} cannot be resolved ({error.strerror})") from error
        last_error: Exception | None = None
        for address in addresses:
            try:
                stream = super().connect_tcp(
                    address,
                    port,
                    timeout=remaining(timeout, httpcore.ConnectTimeout),
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
        return self._stream.read(max_bytes, remaining(timeout, httpcore.ReadTimeout))

    def write(self, buffer: bytes, timeout: float | None = None) -> None:
        self._stream.write(buffer, remaining(timeout, httpcore.WriteTimeout))

    def close(self) -> None:
        self._stream.close()

    def start_tls(self, ssl_context, server_hostname=None, timeout=None) -> httpcore.NetworkStream:
        stream = self._stream.start_tls(
            ssl_context, server_hostname, remaining(timeout, httpcore.ConnectTimeout)
        )
        return _DeadlineStream(stream)

    def get_extra_info(self, info: str):
        return self._stream.get_extra_info(info)


def remaining(timeout: float | None, error: type[Exception]) -> float:
    deadline = _deadline.get()
    if not deadline:
        return timeout if timeout is not None else outbound.REQUEST_DEADLINE
    left = deadline - time.monotonic()
    if left <= 0:
        raise error(f"the request took longer than {outbound.REQUEST_DEADLINE:.0f} s")
    return left if timeout is None else min(timeout, left)


def checked_client(allow_private: bool) -> httpx.Client:
    """An httpx client whose every connection goes to a checked address, with timeouts
    (connect 10 s, each read or write 30 s, a whole request at most 60 s) and no redirects."""
    return httpx.Client(
        transport=_CheckedTransport(allow_private),
        timeout=httpx.Timeout(
            connect=outbound.CONNECT_TIMEOUT,
            read=outbound.READ_TIMEOUT,
            write=outbound.READ_TIMEOUT,
            pool=outbound.CONNECT_TIMEOUT,
        ),
        follow_redirects=False,
        trust_env=False,
        headers={"User-Agent": outbound.USER_AGENT},
    )
