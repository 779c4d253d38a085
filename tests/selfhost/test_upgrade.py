"""Data written by an older release survives an upgrade (decisions section 1): a database
built by the migrations from the first one, filled at each revision with rows of that
revision's shape, then upgraded to the head, keeps every row and still works through the
API; a database from a newer Loko is refused."""

import hashlib
import json
from datetime import UTC, datetime, timedelta

import click
import pytest
import sqlalchemy as sa
from argon2 import PasswordHasher

from loko.cli import ensure_schema_current
from loko.database import driver_timestamp, migration_scripts
from loko.database import upgrade_schema as upgrade
from loko.extensions import db
from loko.translations.models import natural_sort_key
from tests.selfhost.conftest import app_on, migrate_to

PASSWORD = "correct horse battery"
API_KEY = "loko_" + "k" * 43
SESSION_TOKEN = "s" * 43
MCP_SESSION_TOKEN = "m" * 43
ORG, OTHER_ORG = "00000000-0000-7000-8000-00000000000a", "00000000-0000-7000-8000-00000000000b"
ADA, GRACE = "00000000-0000-7000-8000-0000000000a1", "00000000-0000-7000-8000-0000000000a2"
PROJECT, VARIANT = "00000000-0000-7000-8000-0000000000b1", "00000000-0000-7000-8000-0000000000b2"
KEY, REVOKED_KEY = "00000000-0000-7000-8000-0000000000c1", "00000000-0000-7000-8000-0000000000c2"
GREETING, FAREWELL, TITLE, TRASHED = (f"00000000-0000-7000-8000-0000000000d{n}" for n in range(1, 5))
TRICKY = 'Say "hi" \\ and\nwait\ttab \u2013 ünïcödé 🌍'
CREATED = datetime(2025, 3, 1, 9, 30, 15, 123456, tzinfo=UTC)
FAR_FUTURE = datetime(2099, 1, 1, tzinfo=UTC)


def sha256(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def fill_foundation(connection, at):
    """Rows of 0001_foundation's tables: accounts, organizations, projects, keys, languages."""
    password_hash = PasswordHasher(time_cost=1, memory_cost=8, parallelism=1).hash(PASSWORD)
    insert(connection, "organizations", [(ORG, "Acme", at(CREATED)), (OTHER_ORG, "Elsewhere", at(CREATED))])
    insert(
        connection,
        "users",
        [
            (ADA, "ada@example.test", "Ada", password_hash, at(CREATED)),
            (GRACE, "grace@example.test", "Grace", password_hash, at(CREATED)),
        ],
        columns=("id", "email", "name", "password_hash", "created_at"),
    )
    insert(
        connection,
        "organization_members",
        [
            (ORG, ADA, "owner", at(CREATED)),
            (ORG, GRACE, "member", at(CREATED)),
            (OTHER_ORG, GRACE, "owner", at(CREATED)),
        ],
    )
    insert(
        connection,
        "projects",
        [
            (PROJECT, ORG, "Web app", "The main product", "🌍", None, None, None, 7, at(CREATED)),
            (VARIANT, ORG, "Brand", "", "", PROJECT, "en", "en-GB", 1, at(CREATED)),
        ],
        columns=(
            "id",
            "organization_id",
            "name",
            '"desc"',
            "emoji",
            "linked_project_id",
            "linked_language_code",
            "linked_language_target_code",
            "data_version",
            "created_at",
        ),
    )
    insert(connection, "project_members", [(PROJECT, GRACE, "editor")])
    insert(
        connection,
        "project_languages",
        [
            (PROJECT, "en", "English", ""),
            (PROJECT, "de", "German", "🇩🇪"),
            (VARIANT, "en-GB", "English (UK)", "🇬🇧"),
        ],
    )
    insert(
        connection,
        "api_keys",
        [
            (KEY, PROJECT, "CI", API_KEY[:12], sha256(API_KEY), "write", ADA, at(CREATED), None, None),
            (
                REVOKED_KEY,
                PROJECT,
                "Old",
                "loko_oldoldo",
                sha256("loko_old"),
                "read",
                None,
                at(CREATED),
                None,
                at(CREATED),
            ),
        ],
    )
    insert(
        connection,
        "sessions",
        [("00000000-0000-7000-8000-0000000000e1", sha256(SESSION_TOKEN), ADA, at(CREATED), at(FAR_FUTURE))],
    )


def fill_translations(connection, at):
    """Rows of 0002_translations' tables: keys, values, file records, history, the trash."""
    deleted = CREATED + timedelta(days=2)
    insert(
        connection,
        "translations",
        [
            (GREETING, PROJECT, "common", "greeting", at(CREATED), at(CREATED), None),
            (FAREWELL, PROJECT, "common", "farewell", at(CREATED), at(CREATED), None),
            (TITLE, PROJECT, "auth/login", "title", at(CREATED), at(CREATED), None),
            (TRASHED, PROJECT, "common", "obsolete", at(CREATED), at(deleted), at(deleted)),
        ],
        columns=("id", "project_id", "file_name", "key", "created_at", "updated_at", "deleted_at"),
    )
    insert(
        connection,
        "translation_values",
        [
            (GREETING, "en", PROJECT, "Hello", at(CREATED)),
            (GREETING, "de", PROJECT, "Hallo", at(CREATED)),
            (FAREWELL, "en", PROJECT, "", at(CREATED)),
            (TITLE, "en", PROJECT, TRICKY, at(CREATED)),
            (TRASHED, "en", PROJECT, "Gone", at(CREATED)),
        ],
    )
    insert(
        connection,
        "file_records",
        [
            (f"00000000-0000-7000-8000-0000000000f{n}", PROJECT, name, code)
            for n, (name, code) in enumerate(
                [("common", "en"), ("common", "de"), ("auth/login", "en"), ("auth/login", "de")], start=1
            )
        ],
    )
    ada, grace, ci = ("user", ADA, "Ada"), ("user", GRACE, "Grace"), ("api_key", KEY, "CI")
    history = [
        (GREETING, "greeting", "common", "en", "created", None, "Hi", *ada, at(CREATED)),
        (GREETING, "greeting", "common", "en", "updated", "Hi", "Hello", *ci, at(CREATED)),
        (GREETING, "greeting", "common", "de", "created", None, "Hallo", *ada, at(CREATED)),
        (TITLE, "title", "auth/login", "en", "created", None, TRICKY, *grace, at(CREATED)),
        (TRASHED, "obsolete", "common", None, "deleted", None, None, *ada, at(deleted)),
    ]
    insert(
        connection,
        "translation_history",
        [(PROJECT, *entry) for entry in history],
        columns=(
            "project_id",
            "translation_id",
            "key",
            "file_name",
            "language",
            "action",
            "old_value",
            "new_value",
            "actor_type",
            "actor_id",
            "actor_name",
            "created_at",
        ),
    )


def fill_mcp_sessions(connection, at):
    """A row of 0003_mcp_sessions' table: an MCP client's open session."""
    insert(
        connection,
        "mcp_sessions",
        [(sha256(MCP_SESSION_TOKEN), KEY, "2025-11-25", at(CREATED), at(FAR_FUTURE), None)],
    )


FILLS = {
    "0001_foundation": fill_foundation,
    "0002_translations": fill_translations,
    "0003_mcp_sessions": fill_mcp_sessions,
}


def insert(connection, table, rows, columns=None):
    names = f" ({', '.join(columns)})" if columns else ""
    marks = ", ".join(f":p{n}" for n in range(len(rows[0])))
    statement = sa.text(f"INSERT INTO {table}{names} VALUES ({marks})")
    connection.execute(statement, [{f"p{n}": value for n, value in enumerate(row)} for row in rows])


def snapshot(connection) -> dict[str, tuple[list[str], list[tuple]]]:
    """Every table's columns and rows, as the driver returns them."""
    tables = {}
    for table in sa.inspect(connection).get_table_names():
        if table == "alembic_version":
            continue
        columns = [column["name"] for column in sa.inspect(connection).get_columns(table)]
        tables[table] = (columns, rows_of(connection, table, columns))
    return tables


def rows_of(connection, table, columns) -> list[tuple]:
    quote = connection.dialect.identifier_preparer.quote
    result = connection.exec_driver_sql(f"SELECT {', '.join(quote(c) for c in columns)} FROM {quote(table)}")
    return sorted((tuple(row) for row in result), key=repr)


def revisions_from_the_first(app) -> list[str]:
    script = migration_scripts(app)
    return [revision.revision for revision in reversed(list(script.walk_revisions()))]


@pytest.fixture
def upgraded(empty_database_url):
    """The database built from the first migration, filled revision by revision, upgraded to
    the head: ``(app, rows before, rows after)``, before the app served any request."""
    app = app_on(empty_database_url)
    with app.app_context():
        try:
            dialect = db.engine.dialect.name
            revisions = revisions_from_the_first(app)
            assert revisions[0] == "0001_foundation"
            before = None
            for revision in revisions:
                upgrade(revision=revision)
                if revision in FILLS:
                    with db.engine.begin() as connection:
                        FILLS[revision](connection, lambda value: driver_timestamp(value, dialect))
                    with db.engine.connect() as connection:
                        before = snapshot(connection)
            with db.engine.connect() as connection:
                after = {
                    table: rows_of(connection, table, columns) for table, (columns, _rows) in before.items()
                }
        finally:
            db.engine.dispose()
    yield app, before, after
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


def test_every_row_survives_the_upgrade_unchanged(upgraded):
    _app, before, after = upgraded
    assert {table: len(rows) for table, (_columns, rows) in before.items()} == {
        table: len(rows) for table, rows in after.items()
    }
    for table, (_columns, rows) in before.items():
        assert after[table] == rows, table
    assert len(before["translation_history"][1]) == 5


def test_the_api_key_still_authenticates_and_exports(upgraded):
    app, _before, _after = upgraded
    response = app.test_client().get(
        f"/api/projects/{PROJECT}/translations", headers={"Authorization": f"Bearer {API_KEY}"}
    )
    assert response.status_code == 200
    assert response.json["en"]["common"] == {"greeting": "Hello", "farewell": ""}
    assert response.json["en"]["auth/login"] == {"title": TRICKY}
    assert response.json["de"]["common"] == {"greeting": "Hallo"}


def test_the_revoked_api_key_stays_revoked(upgraded):
    app, _before, _after = upgraded
    response = app.test_client().get(
        f"/api/projects/{PROJECT}/translations", headers={"Authorization": "Bearer loko_old"}
    )
    assert response.status_code == 401


def test_the_user_signs_in_with_the_old_password(upgraded):
    app, _before, _after = upgraded
    client = app.test_client()
    response = client.post("/api/auth/login", json={"email": "ada@example.test", "password": PASSWORD})
    assert response.status_code == 200
    me = client.get("/api/auth/me").json
    assert me["user"]["id"] == ADA
    assert {(o["id"], o["role"]) for o in me["organizations"]} == {(ORG, "owner")}


def test_an_open_session_stays_open(upgraded):
    app, _before, _after = upgraded
    client = app.test_client()
    client.set_cookie("sb-access-token", SESSION_TOKEN)
    assert client.get("/api/auth/me").json["user"]["email"] == "ada@example.test"


def test_every_key_gets_its_natural_sort_key(upgraded):
    app, _before, _after = upgraded
    with app.app_context():
        rows = db.session.execute(sa.text("SELECT key, sort_key FROM translations")).all()
    assert rows
    assert all(sort_key == natural_sort_key(key) for key, sort_key in rows)


def test_the_trash_lists_the_trashed_translation(upgraded):
    app, _before, _after = upgraded
    response = app.test_client().get(
        f"/api/projects/{PROJECT}/translations/trash", headers={"Authorization": f"Bearer {API_KEY}"}
    )
    assert response.status_code == 200
    assert [(t["id"], t["key"], t["values"]) for t in response.json["translations"]] == [
        (TRASHED, "obsolete", {"en": "Gone"})
    ]


def test_the_history_is_all_there(upgraded):
    app, _before, _after = upgraded
    response = app.test_client().get(
        f"/api/projects/{PROJECT}/translations/history", headers={"Authorization": f"Bearer {API_KEY}"}
    )
    assert response.status_code == 200
    entries = [(e["key"], e["language"], e["action"], e["new_value"]) for e in response.json["history"]]
    assert sorted(entries, key=repr) == sorted(
        [
            ("greeting", "en", "created", "Hi"),
            ("greeting", "en", "updated", "Hello"),
            ("greeting", "de", "created", "Hallo"),
            ("title", "en", "created", TRICKY),
            ("obsolete", None, "deleted", None),
        ],
        key=repr,
    )
    (by_key,) = [e for e in response.json["history"] if e["action"] == "updated"]
    assert by_key["actor"] == {"type": "api_key", "id": KEY, "name": "CI"}


def test_the_mcp_session_resumes(upgraded):
    app, _before, _after = upgraded
    response = app.test_client().post(
        "/api/mcp",
        data=json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}),
        headers={
            "Authorization": f"Bearer {API_KEY}",
            "Accept": "application/json, text/event-stream",
            "Content-Type": "application/json",
            "Mcp-Session-Id": MCP_SESSION_TOKEN,
            "MCP-Protocol-Version": "2025-11-25",
        },
    )
    assert response.status_code == 200
    assert "get_project_context" in {tool["name"] for tool in response.json["result"]["tools"]}


def test_the_linked_project_still_inherits(upgraded):
    app, _before, _after = upgraded
    client = app.test_client()
    client.set_cookie("sb-access-token", SESSION_TOKEN)
    response = client.get(f"/api/projects/{VARIANT}/translations")
    assert response.status_code == 200
    assert response.json["en-GB"]["common"] == {"greeting": "Hello", "farewell": ""}


def test_the_upgrade_sets_the_source_language_each_project_had_by_its_values(upgraded):
    app, _before, _after = upgraded
    client = app.test_client()
    client.set_cookie("sb-access-token", SESSION_TOKEN)
    # The most translated language (en, over de which comes first by code), and for a
    # project without values its first language.
    assert client.get(f"/api/projects/{PROJECT}").json["project"]["source_language"] == "en"
    assert client.get(f"/api/projects/{VARIANT}").json["project"]["source_language"] == "en-GB"


def test_after_the_upgrade_a_write_to_one_file_keeps_another_file_s_etag(upgraded):
    app, _before, _after = upgraded
    client = app.test_client()
    bearer = {"Authorization": f"Bearer {API_KEY}"}
    path = f"/api/projects/{PROJECT}/translations"

    def common_etag():
        response = client.get(path, query_string={"fileName": "common"}, headers=bearer)
        assert response.status_code == 200
        return response.headers["ETag"]

    def write(file_name, key):
        body = {"key": key, "fileName": file_name, "updates": {"en": {"value": "New"}}}
        assert client.patch(path, json=body, headers=bearer).status_code == 200

    etag = common_etag()
    write("auth/login", "title")
    assert common_etag() == etag
    write("common", "greeting")
    assert common_etag() != etag


# --- a database from a newer Loko ----------------------------------------------------------

NEWER = "0999_from_a_newer_loko"
NEWER_MESSAGE = (
    f"The database schema is newer than this Loko (revision {NEWER}); upgrade Loko or restore a backup."
)


@pytest.fixture
def newer_database(empty_database_url):
    migrate_to(empty_database_url)
    engine = sa.create_engine(empty_database_url)
    with engine.begin() as connection:
        connection.execute(sa.text("UPDATE alembic_version SET version_num = :newer"), {"newer": NEWER})
    engine.dispose()
    app = app_on(empty_database_url)
    yield app
    with app.app_context():
        db.engine.dispose()


def test_serving_a_database_from_a_newer_loko_is_refused(newer_database):
    with newer_database.app_context(), pytest.raises(click.ClickException) as refused:
        ensure_schema_current(newer_database)
    assert refused.value.message == NEWER_MESSAGE


def test_loko_serve_refuses_a_database_from_a_newer_loko_and_leaves_it_alone(newer_database):
    result = newer_database.test_cli_runner().invoke(args=["serve", "--port", "0"])
    assert result.exit_code == 1
    assert NEWER_MESSAGE in result.output
    with newer_database.app_context():
        revision = db.session.execute(sa.text("SELECT version_num FROM alembic_version")).scalar_one()
        db.session.remove()
    assert revision == NEWER


def test_loko_create_user_refuses_a_database_from_a_newer_loko_and_writes_nothing(newer_database):
    result = newer_database.test_cli_runner().invoke(
        args=["create-user", "--email", "ada@example.test", "--password", "a long enough password"]
    )
    assert result.exit_code == 1
    assert NEWER_MESSAGE in result.output
    with newer_database.app_context():
        users = db.session.execute(sa.text("SELECT count(*) FROM users")).scalar_one()
        db.session.remove()
    assert users == 0


def test_the_memory_holds_the_values_written_before_the_upgrade(upgraded):
    app, _before, _after = upgraded
    client = app.test_client()
    client.set_cookie("sb-access-token", SESSION_TOKEN)
    assert client.get(f"/api/projects/{PROJECT}").json["project"]["memory_shared"] is False
    with app.app_context():
        from loko.memory import service

        service.refresh_index()
    [match] = client.get(
        f"/api/projects/{PROJECT}/memory", query_string={"text": "Hello", "language": "de"}
    ).json["matches"]
    assert (match["text"], match["score"], match["key"]) == ("Hallo", 100, "greeting")
