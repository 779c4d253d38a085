"""waitress, as ``loko serve`` runs it: HTTP/1.1 connections stay open after a 304.

waitress 3 closes the connection after every HTTP/1.1 response that has no Content-Length,
and it drops Content-Length from 1xx, 204 and 304 responses (RFC 9110 forbids it there), so
no header a WSGI application sends can keep such a connection open: every revalidation
(If-None-Match answered 304) paid for a new TCP connection. A response that can have no
body needs no length to end it (RFC 9112 section 6.3), so Loko's task keeps the connection
open for those, unless the client asked to close it.

Its warning that requests wait for a thread is said at most every ten seconds
(``QueueDepthLog``).

What waitress refuses itself (a request line and headers over ``MAX_REQUEST_HEAD``: 431; a
request it cannot parse: 400) is answered with Loko's ``{"error": ...}`` body
(``JsonErrorTask``), as the app answers everything else.

Behind a reverse proxy every request comes from the proxy's address, so the sign-in limit
(counted per address and account) would be one for all clients. With ``LOKO_TRUSTED_PROXY``
set to the proxy's address (``127.0.0.1``, or ``*`` for any peer), waitress takes
the client's address from that proxy's ``X-Forwarded-For`` and the scheme and host from
``X-Forwarded-Proto`` and ``X-Forwarded-Host`` (``proxy_settings``); those headers from
anyone else are dropped.
"""

import ipaddress
import time

import orjson
from waitress.channel import HTTPChannel
from waitress.server import BaseWSGIServer, create_server
from waitress.task import ErrorTask, WSGITask
from waitress.utilities import RequestHeaderFieldsTooLarge

from loko.http import HEAD_COUNTED, MAX_REQUEST_HEAD, head_too_large_message


class KeepAliveTask(WSGITask):
    _no_body_keep_alive = False

    def get_environment(self):
        environ = super().get_environment()
        if self.channel.server.adj.max_request_header_size <= MAX_REQUEST_HEAD:
            # waitress refused a longer head before the app was called (``JsonErrorTask``).
            environ[HEAD_COUNTED] = True
        return environ

    def build_response_header(self):
        self._no_body_keep_alive = (
            not self.has_body
            and self.version == "1.1"
            and not self.close_on_finish
            and self.request.headers.get("CONNECTION", "").lower() != "close"
        )
        try:
            return super().build_response_header()
        finally:
            self._no_body_keep_alive = False

    def set_close_on_finish(self) -> None:
        # While the header of a body-less response is built, the only reason waitress
        # closes is the missing Content-Length.
        if not self._no_body_keep_alive:
            super().set_close_on_finish()


class JsonErrorTask(ErrorTask):
    """waitress's own refusal, with ``{"error": ...}`` for a body (its own is plain text)."""

    def execute(self):
        error = self.request.error
        if isinstance(error, RequestHeaderFieldsTooLarge):
            message = head_too_large_message()
        else:
            message = f"{error.reason}: {error.body}"
        body = orjson.dumps({"error": message})
        self.status = f"{error.code} {error.reason}"
        self.response_headers.append(("Content-Type", "application/json"))
        self.set_close_on_finish()
        self.content_length = len(body)
        self.write(body)


class KeepAliveChannel(HTTPChannel):
    task_class = KeepAliveTask
    error_task_class = JsonErrorTask


class QueueDepthLog:
    """waitress warns "Task queue depth is N" each time a request waits for a free thread:
    under a steady load, on nearly every request, and that log record (made and written to
    stderr under the dispatcher's lock) took about a tenth of a busy server's time. Loko
    says it at most once every ``interval`` seconds, with the deepest queue since."""

    def __init__(self, logger, interval: float = 10.0):
        self.logger = logger
        self.interval = interval
        self._next_at = 0.0
        self._deepest = 0

    def __getattr__(self, name):
        return getattr(self.logger, name)  # anything else waitress may call on its logger

    def warning(self, _message: str, depth: int) -> None:
        self._deepest = max(self._deepest, depth)
        now = time.monotonic()
        if now >= self._next_at:
            self.logger.warning(
                "Task queue depth is %d (the deepest since the last such warning; at most one every %g s)",
                self._deepest,
                self.interval,
            )
            self._deepest = 0
            self._next_at = now + self.interval


FORWARDED_HEADERS = {"x-forwarded-for", "x-forwarded-proto", "x-forwarded-host"}


def proxy_settings(trusted_proxy: str | None) -> dict:
    """waitress's settings for a reverse proxy at ``trusted_proxy`` (none when unset);
    ValueError unless it is one IP address or ``*``."""
    if not trusted_proxy:
        return {}
    if trusted_proxy != "*":
        try:
            ipaddress.ip_address(trusted_proxy)
        except ValueError:
            raise ValueError(
                f"LOKO_TRUSTED_PROXY: {trusted_proxy!r} is not an IP address (or * for any peer)."
            ) from None
    return {
        "trusted_proxy": trusted_proxy,
        "trusted_proxy_count": 1,
        "trusted_proxy_headers": FORWARDED_HEADERS,
        "clear_untrusted_proxy_headers": True,
    }


def make_server(app, **settings):
    """A waitress server for ``app`` (settings as for ``waitress.serve``); ``run()`` serves."""
    sockets = {}
    server = create_server(app, map=sockets, **{"max_request_header_size": MAX_REQUEST_HEAD, **settings})
    server.task_dispatcher.queue_logger = QueueDepthLog(server.task_dispatcher.queue_logger)
    for listener in list(sockets.values()):
        if isinstance(listener, BaseWSGIServer):
            listener.channel_class = KeepAliveChannel
    return server
