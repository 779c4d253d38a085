"""Job handlers and schedules by name. A feature registers its own from its ``jobs.py``
(imported by ``create_app``), so the queue never imports a feature.

A handler is ``handler(context, payload) -> result`` (a JSON-able value or None). Handlers are
idempotent by contract: a job whose worker died mid-run is run again from the start."""

import threading
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta

HANDLERS: dict[str, Callable] = {}
SCHEDULES: dict[str, "Schedule"] = {}
# Kinds whose jobs raise no ``job.finished`` event when they end (a webhook delivery: telling
# the endpoints that a delivery ended would be a delivery more, without end).
UNANNOUNCED: set[str] = set()

# Set when a job is enqueued in this process, so an idle worker starts it at once rather than
# at its next poll.
wake_up = threading.Event()


class Postpone(Exception):
    """Raised by a handler that cannot run yet (what it needs is busy): the job is queued
    again after ``seconds`` without using up an attempt."""

    def __init__(self, seconds: float = 1.0, reason: str = "waiting"):
        super().__init__(reason)
        self.seconds = seconds
        self.reason = reason


@dataclass(frozen=True)
class Schedule:
    """A job of ``kind`` every ``every``, enqueued by the workers (no cron)."""

    kind: str
    every: timedelta
    max_attempts: int = 3

    @property
    def coalesce_key(self) -> str:
        return f"schedule:{self.kind}"


def handler(name: str, *, every: timedelta | None = None, announced: bool = True):
    """Register the decorated function as the handler of jobs of kind ``name``; with
    ``every``, the workers also enqueue one that often. Unless ``announced`` is False, a job
    of a project that ends raises the ``job.finished`` event."""

    def register(function: Callable) -> Callable:
        HANDLERS[name] = function
        if every is not None:
            SCHEDULES[name] = Schedule(name, every)
        if not announced:
            UNANNOUNCED.add(name)
        return function

    return register
