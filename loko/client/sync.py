"""The local side of push and pull: which files a push sends, and where the files of an
export go. Nothing here talks to the server; a pull is planned in full (every entry
placed and checked) before a single file is written."""

import os
import shutil
from dataclasses import dataclass
from pathlib import Path

from loko.client import archive
from loko.client.config import FileSet
from loko.client.state import PullRecord, digest
from loko.client.templates import Match, TemplateError

NEW, CHANGED, UNCHANGED = "new", "changed", "unchanged"


class PullError(ValueError):
    """An export that cannot be placed: an unsafe entry, two entries for one path, a path
    outside the folder."""


@dataclass(frozen=True)
class Upload:
    """The files of one ``[[files]]`` entry, packed for one import request."""

    file_set: FileSet
    matches: tuple[Match, ...]
    archive: bytes


def local_files(root: Path, file_set: FileSet, languages: tuple[str, ...] | None) -> list[Match]:
    """The files the entry's template matches, in ``languages`` when given (a multilingual
    file holds every language, so it is always sent)."""
    matches = file_set.template.find(root)
    if languages is None or file_set.template.multilingual:
        return matches
    return [match for match in matches if match.language in languages]


def upload_of(root: Path, file_set: FileSet, matches: list[Match]) -> Upload:
    """One ZIP of the files, named by their paths relative to ``root``."""
    packed = archive.pack((match.path, (root / match.path).read_bytes()) for match in matches)
    return Upload(file_set, tuple(matches), packed)


@dataclass(frozen=True)
class PlannedFile:
    """A file of the export at its local path, and how it differs from what is there."""

    path: str
    data: bytes
    change: str


def _inside(root: Path, path: str) -> Path:
    """``root / path``, after checking that it stays inside ``root`` once links are followed."""
    target = root / path
    real_root = os.path.realpath(root)
    if os.path.commonpath([real_root, os.path.realpath(target)]) != real_root:
        raise PullError(f"{path} leads outside {root}: not written")
    return target


def _change(target: Path, data: bytes) -> str:
    try:
        current = target.read_bytes()
    except FileNotFoundError:
        return NEW
    except IsADirectoryError:
        raise PullError(f"{target} is a folder: the export has a file there") from None
    return UNCHANGED if current == data else CHANGED


def _held_file_names(root: Path, file_sets: list[FileSet]) -> list[set[str]]:
    """Per entry, the ``{fileName}`` texts of the local files its template finds, in any
    language."""
    return [{match.file_name for match in file_set.template.find(root)} for file_set in file_sets]


def plan_pull(root: Path, file_sets: list[FileSet], export_archive: bytes) -> list[PlannedFile]:
    """Every file of the export at its local path, sorted by path; PullError when any entry is
    unsafe or two land on one path with different bytes.

    ``file_sets`` are the entries of the export's format. A project file goes to each entry
    under whose template it exists locally (in any language), and one found under none goes
    to the first entry, so each entry receives only its own files and a new file has one
    place to go."""
    try:
        entries = archive.unpack(export_archive)
    except archive.ArchiveError as error:
        raise PullError(str(error)) from None
    held = _held_file_names(root, file_sets) if len(file_sets) > 1 else None
    placed: dict[str, bytes] = {}
    for name, data in entries:
        try:
            places = [file_set.template.export_entry(name, file_set.extension) for file_set in file_sets]
            owners = [
                index
                for index, (_language, file_name) in enumerate(places)
                if held is None or file_name in held[index]
            ]
            paths = [file_sets[index].template.path_for(*places[index]) for index in owners or [0]]
        except TemplateError as error:
            raise PullError(str(error)) from None
        for path in paths:
            if placed.get(path, data) != data:
                raise PullError(f"two files of the export go to {path}: check the path templates")
            placed[path] = data
    return [
        PlannedFile(path, data, _change(_inside(root, path), data)) for path, data in sorted(placed.items())
    ]


def write_file(target: Path, data: bytes) -> None:
    """Write ``data`` at ``target``; an existing file is replaced whole (through a temporary
    file beside it, keeping its permissions), so it is never left half written."""
    target.parent.mkdir(parents=True, exist_ok=True)
    if not target.exists():
        target.write_bytes(data)
        return
    temporary = target.with_name(f".{target.name}.loko-tmp")
    try:
        temporary.write_bytes(data)
        shutil.copymode(target, temporary)
        os.replace(temporary, target)
    finally:
        temporary.unlink(missing_ok=True)


def apply_pull(root: Path, planned: list[PlannedFile]) -> list[PlannedFile]:
    """Write the files whose bytes differ (others keep their modification time); returns them."""
    written = [planned_file for planned_file in planned if planned_file.change != UNCHANGED]
    for planned_file in written:
        write_file(_inside(root, planned_file.path), planned_file.data)
    return written


def pull_record(
    etag: str | None, languages: tuple[str, ...] | None, planned: list[PlannedFile]
) -> PullRecord:
    return PullRecord(etag, languages, {item.path: digest(item.data) for item in planned})
