"""Alembic environment: migrations run against the Flask app's engine and metadata."""

from contextlib import contextmanager

from alembic import context
from flask import current_app

target_db = current_app.extensions["migrate"].db


def run_migrations_offline():
    context.configure(
        url=target_db.engine.url.render_as_string(hide_password=False),
        target_metadata=target_db.metadata,
        literal_binds=True,
        render_as_batch=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online():
    def skip_empty_autogenerate(context_, _revision, directives):
        if getattr(context_.config.cmd_opts, "autogenerate", False) and directives[0].upgrade_ops.is_empty():
            directives[:] = []

    conf_args = dict(current_app.extensions["migrate"].configure_args)
    conf_args.setdefault("process_revision_directives", skip_empty_autogenerate)
    with target_db.engine.connect() as connection, foreign_keys_deferred(connection):
        context.configure(connection=connection, target_metadata=target_db.metadata, **conf_args)
        with context.begin_transaction():
            context.run_migrations()
            check_foreign_keys(connection)


@contextmanager
def foreign_keys_deferred(connection):
    """On SQLite, run the migrations with foreign keys off (``check_foreign_keys`` then
    checks them all before the migrations commit).

    A batch migration rebuilds a table by copying it and dropping the original; with
    foreign keys on, that DROP deletes every row that references the table through
    ON DELETE CASCADE (all of a project's languages, keys and members when ``projects``
    is rebuilt). SQLite ignores the PRAGMA inside a transaction, so it is set on the
    driver's connection before the migrations' transaction begins."""
    if connection.dialect.name != "sqlite":
        yield
        return
    driver = connection.connection.dbapi_connection
    driver.execute("PRAGMA foreign_keys=OFF")
    try:
        yield
    finally:
        # Not handed back to the pool: a connection whose PRAGMA came while a transaction
        # was still open would serve the app with foreign keys off (no ON DELETE CASCADE).
        connection.invalidate()


def check_foreign_keys(connection):
    """Refuse (and so roll back) migrations that left a row pointing at nothing."""
    if connection.dialect.name != "sqlite":
        return
    problems = connection.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
    if problems:
        raise RuntimeError(f"the migrations left rows referencing missing ones: {problems[:10]}")


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
