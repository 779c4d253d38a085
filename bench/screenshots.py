"""Screenshots' figures beside their targets: OCR of a 1920x1080 screenshot and its matching
against 10,000 source texts (in process, as the background job does it), a thumbnail served
by ``loko serve``, and the editor's first page and its "on no screenshot" filter on a
100,000-value project with 10,000 keys on screenshots.

    python -m bench.screenshots [--quick]

``--quick`` seeds 10,000 values instead of 100,000 (the OCR figure is the same).
"""

import argparse
import io
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from http.client import HTTPConnection
from pathlib import Path

TARGETS = {
    "ocr_s": ("OCR of a 1920x1080 screenshot, matched against 10,000 texts (s)", 5.0),
    "thumbnail_ms": ("a screenshot's thumbnail served, p50 (ms)", 5.0),
    "editor_first_page_ms": ("editor first page, 10,000 keys on screenshots (ms)", 50.0),
}
LABELS = 40
SOURCES = 10_000
LINKED = 10_000


def rendered_screen(labels: list[str]) -> bytes:
    from PIL import Image, ImageDraw, ImageFont

    image = Image.new("RGB", (1920, 1080), "white")
    draw = ImageDraw.Draw(image)
    font = ImageFont.load_default(size=28)
    for index, text in enumerate(labels):
        column, row = divmod(index, 20)
        draw.text((80 + column * 900, 40 + row * 50), text, fill="black", font=font)
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


# The words of an app's English labels.
UI_WORDS = (
    "save",
    "cancel",
    "delete",
    "account",
    "settings",
    "profile",
    "order",
    "cart",
    "checkout",
    "pay",
    "now",
    "items",
    "total",
    "shipping",
    "address",
    "billing",
    "email",
    "password",
    "sign",
    "in",
    "out",
    "welcome",
    "back",
    "search",
    "results",
    "filter",
    "sort",
    "by",
    "price",
    "name",
    "date",
    "new",
    "message",
    "inbox",
    "archive",
    "share",
    "export",
    "import",
    "help",
    "support",
    "about",
    "terms",
    "privacy",
    "language",
    "theme",
    "dark",
    "light",
    "notifications",
    "enable",
    "disable",
    "continue",
    "review",
    "your",
)


def measure_ocr(workdir: Path) -> dict:
    from loko.screenshots import ocr

    if not ocr.available():
        return {"ocr_s": None, "ocr_note": "tesseract is not installed"}
    rng = random.Random(7)
    texts = [
        " ".join(rng.choice(UI_WORDS) for _ in range(rng.randint(2, 5))).capitalize() for _ in range(SOURCES)
    ]
    # A tenth of the texts hold a placeholder, as an app's do.
    texts = [text + " {count}" if n % 10 == 9 else text for n, text in enumerate(texts)]
    labels = texts[:LABELS]
    path = workdir / "screen.png"
    path.write_bytes(rendered_screen(labels))
    sources = [(f"k{i}", text) for i, text in enumerate(texts)]
    started = time.perf_counter()
    lines = ocr.read_lines(str(path))
    found = ocr.match(lines, sources)
    seconds = time.perf_counter() - started
    hits = {translation_id for translation_id, _ in found}
    return {"ocr_s": seconds, "ocr_found": sum(f"k{i}" in hits for i in range(LABELS)), "ocr_labels": LABELS}


def link_screenshots(database_url: str, project_id: str, count: int) -> None:
    """``count`` screenshots of the project, each showing one of its keys (rows only: the
    editor reads no image)."""
    from sqlalchemy import insert, select

    from loko import create_app
    from loko.database import new_id, unit_of_work, utcnow
    from loko.extensions import db
    from loko.screenshots.models import Screenshot, ScreenshotRegion
    from loko.translations.models import Translation

    app = create_app({"LOKO_DATABASE_URL": database_url, "LOKO_SECRET_KEY": "bench"})
    with app.app_context():
        keys = db.session.scalars(
            select(Translation.id)
            .where(Translation.project_id == project_id)
            .order_by(Translation.id)
            .limit(count)
        ).all()
        now = utcnow()
        shots = [
            {
                "id": new_id(),
                "project_id": project_id,
                "name": f"screen-{n}.png",
                "sha256": f"{n:064x}",
                "format": "PNG",
                "width": 1920,
                "height": 1080,
                "size": 1000,
                "created_at": now,
                "created_by_type": "user",
                "created_by_id": None,
                "created_by_name": "Bench",
            }
            for n in range(len(keys))
        ]
        regions = [
            {
                "id": new_id(),
                "screenshot_id": shot["id"],
                "translation_id": key,
                "x": 10,
                "y": 10,
                "width": 200,
                "height": 40,
                "state": "confirmed",
                "created_at": now,
            }
            for shot, key in zip(shots, keys, strict=True)
        ]
        with unit_of_work():
            db.session.execute(insert(Screenshot), shots)
            db.session.execute(insert(ScreenshotRegion), regions)
        db.engine.dispose()


def median_get(port: int, path: str, headers: dict, runs: int) -> tuple[float, float]:
    connection = HTTPConnection("127.0.0.1", port, timeout=60)
    samples = []
    for n in range(runs + 10):
        started = time.perf_counter()
        connection.request("GET", path, headers=headers)
        response = connection.getresponse()
        response.read()
        assert response.status == 200, response.status
        if n >= 10:
            samples.append((time.perf_counter() - started) * 1000)
    connection.close()
    samples.sort()
    return statistics.median(samples), samples[int(len(samples) * 0.9)]


def measure_served(workdir: Path, values: int) -> dict:
    from bench import editor
    from bench.run import Database, Server, seed

    database = Database(None, workdir, "screenshots")
    # Room for the one uploaded beside the 10,000 linked (the default limit is 10,000).
    os.environ["LOKO_SCREENSHOTS_PER_PROJECT"] = str(LINKED + 10)
    try:
        seeded = seed(database.url, values)
        base = f"/api/projects/{seeded['project_id']}"
        auth = {"Authorization": f"Bearer {seeded['key']}"}
        link_screenshots(database.url, seeded["project_id"], min(LINKED, values // 10))
        server = Server(database.url)
        try:
            connection = HTTPConnection("127.0.0.1", server.port, timeout=60)
            boundary = "loko-bench-boundary"
            body = (
                (
                    f'--{boundary}\r\nContent-Disposition: form-data; name="files"; filename="home.png"\r\n'
                    "Content-Type: image/png\r\n\r\n"
                ).encode()
                + rendered_screen(["Welcome back"])
                + f"\r\n--{boundary}--\r\n".encode()
            )
            connection.request(
                "POST",
                base + "/screenshots",
                body=body,
                headers={**auth, "Content-Type": f"multipart/form-data; boundary={boundary}"},
            )
            answer = connection.getresponse()
            import orjson

            uploaded = orjson.loads(answer.read())
            assert answer.status == 201, uploaded
            connection.close()
            thumbnail = uploaded["screenshots"][0]["urls"]["thumbnail"]
            p50, p90 = median_get(server.port, thumbnail, auth, 200)
        finally:
            server.stop()
        page = editor.measure_editor(database.url, seeded["project_id"], seeded["session"])
        browser_server = editor._Server(database.url)
        try:
            browser = editor._Browser(browser_server.port, seeded["session"])
            without = editor._median(browser, f"/projects/{seeded['project_id']}/editor?shots=without")
            with_one = editor._median(browser, f"/projects/{seeded['project_id']}/editor?shots=with")
        finally:
            browser_server.stop()
        return {
            "thumbnail_ms": p50,
            "thumbnail_p90_ms": p90,
            "editor_first_page_ms": page["first_page_ms"],
            "editor_without_ms": without,
            "editor_with_ms": with_one,
            "values": values,
        }
    finally:
        database.drop()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="10,000 values instead of 100,000")
    args = parser.parse_args(argv)
    workdir = Path(tempfile.mkdtemp(prefix="loko-bench-shots-"))
    try:
        figures = measure_ocr(workdir) | measure_served(workdir, 10_000 if args.quick else 100_000)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    linked = min(LINKED, figures["values"] // 10)
    print(f"\nScreenshots ({figures['values']:,} values, {linked:,} keys on screenshots)")
    print(f"{'measure':<70} {'figure':>10} {'target':>8}")
    for name, (label, target) in TARGETS.items():
        value = figures.get(name)
        shown = "n/a" if value is None else f"{value:.2f}"
        verdict = "" if value is None else ("met" if value <= target else "MISSED")
        print(f"{label:<70} {shown:>10} {target:>8} {verdict}")
    if figures.get("ocr_s") is not None:
        print(f"  OCR found {figures['ocr_found']} of the {figures['ocr_labels']} labels drawn on the screen")
    print(f"  thumbnail p90 {figures['thumbnail_p90_ms']:.2f} ms")
    print(
        f"  editor: on no screenshot {figures['editor_without_ms']:.1f} ms, "
        f"on a screenshot {figures['editor_with_ms']:.1f} ms"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
