"""The worker: threads that claim jobs and run their handlers, and one that beats the
heart of the running ones and enqueues the schedules' jobs.

An idle thread waits on ``registry.wake_up`` (set when a job is enqueued in this process)
for at most ``poll`` seconds, so a job enqueued here starts at once and one enqueued by
another process within a poll. A handler runs outside any transaction; each claim and each
outcome is a short transaction of its own."""

import logging
import os
import socket
import threading
import time
import uuid
from datetime import timedelta

from loko.errors import LokoError
from loko.extensions import db
from loko.jobs import service
from loko.jobs.registry import HANDLERS, SCHEDULES, UNANNOUNCED, Postpone, wake_up

log = logging.getLogger("loko.jobs")

POLL_SECONDS = 0.25
SCHEDULE_SECONDS = 60.0
# How often, as a share of ``stale_after``, a worker looks for the jobs of a dead one: a
# job whose worker died is taken again within ``stale_after`` and a quarter of it, and the
# claims between two looks are one statement fewer.
STALE_LOOKS = 4


class JobContext:
    """What a handler gets besides its payload: the job, progress and cancellation."""

    def __init__(self, job: service.ClaimedJob, worker_id: str):
        self.job = job
        self.job_id = job.id
        self.project_id = job.project_id
        self.attempt = job.attempts
        self._worker_id = worker_id

    def progress(self, done: int, total: int | None = None) -> None:
        service.report_progress(self.job_id, self._worker_id, done, total)

    def cancelled(self) -> bool:
        """True once the job was cancelled (or taken over): the handler should stop."""
        return not service.still_running(self.job_id, self._worker_id)


class Worker:
    """``threads`` threads running jobs for ``app``, plus the heartbeat thread."""

    def __init__(
        self, app, threads: int = 1, poll: float = POLL_SECONDS, stale_after: timedelta | None = None
    ):
        self.app = app
        self.threads = threads
        self.poll = poll
        seconds = app.config.get("LOKO_JOB_STALE_SECONDS") or service.DEFAULT_STALE_AFTER.total_seconds()
        self.stale_after = stale_after or timedelta(seconds=seconds)
        self.id = f"{socket.gethostname()[:30]}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        self._stopping = threading.Event()
        self._threads: list[threading.Thread] = []
        self._next_stale_look = 0.0  # time.monotonic(): the first claim looks

    def start(self) -> "Worker":
        for number in range(self.threads):
            self._spawn(self._run_jobs, f"loko-worker-{number}")
        self._spawn(self._keep_alive, "loko-worker-heartbeat")
        return self

    def _spawn(self, target, name: str) -> None:
        thread = threading.Thread(target=target, name=name, daemon=True)
        thread.start()
        self._threads.append(thread)

    def stop(self, timeout: float = 10.0) -> None:
        """Stop claiming; wait up to ``timeout`` seconds for the running handlers to end (a
        job still running then is taken again by another worker once its heart stops)."""
        self._stopping.set()
        wake_up.set()
        for thread in self._threads:
            thread.join(timeout)
        self._threads = []

    @property
    def stopping(self) -> bool:
        return self._stopping.is_set()

    def _run_jobs(self) -> None:
        ran = False
        while not self._stopping.is_set():
            try:
                # After a job, the next claim goes straight for another (no probe first).
                ran = self.run_one(probe=not ran)
            except Exception:
                log.exception("jobs: the worker could not claim or record a job")
                ran = False
            if not ran:
                wake_up.wait(self.poll)
                wake_up.clear()

    def run_one(self, probe: bool = True) -> bool:
        """Claim one job and run it; False when none was runnable."""
        now = time.monotonic()
        look_for_stale = now >= self._next_stale_look
        if look_for_stale:
            self._next_stale_look = now + self.stale_after.total_seconds() / STALE_LOOKS
        with self.app.app_context():
            job = service.claim(
                self.id, HANDLERS.keys(), self.stale_after, probe=probe, look_for_stale=look_for_stale
            )
            if job is None:
                return False
            self._run(job)
            return True

    def _run(self, job: service.ClaimedJob) -> None:
        handler = HANDLERS[job.kind]
        try:
            result = handler(JobContext(job, self.id), job.payload)
        except Postpone as wait:
            db.session.rollback()
            service.retry_or_fail(
                job.id, self.id, wait.reason, delay=timedelta(seconds=wait.seconds), counted=False
            )
            return
        except Exception as error:
            db.session.rollback()
            refused = isinstance(error, LokoError) and error.status < 500
            message = error.message if isinstance(error, LokoError) else f"{type(error).__name__}: {error}"
            # A refusal (a 4xx: the file does not parse, the permission is gone) would be
            # refused again: the job fails at once. Anything else may pass on a later attempt.
            state = service.retry_or_fail(job.id, self.id, message, final=refused)
            log.warning(
                "jobs: %s %s attempt %d failed (%s): %s", job.kind, job.id, job.attempts, state, message
            )
            return
        db.session.rollback()
        service.complete(
            job.id,
            self.id,
            result,
            service.kept_payload(job.payload),
            announced=job.project_id is not None and job.kind not in UNANNOUNCED,
        )

    def _keep_alive(self) -> None:
        beat = max(self.stale_after.total_seconds() / 4, 0.05)
        next_schedule = 0.0
        waited = 0.0
        while not self._stopping.wait(beat):
            waited += beat
            try:
                with self.app.app_context():
                    service.heartbeat(self.id)
                    if waited >= next_schedule:
                        for schedule in list(SCHEDULES.values()):
                            service.ensure_scheduled(schedule)
                        next_schedule = waited + SCHEDULE_SECONDS
            except Exception:
                log.exception("jobs: the heartbeat could not be recorded")
