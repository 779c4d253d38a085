"""The queue's use cases: enqueue in the caller's transaction; claim, heartbeat, progress,
complete and retry for the workers; cancel and the reads for the endpoints.

A claim is one short write transaction: on PostgreSQL the oldest runnable row is locked with
``FOR UPDATE SKIP LOCKED`` (concurrent workers each take another row); on SQLite the write
lock (BEGIN IMMEDIATE, through the write gate) makes the pick-and-mark atomic. A running job
whose worker has not beaten its heart for ``stale_after`` is runnable again: its worker died.

A job of a project that reaches a final state (succeeded, failed, cancelled) raises the
``job.finished`` domain event (``loko.events``) in the transaction that records that state,
unless its kind is registered as not announced (a webhook delivery).
"""

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import orjson
from sqlalchemy import String, and_, any_, bindparam, exists, func, or_, select, update
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.exc import IntegrityError

from loko import events
from loko.database import (
    at_transaction_end,
    driver_timestamp,
    execute_rows,
    run_alone,
    unit_of_work,
    utcnow,
    with_commit,
)
from loko.database.columns import new_id
from loko.errors import Conflict, NotFound
from loko.extensions import db
from loko.jobs.models import CANCELLED, FAILED, FINISHED, QUEUED, RUNNING, SUCCEEDED, Job
from loko.jobs.registry import UNANNOUNCED, Schedule, wake_up

DEFAULT_MAX_ATTEMPTS = 5
BACKOFF_BASE = timedelta(seconds=2)
BACKOFF_CAP = timedelta(hours=1)
DEFAULT_STALE_AFTER = timedelta(seconds=60)
JOBS_LISTED = 50
TEXT_LIMIT = 4000
DONE_PAYLOAD = "{}"
EVENT_ERROR_LIMIT = 500
EVENT_TEXT_LIMIT = 200
_ENQUEUED = "loko_jobs_enqueued"


@dataclass(frozen=True)
class ClaimedJob:
    """What a worker needs of the job it claimed."""

    id: str
    kind: str
    project_id: str | None
    payload: dict
    attempts: int
    max_attempts: int


def _wake_workers_on_commit(session) -> None:
    """Wake this process's workers once the transaction that enqueued commits."""
    session.info[_ENQUEUED] = True


def _wake_if_enqueued(session) -> None:
    if session.info.pop(_ENQUEUED, False):
        wake_up.set()


def _forget_enqueued(session) -> None:
    session.info.pop(_ENQUEUED, None)


at_transaction_end("after_commit", _wake_if_enqueued)
at_transaction_end("after_rollback", _forget_enqueued)


def enqueue(
    kind: str,
    payload: dict | None = None,
    *,
    project_id: str | None = None,
    coalesce_key: str | None = None,
    max_attempts: int = DEFAULT_MAX_ATTEMPTS,
    run_after: datetime | None = None,
) -> Job:
    """Add a job in the caller's transaction (inside its ``unit_of_work``): it exists only if
    that transaction commits. With ``coalesce_key``, a queued job with the same key is
    returned instead of a new one."""
    session = db.session()
    if coalesce_key is not None:
        queued = _queued_with_key(coalesce_key)
        if queued is not None:
            return queued
    job = Job(
        kind=kind,
        project_id=project_id,
        payload=orjson.dumps(payload or {}).decode(),
        state=QUEUED,
        attempts=0,
        max_attempts=max_attempts,
        run_after=run_after or utcnow(),
        coalesce_key=coalesce_key,
        progress_done=0,
        created_at=utcnow(),
    )
    if coalesce_key is None or db.engine.dialect.name == "sqlite":
        # SQLite: the write lock this transaction holds already orders it after any other.
        session.add(job)
        session.flush()
    else:
        try:
            with session.begin_nested():
                session.add(job)
        except IntegrityError:
            return _queued_with_key(coalesce_key)
    _wake_workers_on_commit(session)
    return job


_AT_COMMIT_COLUMNS = (
    "id",
    "kind",
    "project_id",
    "payload",
    "state",
    "attempts",
    "max_attempts",
    "run_after",
    "progress_done",
    "created_at",
    "coalesce_key",
)
_INSERT_AT_COMMIT = (
    "INSERT INTO jobs (id, kind, project_id, payload, state, attempts, max_attempts, run_after,"
    " progress_done, created_at, coalesce_key) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
# A job joining the queued one of its ``coalesce_key`` adds its payload's ``count`` to that
# one's (the unique index of queued keys is the conflict; the queued job keeps the rest).
_SUMMED_COUNT = {
    "postgresql": (
        " ON CONFLICT (coalesce_key) WHERE state = 'queued' AND coalesce_key IS NOT NULL"
        " DO UPDATE SET payload = jsonb_set(jobs.payload::jsonb, '{count}', to_jsonb("
        "COALESCE((jobs.payload::jsonb ->> 'count')::bigint, 0)"
        " + COALESCE((excluded.payload::jsonb ->> 'count')::bigint, 0)))::text"
    ),
    "sqlite": (
        " ON CONFLICT (coalesce_key) WHERE state = 'queued' AND coalesce_key IS NOT NULL"
        " DO UPDATE SET payload = json_set(jobs.payload, '$.count',"
        " COALESCE(json_extract(jobs.payload, '$.count'), 0)"
        " + COALESCE(json_extract(excluded.payload, '$.count'), 0))"
    ),
}


def enqueue_at_commit(
    kind: str,
    payload: dict,
    *,
    project_id: str | None = None,
    max_attempts: int = DEFAULT_MAX_ATTEMPTS,
    run_after: datetime | None = None,
    counted_into: str | None = None,
) -> str:
    """``enqueue`` for a job no one reads before the transaction ends (a webhook delivery,
    a notification's fan-out), called by a listener of the session's ``before_commit``: the
    job exists only if the transaction commits, as with ``enqueue``. On PostgreSQL its
    INSERT goes with the COMMIT, in the same round trip (``with_commit``); elsewhere it is
    one statement of the table, no ORM object. Returns the job's id (with ``counted_into``,
    the id it would have had). A job that cannot be written fails its transaction, as any
    of its statements would: a change and the jobs it queues this way commit together or
    not at all.

    ``run_after``: not before then (this process's workers are not woken for it).
    ``counted_into`` (a coalesce key): while a job of that key is queued (not yet started),
    this one joins it instead, adding its payload's ``count`` to that job's; the queued
    job keeps its own ``run_after`` and the rest of its payload."""
    now = utcnow()
    row = {
        "id": new_id(),
        "kind": kind,
        "project_id": project_id,
        "payload": orjson.dumps(payload, default=str).decode(),
        "state": QUEUED,
        "attempts": 0,
        "max_attempts": max_attempts,
        "run_after": run_after or now,
        "progress_done": 0,
        "created_at": now,
        "coalesce_key": counted_into,
    }
    session = db.session()
    dialect = db.engine.dialect.name
    statement = _INSERT_AT_COMMIT + (_SUMMED_COUNT[dialect] if counted_into is not None else "")
    if dialect == "postgresql":
        with_commit(statement, tuple(row[name] for name in _AT_COMMIT_COLUMNS))
    else:
        for name in ("run_after", "created_at"):
            row[name] = driver_timestamp(row[name], dialect)
        execute_rows(statement, [tuple(row[name] for name in _AT_COMMIT_COLUMNS)])
    if run_after is None or run_after <= now:
        _wake_workers_on_commit(session)
    return row["id"]


def _queued_with_key(coalesce_key: str) -> Job | None:
    return db.session.scalars(
        select(Job).where(Job.coalesce_key == coalesce_key, Job.state == QUEUED).limit(1)
    ).first()


# A worker claims one job after another: the claim's statements are built once, on the
# table (not through the ORM), their parameters bound at each call.
_JOBS = Job.__table__
_CLAIM_FILTER = and_(
    _JOBS.c.kind.in_(bindparam("kinds", expanding=True)),
    or_(
        and_(_JOBS.c.state == QUEUED, _JOBS.c.run_after <= bindparam("now")),
        and_(_JOBS.c.state == RUNNING, _JOBS.c.heartbeat_at < bindparam("stale_before")),
    ),
)
_ANY_RUNNABLE = select(exists().where(_CLAIM_FILTER))
_CLAIMED_COLUMNS = ("id", "kind", "project_id", "payload", "state", "attempts", "max_attempts")


def _oldest(*where):
    """The oldest job matching ``where``: the index on (state, run_after) gives the jobs of a
    state in order, so the first one is found without sorting the whole queue."""
    return (
        select(*(_JOBS.c[name] for name in _CLAIMED_COLUMNS))
        .where(_JOBS.c.kind.in_(bindparam("kinds", expanding=True)), *where)
        .order_by(_JOBS.c.run_after, _JOBS.c.created_at, _JOBS.c.id)
        .limit(1)
    )


# A running job whose worker went silent is taken first, then the oldest queued one that is due.
_PICKS = (
    _oldest(_JOBS.c.state == RUNNING, _JOBS.c.heartbeat_at < bindparam("stale_before")),
    _oldest(_JOBS.c.state == QUEUED, _JOBS.c.run_after <= bindparam("now")),
)
_PICKS_LOCKED = tuple(pick.with_for_update(skip_locked=True) for pick in _PICKS)
# What a claim writes: running, one attempt more, for its worker, its heart beating now.
_RUNNING = {
    "state": RUNNING,
    "attempts": _JOBS.c.attempts + 1,
    "claimed_by": bindparam("worker_id"),
    "heartbeat_at": bindparam("now"),
    "started_at": bindparam("now"),
    "error": None,
}
_MARK_RUNNING = update(_JOBS).where(_JOBS.c.id == bindparam("job_id")).values(_RUNNING)


# On PostgreSQL, a claim of a queued job is one statement on a connection in autocommit: the
# oldest due row locked (skipping those another worker holds) and marked running, returned as
# it is now (one round trip, against four for BEGIN, the pick, the mark and COMMIT).
_QUEUED_KIND = _JOBS.c.kind == any_(bindparam("kinds", type_=ARRAY(String)))
_CLAIM_QUEUED = (
    update(_JOBS)
    .where(
        _JOBS.c.id
        == select(_JOBS.c.id)
        .where(_QUEUED_KIND, _JOBS.c.state == QUEUED, _JOBS.c.run_after <= bindparam("now"))
        .order_by(_JOBS.c.run_after, _JOBS.c.created_at, _JOBS.c.id)
        .limit(1)
        .with_for_update(skip_locked=True)
        .scalar_subquery()
    )
    .values(_RUNNING)
    .returning(*(_JOBS.c[name] for name in _CLAIMED_COLUMNS))
)


def _claim_queued_at_once(worker_id: str, kinds: list[str]) -> "ClaimedJob | None":
    rows = run_alone(_CLAIM_QUEUED, {"kinds": kinds, "now": utcnow(), "worker_id": worker_id})
    if not rows:
        return None
    row = rows[0]
    job_id, kind, project_id, payload, _state, attempts, max_attempts = row
    return ClaimedJob(job_id, kind, project_id, orjson.loads(payload), attempts, max_attempts)


def claim(
    worker_id: str,
    kinds,
    stale_after: timedelta = DEFAULT_STALE_AFTER,
    *,
    probe: bool = True,
    look_for_stale: bool = True,
) -> ClaimedJob | None:
    """Take a runnable job of ``kinds`` for ``worker_id`` and mark it running (one attempt
    more): one whose worker died first, else the oldest queued one that is due; None when
    there is none. A job taken from a dead worker after its last attempt is failed instead.
    With ``probe`` (a worker that found nothing last time), a plain read looks first, so that
    an idle worker never takes the write lock. Without ``look_for_stale``, only queued jobs
    are taken (a worker looks for a dead one's jobs now and then, not at every claim)."""
    if not kinds:
        return None
    kinds = sorted(kinds)
    if not look_for_stale and db.engine.dialect.name == "postgresql":
        return _claim_queued_at_once(worker_id, kinds)  # a look first would cost as much

    def parameters() -> dict:
        now = utcnow()
        return {"now": now, "stale_before": now - stale_after, "kinds": kinds}

    if probe and not db.session.execute(_ANY_RUNNABLE, parameters()).scalar():
        db.session.rollback()
        return None
    picks = _PICKS_LOCKED if db.engine.dialect.name == "postgresql" else _PICKS
    if not look_for_stale:
        picks = picks[1:]
    with unit_of_work():
        while True:
            bound = parameters()
            row = next((row for pick in picks if (row := db.session.execute(pick, bound).first())), None)
            if row is None:
                return None
            if row.state == RUNNING and row.attempts >= row.max_attempts:
                job = db.session.get(Job, row.id)
                job.state, job.finished_at = FAILED, bound["now"]
                job.error = "the worker running its last attempt stopped responding."
                job.claimed_by = None
                _announce(job)
                db.session.flush()
                continue
            db.session.execute(_MARK_RUNNING, {"job_id": row.id, "worker_id": worker_id, "now": bound["now"]})
            return ClaimedJob(
                row.id,
                row.kind,
                row.project_id,
                orjson.loads(row.payload),
                row.attempts + 1,
                row.max_attempts,
            )


# The job is still running for this worker (not cancelled, not taken over).
_OWNED = and_(
    _JOBS.c.id == bindparam("job_id"), _JOBS.c.state == RUNNING, _JOBS.c.claimed_by == bindparam("worker_id")
)


def _owner(job_id: str, worker_id: str) -> dict:
    return {"job_id": job_id, "worker_id": worker_id}


def heartbeat(worker_id: str) -> None:
    """Mark the running jobs of ``worker_id`` as alive."""
    with unit_of_work():
        db.session.execute(
            update(Job).where(Job.claimed_by == worker_id, Job.state == RUNNING).values(heartbeat_at=utcnow())
        )


def report_progress(job_id: str, worker_id: str, done: int, total: int | None) -> bool:
    """Record ``done`` of ``total``; False when the job is no longer this worker's (cancelled,
    or taken over)."""
    with unit_of_work():
        return bool(
            db.session.execute(
                update(_JOBS)
                .where(_OWNED)
                .values(progress_done=done, progress_total=total, heartbeat_at=utcnow()),
                _owner(job_id, worker_id),
            ).rowcount
        )


def still_running(job_id: str, worker_id: str) -> bool:
    """Whether the job is still this worker's to run (False once cancelled)."""
    found = db.session.execute(select(exists().where(_OWNED)), _owner(job_id, worker_id)).scalar()
    db.session.rollback()
    return bool(found)


def complete(job_id: str, worker_id: str, result, kept: str = DONE_PAYLOAD, announced: bool = True) -> bool:
    """The job succeeded with ``result``; False when it was cancelled or taken over meanwhile.
    Its payload (an import's whole upload) is dropped for ``kept`` (``kept_payload``); a failed
    job keeps it to be looked at. A job of a kind not ``announced`` (``UNANNOUNCED``: no
    ``job.finished`` to raise) is completed by one statement alone (``run_alone``)."""
    parameters = {
        **_owner(job_id, worker_id),
        "outcome": None if result is None else orjson.dumps(result).decode(),
        "now": utcnow(),
        "kept": kept,
    }
    if not announced:
        return bool(run_alone(_COMPLETE, parameters))
    with unit_of_work():
        done = db.session.execute(_COMPLETE, parameters).first()
        if done is None:
            return False
        _announce(done, result)
        return True


# The job.finished event

_ANNOUNCED_COLUMNS = (
    Job.id,
    Job.kind,
    Job.project_id,
    Job.state,
    Job.attempts,
    Job.max_attempts,
    Job.error,
    Job.created_at,
    Job.started_at,
    Job.finished_at,
)


_COMPLETE = (
    update(_JOBS)
    .where(_OWNED)
    .values(
        state=SUCCEEDED,
        result=bindparam("outcome"),
        finished_at=bindparam("now"),
        claimed_by=None,
        payload=bindparam("kept"),
    )
    .returning(*(_JOBS.c[column.key] for column in _ANNOUNCED_COLUMNS))
)


def _announce(job, result=None) -> None:
    """Raise ``job.finished`` for ``job`` (a Job, or a row of its ``_ANNOUNCED_COLUMNS``), which
    has just reached its final state, in the transaction recording it. Only what a project
    reader sees of a job goes out, and only its summary: never the payload (an upload, a
    user's id), nor the lists of a result (the values an import changed)."""
    if job.project_id is None or job.kind in UNANNOUNCED:
        return
    if not events.wanted(job.project_id, events.JOB_FINISHED):
        return
    started, finished = job.started_at, job.finished_at
    events.emit_one(
        job.project_id,
        events.JOB_FINISHED,
        {
            "jobId": job.id,
            "kind": job.kind,
            "state": job.state,
            "attempts": job.attempts,
            "maxAttempts": job.max_attempts,
            "createdAt": _timestamp(job.created_at),
            "startedAt": _timestamp(started),
            "finishedAt": _timestamp(finished),
            "durationMs": None if started is None else int((finished - started).total_seconds() * 1000),
            "result": _result_summary(result),
            "error": None if job.error is None else job.error[:EVENT_ERROR_LIMIT],
        },
    )


def _timestamp(moment: datetime | None) -> str | None:
    return None if moment is None else moment.astimezone(UTC).isoformat().replace("+00:00", "Z")


def _scalar(value) -> bool:
    if isinstance(value, str):
        return len(value) <= EVENT_TEXT_LIMIT
    return value is None or isinstance(value, bool | int | float)


def _summarized(value) -> bool:
    if isinstance(value, dict):
        return bool(value) and all(_scalar(item) for item in value.values())
    return _scalar(value)


def _result_summary(result):
    """A result's numbers, booleans and short texts, at its top level and in its objects of
    scalars (an import's ``summary`` of counts); its lists are left out. None for a result
    that is not an object."""
    if not isinstance(result, dict):
        return None
    return {name: value for name, value in result.items() if _summarized(value)}


def backoff(attempts: int) -> timedelta:
    """The wait before the next attempt after ``attempts`` failed ones: 2 s, 4 s, 8 s ... at
    most an hour."""
    return min(BACKOFF_BASE * (2 ** max(attempts - 1, 0)), BACKOFF_CAP)


def retry_or_fail(
    job_id: str,
    worker_id: str,
    error: str,
    *,
    delay: timedelta | None = None,
    counted: bool = True,
    final: bool = False,
) -> str | None:
    """The attempt failed with ``error``: queue the job again after a backoff (``delay``
    when given), or fail it for good (the dead letter) after its last attempt. An attempt
    not ``counted`` (the job had to wait for something) does not use one up; a ``final`` one
    fails the job whatever attempts are left. The job's new
    state; None when it was no longer this worker's."""
    with unit_of_work():
        job = db.session.scalars(
            select(Job).where(_OWNED).with_for_update(), _owner(job_id, worker_id)
        ).first()
        if job is None:
            return None
        now = utcnow()
        job.error = error[:TEXT_LIMIT]
        job.claimed_by = None
        if not counted:
            job.attempts -= 1
        if final or job.attempts >= job.max_attempts:
            job.state, job.finished_at = FAILED, now
            _announce(job)
            return FAILED
        newer = job.coalesce_key is not None and _queued_with_key(job.coalesce_key)
        if newer:
            # A newer job of the same key is queued already; it does this one's work too.
            job.state, job.finished_at = CANCELLED, now
            job.error = f"replaced by job {newer.id}, queued meanwhile."
            _announce(job)
            return CANCELLED
        job.state = QUEUED
        job.run_after = now + (delay if delay is not None else backoff(job.attempts))
        return QUEUED


def ensure_scheduled(schedule: Schedule) -> None:
    """Queue the next job of ``schedule`` unless one is queued: ``every`` after the last one
    was due, or now when none ran yet or that time has passed."""
    with unit_of_work():
        if _queued_with_key(schedule.coalesce_key) is not None:
            return
        last = db.session.execute(
            select(func.max(Job.run_after)).where(Job.coalesce_key == schedule.coalesce_key)
        ).scalar()
        now = utcnow()
        due = now if last is None else max(now, last + schedule.every)
        enqueue(
            schedule.kind,
            coalesce_key=schedule.coalesce_key,
            max_attempts=schedule.max_attempts,
            run_after=due,
        )


def prune_finished(kept: timedelta) -> int:
    """Delete the jobs that finished (succeeded, failed, cancelled) more than ``kept`` ago, in
    one statement; never a queued or running one. How many."""
    with unit_of_work():
        return db.session.execute(
            Job.__table__.delete().where(Job.state.in_(FINISHED), Job.finished_at < utcnow() - kept)
        ).rowcount


def started_by(actor: dict) -> dict:
    """Who a job acts for, from its payload's actor record, as the endpoints name it."""
    return {"type": actor["type"], "name": actor.get("email") or actor.get("name")}


def kept_payload(payload: dict) -> str:
    """What a job keeps of its payload once it ends: who started it and its ``about`` entry (a
    few words on what it was asked), for the Jobs page; never the rest (an upload)."""
    kept = {}
    if isinstance(payload.get("actor"), dict):
        kept["startedBy"] = started_by(payload["actor"])
    if isinstance(payload.get("about"), dict):
        kept["about"] = payload["about"]
    return orjson.dumps(kept).decode() if kept else DONE_PAYLOAD


# For the endpoints


def _origin(payload: str) -> dict:
    """``startedBy`` and ``about`` of a job's payload, whether it still holds it all or only
    what ``kept_payload`` kept."""
    found = orjson.loads(payload)
    actor = found.get("actor")
    started = found.get("startedBy") or (started_by(actor) if isinstance(actor, dict) else None)
    return {"startedBy": started, "about": found.get("about")}


def describe(job: Job) -> dict:
    return {
        "id": job.id,
        "kind": job.kind,
        "projectId": job.project_id,
        "state": job.state,
        "attempts": job.attempts,
        "maxAttempts": job.max_attempts,
        "progress": {"done": job.progress_done, "total": job.progress_total},
        "result": None if job.result is None else orjson.loads(job.result),
        "error": job.error,
        "runAfter": job.run_after,
        "createdAt": job.created_at,
        "startedAt": job.started_at,
        "finishedAt": job.finished_at,
        **_origin(job.payload),
    }


def _project_job(project_id: str, job_id: str) -> Job:
    job = db.session.get(Job, job_id)
    if job is None or job.project_id != project_id:
        raise NotFound("Job not found.")
    return job


def get_job(project_id: str, job_id: str) -> dict:
    """A job of the project; NotFound for another project's or an unknown one."""
    return describe(_project_job(project_id, job_id))


def list_jobs(project_id: str, kind: str | None = None, limit: int = JOBS_LISTED) -> list[dict]:
    """The project's latest jobs of ``kind``, newest first; without ``kind``, every kind but
    those set apart (the unannounced ones: webhook deliveries, many and each small, would
    push the imports and pre-translations off the list)."""
    statement = select(Job).where(Job.project_id == project_id)
    if kind is not None:
        statement = statement.where(Job.kind == kind)
    elif UNANNOUNCED:
        statement = statement.where(Job.kind.not_in(sorted(UNANNOUNCED)))
    rows = db.session.scalars(statement.order_by(Job.created_at.desc(), Job.id).limit(limit))
    return [describe(job) for job in rows]


def job_kinds(project_id: str) -> list[str]:
    """The kinds of the project's jobs kept, by name: what its list can be filtered by."""
    return list(
        db.session.scalars(select(Job.kind).where(Job.project_id == project_id).distinct().order_by(Job.kind))
    )


def cancel(project_id: str, job_id: str) -> dict:
    """Cancel a queued or running job of the project (a running one stops when its handler
    next checks, and its result is not kept); NotFound, Conflict once it has finished."""
    with unit_of_work():
        job = _project_job(project_id, job_id)
        if job.state in FINISHED:
            raise Conflict(f"job: it has already finished ({job.state}).")
        job.state, job.finished_at, job.claimed_by = CANCELLED, utcnow(), None
        job.payload = kept_payload(orjson.loads(job.payload))
        _announce(job)
        return describe(job)
