"""/api/projects/{id}/screenshots: pictures of the app, and where keys are shown on them."""

from flask import Blueprint, Response, request, send_file

from loko.auth.identity import current_actor
from loko.auth.schemas import SuccessOut
from loko.http import allow_body_up_to, load_body, load_query
from loko.openapi import documented
from loko.screenshots import archive, service
from loko.screenshots.schemas import (
    ImageQuery,
    RegionCreate,
    RegionEnvelope,
    RegionPatch,
    ScreenshotArchiveExportQuery,
    ScreenshotArchiveForm,
    ScreenshotArchiveManifest,
    ScreenshotArchiveQuery,
    ScreenshotArchiveResult,
    ScreenshotDeleteQuery,
    ScreenshotEnvelope,
    ScreenshotList,
    ScreenshotsQuery,
    ScreenshotUploadForm,
    UploadResult,
)

screenshots_api = Blueprint("screenshots_api", __name__)
SCREENSHOTS = "/projects/<uuid:project_id>/screenshots"
SCREENSHOT = SCREENSHOTS + "/<uuid:screenshot_id>"
ARCHIVE = SCREENSHOTS + "/archive"
REGIONS = SCREENSHOT + "/regions"
REGION = REGIONS + "/<uuid:region_id>"
TAGS = ("screenshots",)
IMAGE_TYPES = ("image/png", "image/jpeg", "image/webp")
UPLOAD_DESCRIPTION = (
    "Send the images as a multipart upload (the field `files`, several times; `file` is taken "
    "too), or one image as the raw body with its type and the query parameter `name`. PNG, JPEG "
    "and WebP only; each is read with a pixel limit (LOKO_SCREENSHOT_MAX_PIXELS, 40 million) "
    "before it is decoded, refused when anything follows the image's end or it holds markup or "
    "script, and stored re-encoded without its metadata (EXIF, GPS). An image may be up to "
    "LOKO_SCREENSHOT_MAX_MB (10 MiB, else 413), an upload up to LOKO_MAX_SCREENSHOT_UPLOAD_MB "
    "(64 MiB) and 20 images, a project up to LOKO_SCREENSHOTS_PER_PROJECT (10,000) screenshots, "
    "those in the trash included. All or none: a refusal names `files[N]` and stores nothing. "
    "The same picture uploaded again answers the project's screenshot of it (`created: false`); "
    "when that screenshot is in the trash it is restored with its regions (`restored: true`). "
    "With a session cookie "
    "the cross-site write guard takes JSON bodies only: upload with an API key (or from the "
    "project's Screenshots page). Needs canEditTranslations."
)


def _uploads() -> list[tuple[str | None, bytes]]:
    if request.mimetype == "multipart/form-data":
        uploads = []
        for upload in request.files.getlist("files") + request.files.getlist("file"):
            uploads.append((upload.filename, upload.read()))
            upload.close()  # a large part is a temporary file: closed once read
        return uploads
    data = request.get_data(cache=False)
    return [(request.args.get("name"), data)] if data else []


@screenshots_api.post(SCREENSHOTS)
@documented(
    "Upload screenshots",
    tags=TAGS,
    body={
        "required": True,
        "content": {
            "multipart/form-data": {"schema": ScreenshotUploadForm},
            **{kind: {"schema": {"type": "string", "format": "binary"}} for kind in IMAGE_TYPES},
        },
    },
    responses={201: UploadResult},
    errors=(400, 401, 403, 404, 413),
    description=UPLOAD_DESCRIPTION,
)
def upload_screenshots(project_id):
    allow_body_up_to("LOKO_MAX_SCREENSHOT_UPLOAD_MB")
    uploaded = service.upload_screenshots(current_actor(), str(project_id), _uploads())
    return UploadResult().dump({"screenshots": uploaded}), 201


@screenshots_api.get(SCREENSHOTS)
@documented(
    "A project's screenshots, newest first",
    tags=TAGS,
    query=ScreenshotsQuery,
    responses={200: ScreenshotList},
    description="With `translationId`, the screenshots that show that key; with `trashed=true`, "
    "those in the trash (latest deleted first, each with its `deletedAt`). Needs canViewTranslations.",
)
def list_screenshots(project_id):
    query = load_query(ScreenshotsQuery)
    listed = service.list_screenshots(
        current_actor(),
        str(project_id),
        query.get("translationId"),
        query["limit"],
        query["offset"],
        trashed=query["trashed"],
    )
    return ScreenshotList().dump(listed)


@screenshots_api.get(SCREENSHOT)
@documented(
    "A screenshot with the regions of its keys",
    tags=TAGS,
    responses={200: ScreenshotEnvelope},
)
def get_screenshot(project_id, screenshot_id):
    screenshot = service.get_screenshot(current_actor(), str(project_id), str(screenshot_id))
    return ScreenshotEnvelope().dump({"screenshot": screenshot})


@screenshots_api.get(SCREENSHOT + "/image")
@documented(
    "A screenshot's image, thumbnail or preview",
    tags=TAGS,
    query=ImageQuery,
    responses={
        200: {
            "description": "The image (its stored type; thumbnail and preview are WebP).",
            "content": {kind: {"schema": {"type": "string", "format": "binary"}} for kind in IMAGE_TYPES},
        }
    },
    description="Served to whoever may view the project's translations, with its SHA-256 as "
    "ETag (If-None-Match answers 304) and `X-Content-Type-Options: nosniff`.",
)
def screenshot_image(project_id, screenshot_id):
    size = load_query(ImageQuery)["size"]
    path, media_type, sha256 = service.screenshot_image(
        current_actor(), str(project_id), str(screenshot_id), size
    )
    response = send_file(path, mimetype=media_type, etag=f"{sha256}-{size}", conditional=True, max_age=0)
    response.headers["Cache-Control"] = "private, no-cache"
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Content-Disposition"] = "inline"
    return response


@screenshots_api.delete(SCREENSHOT)
@documented(
    "Move a screenshot to the trash with its regions, or delete it permanently",
    tags=TAGS,
    query=ScreenshotDeleteQuery,
    responses={200: SuccessOut},
    errors=(400, 401, 403, 404, 409),
    description="The trash keeps it LOKO_TRASH_RETENTION_DAYS (30 days), as keys; `POST .../restore` "
    "brings it back. 409 when it is already in the trash (`permanent=true` deletes it from there). "
    "Needs canEditTranslations.",
)
def delete_screenshot(project_id, screenshot_id):
    permanent = load_query(ScreenshotDeleteQuery)["permanent"]
    service.delete_screenshot(current_actor(), str(project_id), str(screenshot_id), permanent)
    return SuccessOut().dump({"success": True})


@screenshots_api.post(SCREENSHOT + "/restore")
@documented(
    "Restore a screenshot from the trash, with its regions",
    tags=TAGS,
    responses={200: ScreenshotEnvelope},
    errors=(401, 403, 404, 409),
    description="409 when it is not in the trash. Needs canEditTranslations.",
)
def restore_screenshot(project_id, screenshot_id):
    screenshot = service.restore_screenshot(current_actor(), str(project_id), str(screenshot_id))
    return ScreenshotEnvelope().dump({"screenshot": screenshot})


@screenshots_api.post(REGIONS)
@documented(
    "Show a key on a screenshot (a rectangle in the image's pixels)",
    tags=TAGS,
    body=RegionCreate,
    responses={201: RegionEnvelope},
    errors=(400, 401, 403, 404, 409),
    description="400 names `width` or `height` when the rectangle leaves the image; 409 when the "
    "key is in the trash. Needs canEditTranslations.",
)
def add_region(project_id, screenshot_id):
    data = load_body(RegionCreate)
    region = service.add_region(current_actor(), str(project_id), str(screenshot_id), data)
    return RegionEnvelope().dump({"region": region}), 201


@screenshots_api.patch(REGION)
@documented(
    "Move, resize or confirm a region, or give it another key",
    tags=TAGS,
    body=RegionPatch,
    responses={200: RegionEnvelope},
    errors=(400, 401, 403, 404, 409),
)
def update_region(project_id, screenshot_id, region_id):
    changes = load_body(RegionPatch)
    region = service.update_region(
        current_actor(), str(project_id), str(screenshot_id), str(region_id), changes
    )
    return RegionEnvelope().dump({"region": region})


@screenshots_api.delete(REGION)
@documented("Delete a region", tags=TAGS, responses={200: SuccessOut})
def delete_region(project_id, screenshot_id, region_id):
    service.delete_region(current_actor(), str(project_id), str(screenshot_id), str(region_id))
    return SuccessOut().dump({"success": True})


ARCHIVE_FORMAT = (
    'The ZIP holds the images and `screenshots.json`: `{"version": 1, "screenshots": [{"image": '
    '"home.png", "name": "home.png", "regions": [{"fileName": "common", "key": "title", '
    '"x": 10, "y": 20, "width": 100, "height": 30, "state": "confirmed"}]}]}` '
    "(ScreenshotArchiveManifest): each image by its file name in the ZIP, each region's key by "
    "its file and key."
)


@screenshots_api.get(ARCHIVE)
@documented(
    "A project's screenshots as a ZIP: the images and screenshots.json",
    tags=TAGS,
    query=ScreenshotArchiveExportQuery,
    responses={
        200: {
            "description": "The ZIP (or, with `manifest=true`, screenshots.json alone).",
            "content": {
                "application/zip": {"schema": {"type": "string", "format": "binary"}},
                "application/json": {"schema": ScreenshotArchiveManifest},
            },
        }
    },
    description=ARCHIVE_FORMAT + " The screenshots in the trash are left out. The archive imports "
    "into any project with `POST` here. Needs canViewTranslations.",
)
def export_screenshot_archive(project_id):
    manifest_only = load_query(ScreenshotArchiveExportQuery)["manifest"]
    exported = archive.export_archive(current_actor(), str(project_id))
    if manifest_only:
        return exported.manifest
    response = Response(exported.chunks(), mimetype="application/zip")
    response.headers["Content-Disposition"] = 'attachment; filename="screenshots.zip"'
    return response


@screenshots_api.post(ARCHIVE)
@documented(
    "Import screenshots and their regions from a ZIP (dry run: the same answer, nothing written)",
    tags=TAGS,
    query=ScreenshotArchiveQuery,
    body={
        "required": True,
        "content": {
            "application/zip": {"schema": {"type": "string", "format": "binary"}},
            "multipart/form-data": {"schema": ScreenshotArchiveForm},
        },
    },
    responses={200: ScreenshotArchiveResult},
    errors=(400, 401, 403, 404, 413),
    description=ARCHIVE_FORMAT + " Without screenshots.json (or for an image it does not list) "
    "the images are added with no regions, and OCR proposes some when the server has tesseract. "
    "All or none: every image is read as an upload is (a refusal names the archive member), a "
    "region outside its image is a 400 naming `screenshots.json: screenshots.N.regions.M.width` "
    "(or `height`), and so are a member outside the archive, an encrypted one or one unpacking "
    "to over 200 times its size. The body may be up to LOKO_MAX_SCREENSHOT_UPLOAD_MB (64 MiB), "
    f"with at most {archive.MOST_IMAGES} images and {archive.MOST_REGIONS:,} regions, each member "
    "up to LOKO_SCREENSHOT_MAX_MB (else 413). A picture the project has is its screenshot "
    "(restored when in the trash); a region it already has (the same key and rectangle) is not "
    "added twice; a region whose key the project does not have active is skipped and listed in "
    "`skipped` with its reason (`unknown-key`, `trashed-key`). With a session cookie the "
    "cross-site write guard takes JSON bodies only: import with an API key. A dry run needs "
    "read access; an import needs canEditTranslations.",
)
def import_screenshot_archive(project_id):
    allow_body_up_to("LOKO_MAX_SCREENSHOT_UPLOAD_MB")
    dry_run = load_query(ScreenshotArchiveQuery)["dryRun"]
    upload = request.files.get("file") if request.mimetype == "multipart/form-data" else None
    data = upload.read() if upload is not None else request.get_data(cache=False)
    result = archive.import_archive(current_actor(), str(project_id), data, dry_run)
    return ScreenshotArchiveResult().dump(result)
