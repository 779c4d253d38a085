"""Loko: self-hosted translation management."""

from functools import cache
from importlib.metadata import version
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from flask import Flask


@cache
def loko_version() -> str:
    """The installed package's version (looked up once: the lookup scans site-packages)."""
    return version("loko")


def page_blueprints() -> list:
    """Each feature's pages (its ``views.py``) and the workspace's (``loko/workspace/``)."""
    from loko.apikeys.views import apikeys_ui
    from loko.audit.views import audit_ui
    from loko.auth.views import auth_ui
    from loko.files.views import files_ui
    from loko.glossary.views import glossary_ui
    from loko.imports.views import imports_ui
    from loko.jobs.views import jobs_ui
    from loko.languages.views import languages_ui
    from loko.machine.views import machine_ui
    from loko.notifications.views import notifications_ui
    from loko.organizations.views import organizations_ui
    from loko.proposals.views import proposals_ui
    from loko.releases.views import releases_ui
    from loko.repohost.views import repohost_ui
    from loko.screenshots.views import screenshots_ui
    from loko.sso.views import sso_ui
    from loko.tasks.views import tasks_ui
    from loko.webhooks.views import webhooks_ui
    from loko.workspace.comments_views import comments_ui
    from loko.workspace.projects_views import projects_ui
    from loko.workspace.proposals_views import proposals_editor_ui
    from loko.workspace.translations_views import translations_ui

    return [
        auth_ui,
        organizations_ui,
        projects_ui,
        translations_ui,
        comments_ui,
        proposals_editor_ui,
        languages_ui,
        files_ui,
        screenshots_ui,
        proposals_ui,
        imports_ui,
        jobs_ui,
        releases_ui,
        apikeys_ui,
        repohost_ui,
        webhooks_ui,
        machine_ui,
        glossary_ui,
        sso_ui,
        audit_ui,
        tasks_ui,
        notifications_ui,
    ]


def register_job_handlers() -> None:
    """Each feature's job handlers (its ``jobs.py``), registered by name with the queue."""
    import loko.audit.jobs
    import loko.glossary.jobs
    import loko.imports.jobs
    import loko.jobs.maintenance
    import loko.machine.jobs
    import loko.memory.jobs
    import loko.notifications.jobs
    import loko.quality.jobs
    import loko.repohost.jobs
    import loko.screenshots.jobs
    import loko.translations.jobs
    import loko.webhooks.jobs  # noqa: F401


def subscribe_workbench() -> None:
    """The workbench's listeners to the core's events (``loko.events``), plugged in here as the
    error pages are: the core imports none of them."""
    from loko.audit.service import start_listening as audit_events
    from loko.notifications.service import start_listening as notifications
    from loko.proposals.service import start_listening as proposals_on_undo
    from loko.quality.service import start_listening as checks_on_writes
    from loko.releases.freeze import start_guarding as string_freeze
    from loko.screenshots.listeners import start_listening as screenshot_files
    from loko.tags.service import start_listening as tag_undo
    from loko.webhooks.service import start_listening as webhook_deliveries

    string_freeze()
    checks_on_writes()
    audit_events()
    webhook_deliveries()
    screenshot_files()
    notifications()
    # The editor's filters choose a task's keys; they live above the tasks. The accounts'
    # e-mails (invitations, password resets) go out through the notifications' mail job.
    from loko.auth.emails import use_mailer
    from loko.notifications.service import queue_account_email
    from loko.tasks.service import use_key_filter
    from loko.workspace.editor import task_keys_query

    use_key_filter(task_keys_query)
    use_mailer(queue_account_email)
    proposals_on_undo()
    tag_undo()


def create_app(config: dict | None = None) -> "Flask":
    """Build a Loko application: config -> extensions -> errors -> blueprints -> CLI."""
    from flask import Flask

    from loko.apikeys.api import apikeys_api
    from loko.audit.api import audit_api
    from loko.auth.api import auth_api
    from loko.auth.identity import NoFlaskSession, resolve_identity
    from loko.auth.signin import init_sign_in_limit
    from loko.comments.api import comments_api
    from loko.config import load_config
    from loko.database import configure_postgresql, configure_sqlite
    from loko.errors import register_error_handlers
    from loko.exports.cache import ExportCache
    from loko.exports.revalidation import ExportRevalidation
    from loko.extensions import db
    from loko.files.api import files_api
    from loko.glossary.api import glossary_api
    from loko.health.api import health_api
    from loko.http import RequestHeadLimit
    from loko.imports.api import imports_api
    from loko.jobs.api import jobs_api
    from loko.languages.api import languages_api
    from loko.logging import configure_logging
    from loko.machine.api import machine_api
    from loko.mcp.api import mcp_api
    from loko.memory.api import memory_api
    from loko.notifications.api import notifications_api
    from loko.openapi import openapi_api
    from loko.organizations.api import organizations_api
    from loko.projects.api import projects_api
    from loko.proposals.api import proposals_api
    from loko.quality.api import quality_api
    from loko.releases.api import releases_api
    from loko.replace.api import replace_api
    from loko.repohost.api import repohost_api
    from loko.screenshots.api import screenshots_api
    from loko.sso.setup import init_sso
    from loko.tags.api import tags_api
    from loko.tasks.api import tasks_api
    from loko.translations.api import translations_api
    from loko.translations.direct import DirectPatch
    from loko.web import web_ui
    from loko.web.i18n import init_i18n
    from loko.web.pages import error_page
    from loko.webhooks.api import webhooks_api

    app = Flask(__name__, instance_relative_config=True, static_folder=None)
    # Every path answers with and without a trailing slash (the spec writes some with one),
    # directly: a redirect would make clients drop or resend the body of a write.
    app.url_map.strict_slashes = False
    load_config(app, config)
    configure_logging(app.config["LOKO_LOG_FORMAT"])

    db.init_app(app)
    init_sign_in_limit(app)
    init_sso(app)
    with app.app_context():
        configure_sqlite(db.engine)
        configure_postgresql(db.engine)
        # The early answers: a revalidation (304) and a single PATCH by API key.
        app.wsgi_app = ExportRevalidation(DirectPatch(app.wsgi_app, app, db.engine), db.engine)
    # Before any of them: a request line and headers over waitress's limit answer 431.
    app.wsgi_app = RequestHeadLimit(app.wsgi_app)

    app.extensions["loko_export_cache"] = ExportCache(
        app.config["LOKO_EXPORT_CACHE_MB"] * 1024 * 1024,
        member_bytes=app.config["LOKO_EXPORT_MEMBERS_MB"] * 1024 * 1024,
    )
    register_error_handlers(app, render_page=error_page)
    init_i18n(app)
    app.session_interface = NoFlaskSession()
    app.before_request(resolve_identity)
    for blueprint in (
        health_api,
        auth_api,
        organizations_api,
        audit_api,
        projects_api,
        apikeys_api,
        translations_api,
        replace_api,
        releases_api,
        quality_api,
        imports_api,
        repohost_api,
        jobs_api,
        webhooks_api,
        comments_api,
        tasks_api,
        notifications_api,
        proposals_api,
        screenshots_api,
        tags_api,
        machine_api,
        glossary_api,
        memory_api,
        files_api,
        languages_api,
        mcp_api,
        openapi_api,
    ):
        app.register_blueprint(blueprint, url_prefix="/api")
    app.register_blueprint(web_ui)
    for blueprint in page_blueprints():
        app.register_blueprint(blueprint)

    register_job_handlers()
    subscribe_workbench()

    from loko.cli import register_commands

    register_commands(app)
    return app
