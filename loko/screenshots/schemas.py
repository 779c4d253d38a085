"""What the screenshot endpoints take and answer."""

from marshmallow import ValidationError, fields, validate, validates_schema

from loko.fields import ApiSchema, FileName, TranslationKey, UuidString, WholeNumber
from loko.screenshots.models import CONFIRMED, MAX_NAME, REGION_STATES
from loko.screenshots.storage import ORIGINAL, SIZES

MAX_SIDE = 1_000_000  # pixels: far beyond any image the pixel limit lets in


class ScreenshotUploadForm(ApiSchema):
    """The multipart form of an upload: one or more images in the field ``files``."""

    files = fields.List(
        fields.Raw(metadata={"type": "string", "format": "binary"}),
        required=True,
        metadata={"description": "PNG, JPEG or WebP images, up to 20."},
    )


class ScreenshotsQuery(ApiSchema):
    translationId = UuidString(metadata={"description": "Only the screenshots that show this key."})
    trashed = fields.Boolean(
        load_default=False,
        metadata={"description": "true: the screenshots in the trash instead, the latest deleted first."},
    )
    limit = fields.Integer(load_default=100, validate=validate.Range(min=1, max=500))
    offset = fields.Integer(load_default=0, validate=validate.Range(min=0, max=1_000_000))


class ScreenshotDeleteQuery(ApiSchema):
    permanent = fields.Boolean(
        load_default=False,
        metadata={"description": "true: delete it and its regions for good (from the trash or not)."},
    )


class ImageQuery(ApiSchema):
    size = fields.String(
        load_default=ORIGINAL,
        validate=validate.OneOf(SIZES),
        metadata={
            "description": "original (the stored image), thumbnail (WebP, at most 320 pixels a side) "
            "or preview (WebP, at most 1600)."
        },
    )


class Actor(ApiSchema):
    type = fields.String(required=True)
    id = fields.String(allow_none=True, required=True)
    name = fields.String(required=True)


class ScreenshotUrls(ApiSchema):
    image = fields.String(required=True)
    thumbnail = fields.String(required=True)
    preview = fields.String(required=True)


class ScreenshotOut(ApiSchema):
    id = fields.String(required=True)
    name = fields.String(required=True)
    mediaType = fields.String(required=True)
    width = fields.Integer(required=True)
    height = fields.Integer(required=True)
    size = fields.Integer(required=True, metadata={"description": "Bytes of the stored image."})
    sha256 = fields.String(required=True)
    createdAt = fields.DateTime(required=True)
    createdBy = fields.Nested(Actor, required=True)
    regions = fields.Integer(required=True, metadata={"description": "How many key regions it has."})
    urls = fields.Nested(ScreenshotUrls, required=True)
    deletedAt = fields.DateTime(
        required=True, allow_none=True, metadata={"description": "When it went to the trash; null if not."}
    )


class UploadedScreenshot(ScreenshotOut):
    created = fields.Boolean(
        required=True,
        metadata={"description": "false when the project already had this picture (that screenshot)."},
    )
    restored = fields.Boolean(
        required=True,
        metadata={"description": "true when that screenshot was in the trash: it is back, with its regions."},
    )


class UploadResult(ApiSchema):
    screenshots = fields.List(fields.Nested(UploadedScreenshot), required=True)


class ScreenshotList(ApiSchema):
    screenshots = fields.List(fields.Nested(ScreenshotOut), required=True)
    total = fields.Integer(required=True)


class RegionOut(ApiSchema):
    id = fields.String(required=True)
    screenshotId = fields.String(required=True)
    translationId = fields.String(required=True)
    key = fields.String(required=True)
    fileName = fields.String(required=True)
    x = fields.Integer(required=True)
    y = fields.Integer(required=True)
    width = fields.Integer(required=True)
    height = fields.Integer(required=True)
    state = fields.String(required=True)
    createdAt = fields.DateTime(required=True)


class ScreenshotDetail(ScreenshotOut):
    regionList = fields.List(fields.Nested(RegionOut), required=True)


class ScreenshotEnvelope(ApiSchema):
    screenshot = fields.Nested(ScreenshotDetail, required=True)


class RegionEnvelope(ApiSchema):
    region = fields.Nested(RegionOut, required=True)


def _coordinate(description: str, minimum: int, **kwargs):
    return WholeNumber(
        validate=validate.Range(min=minimum, max=MAX_SIDE), metadata={"description": description}, **kwargs
    )


class RegionCreate(ApiSchema):
    translationId = UuidString(required=True, metadata={"description": "The key shown there."})
    x = _coordinate("Left edge, in the image's pixels.", 0, required=True)
    y = _coordinate("Top edge, in the image's pixels.", 0, required=True)
    width = _coordinate("Width in pixels (at least 1; the region stays within the image).", 1, required=True)
    height = _coordinate(
        "Height in pixels (at least 1; the region stays within the image).", 1, required=True
    )
    state = fields.String(
        validate=validate.OneOf(REGION_STATES),
        metadata={"description": "confirmed (the default) or proposed (waiting for a person)."},
    )


class RegionPatch(ApiSchema):
    """Move, resize, confirm or re-key a region: any of the fields, at least one."""

    BODY_REQUIRED = True

    translationId = UuidString()
    x = _coordinate("Left edge.", 0)
    y = _coordinate("Top edge.", 0)
    width = _coordinate("Width, at least 1.", 1)
    height = _coordinate("Height, at least 1.", 1)
    state = fields.String(validate=validate.OneOf(REGION_STATES))

    class Meta(ApiSchema.Meta):
        json_schema = {"minProperties": 1}

    @validates_schema
    def some_change(self, data, **_kwargs):
        if not data:
            raise ValidationError("Give at least one of translationId, x, y, width, height, state.", "x")


# --- the archive: a project's screenshots as one ZIP, their regions in screenshots.json ---

ARCHIVE_VERSION = 1
MAX_MEMBER_NAME = 1024


class ScreenshotArchiveRegion(ApiSchema):
    """A region in ``screenshots.json``: its key named by file and key, not by id, so that
    the archive fits any project that has those keys."""

    fileName = FileName(required=True)
    key = TranslationKey(required=True)
    x = _coordinate("Left edge, in the image's pixels.", 0, required=True)
    y = _coordinate("Top edge, in the image's pixels.", 0, required=True)
    width = _coordinate("Width in pixels (the region stays within the image).", 1, required=True)
    height = _coordinate("Height in pixels (the region stays within the image).", 1, required=True)
    state = fields.String(load_default=CONFIRMED, validate=validate.OneOf(REGION_STATES))


class ScreenshotArchiveEntry(ApiSchema):
    image = fields.String(
        required=True,
        validate=validate.Length(min=1, max=MAX_MEMBER_NAME),
        metadata={"description": "The image's file name in the ZIP (a path, with folders)."},
    )
    name = fields.String(
        validate=validate.Length(min=1, max=MAX_NAME),
        metadata={"description": "The screenshot's name in Loko (default: the image's file name)."},
    )
    regions = fields.List(fields.Nested(ScreenshotArchiveRegion), load_default=list)


class ScreenshotArchiveManifest(ApiSchema):
    """``screenshots.json``: each image of the ZIP, by its file name there, with its regions."""

    version = fields.Integer(load_default=ARCHIVE_VERSION, validate=validate.Equal(ARCHIVE_VERSION))
    screenshots = fields.List(fields.Nested(ScreenshotArchiveEntry), required=True)


class ScreenshotArchiveExportQuery(ApiSchema):
    manifest = fields.Boolean(
        load_default=False, metadata={"description": "true: answer screenshots.json alone, as JSON."}
    )


class ScreenshotArchiveForm(ApiSchema):
    """The multipart form of an archive import: the ZIP in the field ``file``."""

    file = fields.Raw(required=True, metadata={"type": "string", "format": "binary"})


class ScreenshotArchiveQuery(ApiSchema):
    dryRun = fields.Boolean(
        load_default=False,
        metadata={"description": "Read and check everything, answer what would be done, write nothing."},
    )


class ScreenshotArchiveImported(ApiSchema):
    image = fields.String(required=True, metadata={"description": "Its file name in the ZIP."})
    id = fields.String(
        required=True, allow_none=True, metadata={"description": "null for a dry run's new screenshot."}
    )
    name = fields.String(required=True)
    sha256 = fields.String(required=True)
    created = fields.Boolean(
        required=True, metadata={"description": "false when the project already had this picture."}
    )
    restored = fields.Boolean(
        required=True, metadata={"description": "true when that screenshot was in the trash (it is back)."}
    )
    regionsAdded = fields.Integer(required=True)
    regionsExisting = fields.Integer(
        required=True, metadata={"description": "Regions the screenshot already had (not added twice)."}
    )


class ScreenshotArchiveSkipped(ApiSchema):
    image = fields.String(required=True)
    fileName = fields.String(required=True)
    key = fields.String(required=True)
    reason = fields.String(required=True, validate=validate.OneOf(("unknown-key", "trashed-key")))
    message = fields.String(required=True)


class ScreenshotArchiveCounts(ApiSchema):
    screenshotsCreated = fields.Integer(required=True)
    screenshotsFound = fields.Integer(required=True)
    screenshotsRestored = fields.Integer(required=True)
    regionsAdded = fields.Integer(required=True)
    regionsExisting = fields.Integer(required=True)
    regionsSkipped = fields.Integer(required=True)


class ScreenshotArchiveResult(ApiSchema):
    dryRun = fields.Boolean(required=True)
    summary = fields.Nested(ScreenshotArchiveCounts, required=True)
    screenshots = fields.List(fields.Nested(ScreenshotArchiveImported), required=True)
    skipped = fields.List(
        fields.Nested(ScreenshotArchiveSkipped),
        required=True,
        metadata={"description": "Regions not added: their key is not in this project, or in its trash."},
    )
