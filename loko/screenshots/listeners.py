"""The screenshots' listener to the core's events: a deleted project's image files go after
the deletion commits, unless a screenshot of another project still names them."""

import logging

from flask import current_app
from sqlalchemy import select

from loko import events
from loko.database import unit_of_work
from loko.extensions import db
from loko.screenshots.models import Screenshot
from loko.screenshots.storage import ImageStore

log = logging.getLogger(__name__)
CHUNK = 500  # hashes in one IN list (SQLite's limit on bound parameters)


def _chunks(items: list, size: int = CHUNK):
    for start in range(0, len(items), size):
        yield items[start : start + size]


def files_of_deleted_projects(project_ids: list[str]) -> events.AfterCommit | None:
    """The projects' pictures, read while their screenshots are still there; what removes
    those no screenshot names any more, once the deletion has committed."""
    pictures = dict(
        db.session.execute(
            select(Screenshot.sha256, Screenshot.format)
            .where(Screenshot.project_id.in_(project_ids))
            .distinct()
        ).all()
    )
    if not pictures:
        return None
    store = ImageStore(current_app.config["LOKO_SCREENSHOTS_DIR"])

    def remove_unnamed() -> None:
        # Asked again after the commit, in a write transaction: on SQLite an upload writes its
        # files inside its own, so one that names a picture again either committed before this
        # reads or waits until its files are gone and writes them anew.
        with unit_of_work():
            hashes = list(pictures)
            named = set()
            for chunk in _chunks(hashes):
                named.update(
                    db.session.scalars(select(Screenshot.sha256).where(Screenshot.sha256.in_(chunk)))
                )
            for sha256 in hashes:
                if sha256 in named:
                    continue
                try:
                    store.remove(sha256, pictures[sha256])
                except OSError as error:  # the deletion stands; a file left behind is only room
                    log.warning("screenshot files of %s not removed: %s", sha256, error)

    return remove_unnamed


def start_listening() -> None:
    events.listen_to_project_deletes(files_of_deleted_projects)
