"""``loko worker`` processes: a job whose worker is killed with SIGKILL mid-run is taken
again by the next worker once the dead one's heartbeat is stale, and completes once."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from loko.database import unit_of_work
from loko.extensions import db
from loko.jobs import service
from loko.jobs.models import SUCCEEDED, Job

ROOT = Path(__file__).resolve().parents[2]
WAIT = 60.0


def wait_for(condition, what: str, timeout: float = WAIT):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = condition()
        if found:
            return found
        time.sleep(0.05)
    pytest.fail(f"timed out waiting for {what}")


def start_worker(database_url: str, data_dir: Path, name: str) -> subprocess.Popen:
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "LOKO_DATABASE_URL": database_url,
        "LOKO_DATA_DIR": str(data_dir),
        "LOKO_SECRET_KEY": "test-secret-key",
        "LOKO_JOB_STALE_SECONDS": "1",
    }
    with (data_dir / f"{name}.err").open("wb") as errors:
        return subprocess.Popen(
            [sys.executable, str(ROOT / "tests" / "jobs" / "blocking_worker.py")],
            env=env,
            cwd=data_dir,
            stdout=subprocess.DEVNULL,
            stderr=errors,
        )


def test_a_job_survives_its_worker_killed_and_completes_once(app, database_url, tmp_path):
    folder = tmp_path / "job"
    folder.mkdir()
    log = folder / "log"
    with app.app_context(), unit_of_work():
        job_id = service.enqueue("test-blocking", {"folder": str(folder)}).id

    first = start_worker(database_url, tmp_path, "first")
    try:
        wait_for(lambda: log.exists() and "start 1" in log.read_text(), "the first worker to start the job")
    finally:
        first.send_signal(signal.SIGKILL)
        first.wait(WAIT)
    assert first.returncode == -signal.SIGKILL
    (folder / "release").touch()

    second = start_worker(database_url, tmp_path, "second")
    try:

        def finished():
            with app.app_context():
                db.session.expire_all()
                job = service.describe(db.session.get(Job, job_id))
                db.session.rollback()
                return job if job["state"] == SUCCEEDED else None

        job = wait_for(finished, "the second worker to complete the job")
    finally:
        second.send_signal(signal.SIGTERM)
        second.wait(WAIT)
    assert second.returncode == 0, (tmp_path / "second.err").read_text()[-2000:]
    assert log.read_text().splitlines() == ["start 1", "start 2", "done 2"]
    assert (job["attempts"], job["result"]) == (2, {"attempt": 2})
