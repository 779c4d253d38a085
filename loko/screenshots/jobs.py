"""The screenshots' background jobs: an uploaded screenshot read by OCR, and the keys whose
source texts it shows proposed as regions that a person confirms or deletes; and the trash's
purge, once a day, with the keys' retention (``LOKO_TRASH_RETENTION_DAYS``)."""

from datetime import timedelta

from flask import current_app
from sqlalchemy import insert, select

from loko.database import new_id, unit_of_work, utcnow
from loko.extensions import db
from loko.jobs.registry import handler
from loko.projects.models import Project
from loko.screenshots import ocr
from loko.screenshots.models import PROPOSED, Screenshot, ScreenshotRegion
from loko.screenshots.service import OCR, image_store, purge_expired_screenshots
from loko.translations.models import Translation, TranslationValue

PURGE_TRASH = "screenshots-purge-trash"


def source_texts(project_id: str) -> list[tuple[str, str]]:
    """``(translation id, text)`` of the project's active keys in its source language."""
    rows = db.session.execute(
        select(Translation.id, TranslationValue.value)
        .join(TranslationValue, TranslationValue.translation_id == Translation.id)
        .join(Project, Project.id == Translation.project_id)
        .where(
            Translation.project_id == project_id,
            Translation.deleted_at.is_(None),
            TranslationValue.language_code == Project.source_language,
        )
    )
    return [(translation_id, text) for translation_id, text in rows]


@handler(OCR)
def read_screenshot(_context, payload: dict) -> dict:
    """Read the screenshot's text and propose a region for each key whose source text is
    on it and that it does not show yet (idempotent: run again, it proposes nothing new)."""
    screenshot = db.session.get(Screenshot, payload["screenshotId"])
    if screenshot is None or screenshot.deleted_at is not None:
        return {"proposed": 0, "lines": 0, "note": "the screenshot was deleted"}
    if not ocr.available():
        return {"proposed": 0, "lines": 0, "note": "tesseract is not installed"}
    project_id, screenshot_id = screenshot.project_id, screenshot.id
    lines = ocr.read_lines(str(image_store().path(screenshot.sha256, screenshot.format)))
    found = ocr.match(lines, source_texts(project_id))
    with unit_of_work():
        shown = set(
            db.session.scalars(
                select(ScreenshotRegion.translation_id).where(ScreenshotRegion.screenshot_id == screenshot_id)
            )
        )
        now = utcnow()
        rows = [
            {
                "id": new_id(),
                "screenshot_id": screenshot_id,
                "translation_id": translation_id,
                "x": line.x,
                "y": line.y,
                "width": max(line.width, 1),
                "height": max(line.height, 1),
                "state": PROPOSED,
                "created_at": now,
            }
            for translation_id, line in found
            if translation_id not in shown
        ]
        if rows and db.session.get(Screenshot, screenshot_id) is not None:
            db.session.execute(insert(ScreenshotRegion), rows)
    return {"proposed": len(rows), "lines": len(lines)}


@handler(PURGE_TRASH, every=timedelta(days=1))
def purge_trash(_context, _payload: dict) -> dict:
    retention = current_app.config["LOKO_TRASH_RETENTION_DAYS"]
    return {"purged": purge_expired_screenshots(retention), "retentionDays": retention}
