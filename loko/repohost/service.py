"""Repository integration use cases: configure, push, sync, the webhook and the runs list.

Every network call happens outside a database transaction: a use case reads what it needs
and commits, talks to the host, then writes its result in a new transaction. One push or
sync runs per project at a time, in any process: the run is claimed by a conditional UPDATE
of the project's row (a claim older than ``STALE_RUN`` is taken over, as its process died).
"""

import io
import re
import secrets as token_generator
import zipfile
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta

import orjson
from flask import current_app
from sqlalchemy import or_, select, update

from loko.audit import service as audit
from loko.auth import policy
from loko.auth.actors import UserActor
from loko.auth.models import User
from loko.database import unit_of_work, utcnow
from loko.errors import BadGateway, BadRequest, Conflict, Forbidden, NotFound, Unauthorized
from loko.exports.service import export_files
from loko.extensions import db
from loko.formats.registry import format_module
from loko.imports.files import template_language, template_pattern
from loko.imports.service import ImportOptions, import_files
from loko.jobs.service import enqueue
from loko.languages.codes import code_placeholder, fill_code
from loko.releases import service as releases
from loko.releases.schemas import NAME_PATTERN
from loko.repohost.models import RepoHost, RepoHostRun
from loko.repohost.providers import PROVIDERS, provider_for
from loko.repohost.providers.base import Provider, ProviderError
from loko.tags.filters import NO_TAGS, TagFilter

BRANCH = "loko/translations"
SYNC_JOB = "repohost-sync"
SYNC_ATTEMPTS = 5
STALE_RUN = timedelta(minutes=15)
RUNS_KEPT = 20
CHECK_PROBLEMS = {"not_found", "no_write_access", "branch_missing", "unauthorized"}
# The stored token is reused only where it was given for: a configuration that changes any of
# these must carry the token again.
TOKEN_BOUND = ("provider", "api_url", "repository")


@dataclass(frozen=True)
class Settings:
    """A configuration as the use cases need it, read in one short transaction."""

    project_id: str
    provider: str
    repository: str
    branch: str
    path: str
    format: str
    api_url: str | None
    token: str
    webhook_secret: str
    configured_by: str | None
    tags: TagFilter = NO_TAGS


# git (dulwich, urllib3) and the outbound HTTP client load on the first push or sync, and
# cryptography on the first configuration: a server that never uses the integration keeps
# them out of its memory.


def _git():
    from loko.repohost import git

    return git


def _outbound():
    from loko import outbound

    return outbound


def encrypt(secret_key: str, plain: str) -> str:
    from loko.secrets import encrypt as encrypted

    return encrypted(secret_key, plain)


def decrypt(secret_key: str, token: str) -> str:
    from loko.secrets import decrypt as decrypted

    return decrypted(secret_key, token)


def _allow_private() -> bool:
    return _outbound().allow_private(current_app.config)


def _secret_key() -> str:
    return current_app.config["LOKO_SECRET_KEY"]


def describe(row: RepoHost) -> dict:
    return {
        "provider": row.provider,
        "repository": row.repository,
        "branch": row.branch,
        "path": row.path,
        "format": row.format,
        "api_url": row.api_url,
        "tags": orjson.loads(row.tags),
        "excludeTags": orjson.loads(row.exclude_tags),
        "token_set": True,
        "pullRequestBranch": BRANCH,
        "created_at": row.created_at,
        "updated_at": row.updated_at,
    }


def _row(project_id: str) -> RepoHost | None:
    return db.session.get(RepoHost, project_id)


def get_config(actor, project_id: str) -> dict | None:
    policy.require_permission(actor, project_id, policy.EDIT_PROJECTS)
    row = _row(project_id)
    return describe(row) if row is not None else None


def _settings(project_id: str) -> Settings:
    row = _row(project_id)
    if row is None:
        raise NotFound("repohost: no repository is configured for this project.")
    return Settings(
        project_id=project_id,
        provider=row.provider,
        repository=row.repository,
        branch=row.branch,
        path=row.path,
        format=row.format,
        api_url=row.api_url,
        token=decrypt(_secret_key(), row.token_encrypted),
        webhook_secret=decrypt(_secret_key(), row.webhook_secret_encrypted),
        configured_by=row.configured_by,
        tags=TagFilter(tuple(orjson.loads(row.tags)), tuple(orjson.loads(row.exclude_tags))),
    )


@contextmanager
def _provider(settings) -> Iterator[Provider]:
    """The configured provider, with an HTTP client closed when the block ends; BadRequest
    when its API or git address is refused."""
    if settings.api_url:
        _checked_url("api_url", settings.api_url)
    with _outbound().http_client(_allow_private()) as http:
        provider = provider_for(
            settings.provider, settings.repository, settings.token, settings.api_url, http
        )
        _checked_url("repository", provider.git_url())
        yield provider


def _checked_url(field: str, url: str) -> None:
    try:
        _outbound().check_url(url, _allow_private())
    except _outbound().AddressRefused as error:
        raise BadRequest(f"{field}: {error}") from None
    except ProviderError as error:  # the name does not resolve
        raise BadGateway(f"{field}: {error.message}") from None


def _host_error(error: ProviderError, provider: str) -> BadGateway:
    return BadGateway(f"{provider}: {error.message}")


def check_connection(settings) -> None:
    """BadRequest saying precisely what is wrong (repository not found, the token may not
    push, the branch is missing, the token is refused), BadGateway when the host fails."""
    try:
        with _provider(settings) as provider:
            provider.check(settings.branch)
    except ProviderError as error:
        if error.problem in CHECK_PROBLEMS:
            raise BadRequest(f"repository: {error.message}") from None
        raise _host_error(error, settings.provider) from None


def configure(actor, project_id: str, data: dict) -> tuple[dict, dict | None]:
    """Save a configuration after checking the connection; returns it and, when the
    project had none, the webhook's secret (shown once). BadRequest without a token, unless
    the stored one is kept for the same provider, API URL and repository."""
    policy.require_permission(actor, project_id, policy.EDIT_PROJECTS)
    existing = _row(project_id)
    token = data.get("token")
    if not token:
        if existing is None:
            raise BadRequest("token: required to configure a repository.")
        changed = [name for name in TOKEN_BOUND if data.get(name) != getattr(existing, name)]
        if changed:
            raise BadRequest(
                f"token: required again when {' or '.join(changed)} changes; the stored token "
                "is only used with the provider, API URL and repository it was given for."
            )
        token = decrypt(_secret_key(), existing.token_encrypted)
    settings = Settings(
        project_id=project_id,
        provider=data["provider"],
        repository=data["repository"],
        branch=data["branch"],
        path=data["path"],
        format=data["format"],
        api_url=data.get("api_url"),
        token=token,
        webhook_secret="",
        configured_by=None,
    )
    _check_template(settings.path, settings.format)
    db.session.rollback()  # no transaction stays open across the network
    check_connection(settings)
    webhook_secret = None
    with unit_of_work():
        policy.require_permission(actor, project_id, policy.EDIT_PROJECTS)
        row = _row(project_id)
        now = utcnow()
        if row is None:
            webhook_secret = token_generator.token_urlsafe(32)
            row = RepoHost(
                project_id=project_id,
                webhook_secret_encrypted=encrypt(_secret_key(), webhook_secret),
                created_at=now,
            )
            db.session.add(row)
        row.provider, row.repository, row.branch = settings.provider, settings.repository, settings.branch
        row.path, row.format, row.api_url = settings.path, settings.format, settings.api_url
        row.tags = orjson.dumps(list(dict.fromkeys(data.get("tags", ())))).decode()
        row.exclude_tags = orjson.dumps(list(dict.fromkeys(data.get("excludeTags", ())))).decode()
        row.token_encrypted = encrypt(_secret_key(), token)
        row.configured_by = actor.id if isinstance(actor, UserActor) else row.configured_by
        row.updated_at = now
        _record_run(project_id, actor, "check", "ok", "Connection checked: the token may push to the branch.")
        db.session.flush()
        config = describe(row)
        audit.record_for_project_id(
            actor,
            project_id,
            "repository.configured",
            audit.Target("repository", project_id, f"{row.provider}: {row.repository}"),
            {
                "provider": row.provider,
                "repository": row.repository,
                "branch": row.branch,
                "path": row.path,
                "format": row.format,
                "apiUrl": audit.safe_url(row.api_url),
                "tags": orjson.loads(row.tags),
                "excludeTags": orjson.loads(row.exclude_tags),
            },
        )
    return config, ({"secret": webhook_secret} if webhook_secret else None)


def _check_template(path: str, fmt: str) -> None:
    module = format_module(fmt)
    if "{fileName}" not in path:
        raise BadRequest("path: must contain {fileName}.")
    try:
        placeholder = code_placeholder(path)
    except ValueError as error:
        raise BadRequest(f"path: {error}") from None
    if placeholder is None and not getattr(module, "MULTILINGUAL", False):
        raise BadRequest(
            f"path: must contain {{language}}, {{locale}} or {{android}} (format {fmt} holds one "
            "language per file)."
        )
    if path.startswith("/") or ".." in path.split("/") or "\\" in path:
        raise BadRequest("path: must be a relative path inside the repository.")


def delete_config(actor, project_id: str) -> None:
    with unit_of_work():
        policy.require_permission(actor, project_id, policy.EDIT_PROJECTS)
        row = _row(project_id)
        if row is None:
            raise NotFound("repohost: no repository is configured for this project.")
        audit.record_for_project_id(
            actor,
            project_id,
            "repository.removed",
            audit.Target("repository", project_id, f"{row.provider}: {row.repository}"),
            {"provider": row.provider, "repository": row.repository},
        )
        db.session.delete(row)


# Runs: one at a time per project


class RunBusy(Conflict):
    """Another push or sync of the project holds its run."""


def _claim(actor, project_id: str, kind: str, permission: str) -> tuple[Settings, datetime]:
    """The project's settings and the time of this run's claim, which only this run releases;
    Conflict while another run holds a claim younger than STALE_RUN."""
    with unit_of_work():
        policy.require_permission(actor, project_id, permission)
        settings = _settings(project_id)
        now = utcnow()
        claimed = db.session.execute(
            update(RepoHost)
            .where(
                RepoHost.project_id == project_id,
                or_(RepoHost.running.is_(None), RepoHost.run_started_at < now - STALE_RUN),
            )
            .values(running=kind, run_started_at=now)
        ).rowcount
        if not claimed:
            raise RunBusy("repohost: a push or sync of this project is running; try again when it ends.")
    return settings, now


def _release(project_id: str, claimed_at: datetime) -> None:
    """Clear the claim made at ``claimed_at``; a run that took it over since keeps its own."""
    with unit_of_work():
        db.session.execute(
            update(RepoHost)
            .where(RepoHost.project_id == project_id, RepoHost.run_started_at == claimed_at)
            .values(running=None, run_started_at=None)
        )


def _record_run(project_id, actor, kind, status, summary, result=None, dry_run=False, started=None) -> None:
    now = utcnow()
    db.session.add(
        RepoHostRun(
            project_id=project_id,
            kind=kind,
            dry_run=int(dry_run),
            status=status,
            summary=summary[:2000],
            result=orjson.dumps(result).decode() if result is not None else None,
            actor_name=getattr(actor, "name", None),
            started_at=started or now,
            finished_at=now,
        )
    )
    old = (
        select(RepoHostRun.id)
        .where(RepoHostRun.project_id == project_id)
        .order_by(RepoHostRun.started_at.desc())
        .offset(RUNS_KEPT)
    )
    stale = list(db.session.execute(old).scalars())
    if stale:
        db.session.execute(RepoHostRun.__table__.delete().where(RepoHostRun.id.in_(stale)))


def _run(actor, project_id: str, kind: str, permission: str, work, dry_run: bool = False) -> dict:
    """Claim the project's run, do ``work(settings)`` outside any transaction, record how it
    ended, release the claim."""
    started = utcnow()
    settings, claimed_at = _claim(actor, project_id, kind, permission)
    try:
        result, summary = work(settings)
    except Exception as error:
        db.session.rollback()
        message = getattr(error, "message", None) or "the run failed unexpectedly."
        with unit_of_work():
            _record_run(project_id, actor, kind, "failed", message, dry_run=dry_run, started=started)
        raise
    finally:
        _release(project_id, claimed_at)
    with unit_of_work():
        _record_run(project_id, actor, kind, "ok", summary, result, dry_run=dry_run, started=started)
    return result


def list_runs(actor, project_id: str) -> list[dict]:
    policy.require_permission(actor, project_id, policy.VIEW_TRANSLATIONS)
    rows = db.session.execute(
        select(RepoHostRun)
        .where(RepoHostRun.project_id == project_id)
        .order_by(RepoHostRun.started_at.desc())
        .limit(RUNS_KEPT)
    ).scalars()
    return [
        {
            "kind": row.kind,
            "dryRun": bool(row.dry_run),
            "status": row.status,
            "summary": row.summary,
            "result": orjson.loads(row.result) if row.result else None,
            "actor": row.actor_name,
            "started_at": row.started_at,
            "finished_at": row.finished_at,
        }
        for row in rows
    ]


# Push


def _file_path(template: str, language: str | None, file_name: str, extension: str) -> str:
    after = template.split("{fileName}", 1)[1]
    if after.startswith(extension) and file_name.endswith(extension):
        file_name = file_name[: -len(extension)]
    path = template.replace("{fileName}", file_name)
    return fill_code(path, language) if language else path


def _path_language(template: str, match) -> str | None:
    """The canonical code of a matched path; a code the registry does not know is counted
    as it is written."""
    if match is None:
        return None
    try:
        return template_language(template, match)
    except ValueError:
        return match["language"]


def _key_changes(fmt: str, language: str | None, before: bytes | None, after: bytes) -> dict[str, Counter]:
    """``{language: Counter(added, changed, removed)}`` between two versions of a file."""
    module = format_module(fmt)

    def entries(data: bytes | None) -> dict[str, dict[str, str | None]]:
        if data is None:
            return {}
        try:
            if getattr(module, "MULTILINGUAL", False):
                return {
                    code: {e.key: e.value for e in items} for code, items in module.read_all(data).items()
                }
            return {language: {e.key: e.value for e in module.read(data, language)}}
        except Exception:  # a file on the branch that does not parse counts as empty
            return {}

    old, new = entries(before), entries(after)
    counts: dict[str, Counter] = {}
    for code in sorted(old.keys() | new.keys()):
        mine, theirs = new.get(code, {}), old.get(code, {})
        counts[code] = Counter(
            added=len(mine.keys() - theirs.keys()),
            changed=sum(1 for key in mine.keys() & theirs.keys() if mine[key] != theirs[key]),
            removed=len(theirs.keys() - mine.keys()),
        )
    return counts


def _change_text(counts: dict[str, Counter]) -> tuple[str, str]:
    """The commit message's summary line and the pull request's body."""
    total = Counter()
    for counter in counts.values():
        total.update(counter)
    line = f"{total['added']} added, {total['changed']} changed, {total['removed']} removed"
    rows = [
        f"| {code} | {c['added']} | {c['changed']} | {c['removed']} |"
        for code, c in sorted(counts.items())
        if any(c.values())
    ]
    body = (
        "Translations exported from Loko.\n\n| Language | Keys added | Keys changed | Keys removed |\n"
        "|---|---|---|---|\n" + "\n".join(rows) + "\n"
    )
    return line, body


def push(actor, project_id: str) -> dict:
    """Export in the configured format and template; when the files differ from the base
    branch, commit them to the project's branch and open its pull request or update the
    open one. ``{pullRequest: {url, number, branch}}`` or ``{pullRequest: null}``."""

    def work(settings: Settings):
        files = export_files(actor, project_id, settings.format, settings.tags)
        db.session.rollback()
        extension = format_module(settings.format).EXTENSION
        exported = {
            _file_path(settings.path, language, name, extension): data for language, name, data in files
        }
        pattern = template_pattern(settings.path)
        with _provider(settings) as provider:
            return _push_files(settings, provider, pattern, exported)

    return _run(actor, project_id, "push", policy.MANAGE_KEYS, work)


def _push_files(settings: Settings, provider: Provider, pattern, exported: dict[str, bytes]):
    """Compare with the base branch, commit what differs to BRANCH, open or update the pull
    request; returns the answer and the run's summary."""
    try:
        base = _git().read_files(
            provider.git_url(),
            provider.git_credentials(),
            settings.branch,
            lambda path: path in exported or pattern.match(path) is not None,
            allow_private=_allow_private(),
        )
        changes = {path: data for path, data in exported.items() if base.files.get(path) != data}
        if not changes:
            return {"pullRequest": None}, _close_stale_pull_request(settings, provider)
        per_language: dict[str, Counter] = {}
        for path, data in changes.items():
            match = pattern.match(path)
            language = _path_language(settings.path, match)
            for code, counter in _key_changes(settings.format, language, base.files.get(path), data).items():
                per_language.setdefault(code, Counter()).update(counter)
        line, body = _change_text(per_language)
        try:
            _git().commit_files(
                provider.git_url(),
                provider.git_credentials(),
                settings.branch,
                BRANCH,
                changes,
                f"Update translations from Loko: {line}\n\n{body}",
                "Loko <loko@localhost>",
                allow_private=_allow_private(),
            )
        except _git().UnwritablePath as error:
            raise BadRequest(f"path: {error}; nothing was pushed.") from None
        title = f"Translations from Loko ({line})"
        pull = provider.find_pull_request(BRANCH, settings.branch)
        if pull is None:
            pull = provider.open_pull_request(BRANCH, settings.branch, title, body)
        else:
            pull = provider.update_pull_request(pull.number, title, body)
    except ProviderError as error:
        raise _host_error(error, settings.provider) from None
    result = {"pullRequest": {"url": pull.url, "number": pull.number, "branch": pull.branch}}
    return result, f"Pull request #{pull.number}: {line} in {len(changes)} files."


def _close_stale_pull_request(settings: Settings, provider: Provider) -> str:
    """Close the project's pull request when it is still open although the base branch
    already has the translations (its changes were reverted in Loko since); the run's
    summary."""
    stale = provider.find_pull_request(BRANCH, settings.branch)
    if stale is None:
        return "Nothing to push: the branch has these translations."
    provider.close_pull_request(stale.number)
    return (
        f"Nothing to push: the branch has these translations. Closed pull request #{stale.number}, "
        "whose changes are no longer in Loko."
    )


# Sync


def sync(
    actor,
    project_id: str,
    dry_run: bool = False,
    removed_keys: str = "keep",
    kind: str = "sync",
    commit: str | None = None,
) -> dict:
    """Import the files matching the template on the base branch with the import service.
    ``{created, updated, unchanged, trashed, conflicts, files, changes}``: counts, the files
    read, and the import's diff. With ``commit`` (the one a preview read), Conflict and
    nothing imported when the branch's head is another commit by now."""

    def work(settings: Settings):
        pattern = template_pattern(settings.path)
        try:
            with _provider(settings) as provider:
                base = _git().read_files(
                    provider.git_url(),
                    provider.git_credentials(),
                    settings.branch,
                    lambda path: pattern.match(path) is not None,
                    allow_private=_allow_private(),
                )
        except ProviderError as error:
            raise _host_error(error, settings.provider) from None
        if commit is not None and base.commit != commit.lower():
            raise Conflict(
                f"repohost: {settings.branch} has moved since the preview, from {commit[:12]} to "
                f"{base.commit[:12]}; nothing was imported."
            )
        if not base.files:
            raise BadRequest(f"path: no file on {settings.branch} matches {settings.path!r}.")
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
            for path, data in sorted(base.files.items()):
                archive.writestr(path, data)
        options = ImportOptions(
            format=settings.format,
            path_template=settings.path,
            removed_keys=removed_keys,
            dry_run=dry_run,
            within_tags=settings.tags.all_of,
            without_tags=settings.tags.none_of,
        )
        diff = import_files(actor, project_id, buffer.getvalue(), options)
        result = {
            **diff["summary"],
            "dryRun": dry_run,
            "commit": base.commit,
            "files": sorted(base.files),
            "changes": {name: diff[name] for name in ("created", "updated", "trashed", "conflicts")},
            "truncated": diff["truncated"],
        }
        summary = diff["summary"]
        text = (
            f"{summary['created']} created, {summary['updated']} updated, {summary['unchanged']} unchanged, "
            f"{summary['trashed']} to the trash from {len(base.files)} files at {base.commit[:12]}."
        )
        return result, text

    return _run(actor, project_id, kind, policy.MANAGE_KEYS, work, dry_run=dry_run)


# Webhook


def sync_job_key(project_id: str) -> str:
    """The coalescing key of a project's webhook syncs: one queued at a time does for all."""
    return f"{SYNC_JOB}:{project_id}"


def webhook(project_id: str, headers, body: bytes) -> dict:
    """A push to the base branch, signed by the provider with the webhook secret, queues a
    sync of the project as the user who configured it (one queued sync per project: a
    delivery while one waits joins it). ``{queued, job}``; Unauthorized for a missing or
    wrong signature, Conflict when that user no longer exists."""
    row = _row(project_id)
    if row is None:
        raise NotFound("repohost: no repository is configured for this project.")
    settings = _settings(project_id)
    provider_class = PROVIDERS[settings.provider]
    if not provider_class.verify_webhook(headers, body, settings.webhook_secret):
        raise Unauthorized("webhook: the signature does not match this project's webhook secret.")
    try:
        payload = orjson.loads(body) if body else {}
    except orjson.JSONDecodeError:
        raise BadRequest("webhook: the body is not JSON.") from None
    payload = payload if isinstance(payload, dict) else {}
    tag = provider_class.pushed_tag(headers, payload)
    if tag is not None:
        return _release_of_tag(project_id, settings, tag)
    branch = provider_class.pushed_branch(headers, payload)
    if branch != settings.branch:
        return {"queued": False, "reason": f"not a push to {settings.branch}"}
    with unit_of_work():
        user = db.session.get(User, settings.configured_by) if settings.configured_by else None
        if user is None:
            raise Conflict(
                "webhook: the user who configured the repository no longer exists; configure it again."
            )
        job = enqueue(
            SYNC_JOB,
            {"userId": user.id},
            project_id=project_id,
            coalesce_key=sync_job_key(project_id),
            max_attempts=SYNC_ATTEMPTS,
        )
        return {"queued": True, "job": job.id}


def _release_of_tag(project_id: str, settings, tag: str) -> dict:
    """A pushed tag names a release of the project as it is now (the tag's name), made as the
    user who configured the repository; a tag that is no release name, or names one the
    project has, is told why nothing was made."""
    if not re.fullmatch(NAME_PATTERN, tag):
        return {"queued": False, "reason": f"the tag {tag!r} is not a release name"}
    user = db.session.get(User, settings.configured_by) if settings.configured_by else None
    if user is None:
        raise Conflict(
            "webhook: the user who configured the repository no longer exists; configure it again."
        )
    actor = UserActor(id=user.id, email=user.email, name=user.name)
    try:
        releases.create_release(actor, project_id, {"name": tag, "description": f"Tag {tag}"}, tag=tag)
    except (Conflict, Forbidden) as error:
        return {"queued": False, "reason": f"no release made for the tag {tag!r}: {error.message}"}
    return {"queued": False, "reason": f"release {tag} made from the pushed tag"}


def webhook_sync(project_id: str, user_id: str) -> dict:
    """The sync a webhook queued, as ``user_id``; RunBusy while another run holds the project,
    Conflict when that user no longer exists."""
    user = db.session.get(User, user_id)
    if user is None:
        raise Conflict(
            "webhook: the user who configured the repository no longer exists; configure it again."
        )
    actor = UserActor(id=user.id, email=user.email, name=user.name)
    db.session.rollback()
    return sync(actor, project_id, kind="webhook-sync")
