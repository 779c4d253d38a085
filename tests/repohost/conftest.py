"""What the repository tests share: a stand-in host (GitHub, GitLab or Gitea API plus real git
over HTTP on 127.0.0.1) holding one repository, and a project configured to use it. The app
may reach 127.0.0.1 only with LOKO_REPOHOST_ALLOW_PRIVATE; whatever it allows, a test that
tries to connect beyond the loopback, or to resolve a name through DNS, fails."""

import datetime
import shutil
import socket
from collections.abc import Iterator
from contextlib import contextmanager

import orjson
import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from tests.repohost.loopback import refuse_beyond_loopback
from tests.repohost.standins import STAND_INS, StandIn
from tests.translation_factories import ProjectApi, project_api

NEEDS_GIT = pytest.mark.skipif(shutil.which("git") is None, reason="needs Debian's git (apt-get install git)")
TOKEN = "tok-7d2f-never-echoed"
REPOSITORY = "acme/app"
BASE_FILES = {
    "locales/en/common.json": orjson.dumps({"old": "Old", "title": "Title"}),  # as Loko writes it
    "locales/de/common.json": orjson.dumps({"title": "Titel"}),
    "README.md": b"# App\n",
}


@contextmanager
def stand_in(name: str) -> Iterator[StandIn]:
    """The host ``name`` serving REPOSITORY with BASE_FILES on ``main``; on leaving, fails when
    a request or response broke the host's API description."""
    host = STAND_INS[name](token=TOKEN).start()
    try:
        host.add_repository(REPOSITORY, branches=("main",), files=BASE_FILES)
        yield host
    finally:
        host.stop()
    assert host.errors == [], "requests or responses that the API description does not allow"


def settings(host, **overrides) -> dict:
    """A valid configuration of REPOSITORY on ``host``."""
    return {
        "provider": host.name,
        "repository": REPOSITORY,
        "branch": "main",
        "path": "locales/{language}/{fileName}.json",
        "format": "json",
        "token": TOKEN,
        "api_url": host.api_url,
        **overrides,
    }


@pytest.fixture
def config_overrides():
    return {"LOKO_REPOHOST_ALLOW_PRIVATE": True}


@pytest.fixture(params=sorted(STAND_INS))
def host(request):
    with stand_in(request.param) as running:
        yield running


@pytest.fixture
def api(app) -> ProjectApi:
    return project_api(app)


def configure(api: ProjectApi, host, **overrides):
    return api.owner.post(api.url("/repohost"), json=settings(host, **overrides))


@pytest.fixture
def configured(api, host) -> ProjectApi:
    response = configure(api, host)
    assert response.status_code == 200, response.json
    api.webhook_secret = response.json["webhook"]["secret"]
    return api


@pytest.fixture(autouse=True)
def loopback_only(monkeypatch):
    """No test here sends a packet beyond the loopback, whatever the settings allow."""
    refuse_beyond_loopback(monkeypatch)


@pytest.fixture
def resolver(monkeypatch):
    """``resolver["name"] = [addresses]`` answers getaddrinfo for that name without DNS."""
    answers: dict[str, list[str]] = {}
    real = socket.getaddrinfo

    def getaddrinfo(host, port, *args, **kwargs):
        if host not in answers:
            return real(host, port, *args, **kwargs)
        results = []
        for address in answers[host]:
            if ":" in address:
                results.append((socket.AF_INET6, socket.SOCK_STREAM, 6, "", (address, port, 0, 0)))
            else:
                results.append((socket.AF_INET, socket.SOCK_STREAM, 6, "", (address, port)))
        return results

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    return answers


TLS_NAME = "repo.example.test"


@pytest.fixture(scope="module")
def certificate(tmp_path_factory):
    """A self-signed certificate for TLS_NAME: (certificate file, key file, PEM)."""
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, TLS_NAME)])
    now = datetime.datetime.now(datetime.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.SubjectAlternativeName([x509.DNSName(TLS_NAME)]), critical=False)
        .sign(key, hashes.SHA256())
    )
    directory = tmp_path_factory.mktemp("tls")
    pem = cert.public_bytes(serialization.Encoding.PEM)
    (directory / "cert.pem").write_bytes(pem)
    (directory / "key.pem").write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return directory / "cert.pem", directory / "key.pem", pem.decode()
