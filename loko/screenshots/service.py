"""Screenshots' use cases: upload (several at once, all or none), list (a key's too), show
one with its regions, serve its image, delete it to the trash and restore it; draw, move,
confirm and delete the region of a key on it.

Images are read by ``images.prepare`` before anything is written, and stored by content
(``ImageStore``) in the data folder: the same picture is stored once, and uploading it again
to a project answers the screenshot it already has. The files are written before the
transaction commits and removed if it does not.

A deleted screenshot goes to the trash with its regions (``deleted_at``): it is left out of
every list, page, count and picture, and its image is not served, until it is restored or
purged (``LOKO_TRASH_RETENTION_DAYS`` after, as keys; or at once with ``permanent``). A
trashed screenshot still counts towards ``LOKO_SCREENSHOTS_PER_PROJECT`` (its files are kept),
so a restore never goes past the limit. Uploading the picture of a trashed screenshot again
restores that screenshot, with its regions. The image files go after the commit that purged
the last screenshot, in the trash or not, naming them."""

import base64
import logging
from dataclasses import dataclass
from datetime import timedelta

from flask import current_app
from sqlalchemy import delete, func, select

from loko.auth import policy
from loko.database import unit_of_work, utcnow
from loko.errors import BadRequest, Conflict, NotFound, PayloadTooLarge
from loko.extensions import db
from loko.jobs.service import enqueue
from loko.screenshots import inherited, ocr
from loko.screenshots.images import MEDIA_TYPES, ImageRefused, crop_for_model, prepare
from loko.screenshots.models import CONFIRMED, MAX_NAME, Screenshot, ScreenshotRegion
from loko.screenshots.storage import ORIGINAL, ImageStore
from loko.translations.models import Translation

log = logging.getLogger(__name__)
SCREENSHOT_NOT_FOUND = "screenshotId: no screenshot with this id in this project."
REGION_NOT_FOUND = "regionId: no region with this id on this screenshot."
KEY_NOT_FOUND = "translationId: no translation with this id in this project."
TRASHED = "translationId: the key is in the trash; restore it to place it on a screenshot."
ALREADY_TRASHED = "screenshotId: the screenshot is already in the trash."
NOT_IN_TRASH = "screenshotId: the screenshot is not in the trash."
MOST_FILES = 20  # images in one upload
OCR = "screenshot-ocr"  # the job that proposes regions from the text on a screenshot


@dataclass(frozen=True)
class Limits:
    max_bytes: int
    max_pixels: int
    per_project: int

    @classmethod
    def of_app(cls) -> "Limits":
        config = current_app.config
        return cls(
            max_bytes=config["LOKO_SCREENSHOT_MAX_MB"] * 1024 * 1024,
            max_pixels=config["LOKO_SCREENSHOT_MAX_PIXELS"],
            per_project=config["LOKO_SCREENSHOTS_PER_PROJECT"],
        )


def image_store() -> ImageStore:
    return ImageStore(current_app.config["LOKO_SCREENSHOTS_DIR"])


def require_room(project_id: str, new: int, limits: Limits, field: str) -> None:
    """BadRequest naming ``field`` when ``new`` more screenshots would take the project past
    its limit (LOKO_SCREENSHOTS_PER_PROJECT; those in the trash count)."""
    count = db.session.scalar(
        select(func.count()).select_from(Screenshot).where(Screenshot.project_id == project_id)
    )
    if count + new > limits.per_project:
        raise BadRequest(
            f"{field}: the project would have {count + new:,} screenshots; at most "
            f"{limits.per_project:,} (LOKO_SCREENSHOTS_PER_PROJECT)."
        )


def _who(screenshot: Screenshot) -> dict:
    return {
        "type": screenshot.created_by_type,
        "id": screenshot.created_by_id,
        "name": screenshot.created_by_name,
    }


def describe(screenshot: Screenshot, regions: int) -> dict:
    """A screenshot as the API shows it (``regions``: how many keys' regions it has)."""
    base = f"/api/projects/{screenshot.project_id}/screenshots/{screenshot.id}/image"
    return {
        "id": screenshot.id,
        "name": screenshot.name,
        "mediaType": MEDIA_TYPES[screenshot.format],
        "width": screenshot.width,
        "height": screenshot.height,
        "size": screenshot.size,
        "sha256": screenshot.sha256,
        "createdAt": screenshot.created_at,
        "createdBy": _who(screenshot),
        "regions": regions,
        "urls": {"image": base, "thumbnail": base + "?size=thumbnail", "preview": base + "?size=preview"},
        "deletedAt": screenshot.deleted_at,
    }


def describe_region(region: ScreenshotRegion, key: Translation) -> dict:
    return {
        "id": region.id,
        "screenshotId": region.screenshot_id,
        "translationId": region.translation_id,
        "key": key.key,
        "fileName": key.file_name,
        "x": region.x,
        "y": region.y,
        "width": region.width,
        "height": region.height,
        "state": region.state,
        "createdAt": region.created_at,
    }


def _name(actor) -> str:
    return (actor.name or getattr(actor, "email", "") or actor.kind)[:128]


def clean_name(name: str | None, image_format: str, index: int) -> str:
    """An upload's file name as shown: its last path part, without control characters, at
    most MAX_NAME characters; ``screenshot-N.ext`` when none is left."""
    base = (name or "").replace("\\", "/").rsplit("/", 1)[-1]
    base = "".join(ch for ch in base if ch.isprintable()).strip()[:MAX_NAME]
    return base or f"screenshot-{index + 1}.{image_format.lower().replace('jpeg', 'jpg')}"


def _region_counts(ids: list[str]) -> dict[str, int]:
    if not ids:
        return {}
    rows = db.session.execute(
        select(ScreenshotRegion.screenshot_id, func.count())
        .where(ScreenshotRegion.screenshot_id.in_(ids))
        .group_by(ScreenshotRegion.screenshot_id)
    )
    return dict(rows.all())


def upload_screenshots(actor, project_id: str, uploads: list[tuple[str | None, bytes]]) -> list[dict]:
    """Store ``uploads`` (``(file name, bytes)``) as screenshots of the project, all or none:
    each image is read and checked first (a refusal names ``files[N]`` and stores nothing).
    Each answer says whether it ``created`` a screenshot or found the project's own copy of
    that picture (brought back from the trash, with its regions, when it was there: ``restored``).
    Trashed screenshots count towards the project's limit."""
    policy.require_permission(actor, project_id, policy.MANAGE_SCREENSHOTS)
    if not uploads:
        raise BadRequest("files: send at least one image (PNG, JPEG or WebP).")
    if len(uploads) > MOST_FILES:
        raise BadRequest(f"files: at most {MOST_FILES} images in one upload, not {len(uploads)}.")
    limits = Limits.of_app()
    prepared = []
    for index, (name, data) in enumerate(uploads):
        if len(data) > limits.max_bytes:
            raise PayloadTooLarge(
                f"files[{index}]: {len(data):,} bytes; an image may be up to "
                f"{limits.max_bytes // (1024 * 1024)} MiB (LOKO_SCREENSHOT_MAX_MB)."
            )
        try:
            image = prepare(data, limits.max_pixels)
        except ImageRefused as refused:
            raise BadRequest(f"files[{index}]: {refused}") from None
        prepared.append((clean_name(name, image.format, index), image))
    store, written = image_store(), []
    try:
        with unit_of_work():
            policy.require_permission(actor, project_id, policy.MANAGE_SCREENSHOTS)
            hashes = {image.sha256 for _, image in prepared}
            existing = {
                screenshot.sha256: screenshot
                for screenshot in db.session.scalars(
                    select(Screenshot).where(
                        Screenshot.project_id == project_id, Screenshot.sha256.in_(hashes)
                    )
                )
            }
            require_room(project_id, len(hashes - set(existing)), limits, "files")
            answers, created, restored = [], {}, set()
            now = utcnow()
            for name, image in prepared:
                # The files are written unless there (a picture uploaded again brings back
                # files a deletion elsewhere removed meanwhile).
                written += store.save(image)
                screenshot = existing.get(image.sha256) or created.get(image.sha256)
                if screenshot is not None and screenshot.deleted_at is not None:
                    screenshot.deleted_at = None
                    restored.add(screenshot.id)
                if screenshot is None:
                    screenshot = Screenshot(
                        project_id=project_id,
                        name=name,
                        sha256=image.sha256,
                        format=image.format,
                        width=image.width,
                        height=image.height,
                        size=len(image.data),
                        created_at=now,
                        created_by_type=actor.kind,
                        created_by_id=actor.id,
                        created_by_name=_name(actor),
                    )
                    db.session.add(screenshot)
                    created[image.sha256] = screenshot
                    answers.append((screenshot, True))
                else:
                    answers.append((screenshot, False))
            db.session.flush()
            if ocr.available():
                for screenshot in created.values():
                    enqueue(OCR, {"screenshotId": screenshot.id}, project_id=project_id)
            counts = _region_counts([screenshot.id for screenshot, _ in answers])
            return [
                {
                    **describe(screenshot, counts.get(screenshot.id, 0)),
                    "created": was_created,
                    "restored": screenshot.id in restored,
                }
                for screenshot, was_created in answers
            ]
    except BaseException:
        store.discard(written)
        raise


def list_screenshots(
    actor,
    project_id: str,
    translation_id: str | None = None,
    limit: int = 100,
    offset: int = 0,
    trashed: bool = False,
) -> dict:
    """The project's screenshots, newest first (those showing ``translation_id`` only,
    when given), a page at a time, with how many there are; with ``trashed``, those in the
    trash instead, the latest deleted first."""
    policy.require_permission(actor, project_id, policy.VIEW_SCREENSHOTS)
    query = select(Screenshot).where(
        Screenshot.project_id == project_id,
        Screenshot.deleted_at.is_not(None) if trashed else Screenshot.deleted_at.is_(None),
    )
    if translation_id is not None:
        _key(project_id, translation_id)
        query = query.where(
            Screenshot.id.in_(
                select(ScreenshotRegion.screenshot_id).where(
                    ScreenshotRegion.translation_id == translation_id
                )
            )
        )
    total = db.session.scalar(select(func.count()).select_from(query.subquery()))
    newest = Screenshot.deleted_at.desc() if trashed else Screenshot.created_at.desc()
    screenshots = list(db.session.scalars(query.order_by(newest, Screenshot.id).limit(limit).offset(offset)))
    counts = _region_counts([screenshot.id for screenshot in screenshots])
    return {
        "screenshots": [describe(screenshot, counts.get(screenshot.id, 0)) for screenshot in screenshots],
        "total": total,
    }


def _screenshot(project_id: str, screenshot_id: str, trashed: bool | None = False) -> Screenshot:
    """The project's screenshot, active (``trashed`` False), in the trash (True) or either
    (None); NotFound otherwise."""
    screenshot = db.session.get(Screenshot, screenshot_id)
    if screenshot is None or screenshot.project_id != project_id:
        raise NotFound(SCREENSHOT_NOT_FOUND)
    if trashed is not None and (screenshot.deleted_at is not None) != trashed:
        raise NotFound(SCREENSHOT_NOT_FOUND)
    return screenshot


def _key(project_id: str, translation_id: str) -> Translation:
    key = db.session.get(Translation, translation_id)
    if key is None or key.project_id != project_id:
        raise NotFound(KEY_NOT_FOUND)
    return key


def _regions(screenshot_id: str) -> list[dict]:
    rows = db.session.execute(
        select(ScreenshotRegion, Translation)
        .join(Translation, Translation.id == ScreenshotRegion.translation_id)
        .where(ScreenshotRegion.screenshot_id == screenshot_id)
        .order_by(ScreenshotRegion.y, ScreenshotRegion.x, ScreenshotRegion.id)
    )
    return [describe_region(region, key) for region, key in rows]


def get_screenshot(actor, project_id: str, screenshot_id: str) -> dict:
    """A screenshot with the regions of its keys, top to bottom."""
    policy.require_permission(actor, project_id, policy.VIEW_SCREENSHOTS)
    screenshot = _screenshot(project_id, screenshot_id)
    regions = _regions(screenshot.id)
    return {**describe(screenshot, len(regions)), "regionList": regions}


def screenshot_image(actor, project_id: str, screenshot_id: str, size: str = ORIGINAL):
    """``(path, media type, sha256)`` of a screenshot's image, thumbnail or preview."""
    policy.require_permission(actor, project_id, policy.VIEW_SCREENSHOTS)
    lent = inherited.lent_screenshot(project_id, screenshot_id)
    screenshot = lent or _screenshot(project_id, screenshot_id)
    path = image_store().path(screenshot.sha256, screenshot.format, size)
    if not path.is_file():
        raise NotFound("screenshotId: the image's file is missing from the data folder.")
    media_type = MEDIA_TYPES[screenshot.format] if size == ORIGINAL else "image/webp"
    return path, media_type, screenshot.sha256


def delete_screenshot(actor, project_id: str, screenshot_id: str, permanent: bool = False) -> None:
    """Move a screenshot to the trash with its regions, or with ``permanent`` delete it (from
    the trash or not) and its regions for good, its files once no screenshot names them;
    NotFound for an unknown id, Conflict when trashing one already in the trash."""
    with unit_of_work():
        policy.require_permission(actor, project_id, policy.MANAGE_SCREENSHOTS)
        screenshot = _screenshot(project_id, screenshot_id, trashed=None)
        if not permanent:
            if screenshot.deleted_at is not None:
                raise Conflict(ALREADY_TRASHED)
            screenshot.deleted_at = utcnow()
            return
        images = {(screenshot.sha256, screenshot.format)}
        db.session.execute(delete(Screenshot).where(Screenshot.id == screenshot.id))
    remove_unnamed(images)


def restore_screenshot(actor, project_id: str, screenshot_id: str) -> dict:
    """Bring a screenshot back from the trash with its regions (as ``get_screenshot``
    shows it); NotFound for an unknown id, Conflict when it is not in the trash."""
    with unit_of_work():
        policy.require_permission(actor, project_id, policy.MANAGE_SCREENSHOTS)
        screenshot = _screenshot(project_id, screenshot_id, trashed=None)
        if screenshot.deleted_at is None:
            raise Conflict(NOT_IN_TRASH)
        screenshot.deleted_at = None
        db.session.flush()
        regions = _regions(screenshot.id)
        return {**describe(screenshot, len(regions)), "regionList": regions}


def purge_expired_screenshots(retention_days: int) -> int:
    """Delete for good the screenshots (and their regions) in the trash for more than
    ``retention_days`` in every project (0: never), their files once no screenshot names
    them; how many went."""
    if retention_days <= 0:
        return 0
    cutoff = utcnow() - timedelta(days=retention_days)
    with unit_of_work():
        expired = db.session.execute(
            select(Screenshot.id, Screenshot.sha256, Screenshot.format).where(
                Screenshot.deleted_at.is_not(None), Screenshot.deleted_at < cutoff
            )
        ).all()
        ids = [row.id for row in expired]
        for start in range(0, len(ids), 500):
            db.session.execute(delete(Screenshot).where(Screenshot.id.in_(ids[start : start + 500])))
    remove_unnamed({(row.sha256, row.format) for row in expired})
    return len(expired)


def remove_unnamed(images: set[tuple[str, str]]) -> None:
    """Remove the files of the ``(sha256, format)`` images that no screenshot names, asked
    after the deletion's commit in a write transaction of its own: on SQLite an upload writes
    its files inside its own, so one that names a picture again either committed before this
    reads (its files stay) or waits until they are gone and writes them anew."""
    if not images:
        return
    store = image_store()
    with unit_of_work():
        hashes = sorted({sha256 for sha256, _ in images})
        named = set()
        for start in range(0, len(hashes), 500):  # SQLite's limit on bound parameters
            named |= set(
                db.session.scalars(
                    select(Screenshot.sha256).where(Screenshot.sha256.in_(hashes[start : start + 500]))
                )
            )
        for sha256, image_format in images:
            if sha256 in named:
                continue
            try:
                store.remove(sha256, image_format)
            except OSError as error:  # the deletion stands; a file left behind is only room
                log.warning("screenshot files of %s not removed: %s", sha256, error)


def _check_rectangle(screenshot: Screenshot, rectangle: dict) -> None:
    x, y, width, height = (rectangle[name] for name in ("x", "y", "width", "height"))
    if x + width > screenshot.width:
        raise BadRequest(f"width: x + width is {x + width}; the image is {screenshot.width} pixels wide.")
    if y + height > screenshot.height:
        raise BadRequest(f"height: y + height is {y + height}; the image is {screenshot.height} pixels high.")


def add_region(actor, project_id: str, screenshot_id: str, data: dict) -> dict:
    """Place an active key on the screenshot: a rectangle within the image."""
    with unit_of_work():
        policy.require_permission(actor, project_id, policy.MANAGE_SCREENSHOTS)
        screenshot = _screenshot(project_id, screenshot_id)
        key = _key(project_id, data["translationId"])
        if key.deleted_at is not None:
            raise Conflict(TRASHED)
        _check_rectangle(screenshot, data)
        region = ScreenshotRegion(
            screenshot_id=screenshot.id,
            translation_id=key.id,
            x=data["x"],
            y=data["y"],
            width=data["width"],
            height=data["height"],
            state=data.get("state", CONFIRMED),
            created_at=utcnow(),
        )
        db.session.add(region)
        db.session.flush()
        return describe_region(region, key)


def _region(screenshot_id: str, region_id: str) -> ScreenshotRegion:
    region = db.session.get(ScreenshotRegion, region_id)
    if region is None or region.screenshot_id != screenshot_id:
        raise NotFound(REGION_NOT_FOUND)
    return region


def update_region(actor, project_id: str, screenshot_id: str, region_id: str, changes: dict) -> dict:
    """Move or resize a region, confirm a proposed one, or give it another key."""
    with unit_of_work():
        policy.require_permission(actor, project_id, policy.MANAGE_SCREENSHOTS)
        screenshot = _screenshot(project_id, screenshot_id)
        region = _region(screenshot.id, region_id)
        if "translationId" in changes:
            key = _key(project_id, changes["translationId"])
            if key.deleted_at is not None:
                raise Conflict(TRASHED)
            region.translation_id = key.id
        rectangle = {name: changes.get(name, getattr(region, name)) for name in ("x", "y", "width", "height")}
        _check_rectangle(screenshot, rectangle)
        for name, value in rectangle.items():
            setattr(region, name, value)
        if "state" in changes:
            region.state = changes["state"]
        db.session.flush()
        return describe_region(region, _key(project_id, region.translation_id))


def delete_region(actor, project_id: str, screenshot_id: str, region_id: str) -> None:
    with unit_of_work():
        policy.require_permission(actor, project_id, policy.MANAGE_SCREENSHOTS)
        screenshot = _screenshot(project_id, screenshot_id)
        db.session.delete(_region(screenshot.id, region_id))


def key_named(actor, project_id: str, key: str, file_name: str) -> str:
    """The id of the project's active key ``key`` of ``file_name`` (the pages name keys);
    NotFound naming ``key`` otherwise."""
    policy.require_permission(actor, project_id, policy.VIEW_SCREENSHOTS)
    found = db.session.scalar(
        select(Translation.id).where(
            Translation.project_id == project_id,
            Translation.file_name == file_name,
            Translation.key == key,
            Translation.deleted_at.is_(None),
        )
    )
    if found is None:
        raise NotFound(f"key: no key {key!r} in the file {file_name!r}.")
    return found


def file_names(actor, project_id: str) -> list[str]:
    """The names of the files the project's active keys are in, sorted (the pages' choice)."""
    policy.require_permission(actor, project_id, policy.VIEW_SCREENSHOTS)
    rows = db.session.scalars(
        select(Translation.file_name)
        .where(Translation.project_id == project_id, Translation.deleted_at.is_(None))
        .distinct()
        .order_by(Translation.file_name)
    )
    return list(rows)


def key_screenshots(actor, project_id: str, translation_id: str, limit: int = 12) -> list[dict]:
    """The screenshots that show a key, newest first (at most ``limit``), each with that
    key's regions on it (the editor's details, MCP's get_translation). A key that none of
    the project's shows has its linked project's, as it inherits that project's values
    (``inherited``): marked ``inherited``, with URLs through this project's path."""
    policy.require_permission(actor, project_id, policy.VIEW_INHERITED_SCREENSHOTS)
    rows = db.session.execute(
        select(Screenshot, ScreenshotRegion)
        .join(ScreenshotRegion, ScreenshotRegion.screenshot_id == Screenshot.id)
        .where(inherited.shows_key(project_id, translation_id))
        .where(Screenshot.deleted_at.is_(None))
        .order_by(Screenshot.created_at.desc(), Screenshot.id, ScreenshotRegion.y, ScreenshotRegion.x)
    )
    shown: dict[str, dict] = {}
    for screenshot, region in rows:
        if screenshot.id not in shown:
            if len(shown) == limit:
                break
            shown[screenshot.id] = {**describe(screenshot, 0), "keyRegions": []}
            if screenshot.project_id != project_id:
                shown[screenshot.id] |= {
                    "inherited": True,
                    "urls": inherited.image_urls(project_id, screenshot.id),
                }
        shown[screenshot.id]["keyRegions"].append(
            {
                "x": region.x,
                "y": region.y,
                "width": region.width,
                "height": region.height,
                "state": region.state,
            }
        )
    return list(shown.values())


@dataclass(frozen=True)
class Picture:
    """A key's screenshot as a language model is sent it: a data URL, and a sentence for
    the prompt saying where the key is on it."""

    data_url: str
    note: str


def model_picture(project_id: str, translation_id: str) -> Picture | None:
    """The newest screenshot that shows the key (a confirmed region first; the linked
    project's when none of the project's shows it, as ``key_screenshots``), cropped around
    its region for a language model (``images.crop_for_model``); None without one. The
    caller has checked that the key may be seen."""
    row = db.session.execute(
        select(Screenshot, ScreenshotRegion)
        .join(ScreenshotRegion, ScreenshotRegion.screenshot_id == Screenshot.id)
        .where(inherited.shows_key(project_id, translation_id))
        .where(Screenshot.deleted_at.is_(None))
        .order_by((ScreenshotRegion.state == CONFIRMED).desc(), Screenshot.created_at.desc())
        .limit(1)
    ).first()
    return None if row is None else _picture_of(*row)


def _picture_of(screenshot: Screenshot, region: ScreenshotRegion) -> Picture | None:
    path = image_store().path(screenshot.sha256, screenshot.format)
    if not path.is_file():
        return None
    side = current_app.config["LOKO_SCREENSHOT_MODEL_SIDE"]
    data = crop_for_model(str(path), (region.x, region.y, region.width, region.height), side)
    note = (
        f"Screenshot: the image shows the screen where this text appears, cut from {screenshot.name} "
        f"({screenshot.width}x{screenshot.height} pixels); the text is inside the red rectangle "
        f"(x {region.x}, y {region.y}, {region.width}x{region.height} pixels). "
        "Fit the translation to that room."
    )
    return Picture("data:image/jpeg;base64," + base64.b64encode(data).decode("ascii"), note)


def keys_with_pictures(project_id: str) -> set[str]:
    """The ids of the project's keys that an active screenshot shows, the project's own or,
    through its link, the linked project's of the same key (two queries): those
    ``model_pictures`` has a picture for, but for a missing file."""
    rows = db.session.scalars(
        select(ScreenshotRegion.translation_id)
        .join(Screenshot, Screenshot.id == ScreenshotRegion.screenshot_id)
        .where(Screenshot.project_id == project_id, Screenshot.deleted_at.is_(None))
        .distinct()
    )
    return set(rows) | set(db.session.scalars(inherited.keys_lent_pictures(project_id)))


def model_pictures(project_id: str, translation_ids: list[str]) -> dict[str, Picture]:
    """``model_picture`` of each key in ``translation_ids`` that has one, read in one query
    (``{translation id: picture}``); the caller has checked that the keys may be seen."""
    chosen = _chosen_regions(project_id, translation_ids)
    # A key no screenshot of the project shows: the linked project's of the same key.
    lent = inherited.lent_keys(project_id, [key for key in translation_ids if key not in chosen])
    for linked_key, row in _chosen_regions(inherited.linked_project(project_id), list(lent)).items():
        chosen[lent[linked_key]] = row
    pictures = {key: _picture_of(*row) for key, row in chosen.items()}
    return {key: picture for key, picture in pictures.items() if picture is not None}


def _chosen_regions(project_id, translation_ids: list[str]) -> dict[str, tuple[Screenshot, ScreenshotRegion]]:
    """Each key's region to send a model (a confirmed one first, on the newest screenshot),
    on the active screenshots of ``project_id`` (an id or a scalar subquery), in one query."""
    if not translation_ids:
        return {}
    rows = db.session.execute(
        select(Screenshot, ScreenshotRegion)
        .join(ScreenshotRegion, ScreenshotRegion.screenshot_id == Screenshot.id)
        .where(
            Screenshot.project_id == project_id,
            Screenshot.deleted_at.is_(None),
            ScreenshotRegion.translation_id.in_(translation_ids),
        )
        .order_by(
            ScreenshotRegion.translation_id,
            (ScreenshotRegion.state == CONFIRMED).desc(),
            Screenshot.created_at.desc(),
        )
    )
    chosen: dict[str, tuple[Screenshot, ScreenshotRegion]] = {}
    for screenshot, region in rows:
        chosen.setdefault(region.translation_id, (screenshot, region))
    return chosen


def coverage(actor, project_id: str) -> dict:
    """How many screenshots the project has and, when it has any, how many of its active
    keys are on none (the overview)."""
    policy.require_permission(actor, project_id, policy.VIEW_SCREENSHOTS)
    active = Screenshot.deleted_at.is_(None)
    screenshots = db.session.scalar(
        select(func.count()).select_from(Screenshot).where(Screenshot.project_id == project_id, active)
    )
    if not screenshots:
        return {"screenshots": 0, "keysWithout": None}
    on_one = (
        select(ScreenshotRegion.id)
        .join(Screenshot, Screenshot.id == ScreenshotRegion.screenshot_id)
        .where(ScreenshotRegion.translation_id == Translation.id, active)
        .exists()
    )
    without = db.session.scalar(
        select(func.count())
        .select_from(Translation)
        .where(Translation.project_id == project_id, Translation.deleted_at.is_(None), ~on_one)
    )
    return {"screenshots": screenshots, "keysWithout": without}


def row_thumbnails(project_id: str, translation_ids: list[str], linked_project_id: str | None = None) -> dict:
    """``{translation id: {id, name, thumbnail, count, inherited}}`` for the keys on a
    screenshot: the one to show beside the key's row (the newest, the first of
    ``key_screenshots``) and how many screenshots show the key. One statement for a page of
    keys, and for a project linked to ``linked_project_id`` two more for its keys on none of
    the project's, shown on the linked project's (``inherited``); keys on none are left out.
    The caller (the editor's page) has checked that the keys may be seen, which is what
    seeing their screenshots takes (``policy.VIEW_SCREENSHOTS``)."""
    shown = _thumbnails(project_id, project_id, translation_ids)
    if linked_project_id is not None:
        lent = inherited.lent_keys(
            project_id, [key for key in translation_ids if key not in shown], linked_project_id
        )
        for linked_key, thumbnail in _thumbnails(project_id, linked_project_id, list(lent)).items():
            shown[lent[linked_key]] = {**thumbnail, "inherited": True}
    return shown


def _thumbnails(project_id: str, owner_id: str, translation_ids: list[str]) -> dict[str, dict]:
    """``row_thumbnails`` of the keys ``translation_ids`` of the project ``owner_id`` (the
    project's own, or its linked project's), with URLs through ``project_id``'s path."""
    if not translation_ids:
        return {}
    rows = db.session.execute(
        select(
            ScreenshotRegion.translation_id,
            Screenshot.id,
            Screenshot.name,
            Screenshot.created_at,
            Screenshot.project_id,
            Screenshot.deleted_at,
        )
        .join(Screenshot, Screenshot.id == ScreenshotRegion.screenshot_id)
        # By the keys' index alone: a condition on the screenshots lets a planner walk all of
        # the project's instead. A key's regions are on its project's screenshots; those in
        # the trash show nothing.
        .where(ScreenshotRegion.translation_id.in_(translation_ids))
    ).all()
    rows = [row for row in rows if row.project_id == owner_id and row.deleted_at is None]
    # The order of the key's details (newest first), so the row shows the first of them.
    rows.sort(key=lambda row: row.id)
    rows.sort(key=lambda row: row.created_at, reverse=True)
    shown: dict[str, dict] = {}
    seen: set[tuple[str, str]] = set()
    for translation_id, screenshot_id, name, *_ in rows:
        if (translation_id, screenshot_id) in seen:
            continue
        seen.add((translation_id, screenshot_id))
        if translation_id in shown:
            shown[translation_id]["count"] += 1
            continue
        urls = inherited.image_urls(project_id, screenshot_id)
        shown[translation_id] = {
            "id": screenshot_id,
            "name": name,
            "image": urls["image"],
            "thumbnail": urls["thumbnail"],
            "count": 1,
            "inherited": False,
        }
    return shown
