"""Build ``dist/loko``, Loko as one executable (PyInstaller, one-file mode), when it is
missing or older than any of its sources.

    python3 packaging/build.py            # what `make dist` runs
    python3 packaging/build.py --force    # build even when dist/loko is up to date

The build runs in a virtual environment of its own, ``build/dist-venv``, that holds Loko's
runtime dependencies (``pip install .``, without the dev extra) and PyInstaller, and
nothing else: whatever else a developer installed cannot end up in the executable. It is
made again when pyproject.toml, setup.cfg or this file change.
"""

import argparse
import os
import subprocess
import sys
import tempfile
import time
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGING = ROOT / "packaging"
SPEC = PACKAGING / "loko.spec"
EXECUTABLE = ROOT / "dist" / "loko"
BUILD_VENV = ROOT / "build" / "dist-venv"
WORK = ROOT / "build" / "pyinstaller"
PYINSTALLER = "pyinstaller>=6.22,<7"
VENV_INPUTS = (ROOT / "pyproject.toml", ROOT / "setup.cfg", Path(__file__).resolve())
STAMP = BUILD_VENV / ".installed"


def _files(folder: Path):
    for path in folder.rglob("*"):
        if path.is_file() and "__pycache__" not in path.parts:
            yield path


def newest_source() -> tuple[float, Path]:
    """The most recent modification among the files the executable is built from."""
    sources = [*_files(ROOT / "loko"), *_files(PACKAGING), *VENV_INPUTS]
    return max((path.stat().st_mtime, path) for path in sources)


def _stamp_time() -> float:
    try:
        return STAMP.stat().st_mtime
    except FileNotFoundError:
        return 0.0


def is_fresh() -> bool:
    """dist/loko exists, is newer than every source and than its build environment."""
    if not EXECUTABLE.exists():
        return False
    built = EXECUTABLE.stat().st_mtime
    return built >= newest_source()[0] and built >= _stamp_time()


def ensure_build_venv() -> Path:
    """The build environment's Python, made (again) when its inputs changed."""
    python = BUILD_VENV / "bin" / "python"
    if python.exists() and _stamp_time() >= max(path.stat().st_mtime for path in VENV_INPUTS):
        return python
    print(f"Making the build environment {BUILD_VENV.relative_to(ROOT)}", file=sys.stderr)
    venv.EnvBuilder(clear=True, with_pip=True).create(BUILD_VENV)
    pip = [str(python), "-m", "pip", "--disable-pip-version-check", "--quiet", "install"]
    subprocess.run([*pip, str(ROOT), PYINSTALLER], check=True, cwd=ROOT)  # noqa: S603 - our own paths
    STAMP.touch()
    return python


def build() -> None:
    python = ensure_build_venv()
    started, started_at = time.monotonic(), time.time()
    print("Building dist/loko with PyInstaller", file=sys.stderr)
    subprocess.run(  # noqa: S603 - our own paths
        [
            str(python.parent / "pyinstaller"),
            "--noconfirm",
            "--log-level=WARN",
            f"--distpath={EXECUTABLE.parent}",
            f"--workpath={WORK}",
            str(SPEC),
        ],
        check=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
    )
    check_executable()
    # Dated when the build began: a source edited while PyInstaller ran makes it stale.
    os.utime(EXECUTABLE, (started_at, started_at))
    size = EXECUTABLE.stat().st_size / 1e6
    print(f"Built dist/loko: {size:.1f} MB in {time.monotonic() - started:.0f} s", file=sys.stderr)


def check_executable() -> None:
    """Run ``dist/loko --help``, which creates the app (every module Loko imports when it
    starts) in a throwaway data folder: a module the build environment lacks fails here,
    not on a server. A failed build is removed, so that it is not taken for a fresh one."""
    with tempfile.TemporaryDirectory(prefix="loko-dist-check-") as data_dir:
        env = {name: value for name, value in os.environ.items() if not name.startswith("LOKO_")}
        result = subprocess.run(  # noqa: S603 - our own executable
            [str(EXECUTABLE), "--help"],
            env={**env, "LOKO_DATA_DIR": data_dir},
            cwd=data_dir,
            capture_output=True,
            text=True,
            timeout=120,
        )
    if result.returncode != 0 or "serve" not in result.stdout:
        EXECUTABLE.unlink()
        sys.exit(f"dist/loko does not start; removed it.\n{result.stdout}{result.stderr}")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--force", action="store_true", help="build even when dist/loko is up to date")
    args = parser.parse_args(argv)
    if not args.force and is_fresh():
        print("dist/loko is up to date", file=sys.stderr)
        return 0
    build()
    return 0


if __name__ == "__main__":
    sys.exit(main())
