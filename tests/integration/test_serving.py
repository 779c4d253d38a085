"""``loko serve``'s waitress keeps an HTTP/1.1 connection open after a 304, as after a 200,
says that requests wait for a thread at most once in a while, and takes the client's address
from a trusted reverse proxy only."""

import contextlib
import threading
from http.client import HTTPConnection

import pytest
from waitress import wasyncore

from loko.http import HEAD_COUNTED
from loko.serving import QueueDepthLog, make_server, proxy_settings


def app(environ, start_response):
    if environ.get("HTTP_IF_NONE_MATCH") == '"v1"':
        start_response("304 Not Modified", [("ETag", '"v1"')])
        return []
    headers = [("ETag", '"v1"'), ("Content-Type", "text/plain"), ("Content-Length", "2")]
    start_response("200 OK", [*headers, ("X-Head-Counted", str(environ.get(HEAD_COUNTED, False)))])
    return [b"ok"]


@pytest.fixture
def port():
    server = make_server(app, host="127.0.0.1", port=0, threads=2)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    yield server.effective_port
    # The server's loop may have closed its trigger already (a connection's close ended it).
    with contextlib.suppress(OSError):
        server.trigger.pull_trigger(lambda: wasyncore.close_all(server._map))
    thread.join(timeout=10)
    server.task_dispatcher.shutdown()


def exchange(connection, headers):
    connection.request("GET", "/", headers=headers)
    response = connection.getresponse()
    response.read()
    return response


def test_the_app_is_told_that_waitress_refused_long_heads_itself(port):
    # The app's own count of the request line and headers (loko.http.RequestHeadLimit) is
    # then left out.
    connection = HTTPConnection("127.0.0.1", port, timeout=10)
    assert exchange(connection, {}).getheader("X-Head-Counted") == "True"
    connection.close()


def test_a_304_keeps_the_connection_open(port):
    connection = HTTPConnection("127.0.0.1", port, timeout=10)
    first = exchange(connection, {"If-None-Match": '"v1"'})
    socket_before = connection.sock
    second = exchange(connection, {"If-None-Match": '"v1"'})
    assert (first.status, second.status) == (304, 304)
    assert first.getheader("Connection") is None
    assert connection.sock is socket_before
    connection.close()


def test_a_304_carries_no_body_length(port):
    connection = HTTPConnection("127.0.0.1", port, timeout=10)
    response = exchange(connection, {"If-None-Match": '"v1"'})
    assert response.getheader("Content-Length") is None
    assert response.getheader("Transfer-Encoding") is None
    connection.close()


def test_a_client_that_asks_to_close_gets_a_closed_connection(port):
    connection = HTTPConnection("127.0.0.1", port, timeout=10)
    response = exchange(connection, {"If-None-Match": '"v1"', "Connection": "close"})
    assert response.getheader("Connection") == "close"
    connection.close()


def test_a_200_with_a_length_keeps_the_connection_open_too(port):
    connection = HTTPConnection("127.0.0.1", port, timeout=10)
    exchange(connection, {})
    socket_before = connection.sock
    assert exchange(connection, {}).status == 200
    assert connection.sock is socket_before
    connection.close()


class Recorded:
    def __init__(self):
        self.lines = []

    def warning(self, message, *args):
        self.lines.append(message % args)


def test_the_queue_depth_warning_is_said_once_per_interval_with_the_deepest_queue():
    logger = Recorded()
    log = QueueDepthLog(logger, interval=3600)
    for depth in (1, 5, 2):
        log.warning("Task queue depth is %d", depth)
    assert len(logger.lines) == 1 and logger.lines[0].startswith("Task queue depth is 1 ")


def test_the_queue_depth_warning_after_the_interval_names_the_deepest_queue_since():
    logger = Recorded()
    log = QueueDepthLog(logger, interval=0)
    log.warning("Task queue depth is %d", 3)
    log.warning("Task queue depth is %d", 2)
    assert [line.split(" (")[0] for line in logger.lines] == [
        "Task queue depth is 3",
        "Task queue depth is 2",
    ]


def test_the_server_says_queue_depth_through_the_limited_log():
    server = make_server(app, host="127.0.0.1", port=0, threads=1)
    try:
        assert isinstance(server.task_dispatcher.queue_logger, QueueDepthLog)
    finally:
        server.task_dispatcher.shutdown()
        server.close()


def remote_addr_app(environ, start_response):
    body = f"{environ['REMOTE_ADDR']} {environ['wsgi.url_scheme']}".encode()
    start_response("200 OK", [("Content-Type", "text/plain"), ("Content-Length", str(len(body)))])
    return [body]


def seen_by_the_app(trusted_proxy, headers) -> str:
    server = make_server(
        remote_addr_app, host="127.0.0.1", port=0, threads=1, **proxy_settings(trusted_proxy)
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        connection = HTTPConnection("127.0.0.1", server.effective_port, timeout=10)
        try:
            connection.request("GET", "/", headers=headers)
            return connection.getresponse().read().decode()
        finally:
            connection.close()
    finally:
        server.trigger.pull_trigger(lambda: wasyncore.close_all(server._map))
        thread.join(timeout=10)
        server.task_dispatcher.shutdown()


FORWARDED = {"X-Forwarded-For": "203.0.113.7", "X-Forwarded-Proto": "https"}


def test_behind_a_trusted_proxy_the_client_address_and_scheme_are_the_forwarded_ones():
    assert seen_by_the_app("127.0.0.1", FORWARDED) == "203.0.113.7 https"


def test_forwarded_headers_from_a_peer_that_is_not_the_proxy_are_ignored():
    assert seen_by_the_app("192.0.2.1", FORWARDED) == "127.0.0.1 http"


def test_without_a_trusted_proxy_forwarded_headers_are_ignored():
    assert seen_by_the_app(None, FORWARDED) == "127.0.0.1 http"


def test_a_trusted_proxy_that_is_not_an_address_is_refused():
    with pytest.raises(ValueError, match="LOKO_TRUSTED_PROXY"):
        proxy_settings("proxy.example")
