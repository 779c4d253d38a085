"""The screenshots a project inherits through its link (``linked_project_id``: a brand or
regional variant that stores only its overrides): a key that no active screenshot of the
project shows is shown on the linked project's active screenshots of the same key (the same
file and key name, active there), as the project inherits that project's values.

Who sees them is ``policy.VIEW_INHERITED_SCREENSHOTS``: whoever sees the project's own. So
their images are served through the project's own path (``/api/projects/{project}/
screenshots/{linked project's screenshot}/image``), which every such caller may fetch (a key
of the project among them), and ``lent_screenshot`` says which of the linked project's
screenshots that path serves: those that show a key of the project."""

from sqlalchemy import and_, exists, or_, select
from sqlalchemy.orm import aliased

from loko.extensions import db
from loko.projects.models import Project
from loko.screenshots.models import Screenshot, ScreenshotRegion
from loko.translations.models import Translation


def linked_project(project_id: str):
    """The id of the project's linked project, as a scalar subquery (NULL without a link)."""
    return select(Project.linked_project_id).where(Project.id == project_id).scalar_subquery()


def _linked_key(project_id: str, translation_id: str):
    """The ids of the linked project's active key of the same file and key name as the
    project's key ``translation_id`` (none or one)."""
    mine, theirs = aliased(Translation), aliased(Translation)
    return (
        select(theirs.id)
        .join(mine, and_(mine.file_name == theirs.file_name, mine.key == theirs.key))
        .where(
            mine.id == translation_id,
            mine.project_id == project_id,
            theirs.project_id == linked_project(project_id),
            theirs.deleted_at.is_(None),
        )
    )


def shows_key(project_id: str, translation_id: str):
    """The condition on ``Screenshot`` joined with ``ScreenshotRegion`` for the regions that
    show the project's key: its own, or the linked project's of that key when no active
    screenshot of the project shows it."""
    own_shot, own_region = aliased(Screenshot), aliased(ScreenshotRegion)
    has_own = (
        exists()
        .where(
            own_region.translation_id == translation_id,
            own_shot.id == own_region.screenshot_id,
            own_shot.project_id == project_id,
            own_shot.deleted_at.is_(None),
        )
        .correlate_except(own_shot, own_region)
    )
    return or_(
        and_(Screenshot.project_id == project_id, ScreenshotRegion.translation_id == translation_id),
        and_(
            ~has_own,
            Screenshot.project_id == linked_project(project_id),
            ScreenshotRegion.translation_id.in_(_linked_key(project_id, translation_id)),
        ),
    )


def image_urls(project_id: str, screenshot_id: str) -> dict:
    """The image, thumbnail and preview of a screenshot as served through ``project_id``."""
    base = f"/api/projects/{project_id}/screenshots/{screenshot_id}/image"
    return {"image": base, "thumbnail": base + "?size=thumbnail", "preview": base + "?size=preview"}


def lent_screenshot(project_id: str, screenshot_id: str) -> Screenshot | None:
    """The linked project's screenshot ``screenshot_id`` when the project's path serves it:
    active, showing a key the project has (active in both); None otherwise (for the
    project's own screenshots too)."""
    screenshot = db.session.get(Screenshot, screenshot_id)
    if screenshot is None or screenshot.project_id == project_id or screenshot.deleted_at is not None:
        return None
    mine, theirs = aliased(Translation), aliased(Translation)
    shared = db.session.scalar(
        select(
            exists()
            .where(
                ScreenshotRegion.screenshot_id == screenshot.id,
                theirs.id == ScreenshotRegion.translation_id,
                theirs.project_id == screenshot.project_id,
                theirs.deleted_at.is_(None),
                mine.project_id == project_id,
                mine.file_name == theirs.file_name,
                mine.key == theirs.key,
                mine.deleted_at.is_(None),
            )
            .where(linked_project(project_id) == screenshot.project_id)
        )
    )
    return screenshot if shared else None


def lent_keys(project_id: str, translation_ids: list[str], linked_project_id: str | None = None) -> dict:
    """``{linked project's key id: project's key id}`` for those of the project's active keys
    ``translation_ids`` that the linked project has too (the same file and key name, active
    there), in one query; empty without a link. ``linked_project_id``, when the caller knows
    it, spares the read of the link."""
    if not translation_ids:
        return {}
    mine, theirs = aliased(Translation), aliased(Translation)
    linked = linked_project_id if linked_project_id is not None else linked_project(project_id)
    rows = db.session.execute(
        select(theirs.id, mine.id)
        .join(mine, and_(mine.file_name == theirs.file_name, mine.key == theirs.key))
        .where(
            mine.id.in_(translation_ids),
            mine.project_id == project_id,
            mine.deleted_at.is_(None),
            theirs.project_id == linked,
            theirs.deleted_at.is_(None),
        )
    )
    return dict(rows.all())


def keys_lent_pictures(project_id: str):
    """A query of the ids of the project's active keys whose linked key an active screenshot
    of the linked project shows."""
    mine, theirs = aliased(Translation), aliased(Translation)
    return (
        select(mine.id)
        .join(theirs, and_(mine.file_name == theirs.file_name, mine.key == theirs.key))
        .join(ScreenshotRegion, ScreenshotRegion.translation_id == theirs.id)
        .join(Screenshot, Screenshot.id == ScreenshotRegion.screenshot_id)
        .where(
            mine.project_id == project_id,
            mine.deleted_at.is_(None),
            theirs.project_id == linked_project(project_id),
            theirs.deleted_at.is_(None),
            Screenshot.project_id == linked_project(project_id),
            Screenshot.deleted_at.is_(None),
        )
        .distinct()
    )
