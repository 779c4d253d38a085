"""The state of the database's migrations: the Alembic revision it is at, the head, and
the revisions this Loko knows (whether the schema is up to date, or from a newer Loko)."""

from loko.extensions import db


def _migration_scripts(app):
    from alembic.script import ScriptDirectory

    return ScriptDirectory.from_config(app.extensions["migrate"].migrate.get_config())


def schema_revision_state(app):
    """Return ``(current, head)`` Alembic revisions of the app's database."""
    from alembic.runtime.migration import MigrationContext

    with db.engine.connect() as connection:
        current = MigrationContext.configure(connection).get_current_revision()
    return current, _migration_scripts(app).get_current_head()


def known_schema_revisions(app) -> set[str]:
    """The Alembic revisions of this Loko's migrations: a database at any other revision was
    written by a newer Loko."""
    return {script.revision for script in _migration_scripts(app).walk_revisions()}
