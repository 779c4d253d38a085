"""/api/projects/{id}/screenshots: pictures of the app, and where keys are shown on them."""

from flask import Blueprint, request, send_file

from loko.auth.identity import current_actor
from loko.auth.schemas import SuccessOut
from loko.http import allow_body_up_to, load_body, load_query
from loko.openapi import documented
from loko.screenshots import service
from loko.screenshots.schemas import (
    ImageQuery,
    RegionCreate,
    RegionEnvelope,
    RegionPatch,
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
