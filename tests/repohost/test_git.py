"""Git over HTTP through dulwich against a real ``git http-backend`` on the loopback."""

import os
import socket
import ssl
import threading
import time

import pytest

from loko import outbound
from loko.repohost import git, net
from loko.repohost.providers.base import ProviderError
from tests.repohost.conftest import TLS_NAME
from tests.repohost.git_server import GIT, GitServer

pytestmark = pytest.mark.skipif(
    GIT is None,
    reason="git is not installed (Debian: apt-get install git); these tests serve repositories "
    "with git http-backend",
)

TOKEN = "git-token"
CREDENTIALS = ("x-access-token", TOKEN)
AUTHOR = "Loko <loko@example.org>"
FILES = {
    "README.md": b"# Project\n",
    "locales/de.json": b'{"hello": "Hallo"}',
    "locales/fr.json": b'{"hello": "Bonjour"}',
    "assets/logo.bin": bytes(range(256)) * 64,
}


@pytest.fixture(params=["full", "partial"])
def server(request):
    """A git server holding ``owner/name`` with FILES on ``main``; "partial": the host
    supports partial clone (``uploadpack.allowFilter``), as GitHub, GitLab and Gitea do."""
    git_server = GitServer(token=TOKEN).start()
    try:
        git_server.create_repository("owner/name", FILES, branch="main")
        if request.param == "partial":
            git_server.set_config("owner/name", "uploadpack.allowFilter", "true")
        yield git_server
    finally:
        git_server.stop()


@pytest.fixture
def url(server):
    return server.git_url("owner/name")


def _locales(path):
    return path.startswith("locales/")


def _commit(url, changes, branch="loko/translations", base="main", credentials=CREDENTIALS):
    return git.commit_files(
        url, credentials, base, branch, changes, "Update translations", AUTHOR, allow_private=True
    )


# read_files


def test_read_files_returns_only_the_wanted_paths(server, url):
    tree = git.read_files(url, CREDENTIALS, "main", _locales, allow_private=True)
    assert tree.files == {path: data for path, data in FILES.items() if _locales(path)}
    assert tree.commit == server.head("owner/name", "main")


def test_read_files_with_nothing_wanted_returns_no_file(server, url):
    tree = git.read_files(url, CREDENTIALS, "main", lambda path: False, allow_private=True)
    assert tree.files == {}
    assert tree.commit == server.head("owner/name", "main")


def test_read_files_reads_another_branch(server, url):
    server.create_repository("owner/other", {"a.json": b"{}"}, branch="develop")
    tree = git.read_files(
        server.git_url("owner/other"), CREDENTIALS, "develop", lambda path: True, allow_private=True
    )
    assert tree.files == {"a.json": b"{}"}


# commit_files


def test_commit_files_pushes_the_changes_to_a_new_branch(server, url):
    base_head = server.head("owner/name", "main")
    sha = _commit(url, {"locales/de.json": b'{"hello": "Servus"}', "locales/it.json": b'{"hello": "Ciao"}'})
    assert sha == server.head("owner/name", "loko/translations")
    assert server.parents("owner/name", sha) == [base_head]
    assert server.read_branch("owner/name", "loko/translations") == {
        **FILES,
        "locales/de.json": b'{"hello": "Servus"}',
        "locales/it.json": b'{"hello": "Ciao"}',
    }
    assert server.message("owner/name", sha) == "Update translations"
    assert server.author("owner/name", sha) == AUTHOR
    assert server.read_branch("owner/name", "main") == FILES
    assert [push.repository for push in server.pushes] == ["owner/name"]


def test_commit_files_pushes_a_large_file(server, url):
    # Beyond dulwich's 1 MiB post buffer, the pack is streamed in chunks.
    large = os.urandom(3 * 1024 * 1024)
    _commit(url, {"locales/large.bin": large})
    assert server.read_branch("owner/name", "loko/translations")["locales/large.bin"] == large


def test_commit_files_deletes_paths_and_empty_directories(server, url):
    _commit(url, {"locales/de.json": None, "locales/fr.json": None, "nested/deeper/new.json": b"{}"})
    assert server.read_branch("owner/name", "loko/translations") == {
        "README.md": FILES["README.md"],
        "assets/logo.bin": FILES["assets/logo.bin"],
        "nested/deeper/new.json": b"{}",
    }


def test_commit_files_rebuilds_the_branch_from_the_base(server, url):
    _commit(url, {"locales/de.json": b'{"hello": "Servus"}'})
    new_base = server.add_commit("owner/name", "main", {"CHANGELOG.md": b"1.1\n"})
    sha = _commit(url, {"locales/fr.json": b'{"hello": "Salut"}'})
    assert server.parents("owner/name", sha) == [new_base]
    assert server.read_branch("owner/name", "loko/translations") == {
        **FILES,
        "CHANGELOG.md": b"1.1\n",
        "locales/fr.json": b'{"hello": "Salut"}',
    }


def test_commit_files_leaves_a_branch_that_already_holds_the_changes(server, url):
    changes = {"locales/de.json": b'{"hello": "Servus"}'}
    first = _commit(url, changes)
    assert _commit(url, changes) == first
    assert len(server.pushes) == 1


def test_commit_files_returns_none_when_nothing_changes(server, url):
    changes = {"locales/de.json": FILES["locales/de.json"], "locales/absent.json": None}
    assert _commit(url, changes) is None
    assert server.head("owner/name", "loko/translations") is None
    assert server.pushes == []


@pytest.mark.parametrize(
    "path", ["../escape.json", "/absolute.json", "a//b.json", "./here.json", ".git/config", "sub/.GIT/x"]
)
def test_commit_files_refuses_a_path_outside_the_tree(server, url, path):
    with pytest.raises(ValueError, match="not a path"):
        _commit(url, {path: b"{}"})
    assert server.requests == []


def test_commit_files_refuses_a_file_under_a_file(server, url):
    with pytest.raises(ValueError, match="is a file"):
        _commit(url, {"README.md/de.json": b"{}"})


def test_commit_files_refuses_a_file_in_place_of_a_directory(server, url):
    with pytest.raises(ValueError, match="is a directory"):
        _commit(url, {"locales": b"{}"})


def test_commit_files_refuses_an_author_without_an_email(server, url):
    with pytest.raises(ValueError, match="author"):
        git.commit_files(url, CREDENTIALS, "main", "loko/x", {"a": b""}, "m", "Loko", allow_private=True)


def test_commit_files_reports_a_push_the_host_declines(server, url):
    server.decline_pushes("owner/name", "branch protected")
    with pytest.raises(ProviderError) as raised:
        _commit(url, {"locales/de.json": b"{}"})
    assert raised.value.problem == "refused"


# branch_exists


def test_branch_exists(server, url):
    assert git.branch_exists(url, CREDENTIALS, "main", True) is True
    assert git.branch_exists(url, CREDENTIALS, "loko/translations", True) is False
    _commit(url, {"locales/de.json": b"{}"})
    assert git.branch_exists(url, CREDENTIALS, "loko/translations", allow_private=True) is True


# failures


def test_wrong_token_is_unauthorized(server, url):
    wrong = ("x-access-token", "wrong")
    with pytest.raises(ProviderError) as raised:
        git.read_files(url, wrong, "main", _locales, allow_private=True)
    assert (raised.value.problem, raised.value.status) == ("unauthorized", 401)
    with pytest.raises(ProviderError) as raised:
        _commit(url, {"locales/de.json": b"{}"}, credentials=wrong)
    assert raised.value.problem == "unauthorized"
    with pytest.raises(ProviderError) as raised:
        git.branch_exists(url, wrong, "main", True)
    assert raised.value.problem == "unauthorized"


def test_unknown_repository_is_not_found(server):
    with pytest.raises(ProviderError) as raised:
        git.read_files(server.git_url("owner/missing"), CREDENTIALS, "main", _locales, allow_private=True)
    assert (raised.value.problem, raised.value.status) == ("not_found", 404)


def test_missing_branch_is_reported(server, url):
    with pytest.raises(ProviderError) as raised:
        git.read_files(url, CREDENTIALS, "release", _locales, allow_private=True)
    assert raised.value.problem == "branch_missing"
    assert "release" in raised.value.message


def test_missing_base_branch_is_reported(server, url):
    with pytest.raises(ProviderError) as raised:
        _commit(url, {"locales/de.json": b"{}"}, base="release")
    assert raised.value.problem == "branch_missing"
    assert server.pushes == []


def test_invalid_branch_name_is_refused(server, url):
    with pytest.raises(ValueError, match="branch"):
        git.read_files(url, CREDENTIALS, "bad..name", _locales, allow_private=True)


def test_loopback_is_refused_without_the_setting(server, url):
    with pytest.raises(outbound.AddressRefused):
        git.read_files(url, CREDENTIALS, "main", _locales, allow_private=False)
    with pytest.raises(outbound.AddressRefused):
        git.commit_files(url, CREDENTIALS, "main", "loko/x", {"a": b""}, "m", AUTHOR, allow_private=False)
    assert server.requests == []


def test_unreachable_host_is_unavailable():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with pytest.raises(ProviderError) as raised:
        git.read_files(
            f"http://127.0.0.1:{port}/owner/name.git", CREDENTIALS, "main", _locales, allow_private=True
        )
    assert raised.value.problem == "unavailable"


class DrippingServer:
    """An HTTP server on the loopback that answers every request with headers and the start
    of a git packet line, then one byte every 50 ms, for ever: each read gets data well within
    its timeout."""

    def __init__(self, tls: ssl.SSLContext | None = None):
        self.tls = tls
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self):
        self.listener.settimeout(0.1)
        while not self.stop.is_set():
            try:
                connection, _address = self.listener.accept()
            except TimeoutError:
                continue
            threading.Thread(target=self._drip, args=(connection,), daemon=True).start()

    def _drip(self, connection):
        try:
            if self.tls is not None:
                connection = self.tls.wrap_socket(connection, server_side=True)
            connection.recv(65536)
            connection.sendall(
                b"HTTP/1.1 200 OK\r\nContent-Type: application/x-git-upload-pack-advertisement\r\n"
                b"Content-Length: 100000\r\n\r\nfff0"
            )
            while not self.stop.is_set():  # a packet line of 65,516 bytes that never ends
                connection.sendall(b"a")
                self.stop.wait(0.05)
        except OSError:
            return
        finally:
            connection.close()

    def close(self):
        self.stop.set()
        self.thread.join(timeout=5)
        self.listener.close()


@pytest.mark.parametrize("scheme", ["http", "https"])
def test_a_git_operation_that_outlasts_its_deadline_is_stopped(monkeypatch, resolver, certificate, scheme):
    monkeypatch.setattr(net, "GIT_DEADLINE", 0.5)
    tls = None
    if scheme == "https":
        cert_file, key_file, pem = certificate
        tls = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        tls.load_cert_chain(cert_file, key_file)
        monkeypatch.setattr(outbound, "ssl_context", lambda: ssl.create_default_context(cadata=pem))
        resolver[TLS_NAME] = ["127.0.0.1"]
    server = DrippingServer(tls)
    host = TLS_NAME if tls else "127.0.0.1"
    started = time.monotonic()
    try:
        with pytest.raises(ProviderError) as raised:
            git.read_files(
                f"{scheme}://{host}:{server.port}/owner/name.git",
                CREDENTIALS,
                "main",
                _locales,
                allow_private=True,
            )
    finally:
        server.close()
    assert raised.value.problem == "unavailable"
    assert "was stopped after 0.5 s" in raised.value.message
    assert time.monotonic() - started < outbound.READ_TIMEOUT
