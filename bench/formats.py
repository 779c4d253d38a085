"""Formats in the benchmark: imports through POST /import (a 10,000-key nested JSON file and
a 100,000-entry ZIP), an export of the whole project in every format beside the JSON ZIP of
the same run, and ``loko pull`` of an unchanged project."""

import io
import os
import subprocess
import sys
import tempfile
import time
import zipfile
from http.client import HTTPConnection
from pathlib import Path

import orjson

from loko.formats.registry import FORMAT_NAMES

IMPORT_TARGETS = {
    "import_nested_10k_s": ("import a 10,000-key nested JSON file (s)", 0.5),
    "import_zip_100k_s": ("import a 100,000-entry ZIP (s)", 5.0),
    "pull_unchanged_s": ("loko pull, nothing changed (s)", 0.3),
}
EXPORT_RATIO_TARGET = 3.0  # every format's export within 3x the JSON export


def post(port: int, path: str, data: bytes, headers: dict) -> tuple[int, bytes]:
    connection = HTTPConnection("127.0.0.1", port, timeout=600)
    connection.request(
        "POST", path, body=data, headers={"Content-Type": "application/octet-stream", **headers}
    )
    response = connection.getresponse()
    body = response.read()
    connection.close()
    return response.status, body


def get(port: int, path: str, headers: dict) -> tuple[int, bytes]:
    connection = HTTPConnection("127.0.0.1", port, timeout=600)
    connection.request("GET", path, headers=headers)
    response = connection.getresponse()
    body = response.read()
    connection.close()
    return response.status, body


def nested_document(keys: int, run: int) -> bytes:
    document: dict = {}
    for index in range(keys):
        section = document.setdefault(f"section{index % 50}", {})
        group = section.setdefault(f"group{index % 7}", {})
        group[f"key{index}"] = f"Text {index} of run {run}, {{{{name}}}}"
    return orjson.dumps(document)


def zip_of(entries: int, run: int) -> bytes:
    buffer = io.BytesIO()
    languages = ["en", "de", "fr", "es", "it"]
    files = entries // (len(languages) * 2_000)
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for language in languages:
            for file_index in range(files):
                document = {f"key{i}": f"{language} text {i} run {run}" for i in range(2_000)}
                archive.writestr(f"{language}/import{file_index}.json", orjson.dumps(document))
    return buffer.getvalue()


def timed_import(port: int, base: str, auth: dict, data: bytes, query: str) -> float:
    started = time.perf_counter()
    status, body = post(port, f"{base}/import?{query}", data, auth)
    elapsed = time.perf_counter() - started
    assert status == 200, (status, body[:300])
    return elapsed


def measure_imports(port: int, base: str, auth: dict, runs: int) -> dict:
    """Median seconds of each import; every run writes (new values each time)."""
    nested, archive = [], []
    for run in range(runs):
        data = nested_document(10_000, run)
        nested.append(
            timed_import(port, base, auth, data, "format=json-nested&language=en&fileName=bench/nested")
        )
    for run in range(max(1, runs // 2)):
        archive.append(timed_import(port, base, auth, zip_of(100_000, run), "format=json"))
    return {
        "import_nested_10k_s": sorted(nested)[len(nested) // 2],
        "import_zip_100k_s": sorted(archive)[len(archive) // 2],
    }


def measure_exports(port: int, base: str, auth: dict, touch) -> dict:
    """Seconds of one cold ZIP export of the whole project in each format (a write before
    each, so no kept body answers it)."""
    seconds = {}
    for name in FORMAT_NAMES:
        touch()
        started = time.perf_counter()
        status, body = get(port, f"{base}/translations?format={name}&zip=true", auth)
        seconds[name] = time.perf_counter() - started
        assert status == 200, (name, status, body[:300])
    return seconds


def measure_pull(url: str, project: str, key: str) -> float:
    """Seconds of ``loko pull`` in a folder already up to date (the second of two pulls)."""
    loko = Path(sys.executable).with_name("loko")
    environment = {**os.environ, "LOKO_API_KEY": key}
    with tempfile.TemporaryDirectory() as folder:
        Path(folder, "loko.toml").write_text(
            f'url = "{url}"\nproject = "{project}"\nsource_language = "en"\n\n'
            '[[files]]\npath = "locales/{language}/{fileName}.json"\nformat = "json"\n'
        )
        subprocess.run([loko, "pull", "--quiet"], cwd=folder, env=environment, check=True, timeout=600)
        started = time.perf_counter()
        subprocess.run([loko, "pull", "--quiet"], cwd=folder, env=environment, check=True, timeout=600)
        return time.perf_counter() - started
