"""Post/redirect/get on every form of the pages: a form that writes answers with a redirect,
never with a page, so reloading the page it leads to repeats nothing. A dry run, which
writes nothing, answers with the page that shows what it found.

The table below names a valid form for each page route that takes a POST; a route it does
not name fails the first test until a row is added for it."""

import io
import shutil
from contextlib import ExitStack
from dataclasses import dataclass, field
from types import SimpleNamespace

import pytest

from loko.database import unit_of_work
from loko.extensions import db
from loko.jobs import service as jobs
from loko.repohost.models import RepoHost
from tests.factories import PASSWORD, user_id
from tests.glossary.test_api import CSV
from tests.pages.conftest import PageClient
from tests.pages.test_editor_quality import fix_form
from tests.repohost.conftest import settings, stand_in
from tests.repohost.loopback import refuse_beyond_loopback
from tests.screenshots.conftest import picture
from tests.translation_factories import ProjectApi


@pytest.fixture
def config_overrides():
    # The repository's stand-in git host listens on 127.0.0.1.
    return {"LOKO_ALLOW_SIGNUP": True, "LOKO_OUTBOUND_ALLOW_PRIVATE": True}


@pytest.fixture(autouse=True)
def loopback_only(monkeypatch):
    """No form here sends a packet beyond the loopback, whatever the settings allow."""
    refuse_beyond_loopback(monkeypatch)


@dataclass
class Form:
    path: str
    data: dict = field(default_factory=dict)
    caller: str = "org_owner"


@pytest.fixture
def arrange(app, world, as_caller, page_as):
    """What the rows build on: the project's API (its write key), the owner's API and pages,
    and what a row starts for the test (stopped after it)."""
    api = ProjectApi(as_caller("write_key"), world.project_id)
    with ExitStack() as started:
        yield SimpleNamespace(
            app=app, world=world, api=api, owner=as_caller("org_owner"), page_as=page_as, started=started
        )


def project(a, path: str = "") -> str:
    return f"/projects/{a.world.project_id}{path}"


def organization(a, path: str = "") -> str:
    return f"/orgs/{a.world.organization_id}{path}"


def languages(a, *codes: str) -> None:
    for code in codes:
        a.api.add_language(code)


def home_file(a) -> None:
    a.api.create_files("home", "en")


def key_id(a, key: str = "title", values: dict | None = None) -> str:
    return a.api.create(key, values or {"en": "Title"})["id"]


def trashed(a) -> str:
    translation = key_id(a)
    a.api.trash(translation)
    return translation


def invitation(a) -> dict:
    response = a.owner.post(f"/api/organizations/{a.world.organization_id}/invitations", json={})
    assert response.status_code == 201, response.json
    return response.json


def glossary_term(a) -> str:
    body = {"language": "en", "term": "file", "translations": [{"language": "de", "text": "Datei"}]}
    response = a.owner.post(f"/api/organizations/{a.world.organization_id}/glossary/terms", json=body)
    assert response.status_code == 201, response.json
    return response.json["term"]["id"]


def webhook(a) -> str:
    body = {"url": "https://hooks.example.test/loko", "events": ["values.changed"]}
    response = a.owner.post(f"/api/projects/{a.world.project_id}/webhooks", json=body)
    assert response.status_code == 201, response.json
    return response.json["webhook"]["id"]


def screenshot(a) -> str:
    response = a.api.client.post(
        f"/api/projects/{a.world.project_id}/screenshots",
        data={"files": [(io.BytesIO(picture()), "home.png")]},
        content_type="multipart/form-data",
    )
    assert response.status_code == 201, response.json
    return response.json["screenshots"][0]["id"]


def trashed_screenshot(a) -> str:
    shot = screenshot(a)
    assert a.api.client.delete(f"/api/projects/{a.world.project_id}/screenshots/{shot}").status_code == 200
    return shot


def machine_provider(a) -> str:
    body = {"kind": "deepl", "apiKey": "a-key"}
    response = a.owner.post(f"/api/organizations/{a.world.organization_id}/machine-providers", json=body)
    assert response.status_code == 201, response.json
    return response.json["provider"]["id"]


def glossary_file(dry_run: bool) -> dict:
    upload = {"form": "import", "mode": "merge", "file": (io.BytesIO(CSV.encode()), "terms.csv")}
    return upload | ({"dry_run": "true"} if dry_run else {})


def import_upload() -> dict:
    upload = (io.BytesIO(b'{"title": "Title"}'), "home.json")
    return {"file": upload, "language": "en", "mode": "upsert", "removedKeys": "keep"}


def pending_import(a) -> str:
    languages(a, "en")
    response = a.page_as("org_owner").submit(
        project(a, "/import"), import_upload(), content_type="multipart/form-data"
    )
    assert response.status_code == 200
    return response.get_data(as_text=True).split('name="pending" value="')[1].split('"')[0]


def deleted_operation(a) -> str:
    a.api.upsert("en", {"a": "A"})
    a.api.bulk_delete(["a"])
    page = a.page_as("org_owner").get(project(a, "/trash")).get_data(as_text=True)
    return page.split('name="operation" value="')[1].split('"')[0]


def repository(a) -> None:
    with a.app.app_context(), unit_of_work():
        db.session.add(
            RepoHost(
                project_id=a.world.project_id,
                provider="gitea",
                repository="acme/web",
                branch="main",
                path="locales/{language}.json",
                format="json",
                token_encrypted="sealed",
                webhook_secret_encrypted="sealed",
            )
        )


def git_host(a):
    """A stand-in Gitea serving the repository, running until the test ends."""
    if shutil.which("git") is None:
        pytest.skip("needs Debian's git (apt-get install git)")
    return a.started.enter_context(stand_in("gitea"))


def fix(a) -> dict:
    a.api.create("spaced", {"en": "Save", "de": "Speichern "})
    return fix_form(a.page_as("org_owner").get(project(a, "/editor")), "spaced")


def task(a) -> str:
    """An open review task of German over the project's one key, made on its page; its id."""
    languages(a, "en", "de")
    a.api.create("hello", {"en": "Hello", "de": "Hallo"})
    form = {"kind": "review", "language": "de", "title": "German"}
    response = a.page_as("org_owner").submit(project(a, "/tasks"), form)
    assert response.status_code == 303, response.status_code
    return response.location.rstrip("/").rsplit("/", 1)[1]


def task_form(a) -> Form:
    languages(a, "en", "de")
    a.api.create("hello", {"en": "Hello", "de": "Hallo"})
    return Form(project(a, "/tasks"), {"kind": "review", "language": "de", "title": "German review"})


def unsubscribe_form(a) -> Form:
    """The one-click unsubscribe of the owner's e-mails about comments (a signed link)."""
    from sqlalchemy import inspect

    from loko.notifications.service import unsubscribe_token

    owner_id = inspect(a.world.users["org_owner"]).identity[0]
    with a.app.app_context():
        token = unsubscribe_token(owner_id, a.world.project_id, "comment")
    return Form("/notifications/unsubscribe", {"token": token})


def reset_form(a) -> Form:
    """A password reset link's form for the viewer (the token the e-mail would carry)."""
    from loko.auth.emails import reset_token
    from loko.auth.models import User

    with a.app.app_context():
        user = db.session.get(User, user_id(a.world.users["viewer"]))
        token = reset_token(user.id, user.password_hash)
    return Form("/reset-password", {"token": token, "new_password": "a brand new secret"}, "anonymous")


# Each row: (endpoint, what the form does, the valid form given what it needs).
WRITES = [
    ("apikeys_ui.keys", "create", lambda a: Form(project(a, "/keys"), {"name": "deploy"})),
    (
        "apikeys_ui.revoke",
        "revoke",
        lambda a: Form(project(a, f"/keys/{a.world.key_ids['spare_key']}/revoke")),
    ),
    ("auth_ui.account", "new organization", lambda a: Form("/account", {"name": "Side project"})),
    (
        "auth_ui.change_password",
        "change",
        lambda a: Form(
            "/account/password", {"current_password": PASSWORD, "new_password": "a brand new secret"}
        ),
    ),
    (
        "auth_ui.login",
        "sign in",
        lambda a: Form("/login", {"email": "editor@example.test", "password": PASSWORD}, "anonymous"),
    ),
    ("auth_ui.logout", "sign out", lambda a: Form("/logout")),
    (
        "auth_ui.forgot_password",
        "ask for a reset link",
        lambda a: Form("/forgot-password", {"email": "viewer@example.test"}, "anonymous"),
    ),
    ("auth_ui.reset_password", "choose a new password", reset_form),
    ("auth_ui.rename", "rename", lambda a: Form("/account/profile", {"name": "Ada Lovelace"})),
    ("auth_ui.set_locale", "choose the language", lambda a: Form("/account/locale", {"locale": "de"})),
    (
        "i18n_ui.switch_locale",
        "switch the language",
        lambda a: Form("/locale", {"locale": "de", "page": "/account"}),
    ),
    (
        "auth_ui.signup",
        "sign up",
        lambda a: Form("/signup", {"email": "ada@example.test", "password": PASSWORD}, "anonymous"),
    ),
    (
        "comments_ui.add_comment",
        "add",
        lambda a: Form(project(a, f"/editor/keys/{key_id(a)}/comments"), {"body": "Formal?", "language": ""}),
    ),
    ("comments_ui.resolve_comment", "resolve", lambda a: resolve_comment(a)),
    (
        "files_ui.create_file",
        "create",
        lambda a: languages(a, "en") or Form(project(a, "/files"), {"fileName": "home", "languages": ["en"]}),
    ),
    (
        "files_ui.delete_file",
        "delete",
        lambda a: home_file(a) or Form(project(a, "/files/delete"), {"fileName": "home", "languageCode": ""}),
    ),
    (
        "files_ui.rename_file",
        "rename",
        lambda a: (
            home_file(a)
            or Form(project(a, "/files/rename"), {"fileName": "home", "newFileName": "pages/home"})
        ),
    ),
    (
        "glossary_ui.forms",
        "add",
        lambda a: Form(
            organization(a, "/glossary"),
            {"form": "add", "language": "en", "term": "file", "translations": "de: Datei"},
        ),
    ),
    (
        "glossary_ui.forms",
        "change",
        lambda a: Form(
            organization(a, "/glossary"),
            {"form": "change", "term_id": glossary_term(a), "language": "en", "term": "files"},
        ),
    ),
    (
        "glossary_ui.forms",
        "delete",
        lambda a: Form(organization(a, "/glossary"), {"form": "delete", "term_id": glossary_term(a)}),
    ),
    (
        "glossary_ui.forms",
        "import",
        lambda a: Form(organization(a, "/glossary"), glossary_file(dry_run=False)),
    ),
    (
        "imports_ui.confirm",
        "confirm",
        lambda a: Form(project(a, "/import/confirm"), {"pending": pending_import(a)}),
    ),
    (
        "imports_ui.cancel",
        "cancel",
        lambda a: Form(project(a, "/import/cancel"), {"pending": pending_import(a)}),
    ),
    ("jobs_ui.cancel", "cancel", lambda a: Form(project(a, f"/jobs/{queued_job(a)}/cancel"))),
    (
        "languages_ui.add_language",
        "add",
        lambda a: Form(project(a, "/languages"), {"code": "pt-BR", "name": "", "emoji": ""}),
    ),
    (
        "languages_ui.delete_language",
        "delete",
        lambda a: languages(a, "de") or Form(project(a, "/languages/delete"), {"code": "de"}),
    ),
    (
        "languages_ui.edit_language",
        "edit",
        lambda a: (
            languages(a, "de")
            or Form(
                project(a, "/languages/edit"), {"currentCode": "de", "code": "de-AT", "name": "", "emoji": ""}
            )
        ),
    ),
    (
        "machine_ui.forms",
        "add",
        lambda a: Form(
            organization(a, "/machine-providers"),
            {"form": "add", "kind": "deepl", "api_key": "a-key", "enabled": "true"},
        ),
    ),
    (
        "machine_ui.forms",
        "disable",
        lambda a: Form(
            organization(a, "/machine-providers"), {"form": "disable", "provider": machine_provider(a)}
        ),
    ),
    (
        "machine_ui.forms",
        "delete",
        lambda a: Form(
            organization(a, "/machine-providers"), {"form": "delete", "provider": machine_provider(a)}
        ),
    ),
    (
        "machine_ui.pretranslate_start",
        "start",
        lambda a: (
            languages(a, "en", "de")
            or Form(project(a, "/pretranslate"), {"languages": ["de"], "use_memory": "true"})
        ),
    ),
    (
        "organizations_ui.accept",
        "join",
        lambda a: Form("/join", {"token": invitation(a)["token"]}, "outsider"),
    ),
    (
        "organizations_ui.delete",
        "delete",
        lambda a: Form(organization(a, "/delete"), {"confirm_name": "Acme"}),
    ),
    (
        "organizations_ui.invite",
        "invite",
        lambda a: Form(organization(a, "/invitations"), {"role": "member", "expires_in_days": "7"}),
    ),
    (
        "organizations_ui.join_signup",
        "sign up and join",
        lambda a: Form(
            "/join/signup",
            {"token": invitation(a)["token"], "email": "grace@example.test", "password": PASSWORD},
            "anonymous",
        ),
    ),
    (
        "organizations_ui.members",
        "add",
        lambda a: Form(organization(a, "/members"), {"email": "outsider@example.test", "role": "member"}),
    ),
    (
        "organizations_ui.members",
        "role",
        lambda a: Form(
            organization(a, "/members"),
            {"action": "role", "user_id": user_id(a.world.users["viewer"]), "role": "admin"},
        ),
    ),
    (
        "organizations_ui.members",
        "remove",
        lambda a: Form(
            organization(a, "/members"), {"action": "remove", "user_id": user_id(a.world.users["viewer"])}
        ),
    ),
    (
        "organizations_ui.organization",
        "new project",
        lambda a: Form(organization(a), {"name": "Docs", "desc": ""}),
    ),
    (
        "organizations_ui.revoke_invitation",
        "revoke",
        lambda a: Form(organization(a, f"/invitations/{invitation(a)['invitation']['id']}/revoke")),
    ),
    (
        "organizations_ui.settings",
        "rename",
        lambda a: Form(organization(a, "/settings"), {"name": "Acme Corp"}),
    ),
    (
        "projects_ui.settings",
        "details",
        lambda a: Form(project(a, "/settings"), {"form": "details", "name": "Web shop", "desc": ""}),
    ),
    (
        "projects_ui.settings",
        "memory",
        lambda a: Form(project(a, "/settings"), {"form": "memory", "memory_shared": "true"}),
    ),
    (
        "repohost_ui.repository",
        "configure",
        lambda a: Form(project(a, "/repository"), {"form": "configure", **settings(git_host(a))}),
    ),
    (
        "repohost_ui.repository",
        "remove",
        lambda a: repository(a) or Form(project(a, "/repository"), {"form": "remove"}),
    ),
    ("translations_ui.fix_value", "fix", lambda a: Form(project(a, "/editor/fix"), fix(a))),
    (
        "translations_ui.purge_from_trash",
        "purge",
        lambda a: Form(project(a, "/trash/purge"), {"id": trashed(a)}),
    ),
    (
        "translations_ui.restore_from_trash",
        "restore",
        lambda a: Form(project(a, "/trash/restore"), {"id": trashed(a)}),
    ),
    (
        "translations_ui.revert_entry",
        "revert",
        lambda a: Form(project(a, f"/history/{changed_entry(a)}/revert")),
    ),
    (
        "translations_ui.review_shown",
        "review",
        lambda a: Form(
            project(a, "/editor/review"),
            {"id": [key_id(a, values={"en": "Title", "de": "Titel"})], "language": "de"},
        ),
    ),
    (
        "translations_ui.save_key_details",
        "details",
        lambda a: Form(
            project(a, f"/editor/keys/{key_id(a)}"),
            {"comment": "On the home page", "context": "", "maxLength": ""},
        ),
    ),
    (
        "translations_ui.undo_apply",
        "undo",
        lambda a: Form(project(a, "/undo"), {"operation": deleted_operation(a)}),
    ),
    (
        "webhooks_ui.webhooks",
        "create",
        lambda a: Form(
            project(a, "/webhooks"),
            {"form": "create", "url": "https://hooks.example.test/loko", "events": ["values.changed"]},
        ),
    ),
    (
        "webhooks_ui.webhooks",
        "disable",
        lambda a: Form(project(a, "/webhooks"), {"form": "disable", "webhook": webhook(a)}),
    ),
    (
        "webhooks_ui.webhooks",
        "delete",
        lambda a: Form(project(a, "/webhooks"), {"form": "delete", "webhook": webhook(a)}),
    ),
    (
        "screenshots_ui.upload",
        "upload",
        lambda a: Form(project(a, "/screenshots"), {"files": [(io.BytesIO(picture()), "home.png")]}),
    ),
    (
        "screenshots_ui.screenshot",
        "add-region",
        lambda a: (
            key_id(a)
            and Form(
                project(a, f"/screenshots/{screenshot(a)}"),
                {
                    "form": "add-region",
                    "key": "title",
                    "fileName": "common",
                    "x": "0",
                    "y": "0",
                    "width": "5",
                    "height": "5",
                },
            )
        ),
    ),
    (
        "screenshots_ui.screenshot",
        "delete",
        lambda a: Form(project(a, f"/screenshots/{screenshot(a)}"), {"form": "delete"}),
    ),
    (
        "screenshots_ui.restore",
        "restore",
        lambda a: Form(project(a, f"/screenshots/{trashed_screenshot(a)}/restore"), {}),
    ),
    ("proposals_editor_ui.propose", "propose", lambda a: proposal_form(a)),
    ("proposals_editor_ui.vote", "vote", lambda a: vote_form(a)),
    (
        "proposals_ui.decide",
        "accept",
        lambda a: Form(project(a, f"/proposals/{proposal(a)[1]}"), {"action": "accept"}),
    ),
    (
        "proposals_ui.bulk",
        "reject",
        lambda a: Form(project(a, "/proposals/bulk"), {"action": "reject", "proposalId": [proposal(a)[1]]}),
    ),
    (
        "proposals_ui.undo",
        "undo",
        lambda a: Form(project(a, "/proposals/undo"), {"operationId": rejected(a)}),
    ),
    (
        "proposals_ui.settings",
        "save settings",
        lambda a: (
            languages(a, "en", "de")
            or Form(project(a, "/proposals/settings"), {"protectReviewed": "true", "mode-de": "propose"})
        ),
    ),
    (
        "proposals_ui.propose_text",
        "propose",
        lambda a: (
            languages(a, "en", "de")
            or Form(
                project(a, "/proposals/texts"),
                {"translationId": key_id(a), "language": "de", "text": "Titel"},
            )
        ),
    ),
    (
        "proposals_ui.blocks",
        "block",
        lambda a: Form(
            project(a, "/proposals/blocks"), {"action": "block", "userId": user_id(a.world.users["outsider"])}
        ),
    ),
    (
        "tasks_ui.create",
        "create",
        lambda a: task_form(a),
    ),
    (
        "tasks_ui.change_state",
        "close",
        lambda a: Form(project(a, f"/tasks/{task(a)}/state"), {"state": "closed"}),
    ),
    ("notifications_ui.mark_read", "mark read", lambda a: Form("/notifications/read", {})),
    (
        "notifications_ui.save_settings",
        "save",
        lambda a: Form(project(a, "/notifications"), {"comment": "off"}),
    ),
    (
        "releases_ui.releases",
        "create",
        lambda a: Form(project(a, "/releases"), {"form": "create", "name": "v1.0"}),
    ),
]

# Forms that write nothing: they answer with the page showing what they found (its text).
DRY_RUNS = [
    (
        "notifications_ui.confirm_unsubscribe",
        "one-click unsubscribe (it answers its page, as a mail client posting it expects)",
        unsubscribe_form,
        "Done: no more e-mails",
    ),
    (
        "glossary_ui.forms",
        "import dry run",
        lambda a: Form(organization(a, "/glossary"), glossary_file(dry_run=True)),
        "Nothing was written.",
    ),
    (
        "imports_ui.preview",
        "preview",
        lambda a: languages(a, "en") or Form(project(a, "/import"), import_upload()),
        'name="pending"',
    ),
    (
        "machine_ui.pretranslate_start",
        "estimate",
        lambda a: (
            languages(a, "en", "de")
            or Form(
                project(a, "/pretranslate"), {"languages": ["de"], "use_memory": "true", "estimate": "true"}
            )
        ),
        "What it would do",
    ),
]


def proposal(a) -> tuple[str, str]:
    """A key and a German proposal for it by the write key: ``(translation id, proposal id)``."""
    languages(a, "en", "de")
    translation = key_id(a)
    response = a.api.post("/proposals", {"translationId": translation, "language": "de", "text": "Titel"})
    assert response.status_code == 201, response.json
    return translation, response.json["proposal"]["id"]


def proposal_form(a) -> Form:
    languages(a, "en", "de")
    return Form(project(a, f"/editor/keys/{key_id(a)}/proposals"), {"language": "de", "text": "Titel"})


def vote_form(a) -> Form:
    translation, made = proposal(a)
    return Form(project(a, f"/editor/keys/{translation}/proposals/{made}/vote"), {"value": "1"})


def rejected(a) -> str:
    response = a.owner.post(
        f"/api/projects/{a.world.project_id}/proposals/bulk-reject", json={"proposalIds": [proposal(a)[1]]}
    )
    assert response.status_code == 200, response.json
    return response.json["operationId"]


def resolve_comment(a) -> Form:
    translation = key_id(a)
    response = a.api.post(f"/translations/{translation}/comments", {"body": "Formal?"})
    assert response.status_code == 201, response.json
    comment = response.json["comment"]["id"]
    return Form(project(a, f"/editor/keys/{translation}/comments/{comment}"), {"resolved": "true"})


def queued_job(a) -> str:
    with a.app.app_context(), unit_of_work():
        return jobs.enqueue("test-never-runs", project_id=a.world.project_id).id


def changed_entry(a) -> int:
    a.api.create("title", {"en": "Title"})
    a.api.set_values("title", {"en": "Heading"})
    return a.api.history(action="updated")[0]["id"]


def post(a, form: Form):
    browser: PageClient = a.page_as(form.caller)
    uploads = any(isinstance(value, tuple) for value in form.data.values())
    return browser.submit(form.path, form.data, content_type="multipart/form-data" if uploads else None)


def page_routes_taking_post(app) -> set[str]:
    return {
        rule.endpoint
        for rule in app.url_map.iter_rules()
        if "POST" in rule.methods and rule.endpoint.split(".")[0].endswith("_ui")
    }


def test_every_page_route_taking_a_post_has_a_valid_form_in_the_table(app):
    tabled = {row[0] for row in WRITES + DRY_RUNS}
    assert page_routes_taking_post(app) - tabled == set()
    assert tabled - page_routes_taking_post(app) == set()


@pytest.mark.parametrize(("endpoint", "does", "form"), WRITES, ids=[f"{e}:{d}" for e, d, _f in WRITES])
def test_a_successful_write_answers_a_redirect(arrange, endpoint, does, form):
    response = post(arrange, form(arrange))
    assert response.status_code == 303, f"{endpoint} ({does}) answered {response.status_code}"
    assert response.location


@pytest.mark.parametrize(
    ("endpoint", "does", "form", "shows"), DRY_RUNS, ids=[f"{e}:{d}" for e, d, *_ in DRY_RUNS]
)
def test_a_dry_run_answers_with_the_page_of_what_it_found(arrange, endpoint, does, form, shows):
    response = post(arrange, form(arrange))
    assert response.status_code == 200, f"{endpoint} ({does}) answered {response.status_code}"
    assert shows in response.get_data(as_text=True)
