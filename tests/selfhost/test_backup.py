"""``loko backup`` and ``loko restore`` on SQLite: a consistent copy while the server writes,
and a restore that checks the file, never overwrites data unasked and upgrades an older
schema."""

import sqlite3
import threading
from contextlib import closing

import pytest
import sqlalchemy as sa

from loko.auth.service import user_actor
from loko.database import schema_revision_state
from loko.database import upgrade_schema as upgrade
from loko.extensions import db
from loko.translations.service import bulk_upsert
from tests.factories import PASSWORD, make_key, make_org, make_project, make_user
from tests.selfhost.conftest import app_on

SEEDED = 3000


class Instance:
    """A Loko installation of its own: an app on a SQLite file in a temporary folder."""

    def __init__(self, path):
        self.path = path
        self.app = app_on(f"sqlite:///{path}")

    def cli(self, *args):
        return self.app.test_cli_runner().invoke(args=[str(arg) for arg in args])

    def migrate(self, revision="head"):
        with self.app.app_context():
            upgrade(revision=revision)
            db.engine.dispose()
        return self

    def rows(self) -> dict[str, list[tuple]]:
        return table_rows(self.path)

    def close(self):
        with self.app.app_context():
            db.session.remove()
            db.engine.dispose()


def table_rows(path) -> dict[str, list[tuple]]:
    """Every table's rows (alembic_version included), read straight from the file."""
    with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as connection:
        tables = [name for (name,) in connection.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        return {
            table: sorted(connection.execute(f'SELECT * FROM "{table}"').fetchall(), key=repr)
            for table in sorted(tables)
        }


@pytest.fixture
def instance(tmp_path):
    made = []

    def make(name="loko.db"):
        made.append(Instance(tmp_path / name))
        return made[-1]

    yield make
    for each in made:
        each.close()


def populate(app) -> tuple:
    """An owner, a project with an API key and ``SEEDED`` translations; ``(actor, project id)``."""
    with app.app_context():
        owner = make_user("ada@example.test", "Ada")
        project = make_project(make_org(owner))
        make_key(project)
        actor = user_actor(owner)
        items = [{"key": f"seed.{n:05}", "value": f"Value {n} " + "x" * 40} for n in range(SEEDED)]
        bulk_upsert(actor, project.id, "common", "en", items)
        return actor, project.id


def test_backup_while_a_writer_writes_is_intact_and_consistent(instance, tmp_path):
    source = instance().migrate()
    actor, project_id = populate(source.app)
    written, stop, failures = [], threading.Event(), []

    def write():
        with source.app.app_context():
            try:
                while not stop.is_set():
                    batch = len(written)
                    items = [{"key": f"live.{batch:05}.{n}", "value": f"{batch}/{n}"} for n in range(10)]
                    bulk_upsert(actor, project_id, "live", "en", items)
                    written.append(batch)
            except Exception as error:
                failures.append(error)
                raise
            finally:
                db.session.remove()

    writer = threading.Thread(target=write)
    writer.start()
    try:
        while not written and writer.is_alive():
            threading.Event().wait(0.005)
        before = len(written)
        result = source.cli("backup", tmp_path / "backup.db")
        after = len(written)
        while len(written) == after and writer.is_alive():
            threading.Event().wait(0.005)
    finally:
        stop.set()
        writer.join()
    assert failures == []
    assert result.exit_code == 0, result.output
    assert before >= 1 and len(written) > after  # the writer wrote before, and went on after
    with closing(sqlite3.connect(tmp_path / "backup.db")) as backup:
        assert backup.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        keys = backup.execute("SELECT count(*) FROM translations WHERE file_name = 'live'").fetchone()[0]
        values = backup.execute(
            "SELECT count(*) FROM translation_values v JOIN translations t ON t.id = v.translation_id "
            "WHERE t.file_name = 'live'"
        ).fetchone()[0]
        created = backup.execute(
            "SELECT count(*) FROM translation_history WHERE file_name = 'live' AND action = 'created'"
        ).fetchone()[0]
        journal = backup.execute("PRAGMA journal_mode").fetchone()[0]
    # Whole writes only (ten keys, their values and history entries each), none half-copied.
    assert keys % 10 == 0 and keys >= before * 10
    assert keys == values == created
    assert journal == "delete"


def test_backup_prints_the_size_and_counts(instance, tmp_path):
    source = instance().migrate()
    populate(source.app)
    result = source.cli("backup", tmp_path / "copy.db")
    assert result.exit_code == 0, result.output
    size = (tmp_path / "copy.db").stat().st_size
    assert f"{size / 1024:,.1f} KiB" in result.output or f"{size / 1024 / 1024:,.1f} MiB" in result.output
    assert f"translations: {SEEDED:,}" in result.output
    assert "users: 1" in result.output and "API keys: 1" in result.output
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".partial")]


def test_backup_replaces_an_older_backup_whole(instance, tmp_path):
    source = instance().migrate()
    populate(source.app)
    (tmp_path / "copy.db").write_bytes(b"an older backup")
    assert source.cli("backup", tmp_path / "copy.db").exit_code == 0
    assert table_rows(tmp_path / "copy.db") == source.rows()


def test_backup_of_a_postgresql_database_prints_the_pg_dump_command(tmp_path):
    app = app_on("postgresql+psycopg://loko:s3cret@db.example.test:5432/loko")
    result = app.test_cli_runner().invoke(args=["backup", str(tmp_path / "loko.dump")])
    assert result.exit_code != 0
    expected = f"pg_dump --format=custom --file={tmp_path / 'loko.dump'} 'postgresql://loko:***@db.example.test:5432/loko'"
    assert expected in result.output
    assert "s3cret" not in result.output
    assert not (tmp_path / "loko.dump").exists()


def test_restore_on_postgresql_prints_the_pg_restore_command(tmp_path):
    (tmp_path / "loko.dump").write_bytes(b"PGDMP")
    app = app_on("postgresql+psycopg://loko:s3cret@db.example.test:5432/loko")
    result = app.test_cli_runner().invoke(args=["restore", str(tmp_path / "loko.dump")])
    assert result.exit_code != 0
    assert "pg_restore --clean --if-exists --no-owner --dbname='postgresql://loko:***@" in result.output
    assert "s3cret" not in result.output


# --- restore -------------------------------------------------------------------------------


@pytest.fixture
def backup_file(instance, tmp_path):
    """A backup of a populated installation, and that installation's rows."""
    source = instance("source.db").migrate()
    populate(source.app)
    assert source.cli("backup", tmp_path / "backup.db").exit_code == 0
    return tmp_path / "backup.db", source.rows()


def test_restore_into_an_empty_instance_gives_the_same_rows(instance, backup_file):
    path, rows = backup_file
    target = instance("new.db")
    result = target.cli("restore", path)
    assert result.exit_code == 0, result.output
    assert target.rows() == rows
    assert f"translations: {SEEDED:,}" in result.output


def test_restore_into_an_instance_with_an_empty_schema_needs_no_force(instance, backup_file):
    path, rows = backup_file
    target = instance("new.db").migrate()
    assert target.cli("restore", path).exit_code == 0
    assert target.rows() == rows


def test_a_restored_instance_serves_the_restored_data(instance, backup_file):
    path, _rows = backup_file
    target = instance("new.db")
    assert target.cli("restore", path).exit_code == 0
    client = target.app.test_client()
    signed_in = client.post("/api/auth/login", json={"email": "ada@example.test", "password": PASSWORD})
    assert signed_in.status_code == 200
    (project,) = client.get("/api/projects").json["projects"]
    export = client.get(f"/api/projects/{project['id']}/translations").json
    assert len(export["en"]["common"]) == SEEDED


def test_restore_over_a_database_with_data_is_refused_and_changes_nothing(instance, backup_file):
    path, _rows = backup_file
    target = instance("busy.db").migrate()
    with target.app.app_context():
        make_user("grace@example.test", "Grace")
    before = target.rows()
    result = target.cli("restore", path)
    assert result.exit_code != 0
    assert "already holds data (users: 1)" in result.output
    assert "--force" in result.output
    assert target.rows() == before


def test_restore_with_force_replaces_a_database_with_data(instance, backup_file):
    path, rows = backup_file
    target = instance("busy.db").migrate()
    with target.app.app_context():
        make_user("grace@example.test", "Grace")
    result = target.cli("restore", "--force", path)
    assert result.exit_code == 0, result.output
    assert target.rows() == rows
    with closing(sqlite3.connect(target.path)) as connection:
        assert connection.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        assert connection.execute("SELECT email FROM users").fetchall() == [("ada@example.test",)]


def test_no_export_etag_of_the_replaced_database_matches_after_a_restore(instance, tmp_path):
    source = instance().migrate()
    actor, project_id = populate(source.app)
    assert source.cli("backup", tmp_path / "backup.db").exit_code == 0
    with source.app.app_context():
        bulk_upsert(actor, project_id, "common", "en", [{"key": "seed.00000", "value": "Changed after"}])
    path = f"/api/projects/{project_id}/translations"
    replaced_etag = signed_in(source.app).get(path).headers["ETag"]
    source.close()
    assert source.cli("restore", "--force", tmp_path / "backup.db").exit_code == 0
    restarted = instance("loko.db")
    with restarted.app.app_context():  # as many writes as before: the same version number
        bulk_upsert(actor, project_id, "common", "en", [{"key": "seed.00000", "value": "Changed again"}])
    restored = signed_in(restarted.app).get(path, headers={"If-None-Match": replaced_etag})
    assert restored.status_code == 200
    assert restored.json["en"]["common"]["seed.00000"] == "Changed again"


def signed_in(app):
    client = app.test_client()
    assert (
        client.post("/api/auth/login", json={"email": "ada@example.test", "password": PASSWORD}).status_code
        == 200
    )
    return client


def test_restore_upgrades_an_older_backup(instance):
    old = instance("old.db").migrate("0003_mcp_sessions")
    with closing(sqlite3.connect(old.path)) as connection:
        connection.execute(
            "INSERT INTO organizations (id, name, created_at) "
            "VALUES ('o1', 'Acme', '2025-01-01 00:00:00.000000')"
        )
        connection.commit()
    target = instance("new.db")
    result = target.cli("restore", old.path)
    assert result.exit_code == 0, result.output
    assert "Upgrading the database schema (0003_mcp_sessions -> " in result.output
    with target.app.app_context():
        current, head = schema_revision_state(target.app)
        names = db.session.execute(sa.text("SELECT name FROM organizations")).scalars().all()
        db.session.remove()
    assert current == head
    assert names == ["Acme"]


def test_restore_refuses_a_backup_from_a_newer_loko(instance, backup_file):
    path, _rows = backup_file
    with closing(sqlite3.connect(path)) as connection:
        connection.execute("UPDATE alembic_version SET version_num = '0999_from_a_newer_loko'")
        connection.commit()
    target = instance("new.db")
    result = target.cli("restore", path)
    assert result.exit_code != 0
    assert "newer than this Loko (revision 0999_from_a_newer_loko)" in result.output
    assert not target.path.exists()


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"not a database at all" * 100, "is not a SQLite database"),
        (None, "not a Loko one"),
    ],
    ids=["text", "other-sqlite"],
)
def test_restore_refuses_a_file_that_is_not_a_loko_database(instance, tmp_path, content, message):
    path = tmp_path / "suspicious.db"
    if content is None:
        with closing(sqlite3.connect(path)) as connection:
            connection.execute("CREATE TABLE notes (body TEXT)")
            connection.commit()
    else:
        path.write_bytes(content)
    target = instance("new.db")
    result = target.cli("restore", path)
    assert result.exit_code != 0
    assert message in result.output
    assert not target.path.exists()


def test_backup_into_a_missing_folder_says_so(instance, tmp_path):
    source = instance().migrate()
    result = source.cli("backup", tmp_path / "nowhere" / "copy.db")
    assert result.exit_code != 0
    assert f"There is no folder {tmp_path / 'nowhere'}" in result.output
