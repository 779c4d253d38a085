"""``loko worker`` with two more handlers for the tests of worker processes:
``test-blocking`` writes ``start`` to its log, waits until the file ``release`` exists beside
it, then writes ``done``; ``test-record`` appends its job's id to its log."""

import sys
import time
from pathlib import Path

from loko.cli import main
from loko.jobs.registry import handler

WAIT_SECONDS = 60


@handler("test-blocking")
def blocking(context, payload: dict) -> dict:
    folder = Path(payload["folder"])
    with (folder / "log").open("a") as log:
        log.write(f"start {context.attempt}\n")
    deadline = time.monotonic() + WAIT_SECONDS
    while not (folder / "release").exists():
        if time.monotonic() > deadline:
            raise TimeoutError("never released")
        time.sleep(0.05)
    with (folder / "log").open("a") as log:
        log.write(f"done {context.attempt}\n")
    return {"attempt": context.attempt}


@handler("test-record")
def record(context, payload: dict) -> None:
    with (Path(payload["folder"]) / "log").open("a") as log:
        log.write(f"{context.job_id}\n")


if __name__ == "__main__":
    sys.exit(main(["worker"]))
