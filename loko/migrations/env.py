"""Alembic environment: migrations run against the Flask app's engine and metadata."""

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
    with target_db.engine.connect() as connection:
        context.configure(connection=connection, target_metadata=target_db.metadata, **conf_args)
        with context.begin_transaction():
            context.run_migrations()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
