"""The screenshots' listener to the core's events: a deleted project's image files go after
the deletion commits, unless a screenshot of another project still names them."""

from sqlalchemy import select

from loko import events
from loko.extensions import db
from loko.screenshots.models import Screenshot
from loko.screenshots.service import remove_unnamed


def files_of_deleted_projects(project_ids: list[str]) -> events.AfterCommit | None:
    """The projects' pictures, read while their screenshots are still there; what removes
    those no screenshot names any more, once the deletion has committed."""
    rows = db.session.execute(
        select(Screenshot.sha256, Screenshot.format).where(Screenshot.project_id.in_(project_ids)).distinct()
    )
    pictures = {(sha256, image_format) for sha256, image_format in rows}
    if not pictures:
        return None
    return lambda: remove_unnamed(pictures)


def start_listening() -> None:
    events.listen_to_project_deletes(files_of_deleted_projects)
