"""Test data made through the real services and models (inside an app context)."""

from dataclasses import dataclass, field
from datetime import timedelta
from functools import cache

from argon2 import PasswordHasher
from sqlalchemy import Integer, inspect, select, update

from loko.apikeys.models import ApiKey
from loko.apikeys.service import issue_api_key
from loko.auth.models import Session, User
from loko.auth.service import hash_password, open_session
from loko.auth.tokens import token_hash
from loko.database import unit_of_work, utcnow
from loko.database.columns import new_id
from loko.extensions import db
from loko.languages.models import ProjectLanguage
from loko.organizations.models import Organization, OrganizationMember
from loko.projects.models import Project, ProjectMember
from loko.projects.service import insert_project

PASSWORD = "correct horse battery"
CALLERS = (
    "anonymous",
    "unknown_key",
    "revoked_key",
    "other_project_key",
    "read_key",
    "write_key",
    "viewer",
    "editor",
    "project_admin",
    "org_admin",
    "org_owner",
    "outsider",
)


@cache
def _password_hash():
    return hash_password(PASSWORD)


def make_user(email=None, name=None):
    with unit_of_work():
        user = User(
            email=email or f"user{_counter()}@example.test",
            name=name or "User",
            password_hash=_password_hash(),
        )
        db.session.add(user)
    return user


def make_org(owner, name="Acme"):
    with unit_of_work():
        org = Organization(name=name)
        db.session.add(org)
        db.session.flush()
        db.session.add(OrganizationMember(organization_id=org.id, user_id=owner.id, role="owner"))
    return org


def add_org_member(org, user, role="member"):
    with unit_of_work():
        db.session.add(OrganizationMember(organization_id=org.id, user_id=user.id, role=role))


def make_project(org, **overrides):
    values = {"name": "Web app", "desc": "", "emoji": "", **overrides}
    with unit_of_work():
        return insert_project(org.id, **values)


def set_project_role(project, user, role):
    with unit_of_work():
        db.session.merge(ProjectMember(project_id=project.id, user_id=user.id, role=role))


def add_language(project, code, name=None, emoji=""):
    with unit_of_work():
        db.session.add(ProjectLanguage(project_id=project.id, code=code, name=name or code, emoji=emoji))
        # As the service does: a project's first language becomes its source language.
        db.session.execute(
            update(Project)
            .where(Project.id == project.id, Project.source_language.is_(None))
            .values(source_language=code)
        )


def make_key(project, scope="write", name="ci", revoked=False):
    with unit_of_work():
        key, record = issue_api_key(project.id, name, scope, created_by=None)
        if revoked:
            record.revoked_at = utcnow()
    return key, record.id


def make_session(user, days=14):
    with unit_of_work():
        return open_session(user.id, days)


_count = [0]


def _counter():
    _count[0] += 1
    return _count[0]


@dataclass
class World:
    """One project seen by every kind of caller the permission table knows."""

    project_id: str
    other_project_id: str
    organization_id: str
    users: dict = field(default_factory=dict)
    credentials: dict = field(default_factory=dict)
    key_ids: dict = field(default_factory=dict)


def build_world() -> World:
    owner = make_user("owner@example.test", "Owner")
    org = make_org(owner)
    project = make_project(org, name="Web app")
    world = World(project_id=project.id, other_project_id="", organization_id=org.id)
    world.users["org_owner"] = owner
    for name, org_role, project_role in (
        ("org_admin", "admin", None),
        ("project_admin", "member", "admin"),
        ("editor", "member", "editor"),
        ("viewer", "member", "viewer"),
    ):
        user = make_user(f"{name}@example.test", name)
        add_org_member(org, user, org_role)
        if project_role:
            set_project_role(project, user, project_role)
        world.users[name] = user
    outsider = make_user("outsider@example.test", "Outsider")
    other_org = make_org(outsider, "Elsewhere")
    other_project = make_project(other_org, name="Other")
    world.other_project_id = other_project.id
    world.users["outsider"] = outsider

    for name, user in world.users.items():
        world.credentials[name] = {"cookie": make_session(user)}
    world.credentials["anonymous"] = {}
    world.credentials["unknown_key"] = {"bearer": "loko_" + "x" * 43}
    for name, scope, revoked, target in (
        ("write_key", "write", False, project),
        ("read_key", "read", False, project),
        ("revoked_key", "write", True, project),
        ("spare_key", "write", False, project),
        ("other_project_key", "write", False, other_project),
    ):
        key, key_id = make_key(target, scope=scope, name=name, revoked=revoked)
        world.credentials[name] = {"bearer": key}
        world.key_ids[name] = key_id
    return world


def world_rows() -> list[tuple]:
    """Every row of the database as it stands, ``(table, [row mappings])`` in insert order;
    a table's own counter (an autoincrement integer key) is left for the database to give."""
    found = []
    for table in db.metadata.sorted_tables:
        counter = [
            column.name
            for column in table.primary_key.columns
            if isinstance(column.type, Integer) and column.autoincrement is True
        ]
        rows = [
            {name: value for name, value in row.items() if name not in counter}
            for row in db.session.execute(select(table)).mappings()
        ]
        if rows:
            found.append((table, rows))
    db.session.commit()
    return found


def restore_world(world: World, rows: list[tuple]) -> World:
    """The world ``build_world`` made, its rows inserted again into empty tables under fresh
    ids (in the same order as the first ones), so that nothing a process kept about the
    last test's project, organization or users can answer for this one; with its own copies
    of the users, so that a test may change what it is given."""
    first = sorted({value for _table, table_rows in rows for row in table_rows for value in _ids(row)})
    fresh = dict(zip(first, sorted(new_id() for _ in first), strict=True))
    with unit_of_work():
        for table, table_rows in rows:
            db.session.execute(
                table.insert(),
                [{name: fresh.get(value, value) for name, value in row.items()} for row in table_rows],
            )
    ids = {name: fresh[user_id(user)] for name, user in world.users.items()}
    users = {user.id: user for user in db.session.scalars(select(User).where(User.id.in_(ids.values())))}
    db.session.commit()
    db.session.expunge_all()
    return World(
        project_id=fresh[world.project_id],
        other_project_id=fresh[world.other_project_id],
        organization_id=fresh[world.organization_id],
        users={name: users[user] for name, user in ids.items()},
        credentials={name: dict(credentials) for name, credentials in world.credentials.items()},
        key_ids={name: fresh.get(key_id, key_id) for name, key_id in world.key_ids.items()},
    )


def _ids(row: dict):
    """The row's values that are ids made by ``new_id`` (its own and those it refers to)."""
    for value in row.values():
        if isinstance(value, str) and len(value) == 36 and value[14] == "7" and value.count("-") == 4:
            yield value


class CallerClient:
    """A Flask test client that sends one caller's cookie or Bearer key on every request."""

    def __init__(self, app, credentials: dict):
        self.client = app.test_client()
        self.headers = {}
        if "cookie" in credentials:
            self.client.set_cookie("sb-access-token", credentials["cookie"])
        if "bearer" in credentials:
            self.headers["Authorization"] = f"Bearer {credentials['bearer']}"

    def open(self, method, path, **kwargs):
        headers = {**self.headers, **kwargs.pop("headers", {})}
        return self.client.open(path, method=method, headers=headers, **kwargs)

    def get(self, path, **kwargs):
        return self.open("GET", path, **kwargs)

    def post(self, path, **kwargs):
        return self.open("POST", path, **kwargs)

    def put(self, path, **kwargs):
        return self.open("PUT", path, **kwargs)

    def patch(self, path, **kwargs):
        return self.open("PATCH", path, **kwargs)

    def delete(self, path, **kwargs):
        return self.open("DELETE", path, **kwargs)


__all__ = ["CALLERS", "ApiKey"]


def user_id(user) -> str:
    """The id of a factory-made user, readable after its app context has ended."""
    return inspect(user).identity[0]


def project_in(organization_id, languages=(), **overrides) -> str:
    """Create a project (with languages) in an existing organization; returns its id."""
    project = make_project(db.session.get(Organization, organization_id), **overrides)
    for code in languages:
        add_language(project, code)
    return project.id


def add_languages(project_id, *codes):
    project = db.session.get(Project, project_id)
    for code in codes:
        add_language(project, code)


def expire_session(token):
    """Move a session's expiry into the past, as if its lifetime had run out."""
    with unit_of_work():
        db.session.execute(
            update(Session)
            .where(Session.token_hash == token_hash(token))
            .values(expires_at=utcnow() - timedelta(seconds=1))
        )


def cheap_password_hasher():
    """In place of ``loko.auth.service._hasher``: argon2 at its lowest cost, the same code
    path as production in a fraction of the time."""
    hasher = PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)
    return lambda: hasher


def run_jobs(app, limit: int | None = None, due_at_once: bool = False) -> int:
    """Run the runnable jobs one by one, as a worker would, at most ``limit``; with
    ``due_at_once``, each queued one is made due first (no waiting out a backoff). How many
    ran, the notifications' jobs left out (the events of the jobs' writes bring them along)."""
    from loko.jobs.models import QUEUED, Job
    from loko.jobs.worker import Worker

    told, worker, ran = _notification_jobs_done(app), Worker(app), 0
    while limit is None or ran < limit:
        if due_at_once:
            with app.app_context(), unit_of_work():
                db.session.execute(
                    update(Job).where(Job.state == QUEUED).values(run_after=utcnow() - timedelta(seconds=1))
                )
        if not worker.run_one():
            break
        ran += 1
    return ran - (_notification_jobs_done(app) - told)


def _notification_jobs_done(app) -> int:
    from sqlalchemy import func

    from loko.jobs.models import FINISHED, Job

    with app.app_context():
        done = db.session.scalar(
            select(func.count())
            .select_from(Job)
            .where(Job.kind.startswith("notifications."), Job.state.in_(FINISHED))
        )
        db.session.remove()
    return done
