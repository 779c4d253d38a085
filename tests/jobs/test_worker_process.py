"""``loko worker`` processes: two of them run each job once; a job whose worker is killed
with SIGKILL mid-run is taken again by the next worker once the dead one's heartbeat is
stale, and completes once."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from sqlalchemy import func, select

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


def test_two_worker_processes_run_each_job_once(app, database_url, tmp_path):
    folder = tmp_path / "jobs"
    folder.mkdir()
    names = ("one", "two")
    workers = [start_worker(database_url, tmp_path, name) for name in names]
    try:
        for name in names:
            errors = tmp_path / f"{name}.err"
            wait_for(lambda errors=errors: "running" in errors.read_text(), f"worker {name} to start")
        with app.app_context(), unit_of_work():
            job_ids = {service.enqueue("test-record", {"folder": str(folder)}).id for _ in range(40)}

        def all_done():
            with app.app_context():
                done = db.session.scalar(
                    select(func.count())
                    .select_from(Job)
                    .where(Job.kind == "test-record", Job.state == SUCCEEDED)
                )
                db.session.rollback()
                return done == len(job_ids)

        wait_for(all_done, "both workers to run every job")
    finally:
        for worker in workers:
            worker.send_signal(signal.SIGTERM)
        for worker in workers:
            worker.wait(WAIT)
    assert [worker.returncode for worker in workers] == [0, 0]
    ran = (folder / "log").read_text().split()
    assert sorted(ran) == sorted(job_ids)
