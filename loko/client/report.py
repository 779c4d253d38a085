"""What push, pull and status print for people: the counts, then each change. Colour is
added with click.style, which click.echo strips when the output is not a terminal."""

import json

import click

from loko.client.config import FileSet
from loko.client.sync import PlannedFile

COUNTS = ("created", "updated", "unchanged", "trashed", "conflicts")
CHANGES = ("created", "updated", "trashed", "conflicts", "notes")
MAX_VALUE_SHOWN = 80


def has_changes(result: dict) -> bool:
    """True when an import result creates, updates, trashes, leaves a conflict or changes a
    key's notes (comment, context or format details)."""
    summary = result.get("summary") or {}
    return any(summary.get(name) for name in CHANGES)


def _plain(text) -> str:
    """A name as it can be printed: control characters (a terminal's escapes) are shown escaped."""
    text = str(text)
    if text.isprintable():
        return text
    return json.dumps(text, ensure_ascii=False)[1:-1]


def _value(text) -> str:
    if text is None:
        return "(no value)"
    shown = json.dumps(str(text), ensure_ascii=False)
    if len(shown) > MAX_VALUE_SHOWN:
        shown = shown[: MAX_VALUE_SHOWN - 2] + '…"'
    return shown


def _where(item: dict) -> str:
    where = f"{_plain(item.get('fileName', '?'))}: {_plain(item.get('key', '?'))}"
    if item.get("language"):
        where += f" [{_plain(item['language'])}]"
    return where


def import_lines(file_set: FileSet, files_sent: int, result: dict) -> list[str]:
    """The counts of one import, then one line per change the server listed."""
    summary = result.get("summary") or {}
    counts = ", ".join(f"{summary.get(name, 0)} {name}" for name in COUNTS)
    if summary.get("notes"):
        counts += f", {summary['notes']} with notes changed"
    lines = [f"{file_set.path} ({file_set.format}): {files_sent} file(s) sent", f"  {counts}"]
    for item in result.get("created") or ():
        lines.append(f"  {click.style('+', fg='green')} {_where(item)} {_value(item.get('value'))}")
    for item in result.get("updated") or ():
        old, new = _value(item.get("old")), _value(item.get("new"))
        lines.append(f"  {click.style('~', fg='yellow')} {_where(item)} {old} -> {new}")
    for item in result.get("trashed") or ():
        lines.append(f"  {click.style('-', fg='red')} {_where(item)} (to the trash)")
    for item in result.get("conflicts") or ():
        current, incoming = _value(item.get("current")), _value(item.get("incoming"))
        lines.append(f"  {click.style('!', fg='magenta')} {_where(item)} server {current}, local {incoming}")
    for item in result.get("notes") or ():
        lines.append(f"  {click.style('*', fg='cyan')} {_where(item)} (comment, context or format details)")
    if result.get("truncated"):
        lines.append("  (the server listed only the first changes; the counts are complete)")
    return lines


def pull_lines(planned: list[PlannedFile]) -> list[str]:
    colours = {"new": "green", "changed": "yellow"}
    return [
        f"  {click.style(f'{item.change:<8}', fg=colours.get(item.change))} {_plain(item.path)}"
        for item in planned
        if item.change in colours
    ]


# Why a value waits for a review (the server's ``reason``), in words.
REVIEW_REASONS = {
    "source-changed": "source changed",
    "agent": "written by an agent",
    "pre-translated": "pre-translated",
    "machine-unedited": "machine translation saved unedited",
    "memory-unedited": "memory match saved unedited",
    "requested": "review requested",
    "undone": "undone after a review",
}


def _reason(reason) -> str:
    if reason is None:
        return "reason not recorded"
    return REVIEW_REASONS.get(reason, _plain(reason)) if isinstance(reason, str) else _plain(reason)


def review_lines(values: list[dict]) -> list[str]:
    """One line per value waiting for a review: file, key, language and why."""
    return [
        f"  {_plain(item.get('fileName'))}  {_plain(item.get('key'))}  [{_plain(item.get('language'))}]  "
        f"{_reason(item.get('reason'))}"
        for item in values
    ]


def screenshot_lines(folder: str, images: int, sidecar: bool, result: dict) -> list[str]:
    """The counts of a screenshots push, then each image's screenshot and each skipped region."""
    summary = result.get("summary") or {}
    with_sidecar = "with screenshots.json" if sidecar else "no screenshots.json"
    lines = [
        f"{_plain(folder)}: {images} image(s) sent, {with_sidecar}",
        f"  screenshots: {summary.get('screenshotsCreated', 0)} created, "
        f"{summary.get('screenshotsFound', 0)} found ({summary.get('screenshotsRestored', 0)} restored "
        f"from the trash); regions: {summary.get('regionsAdded', 0)} added, "
        f"{summary.get('regionsExisting', 0)} already there, {summary.get('regionsSkipped', 0)} skipped",
    ]
    for item in result.get("screenshots") or ():
        if item.get("created"):
            mark, what = click.style("+", fg="green"), "new screenshot"
        elif item.get("restored"):
            mark, what = click.style("^", fg="cyan"), "restored from the trash"
        else:
            mark, what = "=", "already in the project"
        regions = f", {item.get('regionsAdded', 0)} region(s) added" if item.get("regionsAdded") else ""
        lines.append(f"  {mark} {_plain(item.get('image', '?'))} ({what}{regions})")
    for item in result.get("skipped") or ():
        lines.append(
            f"  {click.style('!', fg='magenta')} {_plain(item.get('image', '?'))}: region of "
            f"{_where(item)} skipped: {_plain(item.get('message') or item.get('reason'))}"
        )
    return lines
