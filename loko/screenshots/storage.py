"""Where screenshots' images live: files in the data folder named by their SHA-256
(``ImageStore``), never by anything a user chose."""

import os
import re
import tempfile
from pathlib import Path

from loko.screenshots.images import EXTENSIONS, PreparedImage

SHA256 = re.compile(r"[0-9a-f]{64}")
SIZES = ("original", "thumbnail", "preview")
ORIGINAL, THUMBNAIL, PREVIEW = SIZES


class ImageStore:
    """``root/ab/abcdef....png`` (the image), ``....thumbnail.webp`` and ``....preview.webp``:
    written once (atomically: a temporary file renamed), shared by every screenshot of that
    picture, removed when the last one goes."""

    def __init__(self, root: str | Path):
        self.root = Path(root)

    def path(self, sha256: str, image_format: str, size: str = ORIGINAL) -> Path:
        if not SHA256.fullmatch(sha256) or size not in SIZES:
            raise ValueError("not a stored image's name")
        name = f"{sha256}.{EXTENSIONS[image_format]}" if size == ORIGINAL else f"{sha256}.{size}.webp"
        return self.root / sha256[:2] / name

    def save(self, image: PreparedImage) -> list[Path]:
        """Write the image and its two previews unless they are there; the paths written."""
        written = []
        for size, data in ((ORIGINAL, image.data), (THUMBNAIL, image.thumbnail), (PREVIEW, image.preview)):
            path = self.path(image.sha256, image.format, size)
            if path.exists():
                continue
            path.parent.mkdir(parents=True, exist_ok=True)
            descriptor, scratch = tempfile.mkstemp(dir=path.parent, prefix=".upload-")
            try:
                with os.fdopen(descriptor, "wb") as out:
                    out.write(data)
                os.replace(scratch, path)
            except BaseException:
                Path(scratch).unlink(missing_ok=True)
                raise
            written.append(path)
        return written

    def remove(self, sha256: str, image_format: str) -> None:
        for size in SIZES:
            self.path(sha256, image_format, size).unlink(missing_ok=True)

    @staticmethod
    def discard(paths: list[Path]) -> None:
        """Remove files this process just wrote (their transaction did not commit)."""
        for path in paths:
            path.unlink(missing_ok=True)
