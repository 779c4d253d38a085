"""A guard for the repository tests: every connection they open stays on the loopback
(127.0.0.0/8, ::1), whatever the code under test or the app's settings would allow."""

import ipaddress
import socket

import pytest


def is_loopback(host: str) -> bool:
    try:
        address = ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        return host == "localhost"
    if address.version == 6 and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return address.is_loopback


def refuse_beyond_loopback(monkeypatch) -> None:
    """Fail the test at the first connection to an address beyond the loopback, or the first
    name sent to DNS, before any packet leaves: every client (httpx, urllib3, dulwich)
    resolves and connects through these functions."""
    connect, connect_ex, getaddrinfo = socket.socket.connect, socket.socket.connect_ex, socket.getaddrinfo

    def check(address) -> None:
        if isinstance(address, tuple) and not is_loopback(str(address[0])):
            pytest.fail(f"a connection to {address[0]}, beyond the loopback, was attempted")

    def checked_connect(self, address):
        check(address)
        return connect(self, address)

    def checked_connect_ex(self, address):
        check(address)
        return connect_ex(self, address)

    def checked_getaddrinfo(host, *args, **kwargs):
        name = host.decode() if isinstance(host, bytes) else host
        if name not in (None, "", "localhost"):
            try:
                ipaddress.ip_address(name.split("%", 1)[0])
            except ValueError:
                pytest.fail(f"the name {name} was about to be resolved through DNS")
        return getaddrinfo(host, *args, **kwargs)

    monkeypatch.setattr(socket.socket, "connect", checked_connect)
    monkeypatch.setattr(socket.socket, "connect_ex", checked_connect_ex)
    monkeypatch.setattr(socket, "getaddrinfo", checked_getaddrinfo)
