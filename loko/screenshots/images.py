"""An uploaded screenshot read safely and made ready to store (``prepare``): pure functions
over bytes, no app and no I/O.

An upload is refused (``ImageRefused``, naming why) unless it is a PNG, JPEG or WebP whose
first bytes, Pillow's reading and the end of its data agree: nothing after the image's own
end (a polyglot, such as an image followed by an archive or a page), no markup or script in
it, and no more pixels than the limit, checked from its header before a pixel is decoded
(no decompression bombs). What is stored is re-encoded from the decoded pixels, turned as
its EXIF orientation says: no metadata (EXIF, GPS, text chunks, colour profiles' comments)
survives. Its name is the SHA-256 of those stored bytes, so the same picture uploaded twice
is stored once. A WebP thumbnail (at most 320 pixels a side) and a WebP preview (at most
1600) are made at the same time."""

import hashlib
import io
import re
import warnings
from dataclasses import dataclass

# Formats by their first bytes, and how Pillow names them.
SIGNATURES = (
    (b"\x89PNG\r\n\x1a\n", "PNG"),
    (b"\xff\xd8\xff", "JPEG"),
)
MEDIA_TYPES = {"PNG": "image/png", "JPEG": "image/jpeg", "WEBP": "image/webp"}
EXTENSIONS = {"PNG": "png", "JPEG": "jpg", "WEBP": "webp"}
THUMBNAIL_SIDE = 320
PREVIEW_SIDE = 1600
# Markup or script that no screenshot holds, and that makes a file something else too.
MARKUP = re.compile(rb"<(?:\?php|script|html|svg|!doctype|body|iframe)\b|<\?xml", re.IGNORECASE)


class ImageRefused(ValueError):
    """An upload that is not stored, and why (a sentence the API shows)."""


@dataclass(frozen=True)
class PreparedImage:
    format: str  # PNG, JPEG or WEBP
    width: int
    height: int
    data: bytes  # the stored image, re-encoded
    thumbnail: bytes  # WebP
    preview: bytes  # WebP
    sha256: str

    @property
    def media_type(self) -> str:
        return MEDIA_TYPES[self.format]

    @property
    def extension(self) -> str:
        return EXTENSIONS[self.format]


def sniffed_format(data: bytes) -> str | None:
    """PNG, JPEG or WEBP by the file's first bytes; None for anything else."""
    for signature, name in SIGNATURES:
        if data.startswith(signature):
            return name
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "WEBP"
    return None


def _png_end(data: bytes) -> int:
    """Where a PNG's IEND chunk ends (its CRC included)."""
    position = 8
    while position + 8 <= len(data):
        length = int.from_bytes(data[position : position + 4], "big")
        kind = data[position + 4 : position + 8]
        position += 12 + length
        if kind == b"IEND":
            return position
    raise ImageRefused("the PNG has no end (IEND).")


def _jpeg_end(data: bytes) -> int:
    """Where a JPEG's image ends: after the EOI marker that follows its scans."""
    end = data.rfind(b"\xff\xd9")
    if end < 0:
        raise ImageRefused("the JPEG has no end (EOI).")
    return end + 2


def _webp_end(data: bytes) -> int:
    return 8 + int.from_bytes(data[4:8], "little")


def image_end(data: bytes, kind: str) -> int:
    """Where the image's own data ends."""
    return {"PNG": _png_end, "JPEG": _jpeg_end, "WEBP": _webp_end}[kind](data)


def _webp(image, side: int) -> bytes:
    copy = image.copy()
    copy.thumbnail((side, side))
    out = io.BytesIO()
    copy.save(out, "WEBP", quality=80, method=4)
    return out.getvalue()


def prepare(data: bytes, max_pixels: int) -> PreparedImage:
    """``data`` read, checked and re-encoded (see the module's docstring); ImageRefused
    otherwise."""
    from PIL import Image, ImageOps, UnidentifiedImageError

    kind = sniffed_format(data)
    if kind is None:
        raise ImageRefused("not a PNG, JPEG or WebP image (SVG, GIF and other formats are not taken).")
    if image_end(data, kind) < len(data):
        raise ImageRefused("the file holds more than an image (data after its end).")
    if MARKUP.search(data):
        raise ImageRefused("the file holds markup or script besides the image.")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            image = Image.open(io.BytesIO(data), formats=[kind])
            if image.format != kind:
                raise ImageRefused("its contents do not match its type.")
            width, height = image.size
            if width < 1 or height < 1:
                raise ImageRefused("the image has no pixels.")
            if width * height > max_pixels:
                raise ImageRefused(
                    f"the image has {width * height:,} pixels ({width}x{height}); at most {max_pixels:,}."
                )
            if getattr(image, "n_frames", 1) > 1:
                raise ImageRefused("an animated image is not a screenshot.")
            image.load()
    except (UnidentifiedImageError, Image.DecompressionBombError, Image.DecompressionBombWarning) as error:
        raise ImageRefused(f"the image cannot be read ({error}).") from None
    except (OSError, SyntaxError, ValueError) as error:
        if isinstance(error, ImageRefused):
            raise
        raise ImageRefused(f"the image cannot be read ({error}).") from None
    image = ImageOps.exif_transpose(image)
    if image.mode not in ("RGB", "RGBA", "L", "LA"):
        image = image.convert("RGBA" if "A" in image.getbands() or "transparency" in image.info else "RGB")
    out = io.BytesIO()
    if kind == "PNG":
        image.save(out, "PNG", optimize=False)
    elif kind == "JPEG":
        image.convert("RGB").save(out, "JPEG", quality=90)
    else:
        image.save(out, "WEBP", quality=90, method=4)
    stored = out.getvalue()
    return PreparedImage(
        format=kind,
        width=image.width,
        height=image.height,
        data=stored,
        thumbnail=_webp(image, THUMBNAIL_SIDE),
        preview=_webp(image, PREVIEW_SIDE),
        sha256=hashlib.sha256(stored).hexdigest(),
    )


def crop_for_model(path: str, region: tuple[int, int, int, int], side: int) -> bytes:
    """The stored image at ``path`` cropped around ``region`` (x, y, width, height) with room
    around it, the region outlined in red, scaled to at most ``side`` pixels a side: a JPEG,
    for a language model to see where a text is shown."""
    from PIL import Image, ImageDraw

    x, y, width, height = region
    with Image.open(path) as stored:
        image = stored.convert("RGB")
    margin_x, margin_y = max(width, 200), max(height, 150)
    box = (
        max(x - margin_x, 0),
        max(y - margin_y, 0),
        min(x + width + margin_x, image.width),
        min(y + height + margin_y, image.height),
    )
    crop = image.crop(box)
    ImageDraw.Draw(crop).rectangle(
        (x - box[0] - 2, y - box[1] - 2, x - box[0] + width + 1, y - box[1] + height + 1),
        outline=(220, 0, 0),
        width=3,
    )
    crop.thumbnail((side, side))
    out = io.BytesIO()
    crop.save(out, "JPEG", quality=85)
    return out.getvalue()
