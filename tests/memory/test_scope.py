"""The memory shows each caller only what they may see.

One organization, projects A and B (source en). B is kept from most of A's people: its
values reach only those who may view B (the organization's owners and admins, B's own
members) unless B's admins share it with the organization's memory; then every member, and
the keys of the organization's projects, find them. Each reader is checked for each kind of
caller: the REST lookup, the suggestions (the editor's list), pre-translation's dry-run
count and its job, the editor's search. MCP's tools are in tests/mcp/test_memory_scope.py.
"""

import orjson
import pytest
from sqlalchemy import update

from loko.auth.policy import languages_column
from loko.extensions import db
from loko.jobs.worker import Worker
from loko.memory import service
from loko.projects.models import Project, ProjectMember
from loko.translations.service import bulk_upsert
from tests.factories import (
    CallerClient,
    add_language,
    add_org_member,
    make_key,
    make_org,
    make_project,
    make_session,
    make_user,
    set_project_role,
)
from tests.memory.test_tmx import document, tu

B_NAME = "Finance"
B_SOURCE = "Export the quarterly report"
B_GERMAN = "Quartalsbericht exportieren"
A_SOURCE = "Export the quarterly reports"
TMX_SOURCE = "Open the archive folder"
TMX_GERMAN = "Archivordner öffnen"

# Who may view B: the organization's owners and admins and B's own members.
SEES_B = ("org_owner", "org_admin", "a_and_b")
# Who cannot: A's people and A's keys.
KEPT_FROM_B = ("a_editor", "a_german", "read_key", "write_key")
# Members (and the keys of the organization's projects) who find a shared project's values.
MEMBERS_OF_A = ("a_editor", "a_german", "a_and_b", "read_key", "write_key")


class Scoped:
    def __init__(self):
        owner = make_user("scope-owner@example.test", "Owner")
        self.org = make_org(owner)
        self.organization_id = self.org.id
        a = make_project(self.org, name="Web")
        b = make_project(self.org, name=B_NAME)
        self.a, self.b = a.id, b.id
        for project in (a, b):
            for code in ("en", "de", "fr"):
                add_language(project, code)
        self.users = {"org_owner": owner}
        for name, role in (("org_admin", "admin"), ("a_editor", "member"), ("a_german", "member")):
            self.users[name] = make_user(f"{name}@example.test", name)
            add_org_member(self.org, self.users[name], role)
        self.users["a_and_b"] = make_user("a_and_b@example.test", "Both")
        add_org_member(self.org, self.users["a_and_b"])
        set_project_role(a, self.users["a_editor"], "editor")
        set_project_role(a, self.users["a_and_b"], "editor")
        set_project_role(b, self.users["a_and_b"], "viewer")
        with db.session.begin():
            db.session.merge(
                ProjectMember(
                    project_id=a.id,
                    user_id=self.users["a_german"].id,
                    role="editor",
                    languages=languages_column(["de"]),
                )
            )
        outsider = make_user("scope-outsider@example.test", "Outsider")
        make_org(outsider, "Elsewhere")
        self.users["outsider"] = outsider
        self.credentials = {name: {"cookie": make_session(user)} for name, user in self.users.items()}
        self.user_ids = {name: user.id for name, user in self.users.items()}
        self.credentials["anonymous"] = {}
        for scope in ("read", "write"):
            self.credentials[f"{scope}_key"] = {"bearer": make_key(a, scope=scope, name=scope)[0]}
        self.credentials["b_key"] = {"bearer": make_key(b, scope="read", name="b")[0]}
        from loko.auth.service import user_actor

        actor = user_actor(owner)
        write = lambda project, language, items: bulk_upsert(  # noqa: E731
            actor, project, "app", language, [{"key": k, "value": v} for k, v in items.items()]
        )
        write(self.b, "en", {"report": B_SOURCE, "hello": "Welcome back"})
        write(self.b, "de", {"report": B_GERMAN})
        write(self.b, "fr", {"report": "Exporter le rapport trimestriel"})
        write(self.a, "en", {"export": A_SOURCE, "welcome": "Welcome back"})
        write(self.a, "fr", {"welcome": "Bon retour"})
        service.import_tmx(self.organization_id, document(tu(("en", TMX_SOURCE), ("de", TMX_GERMAN))))

    def share_b(self):
        with db.session.begin():
            db.session.execute(update(Project).where(Project.id == self.b).values(memory_shared=True))


@pytest.fixture
def scoped(app):
    with app.app_context():
        world = Scoped()
        db.session.remove()
    return world


@pytest.fixture(params=["after the refresh", "before the refresh"])
def indexed(request, app, scoped):
    """The memory read through its index, and through the writes its last refresh has not
    read yet."""
    if request.param == "after the refresh":
        with app.app_context():
            service.refresh_index()
    return scoped


def client(app, world, caller) -> CallerClient:
    return CallerClient(app, world.credentials[caller])


def lookup(app, world, caller, text=B_SOURCE, language="de", project=None):
    return client(app, world, caller).get(
        f"/api/projects/{project or world.a}/memory",
        query_string={"text": text, "language": language, "limit": 50, "minScore": 50},
    )


def mentions_b(response) -> bool:
    body = response.get_data(as_text=True)
    return B_GERMAN in body or B_NAME in body or B_SOURCE + '"' in body


# -- REST lookups ----------------------------------------------------------------------


@pytest.mark.parametrize("caller", KEPT_FROM_B)
def test_a_lookup_shows_nothing_of_a_project_the_caller_may_not_view(app, indexed, caller):
    response = lookup(app, indexed, caller)
    assert response.status_code == 200, response.json
    assert not mentions_b(response)


@pytest.mark.parametrize("caller", SEES_B)
def test_a_lookup_shows_a_project_the_caller_may_view(app, indexed, caller):
    response = lookup(app, indexed, caller)
    assert response.status_code == 200, response.json
    [match] = [m for m in response.json["matches"] if m["projectName"] == B_NAME]
    assert (match["text"], match["score"], match["key"]) == (B_GERMAN, 100, "report")


@pytest.mark.parametrize("caller", MEMBERS_OF_A)
def test_a_shared_project_s_matches_reach_every_member_and_key(app, indexed, caller):
    with app.app_context():
        indexed.share_b()
    response = lookup(app, indexed, caller)
    assert [m["text"] for m in response.json["matches"] if m["projectName"] == B_NAME] == [B_GERMAN]


def test_fragments_of_an_unshared_project_s_text_find_nothing_of_it(app, indexed):
    for fragment in ("quarterly report", "Export the", "the quarterly"):
        response = lookup(app, indexed, "a_editor", text=fragment)
        assert not mentions_b(response), fragment


def test_a_member_who_may_not_view_the_project_looked_up_from_is_refused(app, indexed):
    response = lookup(app, indexed, "a_editor", project=indexed.b)
    assert response.status_code == 403


@pytest.mark.parametrize(("caller", "status"), [("anonymous", 401), ("outsider", 404), ("b_key", 403)])
def test_callers_outside_the_project_get_no_lookup(app, indexed, caller, status):
    response = lookup(app, indexed, caller)
    assert response.status_code == status
    assert not mentions_b(response)


def test_the_project_s_own_values_serve_its_viewers_unshared(app, indexed):
    response = lookup(app, indexed, "a_editor", text="Welcome back", language="fr")
    assert [(m["text"], m["projectName"]) for m in response.json["matches"]] == [("Bon retour", "Web")]


def test_a_language_limit_limits_the_languages_the_memory_answers_from(app, indexed):
    response = lookup(app, indexed, "a_german", text="Welcome back", language="fr")
    assert response.status_code == 200
    assert response.json["matches"] == []


@pytest.mark.parametrize("caller", MEMBERS_OF_A)
def test_the_organization_s_imported_memory_reaches_its_members_and_keys(app, indexed, caller):
    response = lookup(app, indexed, caller, text=TMX_SOURCE)
    assert [(m["text"], m["origin"]) for m in response.json["matches"]] == [(TMX_GERMAN, "tmx")]


# -- suggestions (the editor's list) ----------------------------------------------------


def suggestions(app, world, caller, language="de"):
    return client(app, world, caller).get(
        f"/api/projects/{world.a}/suggestions",
        query_string={"fileName": "app", "key": "export", "language": language},
    )


@pytest.mark.parametrize("caller", ("a_editor", "a_german", "write_key"))
def test_the_suggestions_show_nothing_of_a_project_the_caller_may_not_view(app, indexed, caller):
    response = suggestions(app, indexed, caller)
    assert response.status_code == 200, response.json
    assert not mentions_b(response)


@pytest.mark.parametrize("caller", SEES_B)
def test_the_suggestions_show_a_project_the_caller_may_view(app, indexed, caller):
    response = suggestions(app, indexed, caller)
    memory = [item for item in response.json["suggestions"] if item["source"] == "memory"]
    assert [(item["text"], item["project"]) for item in memory] == [(B_GERMAN, B_NAME)]


def test_the_suggestions_show_a_shared_project_to_every_member(app, indexed):
    with app.app_context():
        indexed.share_b()
    memory = [i for i in suggestions(app, indexed, "a_editor").json["suggestions"] if i["source"] == "memory"]
    assert [(item["text"], item["project"]) for item in memory] == [(B_GERMAN, B_NAME)]


# -- pre-translation: its dry run's count and its job -----------------------------------


def pretranslate(app, world, caller, **body):
    return client(app, world, caller).post(
        f"/api/projects/{world.a}/pretranslate",
        json={"languages": ["de"], "sources": {"memory": {"minScore": 90}}, **body},
    )


def run_jobs(app):
    worker = Worker(app)
    while worker.run_one():
        pass


def german_of_export(app, world) -> str | None:
    from loko.translations.models import Translation, TranslationValue

    with app.app_context():
        value = db.session.execute(
            db.select(TranslationValue.value)
            .join(Translation, Translation.id == TranslationValue.translation_id)
            .where(
                Translation.project_id == world.a,
                Translation.key == "export",
                TranslationValue.language_code == "de",
            )
        ).scalar_one_or_none()
        db.session.remove()
    return value


@pytest.mark.parametrize(
    ("caller", "found"), [("a_editor", 0), ("write_key", 0), ("org_owner", 1), ("a_and_b", 1)]
)
def test_the_dry_run_counts_only_what_the_caller_may_see(app, indexed, caller, found):
    response = pretranslate(app, indexed, caller, dryRun=True)
    assert response.status_code == 200, response.json
    assert response.json["fromMemory"] == found


@pytest.mark.parametrize("caller", ("a_editor", "a_german", "write_key"))
def test_pre_translation_writes_nothing_of_a_project_the_caller_may_not_view(app, indexed, caller):
    response = pretranslate(app, indexed, caller)
    assert response.status_code == 202, response.json
    run_jobs(app)
    assert german_of_export(app, indexed) is None


@pytest.mark.parametrize("caller", ("org_owner", "a_and_b"))
def test_pre_translation_fills_from_a_project_the_caller_may_view(app, indexed, caller):
    assert pretranslate(app, indexed, caller).status_code == 202
    run_jobs(app)
    assert german_of_export(app, indexed) == B_GERMAN


def test_pre_translation_fills_from_a_shared_project_for_a_member(app, indexed):
    with app.app_context():
        indexed.share_b()
    assert pretranslate(app, indexed, "a_editor").status_code == 202
    run_jobs(app)
    assert german_of_export(app, indexed) == B_GERMAN


def test_a_job_reads_the_memory_with_its_starter_s_rights_when_it_runs(app, indexed):
    assert pretranslate(app, indexed, "a_and_b").status_code == 202
    with app.app_context(), db.session.begin():
        db.session.execute(
            ProjectMember.__table__.delete().where(
                ProjectMember.project_id == indexed.b,
                ProjectMember.user_id == indexed.user_ids["a_and_b"],
            )
        )
    run_jobs(app)
    assert german_of_export(app, indexed) is None


# -- the editor's search ----------------------------------------------------------------


def test_the_editor_s_search_finds_nothing_of_another_project(app, indexed):
    page = client(app, indexed, "org_owner").get(
        f"/projects/{indexed.a}/editor", query_string={"q": "Quartalsbericht"}
    )
    assert page.status_code == 200
    assert B_GERMAN not in page.get_data(as_text=True)


# -- the whole answer, as JSON: nothing of B anywhere -----------------------------------


def test_no_field_of_a_lookup_names_an_unshared_project(app, indexed):
    answer = orjson.dumps(lookup(app, indexed, "a_editor", text="quarterly").json).decode()
    assert indexed.b not in answer and B_NAME not in answer
