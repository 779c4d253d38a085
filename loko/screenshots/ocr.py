"""Finding a project's source texts on a screenshot: the words tesseract reads (``read_lines``,
its lines with their boxes) matched to the texts (``match``). Pure but for running
``tesseract``, a program of the machine (Debian's ``tesseract-ocr``); without it
``available()`` says so and nothing is read.

A source text matches a line when, compared without case and with runs of spaces as one,
its words outside placeholders are found in order with anything in place of each
placeholder (``{count}``, ``%s``, ``{{name}}`` ...), or when the two are alike within
``THRESHOLD`` (rapidfuzz's ratio). Several lines that together hold the text (a text wrapped
on the screen) are tried too, up to ``MOST_LINES`` one below the other."""

import os
import re
import shutil
import subprocess
from dataclasses import dataclass

THRESHOLD = 88  # per cent alike, for a line that differs from the text (OCR's errors)
MIN_CONFIDENCE = 40  # tesseract's per-word confidence below which a word is left out
MIN_LETTERS = 3  # shorter texts ("OK", "x") match too many places to be proposed
MOST_LINES = 3
SECONDS = 60  # at most, for one image
PLACEHOLDER = re.compile(
    r"\{\{[^{}]*\}\}|\{[^{}]*(?:\{[^{}]*\}[^{}]*)*\}|%(?:\d+\$)?[-+ #0]*\d*(?:\.\d+)?[sdifuxXeEgGc@]"
)
SPACES = re.compile(r"\s+")


@dataclass(frozen=True)
class Line:
    text: str
    x: int
    y: int
    width: int
    height: int


def available() -> bool:
    return shutil.which("tesseract") is not None


def _normal(text: str) -> str:
    return SPACES.sub(" ", text).strip().casefold()


def read_lines(path: str) -> list[Line]:
    """The lines tesseract reads on the image at ``path``, each with its box in the image's
    pixels (sparse text: a screen's labels are scattered). OSError when it cannot run."""
    done = subprocess.run(  # noqa: S603 - a fixed program and the store's own path
        ["tesseract", path, "-", "--psm", "11", "tsv"],  # noqa: S607 - found on PATH by available()
        capture_output=True,
        text=True,
        timeout=SECONDS,
        check=False,
        # One thread: tesseract's OpenMP threads contend with each other (and with the
        # server) and took eight times as long on two cores.
        env={**os.environ, "OMP_THREAD_LIMIT": "1"},
    )
    if done.returncode != 0:
        raise OSError(f"tesseract failed: {done.stderr.strip()[:200]}")
    lines: dict[tuple, list] = {}
    for row in done.stdout.splitlines()[1:]:
        cells = row.split("\t")
        if len(cells) != 12 or cells[0] != "5" or not cells[11].strip():
            continue
        try:
            confidence = float(cells[10])
            left, top, width, height = (int(cell) for cell in cells[6:10])
        except ValueError:
            continue
        if confidence < MIN_CONFIDENCE:
            continue
        lines.setdefault(tuple(cells[1:5]), []).append((left, top, width, height, cells[11].strip()))
    found = []
    for words in lines.values():
        left = min(word[0] for word in words)
        top = min(word[1] for word in words)
        right = max(word[0] + word[2] for word in words)
        bottom = max(word[1] + word[3] for word in words)
        found.append(Line(" ".join(word[4] for word in words), left, top, right - left, bottom - top))
    return sorted(found, key=lambda line: (line.y, line.x))


def _pattern(text: str) -> tuple[re.Pattern, str] | None:
    """A source text as a pattern with its placeholders as wildcards, and its longest
    literal part (a line without it cannot match); None without any placeholder."""
    parts = PLACEHOLDER.split(_normal(text))
    if len(parts) == 1:
        return None
    pattern = re.compile(r"\s*.+?\s*".join(re.escape(part.strip()) for part in parts), re.IGNORECASE)
    return pattern, max((part.strip() for part in parts), key=len)


def _joined(lines: list[Line]) -> list[Line]:
    """Each line, and each run of up to MOST_LINES lines one below the other that overlap
    side to side (a wrapped text), as one line with the box around them."""
    runs = list(lines)
    for start, first in enumerate(lines):
        run = [first]
        for below in lines[start + 1 :]:
            last = run[-1]
            near = below.y - (last.y + last.height) <= last.height
            overlaps = below.x < last.x + last.width and last.x < below.x + below.width
            if below.y <= last.y or not near or not overlaps:
                continue
            run.append(below)
            left = min(line.x for line in run)
            top = run[0].y
            right = max(line.x + line.width for line in run)
            bottom = max(line.y + line.height for line in run)
            runs.append(Line(" ".join(line.text for line in run), left, top, right - left, bottom - top))
            if len(run) == MOST_LINES:
                break
    return runs


def match(lines: list[Line], sources: list[tuple[str, str]]) -> list[tuple[str, Line]]:
    """``(translation id, line)`` for each source text ``(id, text)`` found on the lines: the
    best line for each, the closest first; a text shorter than MIN_LETTERS letters is left
    out."""
    from rapidfuzz import fuzz, process

    candidates = _joined(lines)
    normal_lines = [_normal(line.text) for line in candidates]
    found: dict[str, tuple[float, Line]] = {}
    plain: dict[str, str] = {}
    for translation_id, text in sources:
        if sum(ch.isalpha() for ch in text) < MIN_LETTERS:
            continue
        compiled = _pattern(text)
        if compiled is None:
            plain[translation_id] = _normal(text)
            continue
        pattern, literal = compiled
        for line, normal in zip(candidates, normal_lines, strict=True):
            if literal not in normal or not pattern.fullmatch(normal):
                continue
            if translation_id not in found or found[translation_id][1].width > line.width:
                found[translation_id] = (100.0, line)
    if plain and normal_lines:
        texts = list(plain.values())
        ids = list(plain)
        for line, normal in zip(candidates, normal_lines, strict=True):
            for _text, score, index in process.extract(
                normal, texts, scorer=fuzz.ratio, score_cutoff=THRESHOLD, limit=5
            ):
                translation_id = ids[index]
                if translation_id not in found or score > found[translation_id][0]:
                    found[translation_id] = (score, line)
    ordered = sorted(found.items(), key=lambda item: (-item[1][0], item[1][1].y, item[1][1].x))
    return [(translation_id, line) for translation_id, (_score, line) in ordered]
