"""The one-file build (dist/loko) against its targets: the file's size, the time from
starting ``dist/loko serve`` on an empty data folder to the first healthy ``/api/health``
(it unpacks itself, creates the database and migrates it on the way), and the serving
process's memory once it is idle.

    python -m bench.dist              # builds dist/loko first when it is missing or stale
    python -m bench.dist --runs 9

The executable is two processes: PyInstaller's small launcher, which unpacks the bundle to
a temporary folder, and the Python process it starts, which serves. "Idle RSS" is the
serving process's, 2 s after its first health check; the launcher's is printed beside it.
"""

import argparse
import importlib.util
import os
import platform
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXECUTABLE = ROOT / "dist" / "loko"
POLL_SECONDS = 0.01
IDLE_SECONDS = 2.0

# name: (label, target)
TARGETS = {
    "size_mb": ("dist/loko file size (MB)", 60.0),
    "cold_start_s": ("cold start to healthy /api/health (s)", 2.0),
    "idle_rss_mb": ("idle RSS of the serving process (MB)", 80.0),
}


def load_build():
    """packaging/build.py, which builds dist/loko when its sources are newer."""
    spec = importlib.util.spec_from_file_location("loko_dist_build", ROOT / "packaging" / "build.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def children(pid: int) -> list[int]:
    path = Path(f"/proc/{pid}/task/{pid}/children")
    return [int(child) for child in path.read_text().split()] if path.exists() else []


def environment(data_dir: Path, port: int) -> dict:
    """The caller's environment without its LOKO_* settings: a start with nothing set up."""
    env = {name: value for name, value in os.environ.items() if not name.startswith("LOKO_")}
    return {**env, "LOKO_DATA_DIR": str(data_dir), "LOKO_PORT": str(port)}


def start(data_dir: Path) -> tuple[subprocess.Popen, float]:
    """Start ``dist/loko serve``; return it and the seconds until /api/health answered 200."""
    port = free_port()
    url = f"http://127.0.0.1:{port}/api/health"
    started = time.monotonic()
    process = subprocess.Popen(
        [str(EXECUTABLE), "serve"],
        env=environment(data_dir, port),
        cwd=data_dir.parent,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    while True:
        try:
            with urllib.request.urlopen(url, timeout=5) as response:
                if response.status == 200:
                    return process, time.monotonic() - started
        except OSError:
            if process.poll() is not None:
                raise RuntimeError(f"dist/loko serve exited with {process.returncode}") from None
            time.sleep(POLL_SECONDS)


def stop(process: subprocess.Popen) -> None:
    process.terminate()  # the launcher passes it on to the serving process
    process.wait(timeout=30)


def measure(runs: int) -> dict:
    cold, rss, launcher = [], [], []
    with tempfile.TemporaryDirectory(prefix="loko-bench-dist-") as workdir:
        for run in range(runs):
            process, seconds = start(Path(workdir) / f"data-{run}")
            try:
                cold.append(seconds)
                time.sleep(IDLE_SECONDS)
                (server,) = children(process.pid)
                rss.append(rss_mb(server))
                launcher.append(rss_mb(process.pid))
            finally:
                stop(process)
    return {
        "size_mb": EXECUTABLE.stat().st_size / 1e6,
        "cold_start_s": statistics.median(cold),
        "cold_start_runs": cold,
        "idle_rss_mb": statistics.median(rss),
        "launcher_rss_mb": statistics.median(launcher),
    }


def verdict(value: float, target: float) -> str:
    return "met" if value <= target else "MISSED"


def print_results(result: dict, runs: int) -> None:
    print(f"\nLoko one-file build on {platform.machine()}, {os.cpu_count()} cores\n")
    for name, (label, target) in TARGETS.items():
        value = result[name]
        print(f"  {label:44} {value:>8.2f}  target <= {target:<5}  {verdict(value, target)}")
    each = ", ".join(f"{seconds:.2f}" for seconds in result["cold_start_runs"])
    print(f"\n  cold starts, median of {runs} (s): {each}")
    print(f"  the launcher's own RSS (MB): {result['launcher_rss_mb']:.1f}")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="cold starts to take the median of")
    args = parser.parse_args(argv)
    load_build().main([])
    result = measure(args.runs)
    print_results(result, args.runs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
