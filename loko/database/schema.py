"""The state of the database's migrations: the Alembic revision it is at, the head, and
the revisions this Loko knows (whether the schema is up to date, or from a newer Loko).

Flask-Migrate and Alembic are loaded by the first of these calls (``init_migrations``), not
by ``create_app``: a serving process has its schema checked and upgraded in a child process
(``loko serve``), so they never take room in it."""

from pathlib import Path

from flask import current_app

from loko.extensions import db

MIGRATIONS_DIRECTORY = str(Path(__file__).resolve().parent.parent / "migrations")


def init_migrations(app) -> None:
    """Flask-Migrate for ``app`` (its ``db`` commands and Alembic's configuration), once."""
    if "migrate" not in app.extensions:
        from flask_migrate import Migrate

        Migrate(app, db, directory=MIGRATIONS_DIRECTORY, render_as_batch=True)


def upgrade_schema(revision: str = "head") -> None:
    """Upgrade the current app's database to ``revision`` (Flask-Migrate's ``upgrade``)."""
    from flask_migrate import upgrade

    init_migrations(current_app._get_current_object())
    upgrade(revision=revision)


def migration_scripts(app):
    from alembic.script import ScriptDirectory

    init_migrations(app)

    return ScriptDirectory.from_config(app.extensions["migrate"].migrate.get_config())


def schema_revision_state(app):
    """Return ``(current, head)`` Alembic revisions of the app's database."""
    from alembic.runtime.migration import MigrationContext

    with db.engine.connect() as connection:
        current = MigrationContext.configure(connection).get_current_revision()
    return current, migration_scripts(app).get_current_head()


def known_schema_revisions(app) -> set[str]:
    """The Alembic revisions of this Loko's migrations: a database at any other revision was
    written by a newer Loko."""
    return {script.revision for script in migration_scripts(app).walk_revisions()}
