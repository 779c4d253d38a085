"""The pipeline CLI against a real ``loko serve``: pull over the export, push and status over
the import, and a round trip in a git repository that leaves it clean."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.client.conftest import write, write_config
from tests.screenshots.conftest import picture as png

pytestmark = pytest.mark.slow

LOCALES = "locales/{language}/{fileName}.json"
# The export's JSON: keys sorted, compact, UTF-8; local files written so are left as they are.
EN = b'{"hello":"Hello","title":"Shop"}'
DE = '{"hello":"Grüße","title":"Laden"}'.encode()
CART = b'{"checkout":"Zur Kasse"}'


@pytest.fixture
def project(loko, workdir, server_project, monkeypatch):
    """``workdir`` configured by ``loko init`` for a new project; LOKO_API_KEY is its key."""
    monkeypatch.setenv("LOKO_API_KEY", server_project.key)
    result = loko(
        "init", "--url", server_project.url, "--project", server_project.id, "--path", LOCALES, "--yes"
    )
    assert result.exit_code == 0, result.output
    return server_project


def init_with_source_language(loko, project, path: str, format_name: str) -> None:
    """``loko init`` for ``project`` with the source language ``en``."""
    result = loko(
        "init",
        *("--url", project.url, "--project", project.id),
        *("--path", path, "--format", format_name, "--source-language", "en", "--yes"),
    )
    assert result.exit_code == 0, result.output


def mtime(path: Path) -> int:
    return path.stat().st_mtime_ns


# --- pull ------------------------------------------------------------------------------------


def test_pull_writes_the_export_at_the_template_paths(loko, workdir, project):
    project.upsert("common", "de", {"hello": "Grüße", "title": "Laden"})
    project.upsert("shop/cart", "de", {"checkout": "Zur Kasse"})
    result = loko("pull")
    assert result.exit_code == 0, result.output
    assert (workdir / "locales/de/common.json").read_bytes() == DE
    assert (workdir / "locales/de/shop/cart.json").read_bytes() == CART


def test_second_pull_is_answered_not_modified(loko, workdir, project):
    project.upsert("common", "de", {"hello": "Hallo"})
    loko("pull")
    written = mtime(workdir / "locales/de/common.json")
    result = loko("pull", "--json")
    assert result.exit_code == 0, result.output
    assert '"notModified": true' in result.stdout
    assert mtime(workdir / "locales/de/common.json") == written


def test_second_pull_with_a_source_language_is_answered_not_modified(
    loko, workdir, server_project, monkeypatch
):
    monkeypatch.setenv("LOKO_API_KEY", server_project.key)
    init_with_source_language(loko, server_project, LOCALES, "json")
    server_project.upsert("common", "de", {"hello": "Hallo"})
    loko("pull")
    result = loko("pull", "--json")
    assert result.exit_code == 0, result.output
    assert '"notModified": true' in result.stdout


def test_pull_after_a_server_change_writes_only_that_file(loko, workdir, project):
    project.upsert("common", "de", {"hello": "Hallo"})
    project.upsert("common", "en", {"hello": "Hello"})
    loko("pull")
    english = mtime(workdir / "locales/en/common.json")
    project.upsert("common", "de", {"hello": "Servus"})
    result = loko("pull")
    assert result.stdout.splitlines() == [
        "  changed  locales/de/common.json",
        "json: 1 file(s) written, 1 unchanged",
    ]
    assert (workdir / "locales/de/common.json").read_bytes() == b'{"hello":"Servus"}'
    assert mtime(workdir / "locales/en/common.json") == english


def test_pull_restores_a_deleted_file(loko, workdir, project):
    project.upsert("common", "de", {"hello": "Hallo"})
    loko("pull")
    (workdir / "locales/de/common.json").unlink()
    assert loko("pull").exit_code == 0
    assert (workdir / "locales/de/common.json").read_bytes() == b'{"hello":"Hallo"}'


def test_pull_of_one_language(loko, workdir, project):
    project.upsert("common", "de", {"hello": "Hallo"})
    project.upsert("common", "en", {"hello": "Hello"})
    assert loko("pull", "--language", "en").exit_code == 0
    assert (workdir / "locales/en/common.json").exists()
    assert not (workdir / "locales/de/common.json").exists()


def test_pull_with_a_wrong_key_exits_1_with_the_servers_error(loko, workdir, project):
    result = loko("pull", env={"LOKO_API_KEY": "loko_not-a-key"})
    assert result.exit_code == 1
    assert "(HTTP 401)" in result.stderr


def test_pull_of_another_project_exits_1(loko, workdir, project):
    result = loko("pull", "--project", "0190d2a4-5c3e-7b51-9c0f-3c8e2f1a9b77")
    assert result.exit_code == 1
    assert "(HTTP 40" in result.stderr


# --- push and status -------------------------------------------------------------------------


def test_push_imports_the_local_files(loko, workdir, project):
    write(workdir, {"locales/en/common.json": EN, "locales/de/shop/cart.json": CART})
    result = loko("push")
    assert result.exit_code == 0, result.output
    assert "3 created" in result.stdout
    assert project.export() == {
        "de": {"shop/cart": {"checkout": "Zur Kasse"}},
        "en": {"common": {"hello": "Hello", "title": "Shop"}},
    }


def test_push_dry_run_changes_nothing_and_fails_on_diff(loko, workdir, project):
    write(workdir, {"locales/en/common.json": EN})
    result = loko("push", "--dry-run", "--fail-on-diff")
    assert result.exit_code == 3, result.output
    assert '+ common: hello [en] "Hello"' in result.stdout
    assert project.export() == {}


def test_push_trashes_keys_removed_locally(loko, workdir, project):
    write(workdir, {"locales/en/common.json": EN})
    loko("push")
    write(workdir, {"locales/en/common.json": b'{"hello":"Hello"}'})
    result = loko("push", "--removed-keys", "trash")
    assert result.exit_code == 0, result.output
    assert "1 trashed" in result.stdout
    assert project.export() == {"en": {"common": {"hello": "Hello"}}}


def test_push_as_a_job_shows_its_progress_and_reports_the_result(loko, workdir, project):
    write(workdir, {"locales/en/common.json": EN, "locales/de/shop/cart.json": CART})
    result = loko("push", "--async", "always")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    progress = [line for line in lines if line.startswith("Importing ")]
    assert progress[-1].startswith(f"Importing {LOCALES}: job ")
    assert progress[-1].endswith(" succeeded, 1 of 1")
    assert lines[len(progress) :] == [
        f"{LOCALES} (json): 2 file(s) sent",
        "  3 created, 0 updated, 0 unchanged, 0 trashed, 0 conflicts",
        '  + common: hello [en] "Hello"',
        '  + common: title [en] "Shop"',
        '  + shop/cart: checkout [de] "Zur Kasse"',
    ]
    assert project.export() == {
        "de": {"shop/cart": {"checkout": "Zur Kasse"}},
        "en": {"common": {"hello": "Hello", "title": "Shop"}},
    }


def test_push_as_a_job_answers_json_as_a_direct_push(loko, workdir, project):
    write(workdir, {"locales/en/common.json": EN})
    queued = loko("push", "--async", "always", "--json")
    assert queued.exit_code == 0, queued.output
    write(workdir, {"locales/en/common.json": b'{"hello":"Hi","title":"Shop"}'})
    direct = loko("push", "--async", "never", "--json")
    queued_answer, direct_answer = json.loads(queued.stdout), json.loads(direct.stdout)
    assert queued_answer["summary"]["created"] == 2
    assert direct_answer["summary"]["updated"] == 1
    assert set(queued_answer) == set(direct_answer)


def test_push_of_a_file_the_server_refuses_as_a_job_exits_1_with_its_error(loko, workdir, project):
    write(workdir, {"locales/en/common.json": b"{not json"})
    result = loko("push", "--async", "always")
    assert result.exit_code == 1, result.output
    assert "the import job " in result.stderr
    assert " failed: " in result.stderr


def test_status_reports_a_local_edit(loko, workdir, project):
    write(workdir, {"locales/en/common.json": EN})
    loko("push")
    loko("pull")
    write(workdir, {"locales/en/common.json": b'{"hello":"Hi","title":"Shop"}'})
    result = loko("status", "--fail-on-diff")
    assert result.exit_code == 3, result.output
    assert '~ common: hello [en] "Hello" -> "Hi"' in result.stdout
    assert "changed  locales/en/common.json" in result.stdout


def test_status_after_push_and_pull_is_in_sync(loko, workdir, project):
    write(workdir, {"locales/en/common.json": EN, "locales/de/common.json": DE})
    loko("push")
    loko("pull")
    result = loko("status", "--fail-on-diff")
    assert result.exit_code == 0, result.output


def test_status_review_lists_the_values_waiting_and_exits_5(loko, workdir, project):
    project.upsert("common", "en", {"title": "Shop"})
    project.upsert("common", "de", {"title": "Laden"})
    project.upsert("common", "en", {"title": "Store"})
    result = loko("status", "--review")
    assert result.exit_code == 5, result.output
    assert "Waiting for a review: 1" in result.stdout
    assert "common  title  [de]  source changed" in result.stdout


def test_status_review_exits_0_when_nothing_waits(loko, workdir, project):
    project.upsert("common", "en", {"title": "Shop"})
    result = loko("status", "--review")
    assert result.exit_code == 0, result.output
    assert "No values wait for a review." in result.stdout


def git(folder: Path, *args: str) -> str:
    command = [
        "git",
        "-c",
        "user.name=Loko",
        "-c",
        "user.email=loko@example.test",
        "-c",
        "commit.gpgsign=false",
    ]
    return subprocess.run([*command, *args], cwd=folder, check=True, capture_output=True, text=True).stdout


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_round_trip_leaves_the_repository_clean(workdir, server_project):
    loko = shutil.which("loko", path=str(Path(sys.executable).parent)) or "loko"
    env = {**os.environ, "LOKO_API_KEY": server_project.key}

    def run(*args):
        return subprocess.run(
            [loko, *args], cwd=workdir, env=env, capture_output=True, text=True, timeout=120
        )

    git(workdir, "init", "-q")
    write(
        workdir,
        {"locales/en/common.json": EN, "locales/de/common.json": DE, "locales/de/shop/cart.json": CART},
    )
    init = run(
        "init", "--url", server_project.url, "--project", server_project.id, "--path", LOCALES, "--yes"
    )
    assert init.returncode == 0, init.stderr
    git(workdir, "add", "-A")
    git(workdir, "commit", "-q", "-m", "Translations")

    push = run("push")
    assert push.returncode == 0, push.stderr
    pull = run("pull")
    assert pull.returncode == 0, pull.stderr
    assert git(workdir, "status", "--porcelain", "--untracked-files=all") == ""


# --- bilingual formats -----------------------------------------------------------------------

XLIFF_FILES = {
    "xliff": {
        "en": b"""<?xml version="1.0" encoding="UTF-8"?>
<xliff xmlns="urn:oasis:names:tc:xliff:document:1.2" version="1.2">
  <file original="messages" source-language="en" datatype="plaintext">
    <body>
      <trans-unit id="hello">
        <source>Hello</source>
      </trans-unit>
      <trans-unit id="title">
        <source>Shop</source>
      </trans-unit>
    </body>
  </file>
</xliff>
""",
        "de": b"""<?xml version="1.0" encoding="UTF-8"?>
<xliff xmlns="urn:oasis:names:tc:xliff:document:1.2" version="1.2">
  <file original="messages" source-language="en" target-language="de" datatype="plaintext">
    <body>
      <trans-unit id="hello">
        <source>Hello</source>
        <target>Hallo</target>
      </trans-unit>
      <trans-unit id="title">
        <source>Shop</source>
        <target>Laden</target>
      </trans-unit>
    </body>
  </file>
</xliff>
""",
    },
    "xliff2": {
        "en": b"""<?xml version="1.0" encoding="UTF-8"?>
<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" srcLang="en">
  <file id="f1" original="messages">
    <unit id="hello">
      <segment>
        <source>Hello</source>
      </segment>
    </unit>
    <unit id="title">
      <segment>
        <source>Shop</source>
      </segment>
    </unit>
  </file>
</xliff>
""",
        "de": b"""<?xml version="1.0" encoding="UTF-8"?>
<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" srcLang="en" trgLang="de">
  <file id="f1" original="messages">
    <unit id="hello">
      <segment>
        <source>Hello</source>
        <target>Hallo</target>
      </segment>
    </unit>
    <unit id="title">
      <segment>
        <source>Shop</source>
        <target>Laden</target>
      </segment>
    </unit>
  </file>
</xliff>
""",
    },
}


@pytest.mark.parametrize("format_name", ["xliff", "xliff2"])
def test_push_then_pull_of_xliff_in_two_languages_of_equal_size_leaves_the_files_unchanged(
    loko, workdir, server_project, monkeypatch, format_name
):
    monkeypatch.setenv("LOKO_API_KEY", server_project.key)
    init_with_source_language(loko, server_project, "locales/{language}/{fileName}.xlf", format_name)
    files = {f"locales/{code}/messages.xlf": data for code, data in XLIFF_FILES[format_name].items()}
    write(workdir, files)
    assert loko("push").exit_code == 0
    result = loko("pull")
    assert result.exit_code == 0, result.output
    assert {name: (workdir / name).read_bytes() for name in files} == files
    assert result.stdout == f"{format_name}: up to date\n"


def test_push_then_pull_with_the_language_after_the_file_name_leaves_the_files_unchanged(
    loko, workdir, server_project, monkeypatch
):
    monkeypatch.setenv("LOKO_API_KEY", server_project.key)
    init_with_source_language(loko, server_project, "translations/{fileName}.{language}.xlf", "xliff")
    files = {f"translations/messages.{code}.xlf": data for code, data in XLIFF_FILES["xliff"].items()}
    write(workdir, files)
    assert loko("push").exit_code == 0
    result = loko("pull")
    assert result.exit_code == 0, result.output
    assert sorted(path.name for path in (workdir / "translations").iterdir()) == [
        "messages.de.xlf",
        "messages.en.xlf",
    ]
    assert {name: (workdir / name).read_bytes() for name in files} == files


# --- two [[files]] entries of one format -----------------------------------------------------

WEB = "web/{language}/{fileName}.json"
APP = "app/src/{language}/{fileName}.json"


def test_each_project_file_is_pulled_under_the_entry_that_holds_it(
    loko, workdir, server_project, monkeypatch
):
    monkeypatch.setenv("LOKO_API_KEY", server_project.key)
    write_config(
        workdir, url=server_project.url, project=server_project.id, files=[(WEB, "json"), (APP, "json")]
    )
    write(workdir, {"web/en/web.json": b'{"home":"Home"}', "app/src/en/mobile.json": b'{"tab":"Tab"}'})
    assert loko("push").exit_code == 0
    server_project.upsert("web", "de", {"home": "Start"})
    server_project.upsert("mobile", "de", {"tab": "Reiter"})
    result = loko("pull")
    assert result.exit_code == 0, result.output
    assert sorted(
        path.relative_to(workdir).as_posix()
        for folder in ("web", "app")
        for path in (workdir / folder).rglob("*.json")
    ) == [
        "app/src/de/mobile.json",
        "app/src/en/mobile.json",
        "web/de/web.json",
        "web/en/web.json",
    ]


# --- screenshots -----------------------------------------------------------------------------


def server_screenshots(project) -> list[dict]:
    """The project's screenshots, each with its ``regionList``, by name."""
    with project.api() as api:
        listed = api.get("/screenshots").json()["screenshots"]
        details = [api.get(f"/screenshots/{shot['id']}").json()["screenshot"] for shot in listed]
    return sorted(details, key=lambda shot: shot["name"])


def test_push_screenshots_with_a_sidecar_places_the_keys_it_names(loko, workdir, project):
    project.upsert("common", "en", {"title": "Shop"})
    regions = [
        {"fileName": "common", "key": "title", "x": 10, "y": 20, "width": 100, "height": 30},
        {"fileName": "common", "key": "gone", "x": 0, "y": 0, "width": 5, "height": 5},
    ]
    sidecar = json.dumps({"screenshots": [{"image": "home.png", "regions": regions}]})
    write(workdir, {"shots/home.png": png(400, 300), "shots/screenshots.json": sidecar})
    result = loko("push", "--screenshots", "shots")
    assert result.exit_code == 0, result.output
    assert "1 created" in result.stdout and "1 skipped" in result.stdout
    assert "no key 'gone' in the file 'common'" in result.stdout
    (shot,) = server_screenshots(project)
    assert [(r["key"], r["x"], r["y"], r["width"], r["height"]) for r in shot["regionList"]] == [
        ("title", 10, 20, 100, 30)
    ]
    again = loko("push", "--screenshots", "shots", "--json")
    assert json.loads(again.stdout)["summary"]["regionsExisting"] == 1
    assert len(server_screenshots(project)[0]["regionList"]) == 1


def test_push_screenshots_without_a_sidecar_uploads_the_images(loko, workdir, project):
    write(workdir, {"shots/home.png": png(color=(1, 2, 3)), "shots/cart.jpg": png(kind="JPEG")})
    result = loko("push", "--screenshots", "shots")
    assert result.exit_code == 0, result.output
    assert "2 created" in result.stdout
    assert [(shot["name"], shot["mediaType"]) for shot in server_screenshots(project)] == [
        ("cart.jpg", "image/jpeg"),
        ("home.png", "image/png"),
    ]


def test_push_screenshots_dry_run_writes_nothing(loko, workdir, project):
    write(workdir, {"shots/home.png": png()})
    result = loko("push", "--screenshots", "shots", "--dry-run")
    assert result.exit_code == 0, result.output
    assert "1 created" in result.stdout and "Dry run: nothing was changed" in result.stdout
    assert server_screenshots(project) == []


def test_push_screenshots_of_a_file_that_is_no_image_exits_1_naming_it(loko, workdir, project):
    write(workdir, {"shots/home.png": png(), "shots/fake.png": b"<svg><script/></svg>"})
    result = loko("push", "--screenshots", "shots")
    assert result.exit_code == 1
    assert "'fake.png'" in result.stderr and "(HTTP 400)" in result.stderr
    assert server_screenshots(project) == []


# --- tasks -----------------------------------------------------------------------------------


def test_tasks_lists_the_projects_tasks_with_their_progress(loko, workdir, project, organization):
    client, _organization_id = organization
    base = f"/api/projects/{project.id}"
    client.post(
        f"{base}/translations", json={"key": "hello", "fileName": "common", "values": {"en": "Hello"}}
    ).raise_for_status()
    client.post(
        f"{base}/tasks", json={"kind": "translate", "language": "de", "title": "German", "filter": {}}
    ).raise_for_status()
    result = loko("tasks")
    assert result.exit_code == 0, result.output
    assert "German  translate de  open  0% of 1 keys  (nobody)" in result.stdout
    answer = json.loads(loko("tasks", "--json", "--state", "all").stdout)
    assert [task["title"] for task in answer["tasks"]] == ["German"]


def test_pull_with_a_tag_writes_only_the_tagged_keys(loko, workdir, project):
    project.upsert("common", "de", {"hello": "Grüße", "title": "Laden"})
    with project.api() as api:
        response = api.post("/tags/bulk", json={"add": ["web"], "filter": {"search": "title"}})
        response.raise_for_status()
    result = loko("pull", "--tag", "web")
    assert result.exit_code == 0, result.output
    assert (workdir / "locales/de/common.json").read_bytes() == b'{"title":"Laden"}'
    assert loko("pull", "--exclude-tag", "web").exit_code == 0
    assert (workdir / "locales/de/common.json").read_bytes() == '{"hello":"Grüße"}'.encode()
    refused = loko("pull", "--tag", "no spaces")
    assert refused.exit_code != 0
    assert "not a tag" in refused.output


def test_tasks_create_close_and_reopen_a_task(loko, workdir, project, organization):
    client, _organization_id = organization
    owner = client.get("/api/auth/me").json()["user"]["email"]
    project.upsert("common", "en", {"hello": "Hello", "title": "Shop"})
    project.upsert("shop/cart", "en", {"checkout": "Checkout"})
    result = loko(
        "tasks",
        "create",
        *("--kind", "review", "--language", "de", "--assignee", owner, "--due", "2026-12-31"),
        *("--file", "common", "--json"),
    )
    assert result.exit_code == 0, result.output
    task = json.loads(result.stdout)["task"]
    assert (task["kind"], task["language"], task["title"], task["keyCount"]) == (
        "review",
        "de",
        "Review de",
        2,
    )
    assert [person["email"] for person in task["assignees"]] == [owner]
    assert task["dueAt"].startswith("2026-12-31T23:59:59")
    closed = loko("tasks", "close", task["id"])
    assert closed.exit_code == 0, closed.output
    assert f"Task {task['id']}: Review de  closed" in closed.stdout
    assert "No tasks." in loko("tasks").stdout
    assert loko("tasks", "reopen", task["id"]).exit_code == 0
    listed = json.loads(loko("tasks", "--json").stdout)["tasks"]
    assert [(item["id"], item["state"]) for item in listed] == [(task["id"], "open")]


def test_tasks_create_refuses_bad_input_and_a_read_key(loko, workdir, project, organization):
    client, _organization_id = organization
    project.upsert("common", "en", {"hello": "Hello"})
    nobody = loko(
        "tasks", "create", "--kind", "translate", "--language", "de", "--assignee", "x@example.test"
    )
    assert nobody.exit_code == 1
    assert "assigneeEmails.0:" in nobody.stderr
    bad_due = loko("tasks", "create", "--kind", "translate", "--language", "de", "--due", "soon")
    assert bad_due.exit_code == 2 and "--due" in bad_due.output
    response = client.post(f"/api/projects/{project.id}/keys", json={"name": "reader", "scope": "read"})
    response.raise_for_status()
    reader = {"LOKO_API_KEY": response.json()["key"]}
    refused = loko("tasks", "create", "--kind", "translate", "--language", "de", env=reader)
    assert refused.exit_code == 1
    assert "(HTTP 403)" in refused.stderr and "canManageTasks" in refused.stderr
    made = loko("tasks", "create", "--kind", "translate", "--language", "de", "--json")
    assert made.exit_code == 0, made.output
    task_id = json.loads(made.stdout)["task"]["id"]
    assert loko("tasks", "close", task_id, env=reader).exit_code == 1
    assert loko("tasks", "--state", "open", env=reader).stdout.startswith(task_id)
