"""Notifications: made only after the change commits, one per event and person however many
rules match, batched per import, sent through the jobs to a real SMTP server with a working
one-click unsubscribe link, and the endpoints per caller."""

import orjson
import pytest
from sqlalchemy import func, select

from loko.database import unit_of_work, utcnow
from loko.extensions import db
from loko.jobs.models import Job
from loko.notifications import service
from loko.notifications.models import Notification, NotificationRule
from tests.comments.conftest import make_key
from tests.factories import CALLERS, user_id
from tests.notifications.conftest import run_jobs

# anonymous, unknown_key, revoked_key, other_project_key, read_key, write_key, viewer,
# editor, project_admin, org_admin, org_owner, outsider
PERSONAL = (401, 401, 401, 403, 403, 403, 200, 200, 200, 200, 200, 200)
PROJECT_SETTINGS = (401, 401, 401, 403, 403, 403, 200, 200, 200, 200, 200, 404)


def _notes(app, user=None, kind=None) -> list[Notification]:
    with app.app_context():
        query = select(Notification)
        if user is not None:
            query = query.where(Notification.user_id == user)
        if kind is not None:
            query = query.where(Notification.kind == kind)
        found = list(db.session.scalars(query))
        db.session.expunge_all()
        return found


def _import(client, project_id, count, prefix="key"):
    document = {f"{prefix}{index}": f"Text {index}" for index in range(count)}
    response = client.post(
        f"/api/projects/{project_id}/import",
        data=orjson.dumps(document),
        query_string={"fileName": "home", "language": "en", "format": "json"},
        headers={"Content-Type": "application/octet-stream"},
    )
    assert response.status_code == 200, response.json
    return response


@pytest.mark.parametrize("caller", CALLERS)
def test_the_bell_and_the_list_follow_the_policy(world, as_caller, caller):
    expected = PERSONAL[CALLERS.index(caller)]
    assert as_caller(caller).get("/api/notifications/unread").status_code == expected
    assert as_caller(caller).get("/api/notifications").status_code == expected
    assert as_caller(caller).post("/api/notifications/read", json={}).status_code == expected


@pytest.mark.parametrize("caller", CALLERS)
def test_a_projects_choices_follow_the_policy(world, as_caller, caller):
    url = f"/api/projects/{world.project_id}/notification-settings"
    expected = PROJECT_SETTINGS[CALLERS.index(caller)]
    assert as_caller(caller).get(url).status_code == expected
    assert as_caller(caller).put(url, json={"rules": {"comment": "off"}}).status_code == expected


def test_a_hundred_new_keys_in_one_import_make_one_message_per_person(app, world, as_caller):
    _import(as_caller("write_key"), world.project_id, 100)
    run_jobs(app)
    notes = _notes(app, kind="keys.new")
    people = [note.user_id for note in notes]
    # Editors, project admins and the organization's owners and admins; not the viewer.
    expected = {user_id(world.users[name]) for name in ("editor", "project_admin", "org_admin", "org_owner")}
    assert sorted(people) == sorted(expected)
    assert {note.count for note in notes} == {100}


def test_new_keys_made_while_their_message_waits_join_it(app, world, as_caller):
    _import(as_caller("write_key"), world.project_id, 4, "a")
    _import(as_caller("write_key"), world.project_id, 6, "b")
    with app.app_context():
        waiting = db.session.scalars(select(Job).where(Job.kind == service.FANOUT_JOB)).all()
        assert len(waiting) == 1 and waiting[0].run_after > utcnow()
    run_jobs(app)
    assert {note.count for note in _notes(app, kind="keys.new")} == {10}


def test_new_keys_made_once_their_message_went_make_another(app, world, as_caller):
    _import(as_caller("write_key"), world.project_id, 4, "a")
    run_jobs(app)
    _import(as_caller("write_key"), world.project_id, 6, "b")
    run_jobs(app)
    editor = user_id(world.users["editor"])
    assert sorted(note.count for note in _notes(app, user=editor, kind="keys.new")) == [4, 6]


def test_the_new_keys_of_two_people_are_told_apart(app, world, as_caller):
    make_key(as_caller("project_admin"), world.project_id, "greeting")
    make_key(as_caller("editor"), world.project_id, "farewell")
    run_jobs(app)
    admin, editor = user_id(world.users["project_admin"]), user_id(world.users["editor"])
    assert [note.count for note in _notes(app, user=admin, kind="keys.new")] == [1]
    assert [note.count for note in _notes(app, user=editor, kind="keys.new")] == [1]
    assert sorted(
        note.count for note in _notes(app, user=user_id(world.users["org_owner"]), kind="keys.new")
    ) == [1, 1]


def test_nobody_is_told_of_the_keys_they_created(app, world, as_caller):
    make_key(as_caller("project_admin"), world.project_id, "greeting")
    run_jobs(app)
    told = {note.user_id for note in _notes(app, kind="keys.new")}
    assert user_id(world.users["project_admin"]) not in told
    assert user_id(world.users["editor"]) in told


def test_keys_that_concern_nobody_but_their_author_make_no_message(app, world):
    from loko.auth.models import User
    from loko.auth.service import create_user, user_actor
    from loko.languages.service import ensure_languages
    from loko.projects.service import insert_project
    from loko.translations.service import patch_translation

    with app.app_context():
        with unit_of_work():
            alone, organization = create_user("alone@example.test", "a long password", "Alone")
            project_id = insert_project(organization.id, "Alone").id
            ensure_languages(project_id, ["en"])
        patch_translation(
            user_actor(db.session.get(User, alone.id)), project_id, "hello", "home", {"en": "Hi"}
        )
    run_jobs(app)
    assert _notes(app) == []


def test_a_contributor_is_told_of_new_keys_as_they_propose_their_texts(app, world, as_caller):
    from loko.organizations.models import Organization
    from loko.projects.models import Project
    from tests.factories import add_org_member, make_user, set_project_role

    with app.app_context():
        contributor = make_user("contributor@example.test", "Contributor")
        add_org_member(db.session.get(Organization, world.organization_id), contributor, "member")
        set_project_role(db.session.get(Project, world.project_id), contributor, "contributor")
        contributor_id = contributor.id
    _import(as_caller("write_key"), world.project_id, 3)
    run_jobs(app)
    assert [note.count for note in _notes(app, user=contributor_id, kind="keys.new")] == [3]


def test_no_message_for_a_change_rolled_back(app, world, as_caller):
    from loko.notifications.service import LISTENER

    with app.app_context():
        try:
            with unit_of_work():
                LISTENER.emit(world.project_id, "key.created", [], 5)
                raise RuntimeError("refused")
        except RuntimeError:
            pass
        jobs = db.session.execute(select(func.count()).select_from(Job)).scalar_one()
    run_jobs(app)
    assert jobs == 0
    assert _notes(app) == []


def test_one_message_when_three_rules_match(app, world, as_caller):
    owner, editor = as_caller("org_owner"), as_caller("editor")
    translation_id = make_key(owner, world.project_id, "greeting")
    # The editor commented on the key before, is assigned an open task with it, and is
    # mentioned: three reasons, one message (the mention).
    url = f"/api/projects/{world.project_id}/translations/{translation_id}/comments"
    assert editor.post(url, json={"body": "Formal or not?"}).status_code == 201
    response = owner.post(
        f"/api/projects/{world.project_id}/tasks",
        json={"kind": "translate", "language": "de", "title": "German", "keys": [translation_id]},
    )
    assert response.status_code == 201, response.json
    run_jobs(app)
    before = len(_notes(app, user_id(world.users["editor"])))
    assert owner.post(url, json={"body": "@editor formal, please."}).status_code == 201
    run_jobs(app)
    notes = _notes(app, user_id(world.users["editor"]))
    assert len(notes) == before + 1
    assert notes[-1].kind == "mention" or "mention" in {note.kind for note in notes}


def test_a_task_assigned_tells_the_assignee(app, world, as_caller):
    owner = as_caller("org_owner")
    make_key(owner, world.project_id, "greeting")
    response = owner.post(
        f"/api/projects/{world.project_id}/tasks",
        json={
            "kind": "review",
            "language": "de",
            "title": "Review German",
            "filter": {},
            "assignees": [user_id(world.users["viewer"])],
        },
    )
    assert response.status_code == 201
    run_jobs(app)
    viewer = as_caller("viewer")
    assert viewer.get("/api/notifications/unread").json == {"unread": 1}
    listed = viewer.get("/api/notifications").json["notifications"]
    assert listed[0]["kind"] == "task.assigned" and "Review German" in listed[0]["title"]
    assert viewer.post("/api/notifications/read", json={}).json == {"marked": 1}
    assert viewer.get("/api/notifications/unread").json == {"unread": 0}


def _choose(app, user, project_id, kind, channel):
    with app.app_context(), unit_of_work():
        db.session.merge(NotificationRule(user_id=user, project_id=project_id, kind=kind, channel=channel))


def test_an_email_at_once_arrives_with_a_working_unsubscribe_link(app, world, as_caller, inbox, client):
    editor = user_id(world.users["editor"])
    _choose(app, editor, world.project_id, "keys.new", "email")
    _import(as_caller("write_key"), world.project_id, 3)
    run_jobs(app)
    assert len(inbox.messages) == 1
    message = inbox.messages[0]
    assert message["To"] == "editor <editor@example.test>"
    assert "3 new keys" in message["Subject"]
    assert message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert {part.get_content_type() for part in message.iter_parts()} == {"text/plain", "text/html"}
    link = message["List-Unsubscribe"].strip("<>")
    assert link.startswith("http://loko.example.test/api/notifications/unsubscribe?token=")
    # One click, without signing in: this rule only stops e-mailing.
    response = client.post(link.removeprefix("http://loko.example.test"))
    assert response.status_code == 200, response.json
    with app.app_context():
        rules = dict(
            db.session.execute(
                select(NotificationRule.kind, NotificationRule.channel).where(
                    NotificationRule.user_id == editor
                )
            ).all()
        )
    assert rules == {"keys.new": "app"}
    assert client.post("/api/notifications/unsubscribe?token=forged").status_code == 404


def test_a_daily_digest_counts_the_messages(app, world, as_caller, inbox):
    editor = user_id(world.users["editor"])
    _choose(app, editor, world.project_id, "keys.new", "daily")
    _import(as_caller("write_key"), world.project_id, 4, "a")
    run_jobs(app)
    _import(as_caller("write_key"), world.project_id, 6, "b")
    run_jobs(app)
    assert inbox.messages == []
    with app.app_context():
        assert service.send_digests("daily") == {"sent": 1}
    assert len(inbox.messages) == 1
    body = inbox.messages[0].get_body(("plain",)).get_content()
    assert (
        "Daily digest" in inbox.messages[0]["Subject"] and "2 notifications" in inbox.messages[0]["Subject"]
    )
    assert "New keys in my languages: 2 (10 keys)" in body
    with app.app_context():
        assert service.send_digests("daily") == {"sent": 0}


@pytest.mark.parametrize("config_overrides", [{}], indirect=True)
def test_without_smtp_the_email_choices_are_refused(world, as_caller):
    url = f"/api/projects/{world.project_id}/notification-settings"
    response = as_caller("editor").put(url, json={"rules": {"comment": "email"}})
    assert response.status_code == 400 and response.json["error"].startswith("rules.comment:")
    assert as_caller("editor").get(url).json["emailAvailable"] is False


def test_a_task_due_soon_then_overdue_reminds_its_assignees_once_each(app, world, as_caller):
    from datetime import timedelta

    from loko.database import utcnow
    from loko.tasks.models import Task

    owner = as_caller("org_owner")
    make_key(owner, world.project_id, "greeting")
    due = (utcnow() + timedelta(hours=2)).isoformat()
    made = owner.post(
        f"/api/projects/{world.project_id}/tasks",
        json={
            "kind": "translate",
            "language": "de",
            "title": "German",
            "filter": {},
            "dueAt": due,
            "assignees": [user_id(world.users["editor"])],
        },
    ).json["task"]
    with app.app_context():
        assert service.remind_due_tasks() == {"reminded": 1}
        assert service.remind_due_tasks() == {"reminded": 0}
        with unit_of_work():
            db.session.get(Task, made["id"]).due_at = utcnow() - timedelta(minutes=1)
        assert service.remind_due_tasks() == {"reminded": 1}
        assert service.remind_due_tasks() == {"reminded": 0}
    titles = sorted(note.title for note in _notes(app, user_id(world.users["editor"]), "task.due"))
    assert titles == ["The task “German” in Web app is due soon", "The task “German” in Web app is overdue"]


def test_the_starter_of_an_import_job_is_told_when_it_ends(app, world):
    from loko.jobs.models import FAILED

    editor = user_id(world.users["editor"])
    with app.app_context(), unit_of_work():
        job = Job(
            kind="import",
            project_id=world.project_id,
            payload=orjson.dumps({"actor": {"type": "user", "id": editor, "name": "editor"}}).decode(),
            state=FAILED,
        )
        db.session.add(job)
        db.session.flush()
        job_id = job.id
    payload = {
        "eventId": "0190a0a0-0000-7000-8000-00000000e001",
        "projectId": world.project_id,
        "kind": "job.finished",
        "data": {"jobId": job_id, "kind": "import", "state": FAILED},
    }
    with app.app_context():
        assert service.fan_out(payload)["messages"] == 1
        # Run again (a retried job): nothing twice.
        service.fan_out(payload)
    notes = _notes(app, editor, "job.finished")
    assert [note.title for note in notes] == ["Import in Web app failed"]


def test_a_comment_tells_nobody_its_own_author(app, world, as_caller):
    owner = as_caller("org_owner")
    translation_id = make_key(owner, world.project_id, "greeting")
    url = f"/api/projects/{world.project_id}/translations/{translation_id}/comments"
    owner.post(url, json={"body": "A note to myself, @owner"})
    run_jobs(app)
    assert _notes(app, user_id(world.users["org_owner"]), "mention") == []


def test_messages_older_than_ninety_days_are_pruned(app, world, as_caller):
    from datetime import timedelta

    from sqlalchemy import update

    from loko.database import utcnow

    _import(as_caller("write_key"), world.project_id, 2)
    run_jobs(app)
    kept = len(_notes(app))
    with app.app_context():
        with unit_of_work():
            db.session.execute(
                update(Notification)
                .where(Notification.user_id == user_id(world.users["editor"]))
                .values(created_at=utcnow() - timedelta(days=91))
            )
        assert service.prune() == 1
    assert len(_notes(app)) == kept - 1
