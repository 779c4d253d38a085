"""A real git smart-HTTP server on the loopback: Debian's ``git http-backend`` behind a small
threaded ``http.server``, for bare repositories under a temporary root.

Every request needs HTTP Basic auth whose password is the server's token (any username, as
the hosts accept ``x-access-token`` or ``oauth2``); pushes are recorded. ``handle`` serves a
git request on any ``BaseHTTPRequestHandler``, so a stand-in for a provider's API can serve
its git repositories from the same port. Repositories are created and read with the ``git``
CLI, which only the tests need.
"""

import base64
import binascii
import os
import re
import shlex
import shutil
import subprocess
import tempfile
import threading
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import unquote, urlsplit

GIT = shutil.which("git")
GIT_PATH = re.compile(
    r"^/(?P<repository>[^?]+?\.git)(?P<tail>/(?:info/refs|git-upload-pack|git-receive-pack|HEAD|objects/.+))$"
)
AUTHOR = {
    "GIT_AUTHOR_NAME": "Test Author",
    "GIT_AUTHOR_EMAIL": "author@example.org",
    "GIT_COMMITTER_NAME": "Test Author",
    "GIT_COMMITTER_EMAIL": "author@example.org",
}


@dataclass(frozen=True)
class Push:
    repository: str  # "owner/name"
    username: str


class GitServer:
    def __init__(self, token: str = "git-token"):
        self.token = token
        self.pushes: list[Push] = []
        self.requests: list[tuple[str, str]] = []  # (method, path) of every git request
        self._tmp = tempfile.TemporaryDirectory(prefix="loko-git-")
        self.root = Path(self._tmp.name) / "repositories"
        self.root.mkdir()
        # Neither the user's nor the system's git configuration reaches the server or the CLI.
        global_config = Path(self._tmp.name) / "gitconfig"
        global_config.write_text("")
        self._env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": self._tmp.name,
            "GIT_CONFIG_NOSYSTEM": "1",
            "GIT_CONFIG_GLOBAL": str(global_config),
            "LC_ALL": "C",
        }
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    # server
    def start(self) -> "GitServer":
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):
                if not server.handle(self):
                    self.send_error(404)

            do_POST = do_GET

            def log_message(self, format, *args):
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._thread.join()
            self._server = None
        self._tmp.cleanup()

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    def git_url(self, path: str) -> str:
        return f"{self.url}/{path}.git"

    def handle(self, handler: BaseHTTPRequestHandler) -> bool:
        """Serve ``handler``'s request when it names a git path; False otherwise."""
        split = urlsplit(handler.path)
        match = GIT_PATH.match(unquote(split.path))
        if match is None:
            return False
        self.requests.append((handler.command, handler.path))
        # Read before answering, so that a kept-alive connection stays in step after a 401.
        body = _read_body(handler) if handler.command == "POST" else b""
        username = self._authenticated_user(handler)
        if username is None:
            handler.send_response(401)
            handler.send_header("WWW-Authenticate", 'Basic realm="git"')
            handler.send_header("Content-Length", "0")
            handler.end_headers()
            return True
        env = {
            **self._env,
            "GIT_PROJECT_ROOT": str(self.root),
            "GIT_HTTP_EXPORT_ALL": "1",
            "GATEWAY_INTERFACE": "CGI/1.1",
            "SERVER_PROTOCOL": "HTTP/1.1",
            "REQUEST_METHOD": handler.command,
            "PATH_INFO": f"/{match['repository']}{match['tail']}",
            "QUERY_STRING": split.query,
            "CONTENT_TYPE": handler.headers.get("Content-Type", ""),
            "CONTENT_LENGTH": str(len(body)),
            "REMOTE_USER": username,
            "REMOTE_ADDR": handler.client_address[0],
        }
        for header, variable in (
            ("Git-Protocol", "GIT_PROTOCOL"),
            ("Content-Encoding", "HTTP_CONTENT_ENCODING"),
        ):
            if handler.headers.get(header):
                env[variable] = handler.headers[header]
        result = subprocess.run(
            [GIT, "http-backend"], input=body, env=env, capture_output=True, timeout=60, check=False
        )
        status, headers, payload = _parse_cgi(result.stdout)
        if result.returncode != 0 and status == 200:
            status = 500
        handler.send_response(status)
        for name, value in headers:
            handler.send_header(name, value)
        handler.send_header("Content-Length", str(len(payload)))
        handler.end_headers()
        handler.wfile.write(payload)
        if match["tail"] == "/git-receive-pack" and status == 200:
            with self._lock:
                self.pushes.append(Push(match["repository"].removesuffix(".git"), username))
        return True

    def _authenticated_user(self, handler: BaseHTTPRequestHandler) -> str | None:
        scheme, _, encoded = handler.headers.get("Authorization", "").partition(" ")
        if scheme.lower() != "basic":
            return None
        try:
            username, _, password = base64.b64decode(encoded).decode().partition(":")
        except (binascii.Error, UnicodeDecodeError):
            return None
        return (username or "git") if password == self.token else None

    # repositories, through the git CLI
    def create_repository(
        self, path: str = "owner/name", files: dict[str, bytes] | None = None, branch: str = "main"
    ) -> None:
        """A bare repository ``<path>.git`` whose ``branch`` holds one commit with ``files``."""
        directory = self._directory(path)
        directory.parent.mkdir(parents=True, exist_ok=True)
        self._git("init", "--quiet", "--bare", f"--initial-branch={branch}", str(directory))
        self.set_config(path, "http.receivepack", "true")
        self.add_commit(path, branch, files or {}, message="Initial commit")

    def add_commit(
        self,
        path: str,
        branch: str,
        files: dict[str, bytes],
        deleted: tuple[str, ...] = (),
        message: str = "Change files",
    ) -> str:
        """Commit ``files`` (and the removal of ``deleted``) on top of ``branch``; its sha."""
        parent = self.head(path, branch)
        with tempfile.TemporaryDirectory() as scratch:
            env = {"GIT_INDEX_FILE": str(Path(scratch) / "index")}
            if parent:
                self._git("read-tree", parent, repository=path, env=env)
            for name, content in files.items():
                blob = self._git("hash-object", "-w", "--stdin", repository=path, input=content)
                self._git(
                    "update-index", "--add", "--cacheinfo", f"100644,{blob},{name}", repository=path, env=env
                )
            for name in deleted:
                self._git("update-index", "--force-remove", name, repository=path, env=env)
            tree = self._git("write-tree", repository=path, env=env)
        parents = ["-p", parent] if parent else []
        commit = self._git("commit-tree", tree, *parents, "-m", message, repository=path)
        self._git("update-ref", f"refs/heads/{branch}", commit, repository=path)
        return commit

    def set_config(self, path: str, key: str, value: str) -> None:
        """``git config`` in the repository, e.g. ``uploadpack.allowFilter true`` for a host
        that supports partial clone."""
        self._git("config", key, value, repository=path)

    def decline_pushes(self, path: str, reason: str = "pushes are declined") -> None:
        """A pre-receive hook that refuses every push, as a protected branch would."""
        hook = self._directory(path) / "hooks" / "pre-receive"
        hook.write_text(f"#!/bin/sh\necho {shlex.quote(reason)} >&2\nexit 1\n")
        hook.chmod(0o755)

    def head(self, path: str, branch: str) -> str | None:
        """The sha ``branch`` points at, None when it does not exist."""
        ref = f"refs/heads/{branch}^{{commit}}"
        result = subprocess.run(
            [GIT, "--git-dir", str(self._directory(path)), "rev-parse", "--verify", "--quiet", ref],
            env={**self._env, **AUTHOR},
            capture_output=True,
            check=False,
        )
        return result.stdout.decode().strip() or None

    def parents(self, path: str, commit: str) -> list[str]:
        line = self._git("rev-list", "--parents", "-n", "1", commit, repository=path)
        return line.split()[1:]

    def message(self, path: str, commit: str) -> str:
        return self._git("log", "-1", "--format=%B", commit, repository=path)

    def author(self, path: str, commit: str) -> str:
        return self._git("log", "-1", "--format=%an <%ae>", commit, repository=path)

    def read_branch(self, path: str, branch: str) -> dict[str, bytes]:
        """Every file on ``branch``: path -> content."""
        listing = self._git("ls-tree", "-r", "-z", f"refs/heads/{branch}", repository=path, strip=False)
        files = {}
        for entry in filter(None, listing.split("\0")):
            meta, name = entry.split("\t", 1)
            _mode, _kind, blob = meta.split()
            files[name] = self._git_bytes("cat-file", "blob", blob, repository=path)
        return files

    def _directory(self, path: str) -> Path:
        return self.root / f"{path}.git"

    def _git(self, *args, repository=None, env=None, input=None, strip=True) -> str:
        output = self._git_bytes(*args, repository=repository, env=env, input=input).decode()
        return output.strip() if strip else output

    def _git_bytes(self, *args, repository=None, env=None, input=None) -> bytes:
        prefix = [GIT] if repository is None else [GIT, "--git-dir", str(self._directory(repository))]
        result = subprocess.run(
            prefix + list(args),
            env={**self._env, **AUTHOR, **(env or {})},
            input=input,
            capture_output=True,
            check=False,
        )
        if result.returncode != 0:
            raise RuntimeError(f"git {' '.join(args)} failed: {result.stderr.decode(errors='replace')}")
        return result.stdout


def _read_body(handler: BaseHTTPRequestHandler) -> bytes:
    if handler.headers.get("Transfer-Encoding", "").lower() == "chunked":
        chunks = []
        while True:
            size = int(handler.rfile.readline().split(b";")[0].strip(), 16)
            if size == 0:
                while handler.rfile.readline() not in (b"\r\n", b"\n", b""):
                    pass  # trailers
                return b"".join(chunks)
            chunks.append(handler.rfile.read(size))
            handler.rfile.readline()
    return handler.rfile.read(int(handler.headers.get("Content-Length") or 0))


def _parse_cgi(output: bytes) -> tuple[int, list[tuple[str, str]], bytes]:
    head, separator, body = output.partition(b"\r\n\r\n")
    if not separator:
        head, _, body = output.partition(b"\n\n")
    status, headers = 200, []
    for line in head.decode("latin-1").splitlines():
        name, _, value = line.partition(":")
        if name.lower() == "status":
            status = int(value.split()[0])
        elif name:
            headers.append((name, value.strip()))
    return status, headers, body
