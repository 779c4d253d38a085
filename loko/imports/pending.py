"""Imports from the web page: a dry run first, its upload kept in the database for the person
who made it, then imported as it was checked when they confirm, without choosing the file
again. A kept upload answers only to that user in that project, for an hour, and once."""

import dataclasses
from contextlib import suppress
from dataclasses import dataclass
from datetime import timedelta

import orjson
from sqlalchemy import delete, select

from loko.auth import policy
from loko.database import new_id, unit_of_work, utcnow
from loko.errors import NotFound
from loko.extensions import db
from loko.formats.registry import detect_format
from loko.imports.files import is_zip
from loko.imports.models import PendingImport
from loko.imports.service import CHANGED_SINCE_PREVIEW, ChangedSincePreview, ImportOptions, import_files
from loko.projects.service import ProjectView

PENDING_LIFETIME = timedelta(hours=1)
STALE = "This import has expired or was already confirmed or cancelled: upload the file again."
KEPT_OPTIONS = tuple(f.name for f in dataclasses.fields(ImportOptions) if f.name != "dry_run")


@dataclass(frozen=True)
class Preview:
    """A dry run's diff and, when it would change something, the id to confirm it by."""

    diff: dict
    pending_id: str | None


def open_import(actor, project_id: str) -> ProjectView:
    """The project, for a caller who may import into it (canEditTranslations); Forbidden or
    NotFound otherwise."""
    project, permissions = policy.authorize(actor, project_id, policy.EDIT_TRANSLATIONS)
    return ProjectView(project, permissions)


def upload_options(query: dict, upload_name: str, data: bytes) -> ImportOptions:
    """The options of an upload from the import form (``query`` as ``ImportQuery`` loads it).

    A single file is named after the uploaded file (without its format's extension) unless
    a name is given; a given name is taken as it is, so the format is then detected from
    the uploaded file's name rather than from it."""
    file_name, format = query.get("fileName"), query.get("format")
    if not is_zip(data):
        if file_name is None:
            file_name = upload_name or None
        elif format is None and upload_name:
            format = detect_format(upload_name, data)
    return ImportOptions(
        format=format,
        language=query.get("language"),
        file_name=file_name,
        path_template=query.get("pathTemplate"),
        mode=query["mode"],
        removed_keys=query["removedKeys"],
        tag=query.get("tag"),
    )


def would_change(diff: dict) -> bool:
    summary = diff["summary"]
    return bool(
        summary["created"]
        or summary["updated"]
        or summary["trashed"]
        or summary["removed"]
        or summary["notes"]
    )


class PreviewChanged(Exception):
    """The project changed between a preview and its confirmation so that the import would
    now do something else (``ChangedSincePreview``): nothing was imported, and ``preview`` is
    the upload's new dry run (kept again to be confirmed when it would change anything). Not
    a LokoError: the page shows the new preview rather than a refusal."""

    def __init__(self, preview: "Preview"):
        super().__init__(CHANGED_SINCE_PREVIEW)
        self.message, self.preview = CHANGED_SINCE_PREVIEW, preview


def preview_import(actor, project_id: str, data: bytes, options: ImportOptions) -> Preview:
    """The dry run of an upload by a caller who may import (canEditTranslations); when it
    would change anything, the upload is kept to be confirmed. Raises what ``import_files``
    raises, having kept nothing."""
    policy.require_permission(actor, project_id, policy.EDIT_TRANSLATIONS)
    diff = import_files(actor, project_id, data, dataclasses.replace(options, dry_run=True, expected=None))
    kept = dataclasses.replace(options, expected=diff["digest"])
    pending_id = keep_pending(actor, project_id, data, kept) if would_change(diff) else None
    return Preview(diff, pending_id)


def confirm_import(actor, project_id: str, pending_id: str) -> dict:
    """Import a kept upload with the options of its dry run; returns the diff. NotFound
    when it is not this user's in this project, is over an hour old or was already used;
    PreviewChanged, having imported nothing, when the import would no longer do exactly what
    its preview showed (someone edited the project in between)."""
    data, options = take_pending(actor, project_id, pending_id)
    with suppress(ChangedSincePreview):
        return import_files(actor, project_id, data, dataclasses.replace(options, dry_run=False))
    raise PreviewChanged(preview_import(actor, project_id, data, options))


def keep_pending(actor, project_id: str, data: bytes, options: ImportOptions) -> str:
    """Keep an upload for its user to confirm; returns its id. Expired uploads of everyone
    are removed on the way."""
    user = policy.require_user(actor)
    now, pending_id = utcnow(), new_id()
    kept = {name: getattr(options, name) for name in KEPT_OPTIONS}
    with unit_of_work():
        db.session.execute(delete(PendingImport).where(PendingImport.created_at < now - PENDING_LIFETIME))
        db.session.add(
            PendingImport(
                id=pending_id,
                project_id=project_id,
                user_id=user.id,
                created_at=now,
                options=orjson.dumps(kept).decode(),
                data=data,
            )
        )
    return pending_id


def take_pending(actor, project_id: str, pending_id: str) -> tuple[bytes, ImportOptions]:
    """A kept upload and its options, removed as they are taken, so it is imported at most
    once; NotFound when it is another user's or project's, unknown, used or expired (an
    expired one is removed too)."""
    user = policy.require_user(actor)
    with unit_of_work():
        row = db.session.execute(
            select(PendingImport.created_at, PendingImport.options, PendingImport.data).where(
                PendingImport.id == pending_id,
                PendingImport.user_id == user.id,
                PendingImport.project_id == project_id,
            )
        ).first()
        # Of two confirmations at once, only the one whose delete removed the row goes on.
        taken = row is not None and _delete(pending_id, user.id, project_id) == 1
    if not taken or row.created_at < utcnow() - PENDING_LIFETIME:
        raise NotFound(STALE)
    stored = orjson.loads(row.options)
    return row.data, ImportOptions(**{name: stored[name] for name in KEPT_OPTIONS if name in stored})


def discard_pending(actor, project_id: str, pending_id: str) -> None:
    """Forget a kept upload of this user (cancelling twice is no error)."""
    user = policy.require_user(actor)
    with unit_of_work():
        _delete(pending_id, user.id, project_id)


def _delete(pending_id: str, user_id: str, project_id: str) -> int:
    return db.session.execute(
        delete(PendingImport).where(
            PendingImport.id == pending_id,
            PendingImport.user_id == user_id,
            PendingImport.project_id == project_id,
        )
    ).rowcount
