from sqlalchemy import ForeignKey, Index, Integer, String, UniqueConstraint

from loko.database import UTCDateTime, id_column, utcnow
from loko.extensions import db

REGION_STATES = ("confirmed", "proposed")
CONFIRMED, PROPOSED = REGION_STATES
MAX_NAME = 256


class Screenshot(db.Model):
    """A picture of the app, in a project: its image is stored once by the SHA-256 of its
    re-encoded bytes (``ImageStore``), with a thumbnail and a preview. A deleted screenshot
    goes to the trash (``deleted_at``) with its regions until it is restored or purged;
    deleting the project deletes its screenshots (their files go once no screenshot names
    them)."""

    __tablename__ = "screenshots"
    __table_args__ = (
        # One picture once per project: the same image uploaded again is the same screenshot.
        UniqueConstraint("project_id", "sha256", name="uq_screenshots_project_image"),
        Index("ix_screenshots_project_created", "project_id", "created_at"),
        Index("ix_screenshots_sha256", "sha256"),
        Index("ix_screenshots_deleted", "deleted_at"),
    )

    id = id_column()
    project_id = db.Column(String(36), ForeignKey("projects.id", ondelete="CASCADE"), nullable=False)
    name = db.Column(String(MAX_NAME), nullable=False)
    sha256 = db.Column(String(64), nullable=False)
    format = db.Column(String(8), nullable=False)  # PNG, JPEG or WEBP
    width = db.Column(Integer, nullable=False)
    height = db.Column(Integer, nullable=False)
    size = db.Column(Integer, nullable=False)  # bytes of the stored image
    created_at = db.Column(UTCDateTime, nullable=False, default=utcnow)
    created_by_type = db.Column(String(16), nullable=False)
    created_by_id = db.Column(String(36), nullable=True)
    created_by_name = db.Column(String(128), nullable=False)
    # When it went to the trash; None while it is active.
    deleted_at = db.Column(UTCDateTime, nullable=True)


class ScreenshotRegion(db.Model):
    """Where a key is shown on a screenshot: a rectangle in the image's pixels. A person
    draws it (``confirmed``), or it is found and waits for a person (``proposed``). It goes
    with its screenshot, and with its key when the key is purged (a key in the trash keeps
    it)."""

    __tablename__ = "screenshot_regions"
    __table_args__ = (
        Index("ix_screenshot_regions_screenshot", "screenshot_id"),
        Index("ix_screenshot_regions_translation", "translation_id"),
    )

    id = id_column()
    screenshot_id = db.Column(String(36), ForeignKey("screenshots.id", ondelete="CASCADE"), nullable=False)
    translation_id = db.Column(String(36), ForeignKey("translations.id", ondelete="CASCADE"), nullable=False)
    x = db.Column(Integer, nullable=False)
    y = db.Column(Integer, nullable=False)
    width = db.Column(Integer, nullable=False)
    height = db.Column(Integer, nullable=False)
    state = db.Column(String(16), nullable=False, default=CONFIRMED)
    created_at = db.Column(UTCDateTime, nullable=False, default=utcnow)
