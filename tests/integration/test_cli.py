"""The ``loko`` bootstrap commands and the schema check ``loko serve`` runs before serving."""

import os
import uuid

import click
import pytest
import sqlalchemy as sa
from sqlalchemy.engine import make_url

from loko import create_app
from loko.auth import service
from loko.cli import ensure_schema_current
from loko.database import schema_revision_state
from loko.extensions import db
from tests.factories import CallerClient, cheap_password_hasher

PASSWORD = "correct horse battery"


@pytest.fixture(autouse=True)
def fast_password_hashing(monkeypatch):
    monkeypatch.setattr(service, "_hasher", cheap_password_hasher())


def invoke(runner, *args):
    return runner.invoke(args=list(args))


def printed(result, label) -> list[str]:
    """The words after ``label`` on the line of the output that starts with it."""
    (line,) = [line for line in result.output.splitlines() if line.startswith(f"{label} ")]
    return line.split(" ", 2)[1:]


def create_user(runner, email="ada@example.test", *extra):
    return invoke(runner, "create-user", "--email", email, "--password", PASSWORD, *extra)


def create_project(runner, organization_id, name="Web app"):
    return invoke(runner, "create-project", "--organization", organization_id, "--name", name)


@pytest.fixture
def organization_id(runner):
    return printed(create_user(runner), "organization")[0]


@pytest.fixture
def project_id(runner, organization_id):
    return printed(create_project(runner, organization_id), "project")[0]


# --- create-user -------------------------------------------------------------------------


def test_create_user_prints_the_user_and_organization(runner):
    result = create_user(runner, "ada@example.test", "--name", "Ada")
    assert result.exit_code == 0, result.output
    user_id, email = printed(result, "user")
    uuid.UUID(user_id)
    assert email == "ada@example.test"
    organization_id, name = printed(result, "organization")
    uuid.UUID(organization_id)
    assert name == "Ada's organization"


def test_create_user_names_the_organization_as_asked(runner):
    result = create_user(runner, "ada@example.test", "--organization", "Engines")
    assert printed(result, "organization")[1] == "Engines"


def test_created_user_can_sign_in(app, runner):
    create_user(runner)
    response = app.test_client().post(
        "/api/auth/login", json={"email": "ada@example.test", "password": PASSWORD}
    )
    assert response.status_code == 200


def test_created_user_owns_the_organization(app, runner):
    create_user(runner)
    client = app.test_client()
    client.post("/api/auth/login", json={"email": "ada@example.test", "password": PASSWORD})
    (organization,) = client.get("/api/auth/me").json["organizations"]
    assert organization["role"] == "owner"


def test_create_user_rejects_a_short_password(runner):
    result = invoke(runner, "create-user", "--email", "ada@example.test", "--password", "short")
    assert result.exit_code != 0
    assert "password" in result.output


def test_create_user_rejects_an_invalid_email(runner):
    result = invoke(runner, "create-user", "--email", "ada", "--password", PASSWORD)
    assert result.exit_code != 0
    assert "email" in result.output


def test_create_user_rejects_a_taken_email(runner):
    create_user(runner, "ada@example.test")
    result = create_user(runner, "ADA@example.test")
    assert result.exit_code != 0
    assert "already exists" in result.output


# --- create-project ----------------------------------------------------------------------


def test_create_project_prints_the_project(runner, organization_id):
    result = create_project(runner, organization_id, "Web app")
    assert result.exit_code == 0, result.output
    project_id, name = printed(result, "project")
    uuid.UUID(project_id)
    assert name == "Web app"


def test_create_project_in_an_unknown_organization_fails(runner):
    result = create_project(runner, str(uuid.uuid4()))
    assert result.exit_code != 0
    assert "Organization not found" in result.output


def test_create_project_with_an_organization_that_is_not_a_uuid_fails(runner):
    result = create_project(runner, "acme")
    assert result.exit_code != 0
    assert "organization_id" in result.output


def test_create_project_rejects_a_name_of_33_characters(runner, organization_id):
    result = create_project(runner, organization_id, "n" * 33)
    assert result.exit_code != 0
    assert "name" in result.output


# --- create-api-key ----------------------------------------------------------------------


def test_create_api_key_prints_a_key_that_works_against_the_api(app, runner, project_id):
    result = invoke(runner, "create-api-key", "--project", project_id, "--name", "ci")
    assert result.exit_code == 0, result.output
    key = result.output.strip()
    assert key.startswith("loko_")
    response = CallerClient(app, {"bearer": key}).get(f"/api/projects/{project_id}")
    assert response.status_code == 200
    assert response.json["project"]["canEditTranslations"] is True


def test_create_api_key_with_read_scope_cannot_edit_translations(app, runner, project_id):
    key = invoke(
        runner, "create-api-key", "--project", project_id, "--name", "ci", "--scope", "read"
    ).output.strip()
    project = CallerClient(app, {"bearer": key}).get(f"/api/projects/{project_id}").json["project"]
    assert project["canEditTranslations"] is False


def test_create_api_key_for_an_unknown_project_fails(runner):
    result = invoke(runner, "create-api-key", "--project", str(uuid.uuid4()), "--name", "ci")
    assert result.exit_code != 0
    assert "Project not found" in result.output


def test_create_api_key_rejects_an_unknown_scope(runner, project_id):
    result = invoke(runner, "create-api-key", "--project", project_id, "--name", "ci", "--scope", "admin")
    assert result.exit_code != 0
    assert "scope" in result.output


def test_create_api_key_rejects_a_name_of_129_characters(runner, project_id):
    result = invoke(runner, "create-api-key", "--project", project_id, "--name", "k" * 129)
    assert result.exit_code != 0
    assert "name" in result.output


# --- schema check ------------------------------------------------------------------------


def _app_for(url):
    return create_app({"TESTING": True, "LOKO_DATABASE_URL": url, "LOKO_SECRET_KEY": "test-secret-key"})


def test_ensure_schema_current_upgrades_an_empty_sqlite_database(tmp_path):
    app = _app_for(f"sqlite:///{tmp_path / 'fresh.db'}")
    with app.app_context():
        try:
            ensure_schema_current(app)
            current, head = schema_revision_state(app)
            tables = sa.inspect(db.engine).get_table_names()
        finally:
            db.engine.dispose()
    assert current == head
    assert {"users", "organizations", "projects", "api_keys", "sessions"} <= set(tables)


def test_ensure_schema_current_leaves_a_current_database_alone(app, capsys):
    with app.app_context():
        ensure_schema_current(app)
    assert "Upgrading" not in capsys.readouterr().err


@pytest.fixture
def empty_postgres_url():
    """A new, empty database on the test PostgreSQL server, dropped afterwards."""
    server = os.environ.get("LOKO_TEST_DATABASE_URL")
    if not server:
        pytest.skip(
            "needs PostgreSQL: set LOKO_TEST_DATABASE_URL (e.g. postgresql+psycopg://postgres@127.0.0.1/postgres)"
        )
    server_url = make_url(server)
    name = f"loko_cli_{uuid.uuid4().hex[:12]}"
    admin = sa.create_engine(server_url, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.exec_driver_sql(f'CREATE DATABASE "{name}"')
    try:
        yield server_url.set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as connection:
            connection.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.dispose()


def test_ensure_schema_current_refuses_an_out_of_date_postgresql_database(empty_postgres_url):
    app = _app_for(empty_postgres_url)
    with app.app_context():
        try:
            with pytest.raises(click.ClickException, match="loko db upgrade"):
                ensure_schema_current(app)
            tables = sa.inspect(db.engine).get_table_names()
        finally:
            db.engine.dispose()
    assert tables == []
