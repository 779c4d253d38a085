"""The local side of ``loko push --screenshots DIR``: the folder's images and its optional
``screenshots.json`` packed into the ZIP the server's screenshot archive import takes. Nothing
here talks to the server.

``screenshots.json`` is the archive's own: ``{"screenshots": [{"image": "home.png",
"regions": [{"fileName": "common", "key": "title", "x": 10, "y": 20, "width": 100,
"height": 30}]}]}``, each image named by its path in the folder. Its shape is the server's to
check; here only what can be told better against the folder (it is JSON, and names images
that are there)."""

import json
import zipfile
from dataclasses import dataclass
from pathlib import Path

from loko.client import archive

SIDECAR = "screenshots.json"
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".webp")
# The server's limit on the images of one archive (a constant of the server, not a setting).
MOST_IMAGES = 500


class ScreenshotFolderError(ValueError):
    """A folder that cannot be sent: no image, too many, or a screenshots.json that does not
    fit it."""


@dataclass(frozen=True)
class ScreenshotUpload:
    """The images of a folder (paths relative to it, with '/'), whether it has a
    screenshots.json, the files left out, and the ZIP."""

    folder: Path
    images: tuple[str, ...]
    sidecar: bool
    ignored: tuple[str, ...]
    archive: bytes


def _visible(relative: Path) -> bool:
    return not any(part.startswith(".") for part in relative.parts)


def _check_sidecar(data: bytes, images: set[str]) -> None:
    try:
        document = json.loads(data)
    except (UnicodeDecodeError, ValueError) as error:
        raise ScreenshotFolderError(f"{SIDECAR} is not valid JSON: {error}") from None
    entries = document.get("screenshots") if isinstance(document, dict) else None
    if not isinstance(entries, list):
        raise ScreenshotFolderError(f'{SIDECAR} must be an object with a list "screenshots"')
    for index, entry in enumerate(entries):
        image = entry.get("image") if isinstance(entry, dict) else None
        if not isinstance(image, str):
            raise ScreenshotFolderError(f'{SIDECAR}: screenshots.{index} needs an "image" (its file name)')
        if image not in images:
            raise ScreenshotFolderError(
                f"{SIDECAR}: screenshots.{index}.image: {image!r} is not a PNG, JPEG or WebP file "
                "in the folder"
            )


def screenshot_upload(folder: Path) -> ScreenshotUpload:
    """The folder's images (in its subfolders too; hidden files and folders left out) and its
    screenshots.json, packed; ScreenshotFolderError naming what does not fit, OSError for a
    file that cannot be read."""
    images, ignored = [], []
    for path in sorted(folder.rglob("*")):
        relative = path.relative_to(folder)
        if not path.is_file() or not _visible(relative) or relative.as_posix() == SIDECAR:
            continue
        (images if path.suffix.lower() in IMAGE_SUFFIXES else ignored).append(relative.as_posix())
    if not images:
        raise ScreenshotFolderError(f"no PNG, JPEG or WebP image in {folder}")
    if len(images) > MOST_IMAGES:
        raise ScreenshotFolderError(
            f"{len(images)} images in {folder}; the server takes at most {MOST_IMAGES} in one push: "
            "push its subfolders one at a time"
        )
    files = [(name, (folder / name).read_bytes()) for name in images]
    sidecar = folder / SIDECAR
    if sidecar.is_file():
        data = sidecar.read_bytes()
        _check_sidecar(data, set(images))
        files.append((SIDECAR, data))
    # Images are compressed already: stored as they are, each member's size is its packed size.
    packed = archive.pack(files, compression=zipfile.ZIP_STORED)
    return ScreenshotUpload(folder, tuple(images), sidecar.is_file(), tuple(ignored), packed)
