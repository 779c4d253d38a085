"""The ``loko`` command: ``serve``, ``db upgrade`` and the bootstrap commands an admin
needs to set up an installation without the web UI."""

import contextlib
import ctypes
import ctypes.util
import functools
import io
import os
import signal
import socket
import sys
import threading
import traceback
from pathlib import Path

import click
from flask import current_app
from flask.cli import FlaskGroup, with_appcontext

from loko import loko_version
from loko.errors import LokoError

M_ARENA_MAX = -8  # glibc's mallopt parameter number


def _create_app(*_args, **_kwargs):
    from loko import create_app

    return create_app()


class LokoGroup(FlaskGroup):
    """``loko``: the server's commands (from the app) and the pipeline's.

    The pipeline commands are HTTP clients of a server: they run without creating the app,
    and their module (with its HTTP client and YAML reader) is loaded only when one of them
    is asked for or listed, never by ``loko serve``."""

    PIPELINE = {
        "init": "init_command",
        "push": "push_command",
        "pull": "pull_command",
        "status": "status_command",
        "repohost": "repohost_group",
        "tasks": "tasks_command",
        "release": "release_group",
    }

    def list_commands(self, ctx):
        return sorted({*super().list_commands(ctx), *self.PIPELINE})

    def get_command(self, ctx, name):
        if name in self.PIPELINE:
            from loko.client import commands

            return getattr(commands, self.PIPELINE[name])
        return super().get_command(ctx, name)


@click.group(cls=LokoGroup, create_app=_create_app, add_default_commands=False, add_version_option=False)
@click.version_option(loko_version(), prog_name="loko")
def main():
    """Loko: self-hosted translation management."""


class MigrationCommands(click.Group):
    """``loko db ...``: Flask-Migrate's commands, loaded (with Alembic) when one is asked for."""

    def _commands(self) -> click.Group:
        from loko.database import init_migrations

        app = current_app._get_current_object()
        init_migrations(app)
        return app.cli.commands["db"]

    def make_context(self, info_name, args, parent=None, **extra):
        # Flask-Migrate's own group parses and runs the command line from here on.
        return self._commands().make_context(info_name, args, parent=parent, **extra)

    def list_commands(self, ctx):
        return self._commands().list_commands(ctx)

    def get_command(self, ctx, name):
        return self._commands().get_command(ctx, name)


def register_commands(app) -> None:
    from loko.sso.cli import sso_group

    app.cli.add_command(MigrationCommands("db", help="Database migrations (Flask-Migrate)."))

    for command in (
        serve,
        create_user_command,
        reset_password_command,
        create_project_command,
        create_api_key_command,
        purge_trash_command,
        send_digests_command,
        worker_command,
        backup_command,
        restore_command,
        sso_group,
    ):
        app.cli.add_command(command)


def with_current_schema(command):
    """A command that reads or writes Loko's tables: it runs on a schema brought up to date
    as ``serve`` brings it (SQLite upgraded, never one a newer Loko wrote)."""

    @functools.wraps(command)
    def run(*args, **kwargs):
        ensure_schema_current(current_app._get_current_object())
        return command(*args, **kwargs)

    return run


def ensure_schema_current(app) -> None:
    """Upgrade an embedded SQLite database; refuse to run on an out-of-date server database,
    and on any database whose schema a newer Loko wrote."""
    from loko.database import known_schema_revisions, schema_revision_state, upgrade_schema
    from loko.extensions import db

    current, head = schema_revision_state(app)
    if current == head:
        return
    if current is not None and current not in known_schema_revisions(app):
        raise click.ClickException(
            f"The database schema is newer than this Loko (revision {current}); "
            "upgrade Loko or restore a backup."
        )
    if db.engine.dialect.name == "sqlite":
        click.echo(f"Upgrading the database schema ({current or 'empty'} -> {head}).", err=True)
        upgrade_schema()
        return
    raise click.ClickException(
        f"The database schema is out of date ({current or 'empty'}, expected {head}). "
        "Run `loko db upgrade` first."
    )


def ensure_schema_current_apart(app) -> None:
    """``ensure_schema_current`` in a forked child, where Alembic is loaded and left: the
    serving process never holds the migration tooling (about 11 MB). What the child says
    comes back through a pipe and is said here; its refusal stops the serve as it would
    here. Where there is no fork, here."""
    from loko.extensions import db

    if not hasattr(os, "fork"):
        ensure_schema_current(app)
        return
    db.engine.dispose()
    reading, writing = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(reading)
        said, status = io.StringIO(), 0
        sys.stdout = sys.stderr = said
        try:
            db.engine.dispose(close=False)
            ensure_schema_current(app)
        except click.ClickException as error:
            said.write(error.format_message())
            status = error.exit_code
        except BaseException:  # told to the parent, which stops with it
            said.write(traceback.format_exc())
            status = 1
        finally:
            try:
                os.write(writing, said.getvalue().encode("utf-8", errors="replace"))
            finally:
                os._exit(status)  # never back into the parent's code, whatever happened
    os.close(writing)
    with os.fdopen(reading, encoding="utf-8", errors="replace") as pipe:
        said = pipe.read()
    _, wait_status = os.waitpid(pid, 0)
    if os.waitstatus_to_exitcode(wait_status) != 0:
        raise click.ClickException(said.strip() or "The database schema could not be checked.")
    if said:
        click.echo(said, nl=False, err=True)


@click.command("serve")
@with_appcontext
@click.option("--host", default=None, help="Bind address (LOKO_HOST, default 127.0.0.1).")
@click.option("--port", type=int, default=None, help="Port (LOKO_PORT, default 8000).")
@click.option(
    "--threads", type=int, default=None, help="Worker threads per process (LOKO_THREADS, default 8)."
)
@click.option(
    "--processes",
    type=click.IntRange(min=1),
    default=None,
    help="Worker processes sharing one listening socket (LOKO_PROCESSES, default 1).",
)
def serve(host, port, threads, processes):
    """Serve Loko with waitress."""
    app = current_app._get_current_object()
    ensure_schema_current_apart(app)
    limit_malloc_arenas()
    host = host or app.config["LOKO_HOST"]
    port = app.config["LOKO_PORT"] if port is None else port
    threads = threads or app.config["LOKO_THREADS"]
    processes = app.config["LOKO_PROCESSES"] = processes or app.config["LOKO_PROCESSES"]
    from loko.serving import proxy_settings

    try:
        proxy = proxy_settings(app.config["LOKO_TRUSTED_PROXY"])
    except ValueError as error:
        raise click.ClickException(str(error)) from None
    listener = socket.create_server((host, port), reuse_port=False, backlog=1024)
    bound_port = listener.getsockname()[1]
    click.echo(
        f"Loko serving on http://{host}:{bound_port} ({processes} process(es) x {threads} threads)", err=True
    )
    if processes == 1:
        _serve_socket(app, listener, threads, proxy)
        return
    _serve_forked(app, listener, threads, processes, proxy)


def limit_malloc_arenas(arenas: int = 2) -> None:
    """Cap glibc's malloc arenas before the worker threads start. By default each thread
    that builds a large export may get an arena of its own, and memory freed in one is not
    reused by the others, so a server's memory grows with its thread count."""
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        libc.mallopt(M_ARENA_MAX, arenas)
    except (OSError, AttributeError):
        return


def _serve_socket(app, listener, threads, proxy: dict | None = None) -> None:
    from loko.database import start_checkpointer
    from loko.extensions import db
    from loko.jobs.worker import Worker
    from loko.serving import make_server

    with app.app_context():
        start_checkpointer(db.engine, app.config["LOKO_PROCESSES"] > 1)
    server = make_server(
        app, sockets=[listener], threads=threads, ident="loko", backlog=1024, **(proxy or {})
    )
    worker = None
    if app.config["LOKO_WORKER_THREADS"] > 0:
        worker = Worker(app, threads=app.config["LOKO_WORKER_THREADS"]).start()
    try:
        server.run()
    finally:
        if worker is not None:
            worker.stop()


def _serve_forked(app, listener, threads, processes, proxy: dict) -> None:
    """Fork worker processes that all accept on the one pre-bound socket; the GIL holds one
    process to one core, so this is how one machine's cores all serve."""
    from loko.extensions import db

    db.engine.dispose()
    children = []
    for _ in range(processes):
        pid = os.fork()
        if pid == 0:
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            _serve_socket(app, listener, threads, proxy)
            os._exit(0)
        children.append(pid)
    listener.close()

    def stop(signum, _frame):
        for child in children:
            with contextlib.suppress(ProcessLookupError):
                os.kill(child, signal.SIGTERM)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    for child in children:
        with contextlib.suppress(ChildProcessError):
            os.waitpid(child, 0)


def _run_service(call):
    try:
        return call()
    except LokoError as error:
        raise click.ClickException(error.message) from None


@click.command("create-user")
@with_appcontext
@with_current_schema
@click.option("--email", required=True)
@click.option("--password", required=True, prompt=True, hide_input=True)
@click.option("--name", default=None)
@click.option("--organization", default=None, help="Name of the user's new organization.")
def create_user_command(email, password, name, organization):
    """Create a user who owns a new organization."""
    from loko.auth.schemas import SignupIn
    from loko.auth.service import create_user
    from loko.database import unit_of_work

    data = _validated(SignupIn(), email=email, password=password, name=name, organization=organization)

    def create():
        with unit_of_work():
            return create_user(**data)

    user, org = _run_service(create)
    click.echo(f"user {user.id} {user.email}")
    click.echo(f"organization {org.id} {org.name}")


@click.command("reset-password")
@with_appcontext
@with_current_schema
@click.argument("email")
@click.option("--password-stdin", is_flag=True, help="Read the new password from the first line of stdin.")
@click.option("--prompt", is_flag=True, help="Ask for the new password (typed twice, not shown).")
def reset_password_command(email, password_stdin, prompt):
    """Give the user EMAIL a new password and sign out all their sessions. Without
    --password-stdin or --prompt, a random password is made and printed once."""
    import secrets

    from loko.auth.schemas import PasswordChange
    from loko.auth.service import reset_password

    if password_stdin and prompt:
        raise click.UsageError("Use either --password-stdin or --prompt, not both.")
    if password_stdin:
        password = sys.stdin.readline().rstrip("\r\n")
    elif prompt:
        password = click.prompt("New password", hide_input=True, confirmation_prompt=True)
    else:
        password = secrets.token_urlsafe(15)
    data = _validated(PasswordChange(only=("new_password",)), new_password=password)
    user = _run_service(lambda: reset_password(email, data["new_password"]))
    click.echo(f"Password of {user.email} reset; all their sessions were signed out.", err=True)
    if not (password_stdin or prompt):
        click.echo(password)


@click.command("create-project")
@with_appcontext
@with_current_schema
@click.option("--organization", "organization_id", required=True, help="Organization id.")
@click.option("--name", required=True)
def create_project_command(organization_id, name):
    """Create a project in an organization."""
    from loko.database import unit_of_work
    from loko.projects.schemas import ProjectCreate
    from loko.projects.service import insert_project

    data = _validated(ProjectCreate(), organization_id=organization_id, name=name)

    def create():
        with unit_of_work():
            return insert_project(**data)

    project = _run_service(create)
    click.echo(f"project {project.id} {project.name}")


@click.command("create-api-key")
@with_appcontext
@with_current_schema
@click.option("--project", "project_id", required=True, help="Project id.")
@click.option("--name", required=True)
@click.option("--scope", type=click.Choice(["write", "read"]), default="write", show_default=True)
def create_api_key_command(project_id, name, scope):
    """Create a project API key and print it (it is shown only once)."""
    from loko.apikeys.schemas import ApiKeyCreate
    from loko.apikeys.service import issue_api_key
    from loko.database import unit_of_work
    from loko.errors import NotFound
    from loko.extensions import db
    from loko.projects.models import Project

    data = _validated(ApiKeyCreate(), name=name, scope=scope)

    def create():
        with unit_of_work():
            if db.session.get(Project, project_id) is None:
                raise NotFound("Project not found.")
            return issue_api_key(project_id, data["name"], data["scope"], created_by=None)

    key, _record = _run_service(create)
    click.echo(key)


@click.command("purge-trash")
@with_appcontext
@with_current_schema
@click.option("--days", type=int, default=None, help="Retention in days (LOKO_TRASH_RETENTION_DAYS).")
def purge_trash_command(days):
    """Permanently delete translations and screenshots that have been in the trash longer than
    the retention."""
    from loko.auth.actors import SystemActor
    from loko.screenshots.service import purge_expired_screenshots
    from loko.translations.service import purge_expired_trash

    retention = current_app.config["LOKO_TRASH_RETENTION_DAYS"] if days is None else days
    purged = purge_expired_trash(SystemActor(name="loko purge-trash"), retention)
    click.echo(f"purged {purged} translation(s) trashed more than {retention} day(s) ago")
    shots = purge_expired_screenshots(retention)
    click.echo(f"purged {shots} screenshot(s) trashed more than {retention} day(s) ago")


@click.command("send-digests")
@with_appcontext
@with_current_schema
@click.argument("period", type=click.Choice(["daily", "weekly"]))
def send_digests_command(period):
    """Send the daily or weekly notification digests now (the workers send them once a day
    and once a week)."""
    from loko.notifications.service import send_digests

    sent = send_digests(period)
    click.echo(
        f"sent {sent['sent']} {period} digest(s)" + (f": {sent['reason']}" if sent.get("reason") else "")
    )


@click.command("worker")
@with_appcontext
@with_current_schema
@click.option(
    "--threads",
    type=click.IntRange(min=1),
    default=None,
    help="Jobs run at once (LOKO_WORKER_THREADS, at least 1).",
)
def worker_command(threads):
    """Run background jobs (beside or instead of the worker threads of `loko serve`)."""
    from loko.jobs.worker import Worker

    app = current_app._get_current_object()
    worker = Worker(app, threads=threads or max(app.config["LOKO_WORKER_THREADS"], 1))
    stopped = threading.Event()

    def stop(_signum, _frame):
        stopped.set()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    worker.start()
    click.echo(f"Loko worker {worker.id} running ({worker.threads} thread(s))", err=True)
    while not stopped.wait(1.0):
        pass
    click.echo("Loko worker stopping: waiting for the running jobs", err=True)
    worker.stop()


@click.command("backup")
@with_appcontext
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
def backup_command(file):
    """Copy the SQLite database to FILE, consistent while Loko serves, with the screenshots'
    image files in it (PostgreSQL: pg_dump and the screenshots' folder)."""
    from loko import backup
    from loko.extensions import db

    url = db.engine.url
    images = Path(current_app.config["LOKO_SCREENSHOTS_DIR"])
    if url.get_backend_name() != "sqlite":
        raise click.ClickException(backup.pg_dump_advice(url, file, images))
    source = _run_service(lambda: backup.sqlite_file(url))
    summary = _run_service(lambda: backup.backup_sqlite(source, file, images))
    click.echo(f"Backed up {source} to {file}: {summary.describe()}.")
    click.echo("Keep the secret key (LOKO_SECRET_KEY or secret_key in the data folder) with it.")


@click.command("restore")
@with_appcontext
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--force", is_flag=True, help="Replace a database that already holds data.")
def restore_command(file, force):
    """Replace the SQLite database with the backup FILE, put the screenshots' image files it
    carries back in their folder, and bring the schema up to date. Stop `loko serve` first."""
    from loko import backup
    from loko.database import known_schema_revisions, schema_revision_state, upgrade_schema
    from loko.extensions import db

    app = current_app._get_current_object()
    url = db.engine.url
    images = Path(app.config["LOKO_SCREENSHOTS_DIR"])
    if url.get_backend_name() != "sqlite":
        raise click.ClickException(backup.pg_restore_advice(url, file, images))
    target = _run_service(lambda: backup.sqlite_file(url))
    known = known_schema_revisions(app)
    db.engine.dispose()
    summary = _run_service(lambda: backup.restore_sqlite(file, target, known, force=force, images=images))
    db.engine.dispose()
    click.echo(f"Restored {file} into {target}: {summary.describe()}.")
    current, head = schema_revision_state(app)
    if current != head:
        click.echo(f"Upgrading the database schema ({current} -> {head}).")
        upgrade_schema()


def _validated(schema, **values):
    from marshmallow import ValidationError

    from loko.errors import describe_validation

    try:
        return schema.load({k: v for k, v in values.items() if v is not None})
    except ValidationError as error:
        raise click.ClickException(describe_validation(error.messages)) from None


if __name__ == "__main__":
    sys.exit(main())
