"""What the machine translation tests share: stand-ins of DeepL, LibreTranslate and an
OpenAI-compatible API on 127.0.0.1, checked against their published descriptions, and no
packet beyond the loopback whatever the settings allow. The app may reach 127.0.0.1 only
with LOKO_OUTBOUND_ALLOW_PRIVATE; no test waits out a Retry-After."""

from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from loko import outbound
from loko.machine.providers import base, provider_for
from loko.machine.providers.base import Settings
from tests.machine.standins import API_KEY, STAND_INS, StandIn
from tests.repohost.loopback import refuse_beyond_loopback


@contextmanager
def stand_in(kind: str) -> Iterator[StandIn]:
    """The service ``kind`` on the loopback; on leaving, fails when a request or a response
    broke the service's published description."""
    running = STAND_INS[kind]().start()
    try:
        yield running
    finally:
        running.stop()
    assert running.errors == [], "requests or responses that the API description does not allow"


@pytest.fixture(params=sorted(STAND_INS))
def service(request) -> Iterator[StandIn]:
    with stand_in(request.param) as running:
        yield running


@pytest.fixture(autouse=True)
def loopback_only(monkeypatch):
    refuse_beyond_loopback(monkeypatch)


@pytest.fixture(autouse=True)
def waits(monkeypatch) -> list[float]:
    """The Retry-After waits the providers asked for, none of them slept."""
    asked: list[float] = []
    monkeypatch.setattr(base, "sleep", asked.append)
    return asked


@pytest.fixture
def http():
    with outbound.http_client(allow_private=True) as client:
        yield client


def provider(service: StandIn, http, **overrides):
    """A provider of the stand-in's kind, configured to reach it with the right key."""
    settings = {"base_url": service.url, "api_key": API_KEY, "model": "llama3.1", **overrides}
    return provider_for(service.name, Settings(**settings), http)
