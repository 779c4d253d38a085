"""``loko init``, ``loko push``, ``loko pull`` and ``loko status``.

Exit codes: 0 done; 1 the server or the network failed (its ``error`` is printed) or a
local file could not be read or written; 2 a usage or configuration error; 3 differences
found, with ``--fail-on-diff`` (``push --dry-run`` and ``status``); 4 a check set to refuse
has issues (``status --checks``); 5 values wait for a review (``status --review``).
"""

import functools
import json
import os
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime, time
from pathlib import Path
from urllib.parse import quote

import click
from click.core import ParameterSource

from loko.client import report
from loko.client.config import (
    CONFIG_NAMES,
    TOML_NAME,
    Config,
    ConfigError,
    FileSet,
    check_url,
    config_toml,
    is_cleartext_remote,
    load_config,
)
from loko.client.formats import BILINGUAL, FORMAT_NAMES, format_of_file, format_of_path, is_multilingual
from loko.client.remote import Remote, ServerError
from loko.client.screenshots import ScreenshotFolderError, screenshot_upload
from loko.client.state import STATE_FOLDER, PullState
from loko.client.sync import (
    PullError,
    Upload,
    apply_pull,
    local_files,
    plan_pull,
    pull_record,
    upload_of,
)
from loko.client.templates import PathTemplate, TemplateError, check_language, has_language

DIFFERENCES_FOUND = 3
CHECKS_REFUSED = 4
REVIEWS_WAITING = 5
# The most values ``status --review`` lists; the count is of them all.
REVIEWS_LISTED = 10_000
MODES = ("upsert", "only-new", "replace-file")
REMOVED_KEYS = ("keep", "trash")
ASYNC_CHOICES = ("auto", "always", "never")
# An upload larger than this is imported as a background job on the server (with --async auto):
# a long import then outlives no HTTP timeout of a proxy between here and the server.
ASYNC_THRESHOLD = 1024 * 1024
PROGRESS_WIDTH = 30


class LocalFileError(click.ClickException):
    """A local file that cannot be read or written (exit 1)."""

    exit_code = 1


@dataclass(frozen=True)
class Output:
    """People's lines on stdout unless ``--json`` or ``--quiet``; JSON documents on stdout
    with ``--json``; warnings always, on stderr."""

    json_mode: bool = False
    quiet: bool = False

    def say(self, line: str = "") -> None:
        if not (self.json_mode or self.quiet):
            click.echo(line)

    def lines(self, lines: list[str]) -> None:
        for line in lines:
            self.say(line)

    def data(self, document) -> None:
        if self.json_mode:
            click.echo(json.dumps(document, ensure_ascii=False))

    def warn(self, message: str) -> None:
        click.echo(f"{click.style('Warning:', fg='yellow')} {message}", err=True)

    @property
    def show_progress(self) -> bool:
        return not self.quiet and sys.stderr.isatty()


def stdin_is_terminal() -> bool:
    return sys.stdin.isatty()


def stdout_is_terminal() -> bool:
    return sys.stdout.isatty()


def runs_async(choice: str, archive: bytes, dry_run: bool) -> bool:
    """Whether an import is sent as a background job: never a dry run (it changes nothing and
    answers quickly), always with ``always``, and with ``auto`` when the upload is large."""
    if dry_run or choice == "never":
        return False
    return choice == "always" or len(archive) > ASYNC_THRESHOLD


class JobProgress:
    """An import job as it goes: a progress bar redrawn on stderr when both outputs are a
    terminal, else one plain line each time its state or progress changes (none with
    ``--json`` or ``--quiet``)."""

    def __init__(self, out: Output, label: str):
        self.out = out
        self.label = label
        self.bar = out.show_progress and stdout_is_terminal()
        self.last = None

    def __call__(self, job: dict) -> None:
        progress = job.get("progress") or {}
        done, total = progress.get("done") or 0, progress.get("total")
        state = job.get("state")
        if state == "succeeded" and total:
            done = total
        seen = (state, done, total)
        if seen == self.last:
            return
        self.last = seen
        counted = f" {done} of {total}" if total else ""
        if self.bar:
            filled = int(PROGRESS_WIDTH * done / total) if total else 0
            bar = "#" * filled + "-" * (PROGRESS_WIDTH - filled)
            click.echo(f"\r{self.label} [{bar}]{counted} {state}\x1b[K", nl=False, err=True)
            if state in ("succeeded", "failed", "cancelled"):
                click.echo("", err=True)
        else:
            self.out.say(f"{self.label}: job {job.get('id')} {state}{counted and ',' + counted}")


def _warn_if_cleartext(url: str, out: Output) -> None:
    if is_cleartext_remote(url):
        out.warn(f"{url} is not https: the API key would cross the network unencrypted")


def _languages(_ctx, _param, values) -> tuple[str, ...] | None:
    codes = sorted({code.strip() for value in values for code in value.split(",") if code.strip()})
    try:
        return tuple(check_language(code) for code in codes) or None
    except TemplateError as error:
        raise click.BadParameter(str(error)) from None


def output_options(command: Callable) -> Callable:
    command = click.option("--quiet", "-q", is_flag=True, help="Print only warnings and errors.")(command)
    return click.option("--json", "json_output", is_flag=True, help="Print JSON for machines.")(command)


def client_options(command: Callable) -> Callable:
    """The options of the commands that talk to a server; they arrive as ``config`` and ``out``."""

    @click.option(
        "--config",
        "config_file",
        type=click.Path(exists=True, dir_okay=False, path_type=Path),
        help="The configuration file (default: loko.toml or .loko.yml here or in a parent folder).",
    )
    @click.option("--url", help="The server's address (overrides LOKO_URL and the file).")
    @click.option("--project", help="The project's id (overrides LOKO_PROJECT and the file).")
    @click.option("--api-key", help="An API key of the project (default: LOKO_API_KEY).")
    @output_options
    @functools.wraps(command)
    def with_config(config_file, url, project, api_key, json_output, quiet, **options):
        out = Output(json_output, quiet)
        config = load_config(
            cwd=Path.cwd(),
            env=os.environ,
            warn=out.warn,
            config_file=config_file,
            url=url,
            project=project,
            api_key=api_key,
        )
        _warn_if_cleartext(config.url, out)
        return command(config=config, out=out, **options)

    return with_config


def language_option(command: Callable) -> Callable:
    return click.option(
        "--language",
        "languages",
        multiple=True,
        callback=_languages,
        help="Only these languages (repeat, or separate with commas). Refused when a [[files]] "
        "entry's format holds every language in one file (csv): such a file is pushed and "
        "pulled whole, so run without --language.",
    )(command)


def _refuse_language_filter(config: Config, languages: tuple[str, ...] | None) -> None:
    """A usage error when ``--language`` meets a format whose one file holds every language:
    pulling part of the languages would overwrite the local file without the others'
    columns, and pushing the whole file would send languages that were not asked for."""
    if languages is None:
        return
    for file_set in config.files:
        if is_multilingual(file_set.format):
            raise click.UsageError(
                f"{file_set.path} ({file_set.format}) holds every language in one file, which "
                "--language would cut: such a file is pushed and pulled whole, so run without "
                "--language"
            )


def import_options(command: Callable) -> Callable:
    command = click.option(
        "--removed-keys",
        type=click.Choice(REMOVED_KEYS),
        default="keep",
        show_default=True,
        help="trash: keys of a pushed file that the file no longer has go to the trash.",
    )(command)
    return click.option(
        "--mode",
        type=click.Choice(MODES),
        default="upsert",
        show_default=True,
        help="upsert: create and update; only-new: add what is missing, list differing values as "
        "conflicts; replace-file: each pushed file becomes what was sent.",
    )(command)


def fail_on_diff_option(command: Callable) -> Callable:
    return click.option(
        "--fail-on-diff", is_flag=True, help=f"Exit with {DIFFERENCES_FOUND} when anything would change."
    )(command)


def _remote(config: Config, out: Output) -> Remote:
    return Remote(config.url, config.project, config.api_key, show_progress=out.show_progress)


def _uploads(config: Config, languages: tuple[str, ...] | None, out: Output) -> list[Upload]:
    uploads = []
    for file_set in config.files:
        matches = local_files(config.root, file_set, languages)
        if not matches:
            out.warn(f"no files match {file_set.path} in {config.root}")
            continue
        try:
            uploads.append(upload_of(config.root, file_set, matches))
        except OSError as error:
            raise LocalFileError(f"cannot read {error.filename}: {error.strerror}") from None
    return uploads


def _import_all(
    remote: Remote,
    uploads: list[Upload],
    *,
    mode: str,
    removed_keys: str,
    dry_run: bool,
    out: Output,
    run_async: str = "never",
):
    """Each upload's import result, in order: one import (one transaction) per upload, a
    large one (see ``runs_async``) as a job on the server, waited for."""
    for upload in uploads:
        background = runs_async(run_async, upload.archive, dry_run)
        yield (
            upload,
            remote.import_archive(
                upload.archive,
                format=upload.file_set.format,
                path_template=upload.file_set.path,
                mode=mode,
                removed_keys=removed_keys,
                dry_run=dry_run,
                run_async=background,
                on_job=JobProgress(out, f"Importing {upload.file_set.path}") if background else None,
            ),
        )


def _by_format(file_sets: tuple[FileSet, ...]) -> dict[str, list[FileSet]]:
    """One export a format, shared by the entries of that format (``plan_pull`` gives each
    project file to its entry)."""
    grouped: dict[str, list[FileSet]] = {}
    for file_set in file_sets:
        grouped.setdefault(file_set.format, []).append(file_set)
    return grouped


def _plan(config: Config, file_sets: list[FileSet], body: bytes):
    try:
        return plan_pull(config.root, file_sets, body)
    except PullError as error:
        raise ServerError(f"the export was not written: {error}") from None


@click.command("push")
@client_options
@click.option("--dry-run", is_flag=True, help="Show what would change on the server; change nothing.")
@import_options
@language_option
@fail_on_diff_option
@click.option(
    "--async",
    "run_async",
    type=click.Choice(ASYNC_CHOICES),
    default="auto",
    show_default=True,
    help="Import as a background job on the server and wait for it: auto for an upload over "
    "1 MiB, always, or never. A dry run is never a job.",
)
@click.option(
    "--screenshots",
    "screenshots_folder",
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    help="Send the PNG, JPEG and WebP images of this folder (and its screenshots.json: regions "
    "by fileName and key) to the project's screenshots instead of the translation files.",
)
def push_command(
    config, out, dry_run, mode, removed_keys, languages, fail_on_diff, run_async, screenshots_folder
):
    """Send the local files to the project.

    Each [[files]] entry's files go in one ZIP, imported in one transaction; prints what
    changed (with --dry-run, what would). A large ZIP is imported as a job on the server,
    whose progress is shown until it ends; a failed or cancelled job exits with 1.

    With --screenshots DIR, only the folder's screenshots are sent, in one ZIP imported in
    one transaction; push the translation files first, so that the regions find their keys."""
    if fail_on_diff and not dry_run:
        raise click.UsageError("--fail-on-diff goes with --dry-run (or use `loko status`)")
    if screenshots_folder is not None:
        push_screenshots(config, out, screenshots_folder, dry_run, fail_on_diff)
        return
    _refuse_language_filter(config, languages)
    uploads = _uploads(config, languages, out)
    if not uploads:
        raise LocalFileError("nothing to push: no local file matches a [[files]] path")
    changed = False
    with _remote(config, out) as remote:
        for upload, result in _import_all(
            remote,
            uploads,
            mode=mode,
            removed_keys=removed_keys,
            dry_run=dry_run,
            out=out,
            run_async=run_async,
        ):
            changed = changed or report.has_changes(result)
            out.data(result)
            out.lines(report.import_lines(upload.file_set, len(upload.matches), result))
    if dry_run:
        out.say("Dry run: nothing was changed on the server.")
    if fail_on_diff and changed:
        click.get_current_context().exit(DIFFERENCES_FOUND)


# The options of a push of translation files, which a push of screenshots refuses when given.
TRANSLATION_FILE_OPTIONS = {
    "mode": "--mode",
    "removed_keys": "--removed-keys",
    "languages": "--language",
    "run_async": "--async",
}


def push_screenshots(config, out, folder: Path, dry_run: bool, fail_on_diff: bool) -> None:
    """``push --screenshots``: the folder's images and screenshots.json in one archive import;
    prints what was created, found and skipped (with --dry-run, what would be)."""
    context = click.get_current_context()
    for name, option in TRANSLATION_FILE_OPTIONS.items():
        if context.get_parameter_source(name) is ParameterSource.COMMANDLINE:
            raise click.UsageError(f"{option} is for translation files, not --screenshots")
    try:
        upload = screenshot_upload(folder)
    except ScreenshotFolderError as error:
        raise LocalFileError(str(error)) from None
    except OSError as error:
        raise LocalFileError(f"cannot read {error.filename}: {error.strerror}") from None
    for name in upload.ignored:
        out.warn(f"{folder / name} is not a PNG, JPEG or WebP image: not sent")
    with _remote(config, out) as remote:
        result = remote.import_screenshots(upload.archive, dry_run=dry_run)
    out.data(result)
    out.lines(report.screenshot_lines(str(folder), len(upload.images), upload.sidecar, result))
    summary = result["summary"]
    if not upload.sidecar and summary.get("screenshotsCreated"):
        out.say("Without screenshots.json, the server's OCR proposes regions if it has tesseract.")
    if dry_run:
        out.say("Dry run: nothing was changed on the server.")
    changed = any(summary.get(name) for name in ("screenshotsCreated", "screenshotsRestored", "regionsAdded"))
    if fail_on_diff and changed:
        context.exit(DIFFERENCES_FOUND)


@click.group("repohost")
def repohost_group():
    """The project's code repository, through the server: push opens or updates its pull
    request, sync imports the base branch."""


@repohost_group.command("push")
@client_options
def repohost_push_command(config, out):
    """Open or update the pull request with the project's translations."""
    with _remote(config, out) as remote:
        answer = remote.repohost("push")
    out.data(answer)
    pull = answer.get("pullRequest")
    out.say(
        f"Pull request #{pull['number']}: {pull['url']}"
        if pull
        else "Nothing to push: the branch is up to date."
    )


@repohost_group.command("sync")
@client_options
@click.option("--dry-run", is_flag=True, help="Show what would change; change nothing.")
@click.option(
    "--removed-keys",
    type=click.Choice(["keep", "trash"]),
    default="keep",
    show_default=True,
    help="What to do with keys the branch no longer has.",
)
@fail_on_diff_option
def repohost_sync_command(config, out, dry_run, removed_keys, fail_on_diff):
    """Import the translations of the repository's base branch."""
    if fail_on_diff and not dry_run:
        raise click.UsageError("--fail-on-diff goes with --dry-run")
    with _remote(config, out) as remote:
        answer = remote.repohost("sync", {"dryRun": dry_run, "removedKeys": removed_keys})
    out.data(answer)
    out.say(
        ("Would change" if dry_run else "Synced")
        + f": {answer['created']} created, {answer['updated']} updated, {answer['unchanged']} unchanged, "
        f"{answer['trashed']} to the trash, from {len(answer['files'])} files."
    )
    if fail_on_diff and any(answer[name] for name in ("created", "updated", "trashed")):
        click.get_current_context().exit(DIFFERENCES_FOUND)


def _source_language(config: Config, remote: Remote) -> str | None:
    """The source language bilingual files (XLIFF) name: the config's, else the project's
    setting, asked of the server only when a bilingual format is configured."""
    if config.source_language or not any(f.format in BILINGUAL for f in config.files):
        return config.source_language
    return remote.source_language()


# A tag as the server takes it (the client imports nothing of the server).
TAG = re.compile(r"[^\W_][\w.:-]{0,49}")


def _tags(_ctx, param, values) -> tuple[str, ...]:
    """Tags given with the option repeated or comma-separated."""
    parts = (part.strip() for value in values for part in value.split(","))
    tags = tuple(dict.fromkeys(part for part in parts if part))
    for tag in tags:
        if TAG.fullmatch(tag) is None:
            raise click.BadParameter(
                f"{tag!r} is not a tag: 1 to 50 letters, digits and . _ - :, a letter or digit first.",
                param=param,
            )
    return tags


@click.command("pull")
@client_options
@language_option
@click.option(
    "--as-of",
    "as_of",
    help="The project as it was then: an ISO-8601 instant with its offset (2026-01-31T12:00:00Z) "
    "or an operation's id.",
)
@click.option("--release", help="The project as it was at this release (its name, e.g. v1.2).")
@click.option(
    "--tag",
    "tags",
    multiple=True,
    callback=_tags,
    help="Only the keys with this tag (repeat, or separate with commas: keys with every one).",
)
@click.option(
    "--exclude-tag",
    "exclude_tags",
    multiple=True,
    callback=_tags,
    help="Only the keys with none of these tags (repeat, or separate with commas).",
)
def pull_command(config, out, languages, as_of, release, tags, exclude_tags):
    """Write the project's translations into the local files.

    Each [[files]] entry's path places them; a file is written only when its bytes differ,
    and an export unchanged since the last pull is not downloaded again. XLIFF files name
    the config's source_language as their source (without one, the project's).

    With several [[files]] entries of one format, a project file goes to the entry under
    whose path it exists here (in any language); one found under none goes to the first
    entry of its format.

    With --as-of or --release the files are written as the project was then (the pull is
    not remembered: the next plain pull compares with the server as it is).

    With --tag or --exclude-tag, the files hold only the keys those tags keep (the server's
    ETag names the filter, so a pull with another filter downloads again)."""
    _refuse_language_filter(config, languages)
    if as_of and release:
        raise click.UsageError("--as-of and --release: give one of them")
    past = bool(as_of or release)
    state = PullState.load(config.root, out.warn)
    results = []
    with _remote(config, out) as remote:
        source = _source_language(config, remote)
        for format_name, file_sets in _by_format(config.files).items():
            record = None if past else state.get(format_name)
            etag = record.etag_to_send(config.root, languages) if record else None
            answer = remote.export(
                format_name, languages, etag, source, tags, exclude_tags, as_of=as_of, release=release
            )
            if answer.not_modified:
                results.append({"format": format_name, "notModified": True, "written": [], "unchanged": None})
                out.say(f"{format_name}: up to date")
                continue
            planned = _plan(config, file_sets, answer.body)
            try:
                written = apply_pull(config.root, planned)
            except OSError as error:
                raise LocalFileError(f"cannot write {error.filename}: {error.strerror}") from None
            if not past:
                state.remember(format_name, pull_record(answer.etag, languages, planned))
                state.save()
            unchanged = len(planned) - len(written)
            results.append(
                {
                    "format": format_name,
                    "notModified": False,
                    "written": [{"path": item.path, "change": item.change} for item in written],
                    "unchanged": unchanged,
                }
            )
            if written:
                out.lines(report.pull_lines(written))
                out.say(f"{format_name}: {len(written)} file(s) written, {unchanged} unchanged")
            else:
                out.say(f"{format_name}: up to date")
    out.data({"formats": results})


def checks_report(config, out) -> None:
    """``status --checks``: the server's issue counts per check and language and the values
    waiting for a review; exits CHECKS_REFUSED when a check set to refuse has issues."""
    with _remote(config, out) as remote:
        answer = remote.checks()
    levels = answer.get("levels") or {}
    counts = answer["counts"]
    refusing = sorted({row["check"] for row in counts if levels.get(row["check"]) == "refuse"})
    if counts:
        out.say("Issues:")
        out.lines(
            [
                f"  {row['check']} ({levels.get(row['check'], 'warn')})  {row['language']}  {row['issues']}"
                for row in counts
            ]
        )
    else:
        out.say("No issues.")
    waiting = answer.get("needsReview") or []
    if waiting:
        out.say("Needs review: " + ", ".join(f"{row['language']} {row['values']}" for row in waiting))
    out.data({"levels": levels, "counts": counts, "needsReview": waiting, "refusing": refusing})
    if refusing:
        out.warn(f"checks set to refuse have issues: {', '.join(refusing)}")
        click.get_current_context().exit(CHECKS_REFUSED)


def review_report(config, out, languages) -> None:
    """``status --review``: the server's review queue, each value's file, key, language and
    why it waits; exits REVIEWS_WAITING when values wait for a review (``--language``: in
    those languages)."""
    total, values = 0, []
    with _remote(config, out) as remote:
        for language in languages or (None,):
            # One value at least: the answer's total counts them all.
            answer = remote.review_queue(language, max(REVIEWS_LISTED - len(values), 1))
            total += answer["total"]
            values = (values + answer["values"])[:REVIEWS_LISTED]
    if total:
        out.say(f"Waiting for a review: {total}")
        out.lines(report.review_lines(values))
        if total > len(values):
            out.say(f"  … and {total - len(values)} more")
    else:
        out.say("No values wait for a review.")
    out.data({"total": total, "values": values})
    if total:
        click.get_current_context().exit(REVIEWS_WAITING)


class _ListByDefault(click.Group):
    """A group whose first subcommand runs when no other is named (``loko tasks --state all``
    lists)."""

    default = "list"

    def parse_args(self, ctx, args):
        if not args or (args[0] not in self.commands and args[0] not in ("--help", "-h")):
            args = [self.default, *args]
        return super().parse_args(ctx, args)


@click.group("tasks", cls=_ListByDefault)
def tasks_command():
    """The project's tasks: list them (the default), make, close and reopen one."""


@tasks_command.command("list")
@client_options
@click.option(
    "--state",
    type=click.Choice(["open", "closed", "all"]),
    default="open",
    show_default=True,
    help="Which tasks to list.",
)
def tasks_list(config, out, state):
    """List the project's tasks: kind, language, progress, due date and assignees.

    Progress comes from the values themselves (a translate task is done when every key has a
    value, a review task when every value is reviewed)."""
    with _remote(config, out) as remote:
        tasks = remote.tasks(state)
    if not tasks:
        out.say("No tasks.")
    lines = []
    for task in tasks:
        done = task.get("progress") or {}
        people = ", ".join(person["name"] for person in task.get("assignees") or ()) or "nobody"
        due = f"  due {task['dueAt'][:10]}" if task.get("dueAt") else ""
        lines.append(
            f"{task['id']}  {task['title']}  {task['kind']} {task['language']}  {task['state']}  "
            f"{done.get('percent', 0)}% of {task['keyCount']} keys{due}  ({people})"
        )
    out.lines(lines)
    out.data({"tasks": tasks})


def _due(_ctx, _param, value: str | None) -> str | None:
    """``--due``: a date (the end of that day, UTC) or an ISO-8601 instant with its offset."""
    if not value:
        return None
    try:
        if len(value) == 10:
            return datetime.combine(date.fromisoformat(value), time(23, 59, 59), tzinfo=UTC).isoformat()
        instant = datetime.fromisoformat(value)
    except ValueError:
        raise click.BadParameter(f"{value!r} is not a date (2026-12-31) or an ISO-8601 instant.") from None
    if instant.tzinfo is None:
        raise click.BadParameter(f"{value!r}: give the instant's offset (Z or +02:00), or a date.")
    return instant.isoformat()


@tasks_command.command("create")
@client_options
@click.option("--kind", type=click.Choice(["translate", "review"]), required=True, help="The task's work.")
@click.option("--language", required=True, help="The language the task is in (de).")
@click.option("--title", help="The task's title (default: the kind and the language).")
@click.option("--description", default="", help="What the assignees should know.")
@click.option("--assignee", "assignees", multiple=True, help="An assignee's e-mail (repeat for more).")
@click.option("--due", callback=_due, help="When it is due: a date (its end, UTC) or an ISO-8601 instant.")
@click.option(
    "--key", "keys", multiple=True, help="A key's id (repeat); or choose keys by the filters below."
)
@click.option("--file", "file_name", help="Filter: keys of this file.")
@click.option("--search", help="Filter: keys whose name or a value contains this text.")
@click.option("--missing", help="Filter: keys without a value in this language.")
@click.option("--changed-since", "changed_since", help="Filter: keys changed since this date (2026-06-01).")
@click.option(
    "--needs-review", "needs_review", is_flag=True, help="Filter: keys with a value waiting for a review."
)
@click.option("--issues", help="Filter: keys a check found wrong (`any`, or a check's code).")
@click.option(
    "--screenshots", type=click.Choice(["with", "without"]), help="Filter: keys with or without one."
)
@click.option("--dry-run", is_flag=True, help="Count the keys and show the overlaps; make nothing.")
def tasks_create(config, out, kind, language, title, description, assignees, due, keys, dry_run, **filters):
    """Make a task over the keys the filters show (every key without one), or chosen ones.

    The keys are frozen now; keys already in another open task of the same kind and language
    are taken too and listed."""
    body = {
        "kind": kind,
        "language": language,
        "title": title or f"{kind.capitalize()} {language}",
        "description": description,
        "assigneeEmails": list(assignees),
        "dueAt": due,
        "dryRun": dry_run,
    }
    names = {"file_name": "fileName", "changed_since": "changedSince", "needs_review": "needsReview"}
    chosen = {names.get(name, name): value for name, value in filters.items() if value}
    if keys:
        if chosen:
            raise click.UsageError("Give --key or the filters, not both.")
        body["keys"] = list(keys)
    else:
        body["filter"] = chosen
    with _remote(config, out) as remote:
        made = remote.task_write("POST", "", body)
    task = made.get("task")
    if task is None:
        out.say(f"Dry run: the task would take {made['keyCount']} keys; nothing was made.")
    else:
        people = ", ".join(person["email"] for person in task.get("assignees") or ()) or "nobody"
        out.say(
            f"Task {task['id']}: {task['title']}  {task['kind']} {task['language']}  "
            f"{task['keyCount']} keys  ({people})"
        )
    for overlap in made.get("overlaps") or ():
        out.warn(
            f"{overlap['fileName']} {overlap['key']} is already in the open task {overlap['taskTitle']!r}"
        )
    out.data(made)


def _task_state_command(name: str, state: str, summary: str):
    @tasks_command.command(name, help=summary)
    @click.argument("task_id", metavar="ID")
    @client_options
    def set_state(config, out, task_id):
        with _remote(config, out) as remote:
            task = remote.task_write("PATCH", f"/{quote(task_id, safe='')}", {"state": state})["task"]
        out.say(f"Task {task['id']}: {task['title']}  {task['state']}")
        out.data({"task": task})

    return set_state


tasks_close = _task_state_command(
    "close", "closed", "Close the task ID: its assignees' temporary right to its keys ends."
)
tasks_reopen = _task_state_command("reopen", "open", "Open the closed task ID again.")


@click.command("status")
@client_options
@import_options
@language_option
@fail_on_diff_option
@click.option(
    "--checks",
    "show_checks",
    is_flag=True,
    help="Show the server's issue counts per check and language instead; exit 4 when a check "
    "set to refuse has issues.",
)
@click.option(
    "--review",
    "show_review",
    is_flag=True,
    help="List the server's values waiting for a review instead (file, key, language and why, "
    "in --language only if given); exit 5 when there are any.",
)
def status_command(config, out, mode, removed_keys, languages, fail_on_diff, show_checks, show_review):
    """Show what push and pull would change.

    A dry-run import tells what a push would change on the server; the export, compared
    byte by byte with the local files, what a pull would write. Changes nothing. With
    --checks: what the server's checks found; with --review: the values waiting for a
    review; both for CI."""
    if show_checks and show_review:
        raise click.UsageError("--checks and --review: one at a time")
    if show_checks:
        checks_report(config, out)
        return
    if show_review:
        review_report(config, out, languages)
        return
    _refuse_language_filter(config, languages)
    state = PullState.load(config.root, out.warn)
    uploads = _uploads(config, languages, out)
    pushes, pulls, different = [], [], False
    with _remote(config, out) as remote:
        for upload, result in _import_all(
            remote, uploads, mode=mode, removed_keys=removed_keys, dry_run=True, out=out
        ):
            pushes.append(result)
            if report.has_changes(result):
                different = True
                out.say("Push would change:")
                out.lines(report.import_lines(upload.file_set, len(upload.matches), result))
        source = _source_language(config, remote)
        for format_name, file_sets in _by_format(config.files).items():
            record = state.get(format_name)
            etag = record.etag_to_send(config.root, languages) if record else None
            answer = remote.export(format_name, languages, etag, source)
            planned = [] if answer.not_modified else _plan(config, file_sets, answer.body)
            to_write = [item for item in planned if item.change != "unchanged"]
            pulls.append(
                {"format": format_name, "files": [{"path": i.path, "change": i.change} for i in to_write]}
            )
            if to_write:
                different = True
                out.say(f"Pull would write ({format_name}):")
                out.lines(report.pull_lines(to_write))
    if not different:
        out.say("In sync: push and pull would change nothing.")
    out.data({"differences": different, "push": pushes, "pull": pulls})
    if fail_on_diff and different:
        click.get_current_context().exit(DIFFERENCES_FOUND)


# --- init ----------------------------------------------------------------------------------


def _ask(value, option: str, prompt: str, convert: Callable[[str], str], interactive: bool, default=None):
    """``value`` checked by ``convert``; when missing, asked for on a terminal, else the
    default, else a usage error."""
    if value is not None:
        try:
            return convert(value)
        except ValueError as error:
            raise click.BadParameter(str(error), param_hint=option) from None
    if not interactive:
        if default is not None:
            return convert(default)
        raise click.UsageError(f"missing {option} (there is no terminal to ask on)")

    def checked(text: str) -> str:
        try:
            return convert(text.strip())
        except ValueError as error:
            raise click.UsageError(str(error)) from None

    return click.prompt(prompt, default=default, value_proc=checked)


def _url_value(text: str) -> str:
    try:
        return check_url(text)
    except ConfigError as error:
        raise ValueError(error.message) from None


def _project_value(text: str) -> str:
    text = text.strip()
    if not text or "/" in text or not text.isprintable():
        raise ValueError(f"{text!r} is not a project id (the id in the project's address)")
    return text


def _template_value(text: str) -> str:
    try:
        PathTemplate(text, multilingual=not has_language(text))
    except TemplateError as error:
        raise ValueError(str(error)) from None
    return text


def _format_value(text: str) -> str:
    if text not in FORMAT_NAMES:
        raise ValueError(f"{text!r} is not one of {', '.join(FORMAT_NAMES)}")
    return text


def _language_value(text: str) -> str:
    try:
        return check_language(text)
    except TemplateError as error:
        raise ValueError(str(error)) from None


def _found_format(folder: Path, path_template: str) -> str | None:
    """The format of the first file here that the template finds, told as the server's
    import tells it (nested or flat JSON and YAML, XLIFF 1.2 or 2.0, by their content);
    without one, what the template's extension suggests."""
    suggested = format_of_path(path_template)
    try:
        multilingual = suggested is not None and is_multilingual(suggested)
        found = PathTemplate(path_template, multilingual=multilingual).find(folder)
        if found:
            return format_of_file(found[0].path, (folder / found[0].path).read_bytes()) or suggested
    except (TemplateError, OSError):
        pass
    return suggested


def _mentions_state_folder(gitignore: Path) -> bool:
    try:
        lines = gitignore.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return False
    return any(line.strip().strip("/") == STATE_FOLDER for line in lines)


@click.command("init")
@click.option("--url", help="The Loko server's address, e.g. https://loko.example.com.")
@click.option("--project", help="The project's id.")
@click.option(
    "--path",
    "path_template",
    help="Where the files are, e.g. locales/{language}/{fileName}.json; {locale} writes the language "
    "as pt_BR, {android} as pt-rBR.",
)
@click.option(
    "--format",
    "format_name",
    type=click.Choice(FORMAT_NAMES),
    help="Default: from the first file found (nested JSON or YAML, XLIFF 2.0), else the extension.",
)
@click.option("--source-language", help="The language the keys are written in, e.g. en.")
@click.option("--yes", "-y", is_flag=True, help="Ask nothing: a missing value is an error.")
@click.option("--force", is_flag=True, help=f"Replace an existing {TOML_NAME}.")
@output_options
def init_command(url, project, path_template, format_name, source_language, yes, force, json_output, quiet):
    """Write loko.toml in this folder.

    It names the server, the project and where the translation files are; what is missing
    is asked for on a terminal. The API key is never written to it."""
    out = Output(json_output, quiet)
    folder = Path.cwd()
    existing = [name for name in CONFIG_NAMES if (folder / name).exists()]
    if existing and not force:
        raise click.ClickException(f"{existing[0]} exists here: pass --force to replace it with {TOML_NAME}")
    interactive = not yes and stdin_is_terminal()
    url = _ask(
        url, "--url", "Server URL", _url_value, interactive, default=os.environ.get("LOKO_URL") or None
    )
    _warn_if_cleartext(url, out)
    project = _ask(
        project,
        "--project",
        "Project id",
        _project_value,
        interactive,
        os.environ.get("LOKO_PROJECT") or None,
    )
    path_template = _ask(
        path_template,
        "--path",
        "Where are the files (e.g. locales/{language}/{fileName}.json)",
        _template_value,
        interactive,
    )
    format_name = _ask(
        format_name,
        "--format",
        "Format",
        _format_value,
        interactive,
        default=_found_format(folder, path_template),
    )
    try:
        PathTemplate(path_template, multilingual=is_multilingual(format_name))
    except TemplateError as error:
        raise click.BadParameter(f"{error} (format {format_name})", param_hint="--path") from None
    if source_language is not None or interactive:
        source_language = _ask(
            source_language,
            "--source-language",
            "Source language",
            _language_value,
            interactive,
            default="en",
        )
    file_set = FileSet(path_template, format_name)
    (folder / TOML_NAME).write_text(config_toml(url, project, source_language, [file_set]), encoding="utf-8")
    found = len(file_set.template.find(folder))
    out.data(
        {
            "config": str(folder / TOML_NAME),
            "files": [{"path": path_template, "format": format_name}],
            "found": found,
        }
    )
    out.say(f"Wrote {TOML_NAME}: {format_name} files at {path_template} ({found} found here).")
    out.say("Set LOKO_API_KEY to an API key of the project (made on its API keys page);")
    out.say(f"it is never written to {TOML_NAME}.")
    if not _mentions_state_folder(folder / ".gitignore"):
        out.say(f"Add {STATE_FOLDER}/ to .gitignore: `loko pull` keeps its state there.")


COMMANDS = (init_command, push_command, pull_command, status_command, tasks_command)


@click.group("release")
def release_group():
    """The project's releases: named moments of its history (``loko pull --release NAME``
    writes the files as they were then)."""


@release_group.command("create")
@click.argument("name")
@client_options
@click.option("--as-of", "as_of", help="The moment: an ISO-8601 instant or an operation id (default: now).")
@click.option("--description", default="", help="What the release is.")
@click.option("--freeze-from", help="A string freeze begins (ISO-8601): source texts change only for admins.")
@click.option("--freeze-until", help="The string freeze ends (ISO-8601; open when left out).")
def release_create(config, out, name, as_of, description, freeze_from, freeze_until):
    """Name a moment of the project's history NAME (v1.2)."""
    body = {"name": name, "description": description}
    body.update(
        {
            field: value
            for field, value in (("asOf", as_of), ("freezeFrom", freeze_from), ("freezeUntil", freeze_until))
            if value
        }
    )
    with _remote(config, out) as remote:
        release = remote.releases("POST", body=body)["release"]
    out.say(f"Release {release['name']}: the project as of {release['at']}")
    out.data(release)


@release_group.command("list")
@client_options
def release_list(config, out):
    """The project's releases, newest first."""
    with _remote(config, out) as remote:
        listed = remote.releases()["releases"]
    for release in listed:
        frozen = "  (string freeze)" if release.get("frozen") else ""
        out.say(f"{release['name']}\t{release['at']}{frozen}")
    if not listed:
        out.say("No releases yet.")
    out.data({"releases": listed})


@release_group.command("delete")
@click.argument("name")
@client_options
def release_delete(config, out, name):
    """Delete the release NAME (its freeze ends; the history stays)."""
    with _remote(config, out) as remote:
        remote.releases("DELETE", f"/{quote(name, safe='')}")
    out.say(f"Deleted release {name}")
    out.data({"deleted": name})


@release_group.command("compare")
@click.argument("name")
@click.argument("other", required=False)
@client_options
def release_compare(config, out, name, other):
    """What changed from the release NAME to OTHER (another release; default: now)."""
    params = {"with": other} if other else None
    with _remote(config, out) as remote:
        result = remote.releases("GET", f"/{quote(name, safe='')}/compare", params=params)
    keys = result["keys"]
    out.say(f"{name} -> {other or 'now'}: {keys['addedCount']} key(s) added, {keys['removedCount']} removed")
    for language, changes in result["languages"].items():
        counts = changes["counts"]
        out.say(f"  {language}: +{counts['added']} -{counts['removed']} ~{counts['changed']}")
    out.data(result)


@click.group()
def client_main():
    """Loko's pipeline commands (the same as in ``loko``, without the server's code)."""


for _command in (
    init_command,
    push_command,
    pull_command,
    status_command,
    repohost_group,
    tasks_command,
    release_group,
):
    client_main.add_command(_command)
