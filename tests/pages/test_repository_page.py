"""A project's repository page against a stand-in Gitea (its API and real git on 127.0.0.1):
who may open it, the configuration form (checked on save, the token never shown back), the
webhook's secret shown once, push, a sync's preview and the sync itself, and every refusal
told on the page (the same rules as /api/projects/{id}/repohost)."""

import hashlib
import hmac
import html
import json
import re
import shutil

import pytest
from sqlalchemy import func, select, update

from loko.extensions import db
from loko.repohost.models import RepoHost, RepoHostRun
from tests.pages.conftest import SIGNED_OUT, alert_of, notice_of
from tests.repohost.conftest import REPOSITORY, TOKEN, settings, stand_in
from tests.repohost.loopback import refuse_beyond_loopback
from tests.repohost.test_api import run_jobs
from tests.translation_factories import ProjectApi

MANAGERS = ("project_admin", "org_admin", "org_owner")
FORMS = ("configure", "push", "preview", "sync", "remove")


@pytest.fixture
def config_overrides():
    return {"LOKO_REPOHOST_ALLOW_PRIVATE": True}


@pytest.fixture(autouse=True)
def loopback_only(monkeypatch):
    """No test here sends a packet beyond the loopback, whatever the settings allow."""
    refuse_beyond_loopback(monkeypatch)


@pytest.fixture
def host():
    if shutil.which("git") is None:
        pytest.skip("needs Debian's git (apt-get install git)")
    with stand_in("gitea") as running:
        yield running


@pytest.fixture
def api(as_caller, world) -> ProjectApi:
    """The project through the REST API, as its write key."""
    return ProjectApi(as_caller("write_key"), world.project_id)


@pytest.fixture
def configured(as_caller, world, host):
    """The project configured for the stand-in's repository, through the API."""
    response = as_caller("org_owner").post(f"/api/projects/{world.project_id}/repohost", json=settings(host))
    assert response.status_code == 200, response.json
    return host


def page_path(world) -> str:
    return f"/projects/{world.project_id}/repository"


def configure_form(host, **overrides) -> dict:
    return {"form": "configure", **settings(host, **overrides)}


def source_of(response) -> str:
    return response.get_data(as_text=True)


def text_of(response) -> str:
    """The page as a reader sees it: no tags, entities decoded, whitespace collapsed."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", source_of(response))).split())


def shown_secret(response) -> str | None:
    match = re.search(r'<code id="webhook-secret"[^>]*>([^<]+)</code>', source_of(response))
    return match.group(1) if match else None


def save_and_show(page, world, host) -> str:
    """Save the first configuration through the form, then the secret the page shows once."""
    response = page.submit(page_path(world), configure_form(host))
    assert response.status_code == 303, alert_of(response)
    return shown_secret(page.get(page_path(world)))


def configuration(app) -> dict | None:
    with app.app_context():
        row = db.session.execute(select(RepoHost)).scalar_one_or_none()
        return None if row is None else {"repository": row.repository, "path": row.path}


def run_count(app) -> int:
    with app.app_context():
        return db.session.execute(select(func.count()).select_from(RepoHostRun)).scalar_one()


def confirm_fields(response) -> dict:
    """What the preview's "Sync now" button sends: the confirm form's hidden fields."""
    section = source_of(response).split('id="preview-heading"', 1)[1]
    form = section.split("<form", 1)[1].split("</form>", 1)[0]
    fields = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)">', form))
    fields.pop("csrf_token", None)
    return {**fields, "form": "sync"}


def signed_push(secret: str) -> tuple[bytes, dict]:
    body = json.dumps({"ref": "refs/heads/main"}).encode()
    digest = hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()
    return body, {"X-Gitea-Event": "push", "X-Gitea-Signature": digest}


# --- who may open the page ---------------------------------------------------------------------


@pytest.mark.parametrize("caller", MANAGERS)
def test_repository_page_opens_for_project_managers(page_as, world, caller):
    response = page_as(caller).get(page_path(world))
    assert response.status_code == 200
    assert "<h1>Repository</h1>" in source_of(response)
    assert "Connect a repository" in text_of(response)


@pytest.mark.parametrize("caller", ["viewer", "editor"])
def test_repository_page_is_refused_to_a_viewer_or_editor(page_as, world, caller):
    response = page_as(caller).get(page_path(world))
    assert response.status_code == 403
    assert 'name="token"' not in source_of(response)


@pytest.mark.parametrize("caller", SIGNED_OUT)
def test_repository_page_sends_signed_out_callers_to_sign_in(page_as, world, caller):
    response = page_as(caller).get(page_path(world))
    assert response.status_code == 302
    assert response.location == f"/login?next={page_path(world)}"


def test_repository_page_does_not_reveal_a_project_to_an_outsider(page_as, world):
    assert page_as("outsider").get(page_path(world)).status_code == 404


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("caller", ["viewer", "editor"])
def test_a_forged_post_by_a_viewer_or_editor_is_refused(app, page_as, world, host, caller, form):
    response = page_as(caller).submit(page_path(world), {**configure_form(host), "form": form})
    assert response.status_code == 403
    assert configuration(app) is None
    assert host.calls == []


@pytest.mark.parametrize("form", FORMS)
def test_a_post_by_an_outsider_is_not_found(page_as, world, form):
    assert page_as("outsider").submit(page_path(world), {"form": form}).status_code == 404


def test_the_repository_tab_follows_settings_for_project_managers(page_as, world):
    text = source_of(page_as("org_owner").get(page_path(world)))
    tab_bar = text.split('class="tabs"', 1)[1].split("</nav>", 1)[0]
    assert re.findall(r">([^<]+)</a>", tab_bar)[-3:] == ["Settings", "Repository", "Webhooks"]
    assert f'<a href="{page_path(world)}" aria-current="page">Repository</a>' in text


@pytest.mark.parametrize("caller", ["viewer", "editor"])
def test_the_repository_tab_is_hidden_from_a_viewer_or_editor(page_as, world, caller):
    text = source_of(page_as(caller).get(f"/projects/{world.project_id}"))
    assert page_path(world) not in text


def test_the_settings_page_links_to_the_repository_page(page_as, world):
    text = source_of(page_as("org_owner").get(f"/projects/{world.project_id}/settings"))
    assert f'href="{page_path(world)}">repository settings</a>' in text


# --- CSRF ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("form", FORMS)
def test_a_post_without_the_csrf_token_is_refused(app, page_as, world, host, form):
    response = page_as("org_owner").post(page_path(world), data={**configure_form(host), "form": form})
    assert response.status_code == 403
    assert "The form has expired" in text_of(response)
    assert configuration(app) is None
    assert host.calls == []


# --- configuration ---------------------------------------------------------------------------


def test_the_form_offers_every_provider_format_and_the_default_path(page_as, world):
    text = source_of(page_as("org_owner").get(page_path(world)))
    for value, label in (("github", "GitHub"), ("gitlab", "GitLab"), ("gitea", "Gitea")):
        assert f'<option value="{value}"' in text and f">{label}</option>" in text
    assert '<option value="po"' in text
    assert 'value="locales/{language}/{fileName}.json"' in text
    assert 'type="password"' in text


def test_the_first_save_redirects_to_the_page_with_a_notice(app, page_as, world, host):
    owner = page_as("org_owner")
    response = owner.submit(page_path(world), configure_form(host))
    assert (response.status_code, response.location) == (303, page_path(world))
    assert notice_of(owner) == "Repository saved: the connection works. Copy the webhook's secret now."
    assert TOKEN not in source_of(response) and shown_secret(response) is None
    assert configuration(app)["repository"] == REPOSITORY


def test_the_page_after_the_first_save_shows_the_webhook_url_and_secret(page_as, world, host):
    owner = page_as("org_owner")
    owner.submit(page_path(world), configure_form(host))
    shown = owner.get(page_path(world))
    assert shown.status_code == 200
    secret = shown_secret(shown)
    assert secret and len(secret) >= 40
    text = text_of(shown)
    assert f"http://localhost/api/projects/{world.project_id}/repohost/webhook" in text
    assert "it will not be shown again" in text
    assert "Settings → Webhooks → Add webhook → Gitea" in text
    assert TOKEN not in source_of(shown)


def test_the_webhook_secret_is_shown_once_and_a_reload_shows_it_no_more(app, page_as, world, host):
    owner = page_as("org_owner")
    owner.submit(page_path(world), configure_form(host))
    secret = shown_secret(owner.get(page_path(world)))
    assert secret
    again = owner.get(page_path(world))
    assert again.status_code == 200
    assert secret not in source_of(again) and shown_secret(again) is None
    assert run_count(app) == 1


def test_a_later_save_shows_no_secret(page_as, world, host):
    owner = page_as("org_owner")
    secret = save_and_show(owner, world, host)
    saved = owner.submit(page_path(world), configure_form(host))
    assert saved.status_code == 303 and notice_of(owner) == "Repository saved: the connection works."
    shown = owner.get(page_path(world))
    assert secret not in source_of(shown) and shown_secret(shown) is None


def test_the_secret_shown_signs_the_webhook(app, client, page_as, world, host, api):
    secret = save_and_show(page_as("org_owner"), world, host)
    body, headers = signed_push(secret)
    response = client.post(f"/api/projects/{world.project_id}/repohost/webhook", data=body, headers=headers)
    assert response.status_code == 202 and response.json["queued"] is True
    assert run_jobs(app) == 1
    assert api.export()["de"] == {"common": {"title": "Titel"}}


def test_a_refused_configuration_keeps_the_typed_values_but_not_the_token(app, page_as, world, host):
    typed = configure_form(host, repository="acme/none", path="i18n/{language}/{fileName}.json")
    response = page_as("org_owner").submit(page_path(world), typed)
    assert response.status_code == 400
    assert "repository" in alert_of(response) and "acme/none" in alert_of(response)
    text = source_of(response)
    assert 'value="acme/none"' in text
    assert 'value="i18n/{language}/{fileName}.json"' in text
    assert f'value="{host.api_url}"' in text
    assert TOKEN not in text
    assert configuration(app) is None


def test_a_missing_token_is_named(app, page_as, world, host):
    response = page_as("org_owner").submit(page_path(world), configure_form(host, token=""))
    assert response.status_code == 400
    assert alert_of(response).startswith("token:")
    assert configuration(app) is None


def test_a_bad_path_template_is_named(page_as, world, host):
    typed = configure_form(host, path="locales/{language}.json")
    response = page_as("org_owner").submit(page_path(world), typed)
    assert response.status_code == 400
    assert alert_of(response) == "path: must contain {fileName}."


def test_a_host_failure_on_save_quotes_the_hosts_answer(page_as, world, host):
    host.fail_next(500, "the host is on fire")
    response = page_as("org_owner").submit(page_path(world), configure_form(host))
    assert response.status_code == 502
    assert alert_of(response).startswith("Saving failed: the repository host answered “")
    assert "the host is on fire" in alert_of(response)


def test_a_configured_page_summarizes_without_the_token(page_as, world, configured):
    response = page_as("org_owner").get(page_path(world))
    text = text_of(response)
    assert "Connected repository" in text
    assert f"Repository {REPOSITORY}" in text and "Base branch main" in text
    assert "Path template locales/{language}/{fileName}.json" in text
    assert "Pull request branch loko/translations" in text
    assert "A token is set; leave empty to keep it." in text
    assert TOKEN not in source_of(response)
    assert 'name="token" type="password" value=""' in source_of(response)


def test_saving_with_an_empty_token_keeps_the_stored_one(app, page_as, world, configured):
    owner = page_as("org_owner")
    changed = configure_form(configured, token="", path="i18n/{language}/{fileName}.json")
    response = owner.submit(page_path(world), changed)
    assert response.status_code == 303, alert_of(response)
    assert configuration(app)["path"] == "i18n/{language}/{fileName}.json"


def test_saving_another_repository_asks_for_the_token_again(app, page_as, world, configured):
    configured.add_repository("acme/other")
    response = page_as("org_owner").submit(
        page_path(world), configure_form(configured, token="", repository="acme/other")
    )
    assert response.status_code == 400
    assert alert_of(response).startswith("token: required again when repository changes")
    assert configuration(app)["repository"] == REPOSITORY


def test_remove_deletes_the_configuration(app, page_as, world, configured):
    owner = page_as("org_owner")
    page = source_of(owner.get(page_path(world)))
    assert 'data-confirm="Remove the repository acme/app?' in page
    response = owner.submit(page_path(world), {"form": "remove"})
    assert response.status_code == 303 and response.location == page_path(world)
    assert notice_of(owner).startswith("Repository removed")
    assert configuration(app) is None
    assert "Connect a repository" in text_of(owner.get(page_path(world)))


def test_an_unknown_form_is_refused(app, page_as, world):
    response = page_as("org_owner").submit(page_path(world), {"form": "launch"})
    assert response.status_code == 400
    assert "unknown repository form" in text_of(response)


def test_remove_without_a_configuration_is_refused(page_as, world):
    response = page_as("org_owner").submit(page_path(world), {"form": "remove"})
    assert response.status_code == 404
    assert "no repository is configured" in alert_of(response)


# --- push ---------------------------------------------------------------------------------------


def test_push_opens_a_pull_request_and_the_page_links_to_it(page_as, world, api, configured):
    api.upsert("en", {"title": "Title", "new": "New"}, file_name="common")
    owner = page_as("org_owner")
    response = owner.submit(page_path(world), {"form": "push"})
    assert response.status_code == 303 and response.location == page_path(world)
    assert notice_of(owner) == "Pushed: pull request #1 has the project's translations."
    url = f"{configured.url}/{REPOSITORY}/pulls/1"
    page = source_of(owner.get(page_path(world)))
    assert f'<a href="{url}">Pull request #1</a>' in page
    assert [pull.head for pull in configured.repositories[REPOSITORY].pulls] == ["loko/translations"]


def test_push_with_nothing_changed_says_so(page_as, world, api, configured):
    api.upsert("en", {"title": "Title", "old": "Old"}, file_name="common")
    api.upsert("de", {"title": "Titel"}, file_name="common")
    owner = page_as("org_owner")
    owner.submit(page_path(world), {"form": "push"})
    assert notice_of(owner) == "Nothing to push: the base branch already has these translations."
    assert configured.repositories[REPOSITORY].pulls == []


def test_a_host_failure_on_push_quotes_its_answer_and_lists_the_failed_run(page_as, world, api, configured):
    api.upsert("en", {"title": "Changed"}, file_name="common")
    configured.fail_next(500, "the host is on fire")
    owner = page_as("org_owner")
    response = owner.submit(page_path(world), {"form": "push"})
    assert response.status_code == 502
    assert alert_of(response).startswith("Push failed: the repository host answered “")
    assert "the host is on fire" in alert_of(response)
    row = source_of(owner.get(page_path(world))).split("<td>Push", 1)[1].split("</tr>", 1)[0]
    assert "failed" in row and "the host is on fire" in row and "Owner" in row


def test_a_push_while_another_run_is_under_way_says_to_wait(app, page_as, world, configured):
    with app.app_context():
        db.session.execute(update(RepoHost).values(running="sync", run_started_at=db.func.now()))
        db.session.commit()
    before = run_count(app)
    response = page_as("org_owner").submit(page_path(world), {"form": "push"})
    assert response.status_code == 409
    assert alert_of(response) == (
        "Push not started: a push or sync of this project is running; try again when it ends."
    )
    assert run_count(app) == before


def test_push_without_a_configuration_is_refused(page_as, world):
    response = page_as("org_owner").submit(page_path(world), {"form": "push"})
    assert response.status_code == 404
    assert "no repository is configured" in alert_of(response)


# --- sync ---------------------------------------------------------------------------------------


def test_preview_sync_shows_the_diff_and_writes_nothing(page_as, world, api, configured):
    api.upsert("en", {"title": "Old title"}, file_name="common")
    response = page_as("org_owner").submit(page_path(world), {"form": "preview", "removedKeys": "keep"})
    assert response.status_code == 200
    text = text_of(response)
    assert "What a sync would change" in text and "Nothing has been written yet" in text
    assert "locales/de/common.json" in text and "locales/en/common.json" in text
    assert "2 new 1 changed 0 to the trash 0 conflicts 0 unchanged" in text
    assert "common old en Old" in text
    assert "Before Old title After Title" in text
    assert 'name="form" value="sync" class="primary">Sync now</button>' in source_of(response)
    assert api.export() == {"en": {"common": {"title": "Old title"}}}


def test_preview_sync_lists_keys_the_branch_no_longer_has_when_they_go_to_the_trash(
    page_as, world, api, configured
):
    api.upsert("en", {"title": "Title", "old": "Old", "gone": "Gone"}, file_name="common")
    response = page_as("org_owner").submit(page_path(world), {"form": "preview", "removedKeys": "trash"})
    text = text_of(response)
    assert "To the trash (1)" in text and "common gone" in text
    assert "keys the branch no longer has go to the trash" in text
    assert api.export()["en"]["common"]["gone"] == "Gone"


def test_the_preview_confirms_its_commit_and_removed_keys_without_offering_a_choice(
    page_as, world, configured
):
    response = page_as("org_owner").submit(page_path(world), {"form": "preview", "removedKeys": "trash"})
    head = configured.git.head(REPOSITORY, "main")
    assert confirm_fields(response) == {"commit": head, "removedKeys": "trash", "form": "sync"}
    assert 'type="radio"' not in source_of(response)


def test_sync_now_applies_the_previewed_removed_keys_choice(page_as, world, api, configured):
    api.upsert("en", {"title": "Title", "old": "Old", "gone": "Gone"}, file_name="common")
    owner = page_as("org_owner")
    preview = owner.submit(page_path(world), {"form": "preview", "removedKeys": "trash"})
    response = owner.submit(page_path(world), confirm_fields(preview))
    assert response.status_code == 303, alert_of(response)
    assert "1 moved to the trash" in notice_of(owner)
    assert "gone" not in api.export()["en"]["common"]


def test_sync_now_after_the_branch_moved_is_refused_and_offers_a_new_preview(page_as, world, api, configured):
    owner = page_as("org_owner")
    preview = owner.submit(page_path(world), {"form": "preview", "removedKeys": "trash"})
    previewed = configured.git.head(REPOSITORY, "main")
    configured.git.add_commit(REPOSITORY, "main", {"locales/en/common.json": b'{"title": "Moved"}'})
    moved = configured.git.head(REPOSITORY, "main")
    response = owner.submit(page_path(world), confirm_fields(preview))
    assert response.status_code == 409
    assert alert_of(response) == (
        f"Sync not started: main has moved since the preview, from {previewed[:12]} to {moved[:12]}; "
        "nothing was imported."
    )
    page = source_of(response)
    assert '<button type="submit" name="form" value="preview" class="primary">Preview sync</button>' in page
    trash = re.search(r'<input type="radio" id="removed-trash"[^>]*>', page).group(0)
    assert trash.endswith(" checked>")
    assert api.export() == {}


def test_sync_imports_the_base_branch(page_as, world, api, configured):
    owner = page_as("org_owner")
    response = owner.submit(page_path(world), {"form": "sync", "removedKeys": "keep"})
    assert response.status_code == 303 and response.location == page_path(world)
    assert re.fullmatch(
        r"Synced from main at [0-9a-f]{12}: 3 created, 0 updated, 0 moved to the trash\.", notice_of(owner)
    )
    assert api.export() == {
        "de": {"common": {"title": "Titel"}},
        "en": {"common": {"old": "Old", "title": "Title"}},
    }


def test_sync_moves_keys_the_branch_no_longer_has_to_the_trash_when_asked(page_as, world, api, configured):
    api.upsert("en", {"title": "Title", "old": "Old", "gone": "Gone"}, file_name="common")
    owner = page_as("org_owner")
    owner.submit(page_path(world), {"form": "sync", "removedKeys": "trash"})
    assert "1 moved to the trash" in notice_of(owner)
    assert "gone" not in api.export()["en"]["common"]


def test_the_runs_list_names_each_run(page_as, world, configured):
    owner = page_as("org_owner")
    owner.submit(page_path(world), {"form": "preview", "removedKeys": "keep"})
    owner.submit(page_path(world), {"form": "sync", "removedKeys": "keep"})
    text = text_of(owner.get(page_path(world)))
    runs = text.split("Last runs", 1)[1]
    assert "Sync ok 3 created" in runs
    assert "Sync preview ok 3 created" in runs
    assert "Connection check ok" in runs
    assert runs.count("Owner") == 3


def test_a_sync_while_another_run_is_under_way_says_to_wait(app, page_as, world, api, configured):
    with app.app_context():
        db.session.execute(update(RepoHost).values(running="push", run_started_at=db.func.now()))
        db.session.commit()
    response = page_as("org_owner").submit(page_path(world), {"form": "sync", "removedKeys": "keep"})
    assert response.status_code == 409
    assert alert_of(response).startswith("Sync not started: a push or sync of this project is running")
    assert api.export() == {}


def test_a_sync_with_no_matching_file_is_named(page_as, world, api, as_caller, configured):
    changed = settings(configured, path="i18n/{language}/{fileName}.json")
    del changed["token"]
    saved = as_caller("org_owner").post(f"/api/projects/{world.project_id}/repohost", json=changed)
    assert saved.status_code == 200, saved.json
    response = page_as("org_owner").submit(page_path(world), {"form": "preview", "removedKeys": "keep"})
    assert response.status_code == 400
    expected = "path: no file on main matches 'i18n/{language}/{fileName}.json'."
    assert html.unescape(alert_of(response)) == expected


def test_an_unknown_removed_keys_choice_is_named(page_as, world, api, configured):
    response = page_as("org_owner").submit(page_path(world), {"form": "sync", "removedKeys": "burn"})
    assert response.status_code == 400
    assert alert_of(response).startswith("removedKeys:")
    assert api.export() == {}


def test_a_tag_filter_typed_comma_separated_is_saved_and_summarized(app, page_as, world, host):
    owner = page_as("org_owner")
    typed = configure_form(host, tags="web, checkout", excludeTags="ios")
    assert owner.submit(page_path(world), typed).status_code == 303
    with app.app_context():
        row = db.session.execute(select(RepoHost)).scalar_one()
        assert (json.loads(row.tags), json.loads(row.exclude_tags)) == (["web", "checkout"], ["ios"])
    shown = text_of(owner.get(page_path(world)))
    assert "tagged web, checkout; not tagged ios" in shown


def test_a_tag_that_is_not_valid_is_named_on_the_page(app, page_as, world, host):
    response = page_as("org_owner").submit(page_path(world), configure_form(host, tags="web, no spaces"))
    assert response.status_code == 400
    assert "tags" in alert_of(response)
    assert configuration(app) is None
