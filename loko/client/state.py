"""What the last pull left, in ``.loko/state.json`` beside the configuration: per format, the
export's ETag, the languages asked for and the files it placed, each with the SHA-256 of
its bytes. The next pull sends the ETag back (If-None-Match) only while those files are
still as the pull left them, so a file edited or deleted since is written again.

The folder ignores itself in git (a ``.gitignore`` of ``*``), as tool caches do.
"""

import hashlib
import json
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

STATE_FOLDER = ".loko"
STATE_NAME = "state.json"
STATE_VERSION = 1


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@dataclass(frozen=True)
class PullRecord:
    """One format's last pull: the ETag of its export and the files it placed."""

    etag: str | None
    languages: tuple[str, ...] | None = None
    files: dict[str, str] = field(default_factory=dict)

    def etag_to_send(self, root: Path, languages: tuple[str, ...] | None) -> str | None:
        """The ETag to revalidate with, when the same languages are asked for and every file
        of the last pull is still there, byte for byte; otherwise None."""
        if self.etag is None or self.languages != languages:
            return None
        for path, expected in self.files.items():
            try:
                data = (root / path).read_bytes()
            except OSError:
                return None
            if digest(data) != expected:
                return None
        return self.etag


class PullState:
    def __init__(self, root: Path, records: dict[str, PullRecord] | None = None):
        self.root = root
        self.records = records or {}

    @property
    def path(self) -> Path:
        return self.root / STATE_FOLDER / STATE_NAME

    @classmethod
    def load(cls, root: Path, warn: Callable[[str], None]) -> "PullState":
        """The saved state; an empty one when there is none or it cannot be read (the next
        pull then compares every file, which is slower but right)."""
        state = cls(root)
        try:
            document = json.loads(state.path.read_bytes())
        except FileNotFoundError:
            return state
        except (OSError, ValueError) as error:
            warn(f"{STATE_FOLDER}/{STATE_NAME} cannot be read ({error}): every file will be compared")
            return state
        try:
            state.records = {
                format_name: PullRecord(
                    etag=record.get("etag"),
                    languages=tuple(record["languages"]) if record.get("languages") is not None else None,
                    files=dict(record.get("files") or {}),
                )
                for format_name, record in document.get("formats", {}).items()
            }
        except (AttributeError, TypeError, ValueError):
            warn(f"{STATE_FOLDER}/{STATE_NAME} is not a state this version understands: it will be replaced")
            state.records = {}
        return state

    def get(self, format_name: str) -> PullRecord | None:
        return self.records.get(format_name)

    def remember(self, format_name: str, record: PullRecord) -> None:
        self.records[format_name] = record

    def save(self) -> None:
        folder = self.path.parent
        folder.mkdir(exist_ok=True)
        ignore = folder / ".gitignore"
        if not ignore.exists():
            ignore.write_text("# Loko's pull state: local to this checkout.\n*\n", encoding="utf-8")
        document = {
            "version": STATE_VERSION,
            "formats": {
                format_name: {
                    "etag": record.etag,
                    "languages": list(record.languages) if record.languages is not None else None,
                    "files": dict(sorted(record.files.items())),
                }
                for format_name, record in sorted(self.records.items())
            },
        }
        temporary = self.path.with_name(f".{STATE_NAME}.{os.getpid()}.tmp")
        temporary.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
        os.replace(temporary, self.path)
