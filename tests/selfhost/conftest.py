"""Self-hosting fixtures: empty databases of their own (a SQLite file, or a throwaway
PostgreSQL database when LOKO_TEST_DATABASE_URL is set), apps built on them, and a real
``loko serve`` in a subprocess whose worker processes can be told apart."""

import http.client
import json
import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
import sqlalchemy as sa

from loko import create_app
from loko.database import upgrade_schema as upgrade
from loko.extensions import db
from tests.conftest import PG_ENV, _postgres_database, _test_config

PG_SKIP = f"PostgreSQL run skipped: set {PG_ENV} (e.g. postgresql+psycopg://postgres@127.0.0.1/postgres)"


@pytest.fixture(params=["sqlite", "postgresql"])
def empty_database_url(request, tmp_path):
    """The URL of a new, empty database (no schema), dropped after the test."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'loko.db'}"
        return
    if not os.environ.get(PG_ENV):
        pytest.skip(PG_SKIP)
    admin, name, url = _postgres_database()
    try:
        yield url
    finally:
        with admin.connect() as connection:
            connection.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.dispose()


def app_on(url, **overrides):
    """A Loko app on the database ``url``, with the test suite's settings."""
    return create_app(_test_config(url, **overrides))


def migrate_to(url, revision="head"):
    app = app_on(url)
    with app.app_context():
        try:
            upgrade(revision=revision)
        finally:
            db.engine.dispose()


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class ServedConnection:
    """One HTTP/1.1 connection to a ``loko serve`` worker; ``pid`` is the worker process
    that accepted it (found through /proc: the socket's inode among the worker's files)."""

    def __init__(self, server, timeout=30):
        self.server = server
        self.http = http.client.HTTPConnection("127.0.0.1", server.port, timeout=timeout)
        server.connections.append(self)
        self.request("GET", "/api/health")
        self.pid = server.worker_of(self.http.sock.getsockname()[1])

    def request(self, method, path, body=None, headers=None):
        """Send a request (a dict body as JSON); returns ``(status, headers, body bytes)``."""
        headers = dict(headers or {})
        if isinstance(body, dict):
            body = json.dumps(body).encode()
            headers.setdefault("Content-Type", "application/json")
        self.http.request(method, path, body=body, headers=headers)
        response = self.http.getresponse()
        return response.status, response.headers, response.read()

    def close(self):
        self.http.close()


class Server:
    """``loko serve`` in a subprocess on a free port of 127.0.0.1."""

    def __init__(self, process, port, log_path):
        self.process = process
        self.port = port
        self.log_path = log_path
        self.connections = []

    def workers(self) -> list[int]:
        children = Path(f"/proc/{self.process.pid}/task/{self.process.pid}/children").read_text()
        return [int(pid) for pid in children.split()]

    def worker_of(self, client_port: int, timeout=10) -> int:
        """The worker holding the server side of the connection from ``client_port``."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            inode = _server_socket_inode(self.port, client_port)
            if inode:
                for pid in self.workers():
                    for fd in Path(f"/proc/{pid}/fd").iterdir():
                        try:
                            if os.readlink(fd) == f"socket:[{inode}]":
                                return pid
                        except FileNotFoundError:
                            continue
            time.sleep(0.01)
        raise AssertionError(f"no worker holds the connection from port {client_port}")

    def connections_to_each_worker(self, count: int, limit=400) -> dict[int, list[ServedConnection]]:
        """``count`` open connections to every worker, opened until the kernel has spread
        them so (extra ones are closed)."""
        workers = self.workers()
        held = {pid: [] for pid in workers}
        for _ in range(limit):
            if all(len(connections) >= count for connections in held.values()):
                return held
            connection = ServedConnection(self)
            if len(held[connection.pid]) < count:
                held[connection.pid].append(connection)
            else:
                connection.close()
        raise AssertionError(f"{limit} connections did not reach every worker {count} times: {held}")


def _server_socket_inode(server_port: int, client_port: int) -> int:
    """The inode of the accepted socket (local ``server_port``, remote ``client_port``)."""
    local, remote = f"0100007F:{server_port:04X}", f"0100007F:{client_port:04X}"
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        if fields[1] == local and fields[2] == remote:
            return int(fields[9])
    return 0


@pytest.fixture
def serve(tmp_path):
    """``serve(url, processes=2, **env)`` starts ``loko serve`` on the (migrated) database
    ``url`` and returns a ``Server``; stopped after the test."""
    if not Path("/proc/net/tcp").exists():
        pytest.skip("needs Linux's /proc to tell the worker processes apart")
    started = []

    def start(url, processes=2, **env):
        port = _free_port()
        loko = shutil.which("loko", path=str(Path(sys.executable).parent)) or "loko"
        environment = {
            key: value for key, value in os.environ.items() if not key.startswith("LOKO_") or key == PG_ENV
        }
        environment.update(
            {
                "LOKO_DATABASE_URL": url,
                "LOKO_SECRET_KEY": "selfhost-test-secret",
                "LOKO_PORT": str(port),
                "LOKO_THREADS": "8",
                "LOKO_ALLOW_SIGNUP": "true",
                **env,
            }
        )
        log_path = tmp_path / f"server-{port}.log"
        log = log_path.open("wb")
        process = subprocess.Popen(
            [loko, "serve", "--processes", str(processes)],
            env=environment,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        server = Server(process, port, log_path)
        started.append((server, log))
        deadline = time.monotonic() + 60
        while True:
            try:
                connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
                connection.request("GET", "/api/health")
                if connection.getresponse().status == 200 and len(server.workers()) == processes:
                    connection.close()
                    break
                connection.close()
            except OSError:
                pass
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"loko serve did not start: {log_path.read_text()}")
            time.sleep(0.1)
        return server

    yield start
    for server, log in started:
        for connection in server.connections:
            connection.close()
        server.process.terminate()
        server.process.wait(timeout=30)
        log.close()


def insert_organization_and_project(connection, organization_id: str, project_id: str, at) -> None:
    """An organization "Acme" and its project "Web" (data version 1), both made at ``at`` (as
    the driver takes it), in the columns every revision since the first has: the rows an
    upgrade test stores before its upgrade."""
    connection.execute(
        sa.text("INSERT INTO organizations (id, name, created_at) VALUES (:id, 'Acme', :at)"),
        {"id": organization_id, "at": at},
    )
    connection.execute(
        sa.text(
            'INSERT INTO projects (id, organization_id, name, "desc", emoji, checks, '
            "data_version, data_updated_at, created_at) VALUES "
            "(:id, :org, 'Web', '', '', '{}', 1, :at, :at)"
        ),
        {"id": project_id, "org": organization_id, "at": at},
    )
