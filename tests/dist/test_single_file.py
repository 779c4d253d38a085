"""The one-file build, ``dist/loko``, run as a self-hoster runs it: ``loko serve`` with
nothing but a data folder and a port, then a person's and a pipeline's calls over HTTP.

Slow. ``dist/loko`` is built with PyInstaller (packaging/build.py, what `make dist` runs)
when it is missing or older than its sources, and reused otherwise; without PyInstaller
the tests skip, unless a fresh build is already there.
"""

import importlib.util
import io
import os
import platform
import socket
import stat
import subprocess
import sys
import time
import zipfile
from importlib.metadata import version
from pathlib import Path

import httpx
import pytest

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("test_single_file")]

ROOT = Path(__file__).resolve().parent.parent.parent
EXECUTABLE = ROOT / "dist" / "loko"
PASSWORD = "correct horse battery"
START_TIMEOUT = 60


def _build_module():
    spec = importlib.util.spec_from_file_location("loko_dist_build", ROOT / "packaging" / "build.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def executable() -> Path:
    """dist/loko, built first when it is missing or stale."""
    if sys.platform != "linux" or platform.machine() != "x86_64":
        pytest.skip("one-file build tests skipped: dist/loko is built for Linux x86_64")
    build = _build_module()
    if not build.is_fresh():
        if importlib.util.find_spec("PyInstaller") is None:
            pytest.skip(
                "one-file build tests skipped: PyInstaller is not installed "
                "(pip install 'pyinstaller>=6.22,<7'; `make dist` builds dist/loko)"
            )
        build.main([])
    return EXECUTABLE


def _environment(**settings) -> dict:
    """The caller's environment without its LOKO_* settings: nothing is set up but these."""
    env = {name: value for name, value in os.environ.items() if not name.startswith("LOKO_")}
    return {**env, **settings}


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _children(pid: int) -> list[int]:
    path = Path(f"/proc/{pid}/task/{pid}/children")
    return [int(child) for child in path.read_text().split()] if path.exists() else []


@pytest.fixture(scope="module")
def server(executable, tmp_path_factory):
    """``dist/loko serve`` on a free port with a new, empty data folder; yields its base URL
    and that folder."""
    folder = tmp_path_factory.mktemp("single-file")
    data_dir = folder / "data"
    port = _free_port()
    log_path = folder / "server.log"
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [str(executable), "serve"],
            env=_environment(LOKO_DATA_DIR=str(data_dir), LOKO_PORT=str(port)),
            cwd=folder,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + START_TIMEOUT
    while True:
        try:
            if httpx.get(f"{url}/api/health", timeout=2).status_code == 200:
                break
        except httpx.TransportError:
            pass
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            pytest.fail(f"dist/loko serve did not start:\n{log_path.read_text(errors='replace')}")
        time.sleep(0.05)
    yield url, data_dir
    # The launcher passes SIGTERM on to the serving process, then removes what it unpacked.
    workers = _children(process.pid)
    process.terminate()
    try:
        process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        for pid in [process.pid, *workers]:
            os.kill(pid, 9)
        raise


@pytest.fixture(scope="module")
def session(server):
    """A client signed in as the installation's first account (always allowed to sign up)."""
    url, _data_dir = server
    with httpx.Client(base_url=url, timeout=30) as client:
        response = client.post(
            "/api/auth/signup", json={"email": "ada@example.test", "password": PASSWORD, "name": "Ada"}
        )
        assert response.status_code == 201, response.text
        yield client


@pytest.fixture(scope="module")
def project(server, session):
    """A project of Ada's organization and a client holding an API key of it, which wrote
    a translation in two languages: ``(project id, client)``."""
    url, _data_dir = server
    organization = session.get("/api/auth/me").json()["organizations"][0]["id"]
    response = session.post("/api/projects", json={"name": "Web app", "organization_id": organization})
    assert response.status_code == 201, response.text
    project_id = response.json()["project"]["id"]
    response = session.post(f"/api/projects/{project_id}/keys", json={"name": "CI pipeline"})
    assert response.status_code == 201, response.text
    headers = {"Authorization": f"Bearer {response.json()['key']}"}
    with httpx.Client(base_url=url, headers=headers, timeout=30) as pipeline:
        response = pipeline.patch(
            f"/api/projects/{project_id}/translations",
            json={
                "key": "greeting",
                "fileName": "common",
                "updates": {"en": {"value": "Hello"}, "de": {"value": "Hallo"}},
            },
        )
        assert response.status_code == 200, response.text
        yield project_id, pipeline


def _export(project, **query) -> httpx.Response:
    project_id, pipeline = project
    response = pipeline.get(f"/api/projects/{project_id}/translations", params=query)
    assert response.status_code == 200, response.text
    return response


def test_version_option_prints_the_version(executable):
    result = subprocess.run(
        [str(executable), "--version"], capture_output=True, text=True, env=_environment(), timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == f"loko, version {version('loko')}"


def test_health_answers_with_the_version(server):
    url, _data_dir = server
    assert httpx.get(f"{url}/api/health").json() == {"status": "ok", "version": version("loko")}


def test_serve_keeps_database_and_secret_key_in_the_data_folder(server):
    _url, data_dir = server
    assert (data_dir / "loko.db").is_file()
    assert stat.S_IMODE((data_dir / "secret_key").stat().st_mode) == 0o600


def test_without_data_dir_the_data_folder_is_loko_data_in_the_working_directory(executable, tmp_path):
    result = subprocess.run(
        [str(executable), "db", "upgrade"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=_environment(),
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert sorted(path.name for path in (tmp_path / "loko-data").iterdir() if "-" not in path.name) == [
        "loko.db",
        "secret_key",
    ]


def test_translations_written_with_an_api_key_export_as_json(project):
    assert _export(project).json() == {
        "de": {"common": {"greeting": "Hallo"}},
        "en": {"common": {"greeting": "Hello"}},
    }


def test_po_export_carries_the_plural_rule_from_cldr(project):
    archive = zipfile.ZipFile(io.BytesIO(_export(project, format="po", zip="true").content))
    assert sorted(archive.namelist()) == ["de/common.po", "en/common.po"]
    text = archive.read("de/common.po").decode()
    assert 'msgstr "Hallo"' in text
    assert "Plural-Forms: nplurals=2; plural=(n != 1);" in text


def test_languages_are_named_from_cldr(session, project):
    project_id, _key = project
    response = session.post(f"/api/projects/{project_id}/languages", json={"code": "pt-BR"})
    assert response.status_code == 201, response.text
    languages = session.get(f"/api/projects/{project_id}/languages").json()["languages"]
    assert {language["code"]: language["name"] for language in languages}["pt-BR"] == "Portuguese (Brazil)"


def test_web_app_pages_and_assets_are_served(session, project):
    project_id, _key = project
    page = session.get(f"/projects/{project_id}")
    assert page.status_code == 200
    assert page.headers["Content-Type"].startswith("text/html")
    assert session.get("/static/loko.css").status_code == 200


def test_api_docs_page_and_swagger_ui_are_served(server):
    url, _data_dir = server
    page = httpx.get(f"{url}/api/docs")
    assert page.status_code == 200
    assert "swagger-ui-bundle.js" in page.text
    script = httpx.get(f"{url}/api/docs/assets/swagger-ui-bundle.js")
    assert script.status_code == 200
    assert len(script.content) > 100_000
    assert httpx.get(f"{url}/api/openapi.json").json()["info"]["version"] == version("loko")


@pytest.mark.parametrize("kind", ["PNG", "JPEG", "WEBP"])
def test_a_screenshot_is_read_and_its_thumbnail_made_by_the_bundled_pillow(project, kind):
    from PIL import Image

    project_id, pipeline = project
    picture = io.BytesIO()
    Image.new("RGB", (640, 480), (30, 120, 200)).save(picture, kind)
    response = pipeline.post(
        f"/api/projects/{project_id}/screenshots",
        files={"files": (f"home.{kind.lower()}", picture.getvalue())},
    )
    assert response.status_code == 201, response.text
    screenshot_id = response.json()["screenshots"][0]["id"]
    thumbnail = pipeline.get(f"/api/projects/{project_id}/screenshots/{screenshot_id}/image?size=thumbnail")
    assert thumbnail.status_code == 200
    assert thumbnail.headers["Content-Type"] == "image/webp"
    assert Image.open(io.BytesIO(thumbnail.content)).size == (320, 240)
