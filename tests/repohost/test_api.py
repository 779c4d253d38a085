"""The five repository endpoints end to end: a real git server (git http-backend) and a
stand-in of each provider's API on 127.0.0.1, checked against the provider's API
description; push, sync, the webhook, errors, one run at a time and the permission table."""

import hashlib
import hmac
import json
import threading
from datetime import UTC, datetime, timedelta

import orjson
import pytest
from sqlalchemy import select, update

from loko.database import unit_of_work
from loko.extensions import db
from loko.jobs.models import Job
from loko.repohost import service
from loko.repohost.models import RepoHost, RepoHostRun
from tests.factories import CALLERS, CallerClient, run_jobs
from tests.repohost.conftest import NEEDS_GIT, REPOSITORY, TOKEN, configure, settings

pytestmark = NEEDS_GIT


def pulls(host):
    return host.repositories[REPOSITORY].pulls


def last_run(app) -> tuple[str, str, str]:
    """(kind, status, summary) of the project's latest run."""
    with app.app_context():
        row = db.session.execute(
            select(RepoHostRun.kind, RepoHostRun.status, RepoHostRun.summary)
            .order_by(RepoHostRun.started_at.desc())
            .limit(1)
        ).one()
    return tuple(row)


def claim(app) -> tuple[str | None, datetime | None]:
    """(running, run_started_at) of the project's configuration."""
    with app.app_context():
        return tuple(db.session.execute(select(RepoHost.running, RepoHost.run_started_at)).one())


def without_token(host, **overrides) -> dict:
    body = settings(host, **overrides)
    del body["token"]
    return body


# Configuration


def test_configure_answers_the_settings_without_the_token(api, host):
    response = configure(api, host)
    assert response.status_code == 200, response.json
    assert response.json["repohost"]["token_set"] is True
    assert TOKEN not in response.get_data(as_text=True)
    assert api.owner.get(api.url("/repohost")).json["repohost"]["repository"] == REPOSITORY


def test_the_token_is_stored_encrypted(app, configured):
    with app.app_context():
        stored = db.session.execute(select(RepoHost.token_encrypted)).scalar_one()
    assert TOKEN not in stored


def test_the_webhook_secret_is_shown_only_the_first_time(configured, host):
    again = configure(configured, host)
    assert again.status_code == 200 and "webhook" not in again.json


def test_without_configuration_get_answers_null(api):
    assert api.owner.get(api.url("/repohost")).json == {"repohost": None}


def test_a_missing_repository_is_named(api, host):
    response = configure(api, host, repository="acme/none")
    assert response.status_code == 400 and "repository" in response.json["error"]
    assert api.owner.get(api.url("/repohost")).json == {"repohost": None}


def test_a_missing_branch_is_named(api, host):
    response = configure(api, host, branch="release")
    assert response.status_code == 400 and "release" in response.json["error"]


def test_a_token_that_may_not_push_is_named(api, host):
    response = configure(api, host, token=host.read_only_token)
    assert response.status_code == 400, response.json


def test_a_loopback_host_is_refused_without_the_setting(app, api, host):
    app.config["LOKO_REPOHOST_ALLOW_PRIVATE"] = False
    response = configure(api, host)
    assert response.status_code == 400 and "api_url" in response.json["error"]
    assert host.calls == []


def test_a_configuration_without_a_token_keeps_the_stored_one(configured, host):
    response = configured.owner.post(
        configured.url("/repohost"), json=without_token(host, path="i18n/{language}/{fileName}.json")
    )
    assert response.status_code == 200, response.json
    assert response.json["repohost"]["path"] == "i18n/{language}/{fileName}.json"


@pytest.mark.parametrize("field", ["provider", "api_url", "repository"])
def test_a_new_provider_api_url_or_repository_needs_the_token_again(configured, host, field):
    host.add_repository("acme/other")
    changed = {
        "provider": "github" if host.name != "github" else "gitea",
        "api_url": host.api_url.replace("127.0.0.1", "127.0.0.2"),
        "repository": "acme/other",
    }[field]
    calls = len(host.calls)
    response = configured.owner.post(
        configured.url("/repohost"), json=without_token(host, **{field: changed})
    )
    assert response.status_code == 400
    assert response.json["error"].startswith(f"token: required again when {field} changes")
    assert len(host.calls) == calls
    assert configured.owner.get(configured.url("/repohost")).json["repohost"][field] == settings(host)[field]


def test_delete_removes_the_configuration(configured):
    assert configured.owner.delete(configured.url("/repohost")).json == {"success": True}
    assert configured.owner.get(configured.url("/repohost")).json == {"repohost": None}


# Push


def test_push_commits_to_the_branch_and_opens_a_pull_request(configured, host):
    configured.upsert("en", {"title": "Title", "new": "New"}, file_name="common")
    response = configured.post("/repohost/push", {})
    assert response.status_code == 200, response.json
    pull = response.json["pullRequest"]
    assert pull["branch"] == "loko/translations" and pull["number"] == 1
    files = host.git.read_branch(REPOSITORY, "loko/translations")
    assert orjson.loads(files["locales/en/common.json"]) == {"new": "New", "title": "Title"}
    assert files["README.md"] == b"# App\n"
    assert [p.head for p in pulls(host)] == ["loko/translations"]


def test_a_second_push_updates_the_same_pull_request(configured, host):
    configured.upsert("en", {"title": "One"}, file_name="common")
    first = configured.post("/repohost/push", {}).json["pullRequest"]
    configured.upsert("en", {"title": "Two"}, file_name="common")
    second = configured.post("/repohost/push", {}).json["pullRequest"]
    assert second["number"] == first["number"]
    assert len(pulls(host)) == 1
    files = host.git.read_branch(REPOSITORY, "loko/translations")
    assert orjson.loads(files["locales/en/common.json"]) == {"title": "Two"}


def test_push_with_nothing_changed_answers_null(configured, host):
    configured.upsert("en", {"title": "Title", "old": "Old"}, file_name="common")
    configured.upsert("de", {"title": "Titel"}, file_name="common")
    assert configured.post("/repohost/push", {}).json == {"pullRequest": None}
    assert pulls(host) == []


def revert_after_a_push(configured) -> None:
    """A push opens the pull request; then the project's values go back to the base branch's."""
    configured.upsert("en", {"title": "Changed", "old": "Old"}, file_name="common")
    configured.upsert("de", {"title": "Titel"}, file_name="common")
    assert configured.post("/repohost/push", {}).json["pullRequest"]["number"] == 1
    configured.upsert("en", {"title": "Title"}, file_name="common")


def test_push_with_nothing_changed_closes_the_pull_request_left_open(configured, host):
    revert_after_a_push(configured)
    assert configured.post("/repohost/push", {}).json == {"pullRequest": None}
    assert [pull.state for pull in pulls(host)] == ["closed"]


def test_closing_the_pull_request_left_open_is_told_in_the_runs_summary(app, configured):
    revert_after_a_push(configured)
    configured.post("/repohost/push", {})
    assert last_run(app) == (
        "push",
        "ok",
        "Nothing to push: the branch has these translations. Closed pull request #1, whose changes "
        "are no longer in Loko.",
    )


def push_into_a_file(configured, host):
    """Push with a path template whose folder is a file on the base branch."""
    host.git.add_commit(REPOSITORY, "main", {"l10n/en": b"a file, not a folder\n"})
    saved = configure(configured, host, path="l10n/{language}/{fileName}.json")
    assert saved.status_code == 200, saved.json
    configured.upsert("en", {"title": "Title"}, file_name="common")
    return configured.post("/repohost/push", {})


def test_a_push_into_a_file_of_the_base_branch_is_a_400_naming_the_path(configured, host):
    response = push_into_a_file(configured, host)
    assert response.status_code == 400
    assert response.json["error"] == (
        "path: l10n/en/common.json: l10n/en is a file on main; nothing was pushed."
    )
    assert pulls(host) == []


def test_a_push_refused_for_its_path_is_recorded_as_failed_and_releases_the_claim(app, configured, host):
    push_into_a_file(configured, host)
    kind, status, summary = last_run(app)
    assert (kind, status) == ("push", "failed") and "l10n/en is a file" in summary
    assert claim(app) == (None, None)


def test_a_run_taken_over_keeps_its_claim_when_the_old_run_ends(app, configured, monkeypatch):
    taken_over_at = datetime.now(UTC) + timedelta(minutes=1)
    push_files = service._push_files

    def taken_over_meanwhile(*args):
        # Another process took the claim over (as after STALE_RUN) while this push worked.
        with unit_of_work():
            db.session.execute(update(RepoHost).values(running="sync", run_started_at=taken_over_at))
        return push_files(*args)

    monkeypatch.setattr(service, "_push_files", taken_over_meanwhile)
    assert configured.post("/repohost/push", {}).status_code == 200
    assert claim(app) == ("sync", taken_over_at)


def test_a_provider_error_is_a_502_naming_its_answer(configured, host):
    configured.upsert("en", {"title": "Changed"}, file_name="common")
    host.fail_next(500, "the host is on fire")
    response = configured.post("/repohost/push", {})
    assert response.status_code == 502
    assert "the host is on fire" in response.json["error"]


def test_a_push_while_another_runs_is_a_409(app, configured):
    with app.app_context():
        db.session.execute(update(RepoHost).values(running="sync", run_started_at=db.func.now()))
        db.session.commit()
    response = configured.post("/repohost/push", {})
    assert response.status_code == 409 and "running" in response.json["error"]


def test_a_push_while_another_push_is_running_is_a_409_and_the_first_one_completes(app, configured, host):
    configured.upsert("en", {"title": "Changed"}, file_name="common")
    other = configured.as_client(CallerClient(app, configured.credentials))
    host.gate, answers = threading.Event(), {}
    first = threading.Thread(target=lambda: answers.update(first=configured.post("/repohost/push", {})))
    first.start()
    try:
        assert host.held.wait(30)  # the first push holds the project, waiting on the host
        second = other.post("/repohost/push", {})
    finally:
        host.gate.set()
        first.join(60)
    assert second.status_code == 409 and "running" in second.json["error"]
    assert answers["first"].status_code == 200, answers["first"].json
    assert answers["first"].json["pullRequest"] is not None


def test_a_finished_run_lets_the_next_one_start(configured):
    configured.post("/repohost/push", {})
    assert configured.post("/repohost/push", {}).status_code == 200


# Sync


def test_sync_imports_the_base_branch(configured):
    response = configured.post("/repohost/sync", {})
    assert response.status_code == 200, response.json
    assert response.json["created"] == 3
    assert response.json["files"] == ["locales/de/common.json", "locales/en/common.json"]
    assert configured.export() == {
        "de": {"common": {"title": "Titel"}},
        "en": {"common": {"old": "Old", "title": "Title"}},
    }


def test_a_repository_laid_out_with_underscores_keeps_its_paths(configured, host):
    host.git.add_commit(REPOSITORY, "main", {"po/pt_BR/common.json": orjson.dumps({"title": "Título"})})
    saved = configure(configured, host, path="po/{locale}/{fileName}.json")
    assert saved.status_code == 200, saved.json
    answer = configured.post("/repohost/sync", {}).json
    assert answer["files"] == ["po/pt_BR/common.json"]
    assert configured.export() == {"pt-BR": {"common": {"title": "Título"}}}
    configured.upsert("pt-BR", {"title": "Novo título"}, file_name="common")
    assert configured.post("/repohost/push", {}).status_code == 200
    files = host.git.read_branch(REPOSITORY, "loko/translations")
    assert orjson.loads(files["po/pt_BR/common.json"]) == {"title": "Novo título"}
    assert not any(path.startswith("po/pt-BR") for path in files)


def test_a_path_mixing_two_forms_of_the_language_is_refused(configured, host):
    response = configure(configured, host, path="{language}/{locale}/{fileName}.json")
    assert response.status_code == 400
    assert response.json["error"].startswith("path: ")


def test_sync_updates_changed_values_and_keeps_removed_keys(configured, host):
    configured.post("/repohost/sync", {})
    host.git.add_commit(REPOSITORY, "main", {"locales/en/common.json": orjson.dumps({"title": "New title"})})
    answer = configured.post("/repohost/sync", {}).json
    assert (answer["updated"], answer["trashed"]) == (1, 0)
    assert configured.export()["en"]["common"] == {"old": "Old", "title": "New title"}


def test_sync_trashes_removed_keys_when_asked(configured, host):
    configured.post("/repohost/sync", {})
    host.git.add_commit(REPOSITORY, "main", {"locales/en/common.json": orjson.dumps({"title": "Title"})})
    answer = configured.post("/repohost/sync", {"removedKeys": "trash"}).json
    assert answer["changes"]["trashed"] == [{"fileName": "common", "key": "old"}]


def test_a_sync_dry_run_writes_nothing(configured):
    answer = configured.post("/repohost/sync", {"dryRun": True}).json
    assert answer["dryRun"] is True and answer["created"] == 3
    assert configured.export() == {}


def test_sync_of_the_previewed_commit_imports_it(configured):
    preview = configured.post("/repohost/sync", {"dryRun": True}).json
    response = configured.post("/repohost/sync", {"commit": preview["commit"]})
    assert response.status_code == 200, response.json
    assert (response.json["commit"], response.json["created"]) == (preview["commit"], 3)


def test_sync_of_a_commit_the_branch_has_moved_from_is_a_409_importing_nothing(configured, host):
    preview = configured.post("/repohost/sync", {"dryRun": True}).json
    host.git.add_commit(REPOSITORY, "main", {"locales/en/common.json": orjson.dumps({"title": "Moved"})})
    head = host.git.head(REPOSITORY, "main")
    response = configured.post("/repohost/sync", {"commit": preview["commit"]})
    assert response.status_code == 409
    assert response.json["error"] == (
        f"repohost: main has moved since the preview, from {preview['commit'][:12]} to {head[:12]}; "
        "nothing was imported."
    )
    assert configured.export() == {}


def test_a_sync_commit_that_is_not_a_full_commit_id_is_refused(configured):
    response = configured.post("/repohost/sync", {"commit": "abc1234"})
    assert response.status_code == 400 and "commit" in response.json["error"]
    assert configured.export() == {}


# Webhook


def signed(host, secret: str, body: bytes, event: str = "push") -> dict:
    digest = hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()
    if host.name == "github":
        return {"X-GitHub-Event": event, "X-Hub-Signature-256": f"sha256={digest}"}
    if host.name == "gitea":
        return {"X-Gitea-Event": event, "X-Gitea-Signature": digest}
    return {"X-Gitlab-Event": "Push Hook" if event == "push" else event, "X-Gitlab-Token": secret}


def deliver(client, configured, host, ref: str = "refs/heads/main"):
    body = json.dumps({"ref": ref}).encode()
    return client.post(
        configured.url("/repohost/webhook"), data=body, headers=signed(host, configured.webhook_secret, body)
    )


def job_of(app, job_id) -> Job:
    with app.app_context():
        return db.session.get(Job, job_id)


def test_a_signed_push_to_the_base_branch_queues_a_sync_that_applies_it(app, client, configured, host):
    response = deliver(client, configured, host)
    assert response.status_code == 202, response.json
    assert response.json["queued"] is True
    assert configured.export() == {}
    assert run_jobs(app) == 1
    job = job_of(app, response.json["job"])
    assert job.state == "succeeded", job.error
    assert configured.export()["de"] == {"common": {"title": "Titel"}}
    assert last_run(app)[:2] == ("webhook-sync", "ok")


def test_deliveries_while_a_sync_is_queued_join_it(app, client, configured, host):
    first = deliver(client, configured, host)
    second = deliver(client, configured, host)
    assert first.status_code == second.status_code == 202
    assert first.json["job"] == second.json["job"]
    assert run_jobs(app) == 1


def test_a_delivery_while_a_push_runs_is_queued_then_applied(app, client, configured, host):
    configured.upsert("en", {"title": "Changed"}, file_name="common")
    host.gate, answers = threading.Event(), {}
    pushing = threading.Thread(target=lambda: answers.update(push=configured.post("/repohost/push", {})))
    pushing.start()
    try:
        assert host.held.wait(30)  # the push holds the project, waiting on the host
        delivered = deliver(client, configured, host)
        assert delivered.status_code == 202, delivered.json
        assert run_jobs(app) == 1  # the sync waits for the push
        job = job_of(app, delivered.json["job"])
        assert (job.state, job.attempts) == ("queued", 0)
    finally:
        host.gate.set()
        pushing.join(60)
    assert answers["push"].status_code == 200, answers["push"].json
    with app.app_context(), unit_of_work():
        db.session.execute(update(Job).values(run_after=datetime.now(UTC) - timedelta(seconds=1)))
    assert run_jobs(app) == 1
    job = job_of(app, delivered.json["job"])
    assert job.state == "succeeded", job.error
    assert last_run(app)[:2] == ("webhook-sync", "ok")
    assert configured.export()["de"] == {"common": {"title": "Titel"}}


def test_a_push_to_another_branch_is_ignored(app, client, configured, host):
    response = deliver(client, configured, host, ref="refs/heads/feature")
    assert response.status_code == 200
    assert response.json["queued"] is False
    assert run_jobs(app) == 0
    assert configured.export() == {}


def test_a_webhook_with_a_bad_signature_is_a_401(client, configured, host):
    body = json.dumps({"ref": "refs/heads/main"}).encode()
    response = client.post(
        configured.url("/repohost/webhook"), data=body, headers=signed(host, "wrong", body)
    )
    assert response.status_code == 401
    assert configured.export() == {}


# Permissions: configuration needs canEditProjects; push and sync canEditTranslations.

CONFIG_ALLOWED = {"org_owner", "org_admin", "project_admin"}
RUN_ALLOWED = {"org_owner", "org_admin", "project_admin", "editor", "write_key"}
DENIED = {"anonymous": 401, "unknown_key": 401, "revoked_key": 401, "outsider": 404}


def expected(caller: str, allowed: set[str], success: int) -> int:
    if caller in allowed:
        return success
    return DENIED.get(caller, 403)


@pytest.mark.parametrize("caller", CALLERS)
def test_reading_the_configuration_needs_edit_projects(world, as_caller, caller):
    response = as_caller(caller).get(f"/api/projects/{world.project_id}/repohost")
    assert response.status_code == expected(caller, CONFIG_ALLOWED, 200)


@pytest.mark.parametrize("caller", CALLERS)
def test_deleting_the_configuration_needs_edit_projects(world, as_caller, caller):
    response = as_caller(caller).delete(f"/api/projects/{world.project_id}/repohost")
    assert response.status_code == expected(caller, CONFIG_ALLOWED, 404)  # none configured


# With private addresses refused, the address check answers before any connection is tried.
@pytest.mark.parametrize("config_overrides", [{"LOKO_REPOHOST_ALLOW_PRIVATE": False}], ids=["private-off"])
@pytest.mark.parametrize("caller", CALLERS)
def test_configuring_needs_edit_projects(world, as_caller, caller):
    body = {"provider": "github", "repository": "acme/app", "token": "t", "api_url": "https://10.0.0.1/api"}
    response = as_caller(caller).post(f"/api/projects/{world.project_id}/repohost", json=body)
    assert response.status_code == expected(caller, CONFIG_ALLOWED, 400)
    if caller in CONFIG_ALLOWED:
        assert response.json["error"].startswith("api_url: 10.0.0.1 resolves to a private")


@pytest.mark.parametrize("action", ["push", "sync"])
@pytest.mark.parametrize("caller", CALLERS)
def test_push_and_sync_need_edit_translations(world, as_caller, caller, action):
    response = as_caller(caller).post(f"/api/projects/{world.project_id}/repohost/{action}", json={})
    assert response.status_code == expected(caller, RUN_ALLOWED, 404)  # none configured
