"""A project's screenshots as one ZIP: the stored images under their names, and
``screenshots.json`` listing each image by its name in the ZIP with the regions of its keys,
each key named by ``fileName`` and ``key`` (ids mean nothing in another project).

The import is all or none: every member is read through the import's ZIP limits (members,
unpacked bytes, ratio, paths that leave the archive), every member but screenshots.json
through ``images.prepare`` with the upload's limits, and every region checked against its
image before anything is written. A picture the project already has is its screenshot
(brought back from the trash when it is there, as an upload does); a region it already has
(the same key and rectangle) is not added twice; a region whose key is not in the project (or
only in its trash) is skipped and reported, as the rest of the archive still fits. Images are
stored by ``ImageStore`` before the commit and removed if it fails, as uploads are."""

import contextlib
import hashlib
import itertools
import json
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path

import orjson
from marshmallow import ValidationError
from sqlalchemy import insert, select, update

from loko.auth import policy
from loko.database import new_id, read_snapshot, unit_of_work, utcnow
from loko.errors import BadRequest, NotFound, PayloadTooLarge, describe_validation
from loko.exports.writers import zip_stream
from loko.extensions import db
from loko.http import schema_instance
from loko.imports.files import is_zip, read_zip, zip_members
from loko.jobs.service import enqueue
from loko.screenshots import ocr
from loko.screenshots.images import EXTENSIONS, ImageRefused, PreparedImage, prepare
from loko.screenshots.models import Screenshot, ScreenshotRegion
from loko.screenshots.schemas import ARCHIVE_VERSION, ScreenshotArchiveManifest
from loko.screenshots.service import (
    OCR,
    Limits,
    _check_rectangle,
    _name,
    clean_name,
    image_store,
    require_room,
)
from loko.translations.models import Translation

MANIFEST = "screenshots.json"
MOST_IMAGES = 500  # images in one archive: each is decoded and encoded three times
MOST_REGIONS = 10_000  # regions in one screenshots.json
UNKNOWN_KEY, TRASHED_KEY = "unknown-key", "trashed-key"
RECTANGLE = ("x", "y", "width", "height")
SUFFIXES = {"PNG": (".png",), "JPEG": (".jpg", ".jpeg"), "WEBP": (".webp",)}


# --- export ----------------------------------------------------------------------------------


def _member_name(screenshot: Screenshot, taken: set[str]) -> str:
    """The screenshot's name as a ZIP member that the import takes back: no folder, drive or
    leading dot, an extension of its format, unique in the archive."""
    base = screenshot.name.replace("/", "_").replace("\\", "_").replace(":", "_").lstrip(". ")
    stem, suffix = base, "." + EXTENSIONS[screenshot.format]
    for known in SUFFIXES[screenshot.format]:
        if base.lower().endswith(known) and len(base) > len(known):
            stem, suffix = base[: -len(known)], base[-len(known) :]
    stem = stem or "screenshot"
    name, number = stem + suffix, 1
    while name.lower() in taken:
        number += 1
        name = f"{stem}-{number}{suffix}"
    taken.add(name.lower())
    return name


def _manifest_regions(project_id: str) -> dict[str, list[dict]]:
    """Each screenshot's regions with their keys' names, top to bottom, in one query."""
    rows = db.session.execute(
        select(
            ScreenshotRegion.screenshot_id,
            Translation.file_name,
            Translation.key,
            ScreenshotRegion.x,
            ScreenshotRegion.y,
            ScreenshotRegion.width,
            ScreenshotRegion.height,
            ScreenshotRegion.state,
        )
        .join(Screenshot, Screenshot.id == ScreenshotRegion.screenshot_id)
        .join(Translation, Translation.id == ScreenshotRegion.translation_id)
        .where(Screenshot.project_id == project_id, Screenshot.deleted_at.is_(None))
        .order_by(ScreenshotRegion.screenshot_id, ScreenshotRegion.y, ScreenshotRegion.x, ScreenshotRegion.id)
    )
    regions: dict[str, list[dict]] = {}
    for screenshot_id, file_name, key, x, y, width, height, state in rows:
        regions.setdefault(screenshot_id, []).append(
            {
                "fileName": file_name,
                "key": key,
                "x": x,
                "y": y,
                "width": width,
                "height": height,
                "state": state,
            }
        )
    return regions


@dataclass(frozen=True)
class ExportedArchive:
    manifest: dict  # screenshots.json
    images: list[tuple[str, Path]]  # (member name, path of the stored image)

    def chunks(self) -> Iterator[bytes]:
        """The ZIP, a member at a time: screenshots.json first, then each image read from the
        data folder as its turn comes."""
        text = json.dumps(self.manifest, ensure_ascii=False, indent=2).encode() + b"\n"
        members = ((name, path.read_bytes()) for name, path in self.images)
        return zip_stream(itertools.chain([(MANIFEST, text)], members))


def export_archive(actor, project_id: str) -> ExportedArchive:
    """The project's screenshots, oldest first, with their regions (``screenshots.json``)
    and where their images are; NotFound naming ``screenshotId`` when an image's file is
    missing from the data folder."""
    policy.require_permission(actor, project_id, policy.VIEW_SCREENSHOTS)
    read_snapshot()
    screenshots = db.session.scalars(
        select(Screenshot)
        .where(Screenshot.project_id == project_id, Screenshot.deleted_at.is_(None))
        .order_by(Screenshot.created_at, Screenshot.id)
    ).all()
    regions = _manifest_regions(project_id)
    store, taken, entries, images = image_store(), {MANIFEST}, [], []
    for screenshot in screenshots:
        path = store.path(screenshot.sha256, screenshot.format)
        if not path.is_file():
            raise NotFound(f"screenshotId: the image of {screenshot.id} is missing from the data folder.")
        member = _member_name(screenshot, taken)
        images.append((member, path))
        entries.append({"image": member, "name": screenshot.name, "regions": regions.get(screenshot.id, [])})
    manifest = schema_instance(ScreenshotArchiveManifest).dump(
        {"version": ARCHIVE_VERSION, "screenshots": entries}
    )
    return ExportedArchive(manifest, images)


# --- import ----------------------------------------------------------------------------------


def _read_members(data: bytes, limits: Limits) -> dict[str, bytes]:
    """The archive's members by name, read with the import's checks, none larger than an
    image may be, at most MOST_IMAGES images and one screenshots.json."""
    if not data:
        raise BadRequest("file: send a ZIP archive of images (and screenshots.json).")
    if not is_zip(data):
        raise BadRequest("file: not a ZIP archive; send the images and screenshots.json as one ZIP.")
    members: dict[str, bytes] = {}
    with read_zip(data) as archive:
        for info in archive.infolist():
            if info.file_size > limits.max_bytes:
                raise PayloadTooLarge(
                    f"file: the archive member {info.filename!r} is {info.file_size:,} bytes; a "
                    f"member may be up to {limits.max_bytes // (1024 * 1024)} MiB "
                    "(LOKO_SCREENSHOT_MAX_MB)."
                )
        for name, member in zip_members(archive):
            if name in members:
                raise BadRequest(f"file: the archive has two members named {name!r}.")
            if name != MANIFEST and len(members) - (MANIFEST in members) >= MOST_IMAGES:
                raise BadRequest(
                    f"file: the archive holds more than {MOST_IMAGES} images; at most {MOST_IMAGES}."
                )
            members[name] = member
    return members


def _manifest(raw: bytes | None, images: dict[str, bytes]) -> list[dict]:
    """One entry per image: the manifest's, in its order, then the images it does not list
    (with no regions). BadRequest naming the manifest's field that is wrong."""
    entries = []
    if raw is not None:
        try:
            document = orjson.loads(raw)
        except orjson.JSONDecodeError as error:
            raise BadRequest(f"{MANIFEST}: not valid JSON ({error}).") from None
        if not isinstance(document, dict):
            raise BadRequest(f"{MANIFEST}: must be a JSON object with a list `screenshots`.")
        try:
            entries = schema_instance(ScreenshotArchiveManifest).load(document)["screenshots"]
        except ValidationError as error:
            raise BadRequest(f"{MANIFEST}: {describe_validation(error.messages)}") from None
    listed = set()
    for index, entry in enumerate(entries):
        image = entry["image"]
        if image not in images:
            raise BadRequest(
                f"{MANIFEST}: screenshots.{index}.image: {image!r} is not an image in the archive."
            )
        if image in listed:
            raise BadRequest(f"{MANIFEST}: screenshots.{index}.image: {image!r} is listed twice.")
        listed.add(image)
    regions = sum(len(entry["regions"]) for entry in entries)
    if regions > MOST_REGIONS:
        raise BadRequest(
            f"{MANIFEST}: screenshots: {regions:,} regions; at most {MOST_REGIONS:,} in one archive."
        )
    return entries + [{"image": name, "regions": []} for name in images if name not in listed]


def _prepared(images: dict[str, bytes], limits: Limits) -> dict[str, PreparedImage]:
    """Each image read and re-encoded as an upload is. The bytes of a picture already in the
    data folder (an exported image) keep their name there, so an archive goes back into a
    project as the same screenshots."""
    store, prepared = image_store(), {}
    for name, data in images.items():
        try:
            image = prepare(data, limits.max_pixels)
        except ImageRefused as refused:
            raise BadRequest(f"file: the archive member {name!r}: {refused}") from None
        stored = hashlib.sha256(data).hexdigest()
        if stored != image.sha256 and store.path(stored, image.format).is_file():
            image = replace(image, data=data, sha256=stored)
        prepared[name] = image
    return prepared


def _check_regions(entries: list[dict], prepared: dict[str, PreparedImage]) -> None:
    for index, entry in enumerate(entries):
        for number, region in enumerate(entry["regions"]):
            try:
                _check_rectangle(prepared[entry["image"]], region)
            except BadRequest as error:
                raise BadRequest(
                    f"{MANIFEST}: screenshots.{index}.regions.{number}.{error.message}"
                ) from None


def _keys(project_id: str, entries: list[dict]) -> tuple[dict[tuple[str, str], str], set[tuple[str, str]]]:
    """``({(fileName, key): active key's id}, {(fileName, key) only in the trash})`` for every
    key the regions name, in one query."""
    named = {(region["fileName"], region["key"]) for entry in entries for region in entry["regions"]}
    if not named:
        return {}, set()
    rows = db.session.execute(
        select(Translation.id, Translation.file_name, Translation.key, Translation.deleted_at).where(
            Translation.project_id == project_id,
            Translation.file_name.in_({file_name for file_name, _ in named}),
            Translation.key.in_({key for _, key in named}),
        )
    )
    active, trashed = {}, set()
    for translation_id, file_name, key, deleted_at in rows:
        pair = (file_name, key)
        if pair not in named:
            continue
        if deleted_at is None:
            active[pair] = translation_id
        else:
            trashed.add(pair)
    return active, trashed - set(active)


def _skipped(image: str, pair: tuple[str, str], trashed: set) -> dict:
    file_name, key = pair
    if pair in trashed:
        reason, message = TRASHED_KEY, f"the key {key!r} of the file {file_name!r} is in the trash."
    else:
        reason, message = UNKNOWN_KEY, f"no key {key!r} in the file {file_name!r}."
    return {"image": image, "fileName": file_name, "key": key, "reason": reason, "message": message}


def import_archive(actor, project_id: str, data: bytes, dry_run: bool = False) -> dict:
    """Add the archive's screenshots and regions to the project, all or none (see the
    module's note); BadRequest or PayloadTooLarge naming the member or the manifest's field.
    A dry run checks the same and writes nothing (it needs only read access)."""
    permission = policy.VIEW_SCREENSHOTS if dry_run else policy.MANAGE_SCREENSHOTS
    policy.require_permission(actor, project_id, permission)
    limits = Limits.of_app()
    members = _read_members(data, limits)
    manifest = members.pop(MANIFEST, None)
    if not members:
        raise BadRequest("file: the archive holds no image (PNG, JPEG or WebP).")
    entries = _manifest(manifest, members)
    prepared = _prepared(members, limits)
    _check_regions(entries, prepared)
    written: list = []
    try:
        with contextlib.nullcontext() if dry_run else unit_of_work():
            policy.require_permission(actor, project_id, permission)
            plan = _plan(actor, project_id, entries, prepared, limits)
            if not dry_run:
                _write(project_id, plan, prepared, written)
    except BaseException:
        image_store().discard(written)
        raise
    return _result(plan, dry_run)


def _existing(project_id: str, hashes: set[str], limits: Limits) -> dict[str, tuple[str, str, bool]]:
    """``{sha256: (id, name, in the trash)}`` of the project's screenshots of these pictures;
    BadRequest when the others would take the project over its limit (the trash counts)."""
    existing = {
        sha256: (screenshot_id, name, deleted_at is not None)
        for screenshot_id, name, sha256, deleted_at in db.session.execute(
            select(Screenshot.id, Screenshot.name, Screenshot.sha256, Screenshot.deleted_at).where(
                Screenshot.project_id == project_id, Screenshot.sha256.in_(hashes)
            )
        )
    }
    require_room(project_id, len(hashes - set(existing)), limits, "file")
    return existing


def _shown(screenshot_ids: set[str]) -> set[tuple]:
    """``(screenshot id, translation id, x, y, width, height)`` of these screenshots' regions."""
    if not screenshot_ids:
        return set()
    columns = [getattr(ScreenshotRegion, side) for side in RECTANGLE]
    rows = db.session.execute(
        select(ScreenshotRegion.screenshot_id, ScreenshotRegion.translation_id, *columns).where(
            ScreenshotRegion.screenshot_id.in_(screenshot_ids)
        )
    )
    return {tuple(row) for row in rows}


@dataclass
class _Plan:
    """What an import adds: the rows to insert, and the answer."""

    screenshots: list[dict] = field(default_factory=list)
    regions: list[dict] = field(default_factory=list)
    answers: list[dict] = field(default_factory=list)
    skipped: list[dict] = field(default_factory=list)
    restored: set[str] = field(default_factory=set)  # screenshots brought back from the trash
    regionless: set[str] = field(default_factory=set)  # new screenshots the archive places no key on


def _plan(actor, project_id: str, entries: list[dict], prepared: dict[str, PreparedImage], limits) -> _Plan:
    existing = _existing(project_id, {image.sha256 for image in prepared.values()}, limits)
    shown = _shown({screenshot_id for screenshot_id, _, _ in existing.values()})
    active, trashed = _keys(project_id, entries)
    plan, now = _Plan(), utcnow()
    for index, entry in enumerate(entries):
        image = prepared[entry["image"]]
        is_new = image.sha256 not in existing
        if is_new:
            name = clean_name(entry.get("name") or entry["image"], image.format, index)
            existing[image.sha256] = (new_id(), name, False)
            plan.screenshots.append(
                {
                    "id": existing[image.sha256][0],
                    "project_id": project_id,
                    "name": name,
                    "sha256": image.sha256,
                    "format": image.format,
                    "width": image.width,
                    "height": image.height,
                    "size": len(image.data),
                    "created_at": now,
                    "created_by_type": actor.kind,
                    "created_by_id": actor.id,
                    "created_by_name": _name(actor),
                }
            )
            plan.regionless.add(existing[image.sha256][0])
        screenshot_id, name, trashed_screenshot = existing[image.sha256]
        if trashed_screenshot:
            plan.restored.add(screenshot_id)
            existing[image.sha256] = (screenshot_id, name, False)
        added = already = 0
        for region in entry["regions"]:
            pair = (region["fileName"], region["key"])
            if pair not in active:
                plan.skipped.append(_skipped(entry["image"], pair, trashed))
                continue
            rectangle = {side: region[side] for side in RECTANGLE}
            signature = (screenshot_id, active[pair], *rectangle.values())
            if signature in shown:
                already += 1
                continue
            shown.add(signature)
            added += 1
            plan.regions.append(
                {
                    "id": new_id(),
                    "screenshot_id": screenshot_id,
                    "translation_id": active[pair],
                    **rectangle,
                    "state": region["state"],
                    "created_at": now,
                }
            )
        if added:
            plan.regionless.discard(screenshot_id)
        plan.answers.append(
            {
                "image": entry["image"],
                "id": screenshot_id,
                "name": name,
                "sha256": image.sha256,
                "created": is_new,
                "restored": screenshot_id in plan.restored,
                "regionsAdded": added,
                "regionsExisting": already,
            }
        )
    return plan


def _write(project_id: str, plan: _Plan, prepared: dict[str, PreparedImage], written: list) -> None:
    saved = {row["sha256"] for row in plan.screenshots}
    for image in prepared.values():
        if image.sha256 in saved:
            saved.discard(image.sha256)
            written += image_store().save(image)
    if plan.screenshots:
        db.session.execute(insert(Screenshot), plan.screenshots)
    if plan.restored:
        db.session.execute(update(Screenshot).where(Screenshot.id.in_(plan.restored)).values(deleted_at=None))
    if plan.regions:
        db.session.execute(insert(ScreenshotRegion), plan.regions)
    if ocr.available():
        for screenshot_id in sorted(plan.regionless):
            enqueue(OCR, {"screenshotId": screenshot_id}, project_id=project_id)


def _result(plan: _Plan, dry_run: bool) -> dict:
    new = {row["id"] for row in plan.screenshots}
    answers = [
        {**answer, "id": None} if dry_run and answer["id"] in new else answer for answer in plan.answers
    ]
    return {
        "dryRun": dry_run,
        "summary": {
            "screenshotsCreated": len(plan.screenshots),
            "screenshotsFound": len(answers) - len(plan.screenshots),
            "screenshotsRestored": len(plan.restored),
            "regionsAdded": len(plan.regions),
            "regionsExisting": sum(answer["regionsExisting"] for answer in answers),
            "regionsSkipped": len(plan.skipped),
        },
        "screenshots": answers,
        "skipped": plan.skipped,
    }
