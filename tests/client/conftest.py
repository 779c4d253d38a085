"""Fixtures of the pipeline CLI's tests: ``loko`` run in a temporary folder through click's
runner, a fake server (an httpx mock transport) for the unit tests, and a real
``loko serve`` (the browser tests' ``server_url``) with a project and an API key for the
integration tests."""

import io
import itertools
import json
import os
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner

from loko.cli import main
from loko.client import commands
from loko.client.remote import Remote
from tests.browser.conftest import PASSWORD, server_url  # noqa: F401  (a real `loko serve`)

CLIENT_ENV = ("LOKO_URL", "LOKO_PROJECT", "LOKO_API_KEY")
PROJECT_ID = "0190d2a4-5c3e-7b51-9c0f-3c8e2f1a9b77"
API_KEY = "loko_test-key"
_projects = itertools.count(1)


@pytest.fixture
def workdir(tmp_path, monkeypatch):
    """An empty current folder, with none of the client's variables in the environment."""
    folder = tmp_path / "repo"
    folder.mkdir()
    monkeypatch.chdir(folder)
    for name in CLIENT_ENV:
        monkeypatch.delenv(name, raising=False)
    # FlaskGroup sets this while a command runs; keep it out of the other tests.
    monkeypatch.setenv("FLASK_RUN_FROM_CLI", "false")
    return folder


@pytest.fixture
def loko(workdir):
    """``loko("push", "--dry-run")`` runs the ``loko`` command in ``workdir``; stdout and
    stderr stay apart (``result.stdout``, ``result.stderr``)."""
    runner = CliRunner()

    def run(*args, env=None, input=None):
        return runner.invoke(main, list(args), env=env, input=input, catch_exceptions=False)

    return run


def write(folder: Path, files: dict[str, bytes | str]) -> None:
    for name, data in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data.encode() if isinstance(data, str) else data)


def write_config(folder: Path, url="https://loko.example.test", project=PROJECT_ID, files=None, **extra):
    """A ``loko.toml`` in ``folder``; ``files`` are ``(path, format)`` pairs."""
    lines = [f'url = "{url}"', f'project = "{project}"']
    lines += [f"{name} = {json.dumps(value)}" for name, value in extra.items()]
    for path, format_name in files or [("locales/{language}/{fileName}.json", "json")]:
        lines += ["[[files]]", f'path = "{path}"', f'format = "{format_name}"']
    (folder / "loko.toml").write_text("\n".join(lines) + "\n", encoding="utf-8")


def zip_of(entries: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in entries.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def import_result(
    dry_run=True, created=(), updated=(), trashed=(), conflicts=(), notes=(), unchanged=0
) -> dict:
    return {
        "dryRun": dry_run,
        "summary": {
            "created": len(created),
            "updated": len(updated),
            "unchanged": unchanged,
            "trashed": len(trashed),
            "conflicts": len(conflicts),
            "notes": len(notes),
        },
        "files": [],
        "created": list(created),
        "updated": list(updated),
        "trashed": list(trashed),
        "conflicts": list(conflicts),
        "notes": list(notes),
        "unchanged": unchanged,
        "truncated": False,
    }


@dataclass
class FakeServer:
    """Answers the client's requests from ``answers`` (``(method, path) -> httpx.Response``
    or a callable of the request) and keeps every request it was sent."""

    answers: dict = field(default_factory=dict)
    requests: list = field(default_factory=list)

    def handle(self, request: httpx.Request) -> httpx.Response:
        request.read()
        self.requests.append(request)
        answer = self.answers.get((request.method, request.url.path))
        if answer is None:
            return httpx.Response(404, json={"error": "Not found."})
        return answer(request) if callable(answer) else answer

    def export(self, entries: dict[str, bytes], etag='"v1"'):
        self.answers[("GET", f"/api/projects/{PROJECT_ID}/translations")] = httpx.Response(
            200, content=zip_of(entries), headers={"ETag": etag, "Content-Type": "application/zip"}
        )

    def imports(self, answer):
        self.answers[("POST", f"/api/projects/{PROJECT_ID}/import")] = answer


@pytest.fixture
def fake_server(monkeypatch, workdir):
    """The commands' server replaced by a FakeServer; LOKO_API_KEY is set."""
    server = FakeServer()
    transport = httpx.MockTransport(server.handle)

    def remote(config, out):
        return Remote(config.url, config.project, config.api_key, transport=transport)

    monkeypatch.setattr(commands, "_remote", remote)
    monkeypatch.setenv("LOKO_API_KEY", API_KEY)
    return server


# --- a real server --------------------------------------------------------------------------


@dataclass
class ServerProject:
    """A project on the real server, with a write API key."""

    url: str
    id: str
    key: str

    def api(self) -> httpx.Client:
        return httpx.Client(
            base_url=f"{self.url}/api/projects/{self.id}",
            headers={"Authorization": f"Bearer {self.key}"},
            timeout=30,
        )

    def upsert(self, file_name: str, language: str, values: dict[str, str]) -> None:
        body = {
            "operation": "bulk-upsert",
            "fileName": file_name,
            "languageCode": language,
            "translations": [{"key": key, "value": value} for key, value in values.items()],
        }
        with self.api() as api:
            api.put("/translations", json=body).raise_for_status()

    def export(self) -> dict:
        """``{language: {fileName: {key: value}}}``."""
        with self.api() as api:
            response = api.get("/translations", params={"format": "json"})
            response.raise_for_status()
            return response.json()


@pytest.fixture(scope="session")
def organization(server_url):  # noqa: F811
    """A signed-in owner's client and organization id, on the real server."""
    with httpx.Client(base_url=server_url, timeout=30) as client:
        email = f"pipeline-{os.getpid()}@example.test"
        client.post(
            "/api/auth/signup", json={"email": email, "password": PASSWORD, "organization": "Pipeline"}
        ).raise_for_status()
        organization_id = client.get("/api/auth/me").json()["organizations"][0]["id"]
        yield client, organization_id


@pytest.fixture
def server_project(server_url, organization):  # noqa: F811
    """A new project in English and German, and a write API key of it."""
    client, organization_id = organization
    response = client.post(
        "/api/projects", json={"name": f"Pipeline {next(_projects)}", "organization_id": organization_id}
    )
    response.raise_for_status()
    project_id = response.json()["project"]["id"]
    for code in ("en", "de"):
        client.post(f"/api/projects/{project_id}/languages", json={"code": code}).raise_for_status()
    response = client.post(f"/api/projects/{project_id}/keys", json={"name": "pipeline"})
    response.raise_for_status()
    return ServerProject(server_url, project_id, response.json()["key"])
