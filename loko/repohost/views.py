"""Pages: a project's repository (GitHub, GitLab or Gitea). The configuration is checked by
the service when saved; the webhook's secret is shown in full once, on the page the first
save's redirect leads to (reloading it shows the secret no more and saves nothing). Push, a
sync's preview (a dry run whose diff the page shows) and the sync itself (of the previewed
commit, with the previewed choice for removed keys), and the last runs."""

from flask import Blueprint, g, request, url_for
from flask_babel import gettext, lazy_gettext
from marshmallow import missing

from loko.auth.reveal import forget_secret, remember_secret, take_secret
from loko.errors import BadRequest
from loko.fields import comma_items
from loko.http import schema_instance
from loko.repohost import service
from loko.repohost.providers import PROVIDERS
from loko.repohost.schemas import PROVIDER_NAMES, RepoHostIn, SyncIn
from loko.web.pages import (
    REFUSED,
    attempt,
    form_input,
    format_choices,
    page_user,
    project_page,
    redirect_with_notice,
    render_page,
)
from loko.web.refusals import page_message

repohost_ui = Blueprint("repohost_ui", __name__)
PATH = "/projects/<uuid:project_id>/repository"
PROVIDER_LABELS = {"github": "GitHub", "gitlab": "GitLab", "gitea": "Gitea"}
FIELDS = ("provider", "repository", "branch", "path", "format", "api_url")
OPTIONAL = ("token", "api_url")
# The tag filter, typed comma-separated.
TAG_FIELDS = ("tags", "excludeTags")


@repohost_ui.route(PATH, methods=["GET", "POST"])
def repository(project_id):
    actor, project_id = page_user(), str(project_id)
    config = service.get_config(actor, project_id)
    if request.method == "GET":
        secret = take_secret(_purpose(project_id))
        webhook = {"url": _webhook_url(project_id), **secret} if secret and config else None
        return forget_secret(_page(actor, project_id, config, webhook=webhook))
    return repository_form(request.form.get("form", ""))(actor, project_id, config)


def repository_form(name: str):
    """The use case behind one of the page's forms (its ``form`` field)."""
    forms = {"configure": configure, "remove": remove, "push": push, "preview": preview, "sync": sync}
    if name not in forms:
        raise BadRequest(gettext("form: unknown repository form %(name)s.", name=repr(name)))
    return forms[name]


def configure(actor, project_id: str, config: dict | None):
    saved = _attempt(
        lazy_gettext("Saving"),
        lambda: service.configure(
            actor, project_id, form_input(RepoHostIn, drop_empty=OPTIONAL, extra=_typed_tags(request.form))
        ),
    )
    if saved is REFUSED:
        return _page(actor, project_id, config, form=request.form)
    _config, webhook = saved
    if webhook is None:
        return redirect_with_notice(_here(project_id), gettext("Repository saved: the connection works."))
    notice = gettext("Repository saved: the connection works. Copy the webhook's secret now.")
    return remember_secret(redirect_with_notice(_here(project_id), notice), _purpose(project_id), webhook)


def _purpose(project_id: str) -> str:
    return f"repository:{project_id}"


def remove(actor, project_id: str, config: dict | None):
    if _attempt(lazy_gettext("Removing"), lambda: service.delete_config(actor, project_id)) is REFUSED:
        return _page(actor, project_id, config)
    notice = gettext("Repository removed: its token is forgotten; push, sync and the webhook stop working.")
    return redirect_with_notice(_here(project_id), notice)


def push(actor, project_id: str, config: dict | None):
    pushed = _attempt(lazy_gettext("Push"), lambda: service.push(actor, project_id))
    if pushed is REFUSED:
        return _page(actor, project_id, config)
    pull = pushed["pullRequest"]
    if pull is None:
        notice = gettext("Nothing to push: the base branch already has these translations.")
    else:
        notice = gettext(
            "Pushed: pull request #%(number)s has the project's translations.", number=pull["number"]
        )
    return redirect_with_notice(_here(project_id), notice)


def preview(actor, project_id: str, config: dict | None):
    previewed = _attempt(lazy_gettext("Sync preview"), lambda: _sync(actor, project_id, dry_run=True))
    if previewed is REFUSED:
        return _page(actor, project_id, config, form=request.form)
    return _page(actor, project_id, config, form=request.form, preview=previewed)


def sync(actor, project_id: str, config: dict | None):
    synced = _attempt(lazy_gettext("Sync"), lambda: _sync(actor, project_id, dry_run=False))
    if synced is REFUSED:
        return _page(actor, project_id, config, form=request.form)
    return redirect_with_notice(_here(project_id), _synced(config["branch"], synced))


def _sync(actor, project_id: str, dry_run: bool) -> dict:
    options = form_input(SyncIn, extra={"dryRun": dry_run})
    # A preview reads the branch's head; the sync confirming one imports the commit it showed.
    commit = None if dry_run else options["commit"]
    return service.sync(actor, project_id, options["dryRun"], options["removedKeys"], commit=commit)


def _synced(branch: str, result: dict) -> str:
    notice = gettext(
        "Synced from %(branch)s at %(commit)s: %(created)s created, %(updated)s updated, "
        "%(trashed)s moved to the trash",
        branch=branch,
        commit=result["commit"][:12],
        created=result["created"],
        updated=result["updated"],
        trashed=result["trashed"],
    )
    if result["conflicts"]:
        notice += gettext(", ") + gettext(
            "%(count)s left as they were (conflicts)", count=result["conflicts"]
        )
    return gettext("%(summary)s.", summary=notice)


def _attempt(action: str, work):
    """``attempt``, with the refusal told as a sentence about ``action``: a host's failure
    quotes its answer; a run under way says to wait."""
    result = attempt(work)
    if result is REFUSED:
        message = page_message(g.form_error.removeprefix("repohost: "))
        if g.form_status == 502:
            g.form_error = gettext(
                "%(action)s failed: the repository host answered “%(message)s”.",
                action=action,
                message=message,
            )
        elif g.form_status == 409:
            g.form_error = gettext("%(action)s not started: %(message)s", action=action, message=message)
    return result


def _here(project_id: str) -> str:
    return url_for("repohost_ui.repository", project_id=project_id)


def _webhook_url(project_id: str) -> str:
    return url_for("repohost_api.repohost_webhook", project_id=project_id, _external=True)


def _typed_tags(form) -> dict:
    """The tag filter's fields as the API takes them: lists of the comma-separated tags."""
    return {name: comma_items([form.get(name, "")]) for name in TAG_FIELDS}


def _values(config: dict | None, form) -> dict:
    """The configuration form's values: what was typed, else the configuration, else the
    API's defaults. Never the token."""
    fields = schema_instance(RepoHostIn).fields
    values = {name: "" for name in FIELDS} | {"provider": PROVIDER_NAMES[0]}
    values |= {name: fields[name].load_default for name in FIELDS if fields[name].load_default is not missing}
    values |= {name: config[name] or "" for name in FIELDS} if config else {}
    values |= {name: ", ".join(config[name]) if config else "" for name in TAG_FIELDS}
    return values | {name: form[name] for name in (*FIELDS, *TAG_FIELDS) if name in form}


def _pull_request(config: dict | None, runs: list[dict]) -> dict | None:
    """The pull request of the last push to this configuration that opened or updated one."""
    for run in runs:
        if config is None or run["started_at"] < config["created_at"]:
            return None
        result = run["result"] or {}
        if run["kind"] == "push" and result.get("pullRequest"):
            return result["pullRequest"]
    return None


def _page(actor, project_id: str, config: dict | None, form=None, **context):
    runs = service.list_runs(actor, project_id)
    formats = format_choices()
    return render_page(
        "repohost/repository.html",
        view=project_page(project_id),
        config=config,
        values=_values(config, form or {}),
        removed_keys=(form or {}).get("removedKeys", "keep"),
        providers=[(name, PROVIDER_LABELS[name]) for name in PROVIDER_NAMES],
        provider_labels=PROVIDER_LABELS,
        default_api_urls={name: provider.default_api_url for name, provider in PROVIDERS.items()},
        formats=formats,
        format_labels=dict(formats),
        runs=runs,
        pull_request=_pull_request(config, runs),
        webhook_url=_webhook_url(project_id) if config else None,
        **context,
    )
