"""The address check and the outbound clients: refusals happen before any connection, and a
client connects to the address it checked."""

import logging
import socket
import ssl
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import httpx
import pytest
import urllib3

from loko import outbound
from loko.repohost import net
from loko.repohost.providers.base import ProviderError
from tests.repohost.conftest import TLS_NAME

REFUSED = [
    "10.0.0.1",
    "10.255.255.255",
    "172.16.0.1",
    "172.31.255.254",
    "192.168.1.10",
    "127.0.0.1",
    "127.8.9.10",
    "0.0.0.0",
    "169.254.169.254",
    "169.254.0.1",
    "100.64.0.1",
    "100.127.255.254",
    "224.0.0.1",
    "239.255.255.250",
    "240.0.0.1",
    "255.255.255.255",
    "198.18.0.1",
    "192.0.2.1",
    "::1",
    "::",
    "fe80::1",
    "fe80::1%1",
    "fc00::1",
    "fd12:3456:789a::1",
    "fec0::1",
    "ff02::1",
    "::ffff:10.0.0.1",
    "::ffff:127.0.0.1",
    "::ffff:169.254.169.254",
    "64:ff9b::a00:1",
    "2002:a00:1::1",
    "2001:db8::1",
    "not an address",
    "",
]
ALLOWED = [
    "8.8.8.8",
    "140.82.112.3",
    "172.15.255.255",
    "172.32.0.1",
    "100.128.0.1",
    "2606:4700:4700::1111",
    "::ffff:8.8.8.8",
    "64:ff9b::808:808",
]


@pytest.fixture
def no_connections(monkeypatch):
    """Any attempt to open a connection fails the test."""

    def refuse(*args, **kwargs):
        pytest.fail("a connection was attempted")

    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket.socket, "connect_ex", refuse)


class _Handler(BaseHTTPRequestHandler):
    def do_GET(self):
        self.server.hosts.append(self.headers["Host"])
        if self.path == "/redirect":
            self.send_response(302)
            self.send_header("Location", "http://169.254.169.254/latest/meta-data/")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        if self.path == "/slow":
            self.send_response(200)
            self.send_header("Content-Length", "1000")
            self.end_headers()
            try:
                for _ in range(1000):
                    if self.server.stopping.wait(0.05):
                        return
                    self.wfile.write(b"x")
                    self.wfile.flush()
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up, as it should
            return
        self.send_response(200)
        self.send_header("Content-Length", "2")
        self.end_headers()
        self.wfile.write(b"ok")

    def log_message(self, format, *args):
        pass


@pytest.fixture
def web_server():
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    server.daemon_threads = True
    server.hosts, server.stopping = [], threading.Event()
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    yield server
    server.stopping.set()
    server.shutdown()
    server.server_close()
    thread.join()


@pytest.fixture
def tls_server(certificate, monkeypatch):
    """An https server on the loopback for TLS_NAME, recording the SNI names it was asked
    for; the clients trust its certificate."""
    cert_file, key_file, pem = certificate
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert_file, key_file)
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    server.daemon_threads = True
    server.hosts, server.stopping, server.sni = [], threading.Event(), []
    context.sni_callback = lambda connection, name, context: server.sni.append(name)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    monkeypatch.setattr(outbound, "ssl_context", lambda: ssl.create_default_context(cadata=pem))
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    yield server
    server.stopping.set()
    server.shutdown()
    server.server_close()
    thread.join()


# address_allowed


@pytest.mark.parametrize("address", REFUSED)
def test_non_public_address_is_not_allowed(address):
    assert outbound.address_allowed(address) is False


@pytest.mark.parametrize("address", ALLOWED)
def test_public_address_is_allowed(address):
    assert outbound.address_allowed(address) is True


# check_url / check_host


@pytest.mark.parametrize(
    "url",
    [
        "https://10.0.0.1/owner/name.git",
        "https://172.20.1.1/owner/name.git",
        "https://192.168.0.2/owner/name.git",
        "https://127.0.0.1:8443/owner/name.git",
        "https://[::1]/owner/name.git",
        "https://[fe80::1]/owner/name.git",
        "https://169.254.169.254/latest/meta-data/",
        "https://100.64.0.1/owner/name.git",
        "https://[::ffff:10.0.0.1]/owner/name.git",
        "https://0.0.0.0/owner/name.git",
    ],
)
def test_check_url_refuses_private_addresses_without_connecting(no_connections, url):
    with pytest.raises(outbound.AddressRefused) as raised:
        outbound.check_url(url, allow_private=False)
    assert raised.value.problem == "refused"
    assert "LOKO_OUTBOUND_ALLOW_PRIVATE" in raised.value.message


def test_check_url_refuses_a_name_when_any_address_is_private(no_connections, resolver):
    resolver["git.example.org"] = ["93.184.216.34", "10.1.2.3"]
    with pytest.raises(outbound.AddressRefused):
        outbound.check_url("https://git.example.org/owner/name.git", allow_private=False)


def test_check_url_accepts_a_public_name(no_connections, resolver):
    resolver["git.example.org"] = ["93.184.216.34", "2606:2800:220:1::1"]
    outbound.check_url("https://git.example.org/owner/name.git", allow_private=False)


@pytest.mark.parametrize("url", ["http://93.184.216.34/owner/name.git", "ftp://93.184.216.34/x", "//x/y"])
def test_check_url_requires_https(no_connections, url):
    with pytest.raises(outbound.AddressRefused, match="https"):
        outbound.check_url(url, allow_private=False)


def test_check_url_allows_http_on_the_loopback_when_private_is_allowed(no_connections):
    outbound.check_url("http://127.0.0.1:8080/owner/name.git", allow_private=True)


def test_check_url_refuses_credentials_in_the_url(no_connections, caplog):
    caplog.set_level(logging.DEBUG)
    with pytest.raises(outbound.AddressRefused) as raised:
        outbound.check_url("https://x-access-token:s3cret@github.com/owner/name.git", allow_private=False)
    assert "s3cret" not in raised.value.message
    assert "s3cret" not in caplog.text


def test_check_host_reports_an_unresolvable_name_as_unavailable(no_connections, monkeypatch):
    def fail(*args, **kwargs):
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")

    monkeypatch.setattr(socket, "getaddrinfo", fail)
    with pytest.raises(ProviderError) as raised:
        outbound.check_host("git.invalid", 443, allow_private=False)
    assert raised.value.problem == "unavailable"


def test_refusal_log_names_the_host_and_addresses(no_connections, resolver, caplog):
    resolver["internal.example.org"] = ["10.9.8.7"]
    with pytest.raises(outbound.AddressRefused) as raised:
        outbound.check_host("internal.example.org", 443, allow_private=False)
    assert "10.9.8.7" in caplog.text
    assert "10.9.8.7" not in raised.value.message


# http_client


def test_http_client_has_timeouts_and_follows_no_redirects():
    with outbound.http_client(allow_private=False) as client:
        assert client.timeout.connect == 10
        assert client.timeout.read == 30
        assert client.follow_redirects is False


def test_http_client_refuses_http_without_the_setting(no_connections):
    with outbound.http_client(allow_private=False) as client, pytest.raises(outbound.AddressRefused):
        client.get("http://127.0.0.1:9/")


def test_http_client_refuses_the_loopback_without_the_setting(no_connections):
    with (
        outbound.http_client(allow_private=False) as client,
        pytest.raises(outbound.AddressRefused, match="resolves to a private"),
    ):
        client.get("https://127.0.0.1:9/")


def test_http_client_refuses_credentials_in_the_url(no_connections):
    with outbound.http_client(allow_private=True) as client, pytest.raises(outbound.AddressRefused):
        client.get("http://user:secret@127.0.0.1:9/")


def test_http_client_reaches_the_loopback_with_the_setting(web_server):
    port = web_server.server_address[1]
    with outbound.http_client(allow_private=True) as client:
        response = client.get(f"http://127.0.0.1:{port}/")
    assert (response.status_code, response.text) == (200, "ok")


def test_http_client_checks_the_address_it_connects_to(no_connections, resolver):
    # The URL check saw a public address; by the time of the connection the name answers a
    # private one (DNS rebinding): the connection is refused.
    resolver["rebind.example.org"] = ["93.184.216.34"]
    outbound.check_url("https://rebind.example.org/", allow_private=False)
    resolver["rebind.example.org"] = ["127.0.0.1"]
    with outbound.http_client(allow_private=False) as client, pytest.raises(outbound.AddressRefused):
        client.get("https://rebind.example.org/")


def test_http_client_connects_to_the_resolved_address_keeping_the_host_name(web_server, resolver):
    port = web_server.server_address[1]
    resolver["repo.example.test"] = ["127.0.0.1"]
    with outbound.http_client(allow_private=True) as client:
        response = client.get(f"http://repo.example.test:{port}/")
    assert response.status_code == 200
    assert web_server.hosts == [f"repo.example.test:{port}"]


def test_http_client_verifies_tls_for_the_host_name_at_the_checked_address(tls_server, resolver):
    port = tls_server.server_address[1]
    resolver[TLS_NAME] = ["127.0.0.1"]
    with outbound.http_client(allow_private=True) as client:
        response = client.get(f"https://{TLS_NAME}:{port}/")
    assert (response.status_code, response.text) == (200, "ok")
    assert tls_server.sni == [TLS_NAME]
    assert tls_server.hosts == [f"{TLS_NAME}:{port}"]


def test_http_client_rejects_a_certificate_for_another_name(tls_server, resolver):
    port = tls_server.server_address[1]
    resolver["other.example.test"] = ["127.0.0.1"]
    with (
        outbound.http_client(allow_private=True) as client,
        pytest.raises(httpx.ConnectError, match="certificate"),
    ):
        client.get(f"https://other.example.test:{port}/")
    assert tls_server.hosts == []


def test_http_client_does_not_follow_redirects(web_server):
    port = web_server.server_address[1]
    with outbound.http_client(allow_private=True) as client:
        response = client.get(f"http://127.0.0.1:{port}/redirect")
    assert response.status_code == 302
    assert web_server.hosts == [f"127.0.0.1:{port}"]


def test_http_client_ends_a_request_at_its_deadline(web_server, monkeypatch):
    monkeypatch.setattr(outbound, "REQUEST_DEADLINE", 0.5)
    port = web_server.server_address[1]
    started = time.monotonic()
    with outbound.http_client(allow_private=True) as client, pytest.raises(httpx.TimeoutException):
        client.get(f"http://127.0.0.1:{port}/slow")
    assert time.monotonic() - started < 5


# git_pool_manager


def test_git_pool_manager_refuses_the_loopback_without_the_setting(no_connections):
    manager = net.git_pool_manager(allow_private=False)
    with pytest.raises(outbound.AddressRefused, match="resolves to a private"):
        manager.request("GET", "https://127.0.0.1:9/owner/name.git/info/refs")
    manager.close()


def test_git_pool_manager_refuses_http_without_the_setting(no_connections):
    manager = net.git_pool_manager(allow_private=False)
    with pytest.raises(outbound.AddressRefused, match="https"):
        manager.request("GET", "http://93.184.216.34/owner/name.git/info/refs")
    manager.close()


def test_git_pool_manager_reaches_the_loopback_with_the_setting(web_server):
    port = web_server.server_address[1]
    manager = net.git_pool_manager(allow_private=True)
    response = manager.request("GET", f"http://127.0.0.1:{port}/")
    manager.close()
    assert (response.status, response.data) == (200, b"ok")


def test_git_pool_manager_does_not_follow_redirects(web_server):
    port = web_server.server_address[1]
    manager = net.git_pool_manager(allow_private=True)
    response = manager.request("GET", f"http://127.0.0.1:{port}/redirect")
    manager.close()
    assert response.status == 302
    assert web_server.hosts == [f"127.0.0.1:{port}"]


def test_git_pool_manager_connects_to_the_resolved_address_keeping_the_host_name(web_server, resolver):
    port = web_server.server_address[1]
    resolver["repo.example.test"] = ["127.0.0.1"]
    manager = net.git_pool_manager(allow_private=True)
    response = manager.request("GET", f"http://repo.example.test:{port}/")
    manager.close()
    assert response.status == 200
    assert web_server.hosts == [f"repo.example.test:{port}"]


def test_git_pool_manager_verifies_tls_for_the_host_name_at_the_checked_address(tls_server, resolver):
    port = tls_server.server_address[1]
    resolver[TLS_NAME] = ["127.0.0.1"]
    manager = net.git_pool_manager(allow_private=True)
    response = manager.request("GET", f"https://{TLS_NAME}:{port}/")
    manager.close()
    assert (response.status, response.data) == (200, b"ok")
    assert tls_server.sni == [TLS_NAME]


def test_git_pool_manager_rejects_a_certificate_for_another_name(tls_server, resolver):
    port = tls_server.server_address[1]
    resolver["other.example.test"] = ["127.0.0.1"]
    manager = net.git_pool_manager(allow_private=True)
    with pytest.raises(urllib3.exceptions.SSLError):
        manager.request("GET", f"https://other.example.test:{port}/")
    manager.close()
    assert tls_server.hosts == []
