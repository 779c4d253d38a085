"""Background jobs: the latency from an enqueue's commit to its handler starting, on SQLite,
with one worker thread in the same process (as ``loko serve`` runs them).

    python -m bench.jobs            # 300 jobs, one after the other
    python -m bench.jobs --jobs 500

Each job is enqueued in its own transaction while the worker is idle, then the next one once
it has started, so every figure includes the worker's wake-up. A worker in another process
(``loko worker``) finds a job at its next poll instead: at most 0.25 s later.
"""

import argparse
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

TARGET_P50_MS = 50.0


def measure(jobs: int) -> list[float]:
    from loko import create_app
    from loko.database import unit_of_work
    from loko.database import upgrade_schema as upgrade
    from loko.jobs import service
    from loko.jobs.registry import HANDLERS
    from loko.jobs.worker import Worker

    started: dict[str, float] = {}
    arrived = threading.Condition()

    def note_start(context, _payload):
        with arrived:
            started[context.job_id] = time.perf_counter()
            arrived.notify_all()

    HANDLERS["bench-noop"] = note_start
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{Path(folder) / 'loko.db'}"
        app = create_app({"LOKO_DATABASE_URL": url, "LOKO_SECRET_KEY": "bench", "LOKO_DATA_DIR": folder})
        with app.app_context():
            upgrade()
        worker = Worker(app, threads=1).start()
        latencies = []
        try:
            with app.app_context():
                for _ in range(jobs):
                    with unit_of_work():
                        job_id = service.enqueue("bench-noop").id
                    committed = time.perf_counter()
                    with arrived:
                        if not arrived.wait_for(lambda job_id=job_id: job_id in started, timeout=10):
                            raise RuntimeError(f"job {job_id} did not start within 10 s")
                    latencies.append((started[job_id] - committed) * 1000)
        finally:
            worker.stop()
    return latencies


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=300)
    args = parser.parse_args(argv)
    latencies = sorted(measure(args.jobs))
    p50 = statistics.median(latencies)
    p95 = latencies[int(len(latencies) * 0.95) - 1]
    verdict = "ok" if p50 < TARGET_P50_MS else "over target"
    print(f"enqueue-to-start latency over {len(latencies)} jobs (SQLite, one worker thread in-process)")
    print(f"  p50 {p50:.2f} ms   p95 {p95:.2f} ms   max {latencies[-1]:.2f} ms")
    print(f"  target p50 < {TARGET_P50_MS:.0f} ms: {verdict}")
    return 0 if p50 < TARGET_P50_MS else 1


if __name__ == "__main__":
    sys.exit(main())
