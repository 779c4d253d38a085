"""``loko push``, ``pull`` and ``status`` against a fake server: the requests they make, what
they print, what they write and their exit codes."""

import ast
import io
import json
import zipfile
from pathlib import Path

import httpx
import pytest

import loko.client
from loko.cli import main
from tests.client.conftest import PROJECT_ID, import_result, write, write_config

CREATED = {"fileName": "common", "key": "hello", "language": "de", "value": "Hallo"}
UPDATED = {"fileName": "common", "key": "title", "language": "de", "old": "Alt", "new": "Neu"}


@pytest.fixture
def repo(workdir):
    """A configured folder with an English and a German file."""
    write_config(workdir)
    write(
        workdir,
        {"locales/en/common.json": b'{"hello":"Hello"}', "locales/de/common.json": b'{"hello":"Hallo"}'},
    )
    return workdir


def zip_names(data: bytes) -> list[str]:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return archive.namelist()


# --- the package -----------------------------------------------------------------------------


# Pure modules the client shares with the server (each imports no other Loko module).
SHARED = {"loko.languages.codes"}


def _loko_imports(module: Path) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(module.read_text(encoding="utf-8"))):
        names = [alias.name for alias in node.names] if isinstance(node, ast.Import) else []
        if isinstance(node, ast.ImportFrom):
            names = [node.module or ""]
        found += [name for name in names if name.split(".")[0] == "loko"]
    return found


def test_client_package_imports_nothing_of_the_server():
    for module in Path(loko.client.__file__).parent.glob("*.py"):
        for name in _loko_imports(module):
            assert name.split(".")[:2] == ["loko", "client"] or name in SHARED, (
                f"{module.name} imports {name}"
            )


def test_the_modules_shared_with_the_server_import_no_other_loko_module():
    for shared in SHARED:
        path = Path(loko.client.__file__).parent.parent.joinpath(*shared.split(".")[1:]).with_suffix(".py")
        assert _loko_imports(path) == [], shared


def test_client_commands_never_create_the_app(loko, repo, fake_server, monkeypatch):
    def no_app(*_args, **_kwargs):
        raise AssertionError("the app was created")

    monkeypatch.setattr(main, "create_app", no_app)
    fake_server.export({"de/common.json": b'{"hello":"Hallo"}'})
    assert loko("pull").exit_code == 0


# --- push ------------------------------------------------------------------------------------


def test_push_sends_one_zip_in_one_request(loko, repo, fake_server):
    fake_server.imports(httpx.Response(200, json=import_result(dry_run=False, created=[CREATED])))
    result = loko("push", "--mode", "replace-file", "--removed-keys", "trash")
    assert result.exit_code == 0, result.output
    (request,) = fake_server.requests
    assert dict(request.url.params) == {
        "format": "json",
        "pathTemplate": "locales/{language}/{fileName}.json",
        "mode": "replace-file",
        "removedKeys": "trash",
        "dryRun": "false",
    }
    assert zip_names(request.content) == ["locales/de/common.json", "locales/en/common.json"]


def test_push_sends_one_request_per_files_entry(loko, workdir, fake_server):
    write_config(
        workdir, files=[("locales/{language}/{fileName}.json", "json"), ("po/{language}/{fileName}.po", "po")]
    )
    write(workdir, {"locales/en/a.json": "{}", "po/de/b.po": ""})
    fake_server.imports(httpx.Response(200, json=import_result(dry_run=False)))
    assert loko("push").exit_code == 0
    assert [(r.url.params["format"], zip_names(r.content)) for r in fake_server.requests] == [
        ("json", ["locales/en/a.json"]),
        ("po", ["po/de/b.po"]),
    ]


def test_push_sends_only_the_languages_asked_for(loko, repo, fake_server):
    fake_server.imports(httpx.Response(200, json=import_result(dry_run=False)))
    assert loko("push", "--language", "de").exit_code == 0
    assert zip_names(fake_server.requests[0].content) == ["locales/de/common.json"]


def test_push_prints_counts_then_changes(loko, repo, fake_server):
    fake_server.imports(
        httpx.Response(200, json=import_result(created=[CREATED], updated=[UPDATED], unchanged=3))
    )
    result = loko("push", "--dry-run")
    assert result.exit_code == 0
    assert result.stdout.splitlines() == [
        "locales/{language}/{fileName}.json (json): 2 file(s) sent",
        "  1 created, 1 updated, 3 unchanged, 0 trashed, 0 conflicts",
        '  + common: hello [de] "Hallo"',
        '  ~ common: title [de] "Alt" -> "Neu"',
        "Dry run: nothing was changed on the server.",
    ]


def test_push_json_prints_the_servers_answer(loko, repo, fake_server):
    answer = import_result(dry_run=False, created=[CREATED])
    fake_server.imports(httpx.Response(200, json=answer))
    result = loko("push", "--json")
    assert json.loads(result.stdout) == answer


def test_push_quiet_prints_nothing(loko, repo, fake_server):
    fake_server.imports(httpx.Response(200, json=import_result(dry_run=False, created=[CREATED])))
    result = loko("push", "--quiet")
    assert (result.exit_code, result.stdout) == (0, "")


def test_dry_run_with_changes_fails_on_diff(loko, repo, fake_server):
    fake_server.imports(httpx.Response(200, json=import_result(created=[CREATED])))
    assert loko("push", "--dry-run", "--fail-on-diff").exit_code == 3
    assert fake_server.requests[0].url.params["dryRun"] == "true"


NOTES = {
    "fileName": "common",
    "key": "title",
    "old": {"comment": None, "context": None, "details": None},
    "new": {"comment": "Shown on top", "context": None, "details": None},
}


def test_dry_run_that_changes_only_notes_fails_on_diff(loko, repo, fake_server):
    fake_server.imports(httpx.Response(200, json=import_result(notes=[NOTES], unchanged=2)))
    result = loko("push", "--dry-run", "--fail-on-diff")
    assert result.exit_code == 3
    assert "  * common: title (comment, context or format details)" in result.stdout.splitlines()


def test_dry_run_without_changes_passes_fail_on_diff(loko, repo, fake_server):
    fake_server.imports(httpx.Response(200, json=import_result(unchanged=2)))
    assert loko("push", "--dry-run", "--fail-on-diff").exit_code == 0


def test_fail_on_diff_needs_dry_run(loko, repo, fake_server):
    assert loko("push", "--fail-on-diff").exit_code == 2
    assert fake_server.requests == []


def test_server_refusal_exits_1_with_its_error(loko, repo, fake_server):
    fake_server.imports(
        httpx.Response(400, json={"error": "file: 'locales/de/common.json' is not valid json"})
    )
    result = loko("push")
    assert result.exit_code == 1
    assert "is not valid json (HTTP 400)" in result.stderr


def test_push_with_no_matching_files_fails(loko, workdir, fake_server):
    write_config(workdir)
    result = loko("push")
    assert result.exit_code == 1
    assert "no files match" in result.stderr
    assert fake_server.requests == []


def test_unreachable_server_exits_1(loko, repo, monkeypatch):
    monkeypatch.setenv("LOKO_API_KEY", "loko_k")
    result = loko("push", "--url", "http://127.0.0.1:9")
    assert result.exit_code == 1
    assert "cannot reach http://127.0.0.1:9" in result.stderr


def test_missing_api_key_is_a_usage_error(loko, repo):
    result = loko("push")
    assert result.exit_code == 2
    assert "LOKO_API_KEY" in result.stderr


def test_invalid_language_is_a_usage_error(loko, repo, fake_server):
    assert loko("push", "--language", "de/../x").exit_code == 2


def test_plain_http_to_another_host_is_warned_about(loko, repo, fake_server):
    fake_server.imports(httpx.Response(200, json=import_result()))
    result = loko("push", "--dry-run", "--url", "http://loko.example.test")
    assert "not https" in result.stderr


def test_api_key_in_the_config_file_is_warned_about(loko, workdir, fake_server, monkeypatch):
    monkeypatch.delenv("LOKO_API_KEY")
    write_config(workdir, api_key="loko_in_file")
    write(workdir, {"locales/en/a.json": "{}"})
    fake_server.imports(httpx.Response(200, json=import_result()))
    result = loko("push", "--dry-run")
    assert result.exit_code == 0
    assert "holds an API key" in result.stderr
    assert fake_server.requests[0].headers["Authorization"] == "Bearer loko_in_file"


# --- pull ------------------------------------------------------------------------------------


def test_pull_writes_the_files_that_differ(loko, repo, fake_server):
    fake_server.export({"de/common.json": b'{"hello":"Servus"}', "en/common.json": b'{"hello":"Hello"}'})
    result = loko("pull")
    assert result.exit_code == 0, result.output
    assert (repo / "locales/de/common.json").read_bytes() == b'{"hello":"Servus"}'
    assert "changed  locales/de/common.json" in result.stdout
    assert "en/common.json" not in result.stdout


def test_pull_sends_the_saved_etag_and_304_is_up_to_date(loko, repo, fake_server):
    fake_server.export({"de/common.json": b'{"hello":"Hallo"}'}, etag='"v7"')
    loko("pull")
    fake_server.answers[("GET", fake_server.requests[0].url.path)] = httpx.Response(304)
    result = loko("pull")
    assert (result.exit_code, result.stdout) == (0, "json: up to date\n")
    assert fake_server.requests[1].headers["If-None-Match"] == '"v7"'


def test_pull_does_not_revalidate_after_a_local_edit(loko, repo, fake_server):
    fake_server.export({"de/common.json": b'{"hello":"Hallo"}'}, etag='"v7"')
    loko("pull")
    write(repo, {"locales/de/common.json": b"{}"})
    loko("pull")
    assert "If-None-Match" not in fake_server.requests[1].headers
    assert (repo / "locales/de/common.json").read_bytes() == b'{"hello":"Hallo"}'


def test_pull_refuses_an_entry_outside_the_folder(loko, repo, fake_server):
    fake_server.export({"de/new.json": b"{}", "de/../../../escaped.json": b"{}"})
    result = loko("pull")
    assert result.exit_code == 1
    assert "outside" in result.stderr
    assert not (repo / "locales/de/new.json").exists()
    assert not (repo.parent / "escaped.json").exists()


def test_pull_refuses_an_absolute_entry(loko, repo, fake_server):
    fake_server.export({"/tmp/evil.json": b"{}"})
    assert loko("pull").exit_code == 1


def test_pull_json_lists_what_it_wrote(loko, repo, fake_server):
    fake_server.export({"de/common.json": b'{"hello":"Hallo"}', "de/new.json": b"{}"})
    result = loko("pull", "--json")
    assert json.loads(result.stdout) == {
        "formats": [
            {
                "format": "json",
                "notModified": False,
                "written": [{"path": "locales/de/new.json", "change": "new"}],
                "unchanged": 1,
            }
        ]
    }


def test_pull_asks_for_the_languages(loko, repo, fake_server):
    fake_server.export({"de/common.json": b"{}"})
    loko("pull", "--language", "de,fr")
    assert fake_server.requests[0].url.params.get_list("language") == ["de", "fr"]


def test_pull_from_a_subfolder_writes_beside_the_config(loko, repo, fake_server, monkeypatch):
    (repo / "src").mkdir()
    monkeypatch.chdir(repo / "src")
    fake_server.export({"fr/common.json": b"{}"})
    assert loko("pull").exit_code == 0
    assert (repo / "locales/fr/common.json").exists()
    assert (repo / ".loko/state.json").exists()


def test_pull_asks_for_the_configured_source_language(loko, workdir, fake_server):
    write_config(workdir, source_language="en", files=[("locales/{language}/{fileName}.xlf", "xliff")])
    fake_server.export({})
    assert loko("pull").exit_code == 0
    assert fake_server.requests[0].url.params["sourceLanguage"] == "en"


def test_pull_without_a_source_language_leaves_it_to_the_server(loko, repo, fake_server):
    fake_server.export({})
    assert loko("pull").exit_code == 0
    assert "sourceLanguage" not in fake_server.requests[0].url.params


CSV_TABLE = b"key,de,en\r\nhello,Hallo,Hello\r\n"


@pytest.fixture
def csv_repo(workdir):
    """A configured folder with one CSV file holding English and German."""
    write_config(workdir, files=[("data/{fileName}.csv", "csv")])
    write(workdir, {"data/app.csv": CSV_TABLE})
    return workdir


@pytest.mark.parametrize("command", ["pull", "push", "status"])
def test_language_filter_is_refused_for_a_file_holding_every_language(loko, csv_repo, fake_server, command):
    fake_server.export({"app.csv": b"key,de\r\nhello,Hallo\r\n"})
    fake_server.imports(httpx.Response(200, json=import_result()))
    result = loko(command, "--language", "de")
    assert result.exit_code == 2
    assert "data/{fileName}.csv (csv) holds every language in one file" in result.stderr
    assert fake_server.requests == []
    assert (csv_repo / "data/app.csv").read_bytes() == CSV_TABLE


def test_pull_of_a_file_holding_every_language_writes_every_language(loko, csv_repo, fake_server):
    table = b"key,de,en\r\nhello,Servus,Hello\r\n"
    fake_server.export({"app.csv": table})
    assert loko("pull").exit_code == 0
    assert "language" not in fake_server.requests[0].url.params
    assert (csv_repo / "data/app.csv").read_bytes() == table


WEB = "web/{language}/{fileName}.json"
APP = "app/src/{language}/{fileName}.json"


@pytest.fixture
def two_entries(workdir):
    """Two JSON entries: the project file `web` is under the first, `mobile` under the second."""
    write_config(workdir, files=[(WEB, "json"), (APP, "json")])
    write(workdir, {"web/en/web.json": b"{}", "app/src/en/mobile.json": b"{}"})
    return workdir


def test_pull_writes_each_project_file_under_the_entry_that_holds_it(loko, two_entries, fake_server):
    fake_server.export({"de/web.json": b"{}", "de/mobile.json": b"{}"})
    result = loko("pull", "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["formats"][0]["written"] == [
        {"path": "app/src/de/mobile.json", "change": "new"},
        {"path": "web/de/web.json", "change": "new"},
    ]


def test_pull_writes_a_project_file_held_by_no_entry_under_the_first(loko, two_entries, fake_server):
    fake_server.export({"de/checkout.json": b"{}"})
    assert loko("pull").exit_code == 0
    assert (two_entries / "web/de/checkout.json").exists()
    assert not (two_entries / "app/src/de/checkout.json").exists()


def test_status_compares_each_project_file_under_the_entry_that_holds_it(loko, two_entries, fake_server):
    fake_server.imports(httpx.Response(200, json=import_result(unchanged=2)))
    fake_server.export({"en/web.json": b"{}", "en/mobile.json": b"{}"})
    result = loko("status", "--fail-on-diff")
    assert result.exit_code == 0, result.output


# --- status ----------------------------------------------------------------------------------


def test_status_in_sync_exits_0(loko, repo, fake_server):
    fake_server.imports(httpx.Response(200, json=import_result(unchanged=2)))
    fake_server.export({"de/common.json": b'{"hello":"Hallo"}', "en/common.json": b'{"hello":"Hello"}'})
    result = loko("status", "--fail-on-diff")
    assert result.exit_code == 0, result.output
    assert "In sync" in result.stdout


def test_status_fails_on_a_pull_difference_without_writing(loko, repo, fake_server):
    fake_server.imports(httpx.Response(200, json=import_result(unchanged=2)))
    fake_server.export({"de/common.json": b'{"hello":"Servus"}'})
    result = loko("status", "--fail-on-diff")
    assert result.exit_code == 3
    assert "changed  locales/de/common.json" in result.stdout
    assert (repo / "locales/de/common.json").read_bytes() == b'{"hello":"Hallo"}'
    assert not (repo / ".loko").exists()


def test_status_push_side_is_a_dry_run(loko, repo, fake_server):
    fake_server.imports(httpx.Response(200, json=import_result(created=[CREATED])))
    fake_server.export({"de/common.json": b'{"hello":"Hallo"}', "en/common.json": b'{"hello":"Hello"}'})
    result = loko("status", "--fail-on-diff", "--json")
    assert result.exit_code == 3
    assert fake_server.requests[0].url.params["dryRun"] == "true"
    assert json.loads(result.stdout)["differences"] is True


def test_status_without_fail_on_diff_exits_0(loko, repo, fake_server):
    fake_server.imports(httpx.Response(200, json=import_result(created=[CREATED])))
    fake_server.export({})
    assert loko("status").exit_code == 0


def test_status_asks_for_the_configured_source_language(loko, workdir, fake_server):
    write_config(workdir, source_language="en", files=[("locales/{language}/{fileName}.xlf", "xliff")])
    write(workdir, {"locales/en/messages.xlf": b""})
    fake_server.imports(httpx.Response(200, json=import_result()))
    fake_server.export({})
    assert loko("status").exit_code == 0
    (export,) = [request for request in fake_server.requests if request.method == "GET"]
    assert export.url.params["sourceLanguage"] == "en"


# --- repohost --------------------------------------------------------------------------------

SYNCED = {
    "created": 2,
    "updated": 1,
    "unchanged": 4,
    "trashed": 0,
    "conflicts": 0,
    "files": ["locales/de/common.json", "locales/en/common.json"],
    "dryRun": True,
    "commit": "0" * 40,
    "changes": {"created": [], "updated": [], "trashed": [], "conflicts": []},
    "truncated": False,
}


def test_repohost_push_prints_the_pull_request(loko, repo, fake_server):
    pull = {"url": "https://git.example/acme/app/pull/7", "number": 7, "branch": "loko/translations"}
    fake_server.answers[("POST", f"/api/projects/{PROJECT_ID}/repohost/push")] = httpx.Response(
        200, json={"pullRequest": pull}
    )
    result = loko("repohost", "push")
    assert result.exit_code == 0, result.output
    assert "Pull request #7: https://git.example/acme/app/pull/7" in result.output


def test_repohost_push_with_nothing_to_push_says_so(loko, repo, fake_server):
    fake_server.answers[("POST", f"/api/projects/{PROJECT_ID}/repohost/push")] = httpx.Response(
        200, json={"pullRequest": None}
    )
    assert "Nothing to push" in loko("repohost", "push").output


def test_repohost_sync_dry_run_sends_its_options_and_fails_on_diff(loko, repo, fake_server):
    fake_server.answers[("POST", f"/api/projects/{PROJECT_ID}/repohost/sync")] = httpx.Response(
        200, json=SYNCED
    )
    result = loko("repohost", "sync", "--dry-run", "--removed-keys", "trash", "--fail-on-diff")
    assert result.exit_code == 3, result.output
    assert json.loads(fake_server.requests[-1].content) == {"dryRun": True, "removedKeys": "trash"}
    assert "Would change: 2 created, 1 updated" in result.output


def test_repohost_errors_print_the_servers_message(loko, repo, fake_server):
    fake_server.answers[("POST", f"/api/projects/{PROJECT_ID}/repohost/push")] = httpx.Response(
        502, json={"error": "github: GitHub answered 500: the host is on fire"}
    )
    result = loko("repohost", "push")
    assert result.exit_code == 1
    assert "the host is on fire" in result.output


def test_pull_of_xliff_without_a_configured_source_reads_the_project_setting(loko, workdir, fake_server):
    write_config(workdir, files=[("locales/{language}/{fileName}.xlf", "xliff")])
    fake_server.answers[("GET", f"/api/projects/{PROJECT_ID}")] = httpx.Response(
        200, json={"project": {"id": PROJECT_ID, "source_language": "ja"}}
    )
    fake_server.export({})
    assert loko("pull").exit_code == 0
    export = [r for r in fake_server.requests if r.url.path.endswith("/translations")]
    assert export[0].url.params["sourceLanguage"] == "ja"


def test_status_of_xliff_without_a_configured_source_reads_the_project_setting(loko, workdir, fake_server):
    write_config(workdir, files=[("locales/{language}/{fileName}.xlf", "xliff")])
    fake_server.answers[("GET", f"/api/projects/{PROJECT_ID}")] = httpx.Response(
        200, json={"project": {"id": PROJECT_ID, "source_language": "ja"}}
    )
    fake_server.export({})
    loko("status")
    export = [r for r in fake_server.requests if r.url.path.endswith("/translations")]
    assert export[0].url.params["sourceLanguage"] == "ja"


def test_a_configured_source_language_is_not_asked_of_the_server(loko, workdir, fake_server):
    write_config(workdir, source_language="en", files=[("locales/{language}/{fileName}.xlf", "xliff")])
    fake_server.export({})
    assert loko("pull").exit_code == 0
    assert [r.url.path for r in fake_server.requests] == [f"/api/projects/{PROJECT_ID}/translations"]


# --- push as a job on the server ---------------------------------------------------------------


JOB_ID = "0190d2a4-5c3e-7b51-9c0f-000000000001"


def job(state, done=0, total=None, result=None, error=None) -> dict:
    return {
        "id": JOB_ID,
        "kind": "import",
        "state": state,
        "progress": {"done": done, "total": total},
        "result": result,
        "error": error,
    }


@pytest.fixture
def job_server(fake_server, monkeypatch):
    """The fake server answering the import with a queued job, then each look at the job
    with the next of ``fake_server.job_states``; no waiting between looks."""
    monkeypatch.setattr("loko.client.remote.time.sleep", lambda _seconds: None)
    fake_server.imports(lambda request: httpx.Response(202, json={"job": job("queued")}))
    fake_server.job_states = []

    def look(_request):
        return httpx.Response(200, json={"job": fake_server.job_states.pop(0)})

    fake_server.answers[("GET", f"/api/projects/{PROJECT_ID}/jobs/{JOB_ID}")] = look
    return fake_server


def test_push_of_an_upload_over_the_threshold_is_a_job_waited_for(loko, repo, job_server, monkeypatch):
    monkeypatch.setattr("loko.client.commands.ASYNC_THRESHOLD", 100)
    answer = import_result(dry_run=False, created=[CREATED])
    job_server.job_states = [job("running", 0, 1), job("succeeded", 0, 1, result=answer)]
    result = loko("push", "--json")
    assert result.exit_code == 0, result.output
    assert job_server.requests[0].url.params["async"] == "true"
    assert json.loads(result.stdout) == answer


def test_push_of_a_small_upload_is_imported_at_once(loko, repo, fake_server):
    fake_server.imports(httpx.Response(200, json=import_result(dry_run=False)))
    assert loko("push").exit_code == 0
    assert "async" not in fake_server.requests[0].url.params


def test_push_dry_run_is_never_a_job(loko, repo, fake_server):
    fake_server.imports(httpx.Response(200, json=import_result()))
    assert loko("push", "--dry-run", "--async", "always").exit_code == 0
    assert "async" not in fake_server.requests[0].url.params


def test_push_as_a_job_prints_a_line_per_change_when_not_on_a_terminal(loko, repo, job_server):
    answer = import_result(dry_run=False, created=[CREATED])
    job_server.job_states = [
        job("queued"),
        job("running", 0, 4),
        job("running", 2, 4),
        job("running", 2, 4),
        job("succeeded", 4, 4, result=answer),
    ]
    result = loko("push", "--async", "always")
    assert result.exit_code == 0, result.output
    label = "Importing locales/{language}/{fileName}.json: job " + JOB_ID
    assert result.stdout.splitlines() == [
        f"{label} queued",
        f"{label} running, 0 of 4",
        f"{label} running, 2 of 4",
        f"{label} succeeded, 4 of 4",
        "locales/{language}/{fileName}.json (json): 2 file(s) sent",
        "  1 created, 0 updated, 0 unchanged, 0 trashed, 0 conflicts",
        '  + common: hello [de] "Hallo"',
    ]


def test_push_as_a_job_draws_a_progress_bar_on_a_terminal(loko, repo, job_server, monkeypatch):
    monkeypatch.setattr("loko.client.commands.stdout_is_terminal", lambda: True)
    monkeypatch.setattr("loko.client.commands.Output.show_progress", True)
    answer = import_result(dry_run=False)
    job_server.job_states = [job("running", 1, 2), job("succeeded", 2, 2, result=answer)]
    result = loko("push", "--async", "always")
    assert result.exit_code == 0, result.output
    assert "[###############---------------] 1 of 2 running" in result.stderr
    assert "[##############################] 2 of 2 succeeded" in result.stderr
    assert "Importing" not in result.stdout


@pytest.mark.parametrize("state", ["failed", "cancelled"])
def test_push_as_a_job_that_did_not_succeed_exits_1_with_its_error(loko, repo, job_server, state):
    job_server.job_states = [job(state, error="the file does not parse")]
    result = loko("push", "--async", "always")
    assert result.exit_code == 1
    assert f"the import job {JOB_ID} {state}: the file does not parse" in result.stderr


# --- status --checks -------------------------------------------------------------------------


def checks_answer(levels: dict, counts: list, needs_review=()) -> httpx.Response:
    return httpx.Response(
        200,
        json={
            "levels": levels,
            "counts": counts,
            "needsReview": list(needs_review),
            "total": sum(row["issues"] for row in counts),
            "issues": [],
        },
    )


def test_status_checks_prints_the_counts_and_exits_0_with_warnings_only(loko, repo, fake_server):
    fake_server.answers[("GET", f"/api/projects/{PROJECT_ID}/checks")] = checks_answer(
        {"max-length": "warn"},
        [{"language": "de", "check": "max-length", "issues": 2}],
        [{"language": "de", "values": 5}],
    )
    result = loko("status", "--checks")
    assert result.exit_code == 0, result.output
    assert "max-length (warn)  de  2" in result.stdout
    assert "Needs review: de 5" in result.stdout
    assert [request.method for request in fake_server.requests] == ["GET"]


def test_status_checks_exits_4_when_a_refusing_check_has_issues(loko, repo, fake_server):
    fake_server.answers[("GET", f"/api/projects/{PROJECT_ID}/checks")] = checks_answer(
        {"max-length": "refuse"}, [{"language": "fr", "check": "max-length", "issues": 1}]
    )
    result = loko("status", "--checks", "--json")
    assert result.exit_code == 4
    assert json.loads(result.stdout)["refusing"] == ["max-length"]


def test_status_checks_without_issues_says_so(loko, repo, fake_server):
    fake_server.answers[("GET", f"/api/projects/{PROJECT_ID}/checks")] = checks_answer(
        {"max-length": "refuse"}, []
    )
    result = loko("status", "--checks")
    assert result.exit_code == 0
    assert "No issues." in result.stdout


# --- status --review -------------------------------------------------------------------------

REVIEW_PATH = f"/api/projects/{PROJECT_ID}/translations/review"


def queued(key: str, language: str, reason: str | None, file_name: str = "common") -> dict:
    return {
        "translationId": f"id-{key}",
        "key": key,
        "fileName": file_name,
        "language": language,
        "value": key.title(),
        "state": "needs-review",
        "reason": reason,
        "checks": [],
        "updatedAt": "2025-03-01T09:30:00+00:00",
    }


def queue_server(fake_server, values: list[dict]) -> None:
    """The fake server answers the review queue from ``values``, page by page."""

    def answer(request):
        params = request.url.params
        wanted = [item for item in values if item["language"] == params.get("language", item["language"])]
        offset, limit = int(params["offset"]), int(params["limit"])
        assert params["state"] == "needs-review"
        return httpx.Response(200, json={"total": len(wanted), "values": wanted[offset : offset + limit]})

    fake_server.answers[("GET", REVIEW_PATH)] = answer


def test_status_review_lists_the_waiting_values_and_exits_5(loko, repo, fake_server):
    queue_server(fake_server, [queued("title", "de", "source-changed"), queued("save", "fr", "agent")])
    result = loko("status", "--review")
    assert result.exit_code == 5, result.output
    assert "Waiting for a review: 2" in result.stdout
    assert "common  title  [de]  source changed" in result.stdout
    assert "common  save  [fr]  written by an agent" in result.stdout


def test_status_review_exits_0_when_nothing_waits(loko, repo, fake_server):
    queue_server(fake_server, [])
    result = loko("status", "--review")
    assert result.exit_code == 0, result.output
    assert "No values wait for a review." in result.stdout


def test_status_review_says_when_a_reason_was_not_recorded(loko, repo, fake_server):
    queue_server(fake_server, [queued("title", "de", None)])
    result = loko("status", "--review")
    assert "common  title  [de]  reason not recorded" in result.stdout


def test_status_review_reads_every_page(loko, repo, fake_server, monkeypatch):
    monkeypatch.setattr("loko.client.remote.REVIEW_PAGE", 2)
    queue_server(fake_server, [queued(f"key{n}", "de", "agent") for n in range(5)])
    result = loko("status", "--review", "--json")
    assert result.exit_code == 5
    answer = json.loads(result.stdout)
    assert (answer["total"], [item["key"] for item in answer["values"]]) == (
        5,
        ["key0", "key1", "key2", "key3", "key4"],
    )
    assert [request.url.params["offset"] for request in fake_server.requests] == ["0", "2", "4"]


def test_status_review_asks_for_each_language_given(loko, repo, fake_server):
    queue_server(fake_server, [queued("title", "de", "agent"), queued("title", "fr", "agent")])
    result = loko("status", "--review", "--language", "fr", "--json")
    assert result.exit_code == 5
    assert [item["language"] for item in json.loads(result.stdout)["values"]] == ["fr"]
    assert [request.url.params["language"] for request in fake_server.requests] == ["fr"]


def test_status_review_and_checks_are_one_at_a_time(loko, repo, fake_server):
    result = loko("status", "--review", "--checks")
    assert result.exit_code == 2
    assert fake_server.requests == []


def test_status_review_reports_a_server_error_with_exit_1(loko, repo, fake_server):
    fake_server.answers[("GET", REVIEW_PATH)] = httpx.Response(403, json={"error": "Not allowed."})
    result = loko("status", "--review")
    assert result.exit_code == 1
    assert "Not allowed." in result.stderr
