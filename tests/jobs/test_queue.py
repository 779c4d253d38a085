"""The queue's rules on a real database: enqueue in the caller's transaction, one claim per
job, retries with backoff to the dead letter, cancellation, stale claims, schedules."""

import threading
from datetime import timedelta

import orjson
import pytest
from sqlalchemy import func, select, update

from loko.database import unit_of_work, utcnow
from loko.errors import Conflict
from loko.extensions import db
from loko.jobs import service
from loko.jobs.models import CANCELLED, FAILED, QUEUED, RUNNING, SUCCEEDED, Job
from loko.jobs.registry import Postpone, Schedule
from loko.jobs.worker import Worker


def _enqueue(kind="test-echo", payload=None, **options) -> str:
    with unit_of_work():
        return service.enqueue(kind, payload or {}, **options).id


def _job(job_id) -> Job:
    db.session.expire_all()
    return db.session.get(Job, job_id)


def _make_runnable(job_id) -> None:
    """Bring the job's next attempt to now (instead of waiting out the backoff)."""
    with unit_of_work():
        db.session.execute(
            update(Job).where(Job.id == job_id).values(run_after=utcnow() - timedelta(seconds=1))
        )


@pytest.mark.parametrize("enqueue", ["enqueue", "enqueue_at_commit"])
def test_enqueue_in_a_rolled_back_transaction_leaves_no_job(app, enqueue):
    with app.app_context():
        with pytest.raises(RuntimeError), unit_of_work():
            getattr(service, enqueue)("test-echo", {"n": 1})
            raise RuntimeError("the write failed")
        assert db.session.scalar(select(func.count()).select_from(Job)) == 0


def test_a_job_enqueued_at_commit_exists_once_the_transaction_commits(app, handlers):
    handlers["test-echo"] = lambda context, payload: {"echo": payload["n"]}
    with app.app_context():
        with unit_of_work():
            job_id = service.enqueue_at_commit("test-echo", {"n": 3, "text": "a {brace} and a ?"})
        assert Worker(app).run_one()
        job = _job(job_id)
        assert (job.state, job.attempts) == (SUCCEEDED, 1)
        assert service.describe(job)["result"] == {"echo": 3}


def test_a_queued_job_with_the_same_key_is_not_enqueued_twice(app):
    with app.app_context():
        first = _enqueue(coalesce_key="k")
        assert _enqueue(coalesce_key="k") == first
        assert _enqueue(coalesce_key="other") != first


def test_a_job_counted_into_a_queued_one_adds_its_count_to_it(app):
    with app.app_context():
        later = utcnow() + timedelta(seconds=30)
        for count in (2, 3):
            with unit_of_work():
                service.enqueue_at_commit(
                    "test-echo", {"count": count, "n": count}, run_after=later, counted_into="k"
                )
        jobs = db.session.scalars(select(Job).where(Job.kind == "test-echo")).all()
        assert len(jobs) == 1
        assert orjson.loads(jobs[0].payload) == {"count": 5, "n": 2}
        assert abs((jobs[0].run_after - later).total_seconds()) < 1


def test_a_job_counted_into_a_started_one_is_a_job_of_its_own(app, handlers):
    handlers["test-echo"] = lambda context, payload: {"count": payload["count"]}
    with app.app_context():
        with unit_of_work():
            first = service.enqueue_at_commit("test-echo", {"count": 2}, counted_into="k")
        assert Worker(app).run_one()
        with unit_of_work():
            second = service.enqueue_at_commit("test-echo", {"count": 3}, counted_into="k")
        assert Worker(app).run_one()
        assert service.describe(_job(first))["result"] == {"count": 2}
        assert service.describe(_job(second))["result"] == {"count": 3}


def test_a_job_due_later_waits(app, handlers):
    handlers["test-echo"] = lambda context, payload: {}
    with app.app_context():
        with unit_of_work():
            job_id = service.enqueue_at_commit("test-echo", {}, run_after=utcnow() + timedelta(seconds=30))
        assert not Worker(app).run_one()
        _make_runnable(job_id)
        assert Worker(app).run_one()


def test_a_job_runs_and_keeps_its_result(app, handlers):
    handlers["test-echo"] = lambda context, payload: {"echo": payload["n"], "attempt": context.attempt}
    with app.app_context():
        job_id = _enqueue(payload={"n": 7})
        assert Worker(app).run_one()
        job = _job(job_id)
        assert (job.state, job.attempts) == (SUCCEEDED, 1)
        assert service.describe(job)["result"] == {"echo": 7, "attempt": 1}
        assert job.payload == "{}"  # not kept once done
        assert not Worker(app).run_one()


@pytest.mark.parametrize("workers", [2])
def test_each_job_is_claimed_once_by_concurrent_workers(app, workers):
    with app.app_context():
        job_ids = {_enqueue() for _ in range(30)}
    claimed: list[list[str]] = [[] for _ in range(workers)]
    start = threading.Barrier(workers)
    errors = []

    def take(number):
        try:
            start.wait()
            while True:
                with app.app_context():
                    job = service.claim(f"worker-{number}", {"test-echo"})
                if job is None:
                    return
                claimed[number].append(job.id)
        except Exception as error:  # reported by the test below
            errors.append(error)

    threads = [threading.Thread(target=take, args=(number,)) for number in range(workers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert not errors
    every = [job_id for taken in claimed for job_id in taken]
    assert sorted(every) == sorted(job_ids)
    with app.app_context():
        assert {job.state for job in db.session.scalars(select(Job))} == {RUNNING}


def test_a_failing_job_is_retried_with_backoff_then_dead_lettered(app, handlers):
    calls = []

    def broken(context, _payload):
        calls.append(context.attempt)
        raise ValueError(f"attempt {context.attempt} broke")

    handlers["test-broken"] = broken
    worker = Worker(app)
    with app.app_context():
        job_id = _enqueue("test-broken", max_attempts=3)
        assert worker.run_one()
        job = _job(job_id)
        assert (job.state, job.attempts, job.error) == (QUEUED, 1, "ValueError: attempt 1 broke")
        assert job.run_after >= job.started_at + service.backoff(1)
        assert not worker.run_one()  # not before its backoff
        _make_runnable(job_id)
        assert worker.run_one()
        job = _job(job_id)
        assert (job.state, job.attempts) == (QUEUED, 2)
        assert job.run_after >= job.started_at + service.backoff(2)
        _make_runnable(job_id)
        assert worker.run_one()
        job = _job(job_id)
        assert (job.state, job.attempts, job.error) == (FAILED, 3, "ValueError: attempt 3 broke")
        assert job.finished_at is not None
        _make_runnable(job_id)
        assert not worker.run_one()
    assert calls == [1, 2, 3]


def test_backoff_doubles_up_to_its_cap():
    assert [service.backoff(n).total_seconds() for n in (1, 2, 3)] == [2, 4, 8]
    assert service.backoff(40) == service.BACKOFF_CAP


def test_a_postponed_job_waits_without_using_an_attempt(app, handlers):
    def busy(_context, _payload):
        raise Postpone(seconds=30, reason="busy")

    handlers["test-busy"] = busy
    with app.app_context():
        job_id = _enqueue("test-busy", max_attempts=1)
        assert Worker(app).run_one()
        job = _job(job_id)
        assert (job.state, job.attempts, job.error) == (QUEUED, 0, "busy")


def test_a_cancelled_queued_job_never_runs(app, world, handlers):
    handlers["test-echo"] = lambda _context, _payload: pytest.fail("a cancelled job ran")
    with app.app_context():
        job_id = _enqueue(project_id=world.project_id)
        assert service.cancel(world.project_id, job_id)["state"] == CANCELLED
        assert not Worker(app).run_one()
        with pytest.raises(Conflict):
            service.cancel(world.project_id, job_id)


def test_a_running_job_sees_its_cancellation_and_keeps_no_result(app, world, handlers):
    seen = []

    def cancelled_while_running(context, _payload):
        with app.app_context():
            service.cancel(world.project_id, context.job_id)
        seen.append(context.cancelled())
        return {"kept": True}

    handlers["test-cancel"] = cancelled_while_running
    with app.app_context():
        job_id = _enqueue("test-cancel", project_id=world.project_id)
        assert Worker(app).run_one()
        job = _job(job_id)
        assert (job.state, job.result) == (CANCELLED, None)
    assert seen == [True]


def test_a_job_whose_worker_went_silent_is_claimed_again(app):
    with app.app_context():
        job_id = _enqueue()
        assert service.claim("dead", {"test-echo"}).id == job_id
        assert service.claim("alive", {"test-echo"}) is None
        with unit_of_work():
            db.session.execute(
                update(Job).where(Job.id == job_id).values(heartbeat_at=utcnow() - timedelta(minutes=5))
            )
        again = service.claim("alive", {"test-echo"}, stale_after=timedelta(minutes=1))
        assert (again.id, again.attempts) == (job_id, 2)
        assert not service.complete(job_id, "dead", {"late": True})
        assert service.complete(job_id, "alive", {"done": True})
        assert _job(job_id).state == SUCCEEDED


def test_a_job_whose_worker_went_silent_is_taken_before_older_queued_ones(app):
    with app.app_context():
        abandoned = _enqueue()
        assert service.claim("dead", {"test-echo"}).id == abandoned
        queued = _enqueue()
        with unit_of_work():
            db.session.execute(
                update(Job).where(Job.id == queued).values(run_after=utcnow() - timedelta(hours=1))
            )
            db.session.execute(
                update(Job).where(Job.id == abandoned).values(heartbeat_at=utcnow() - timedelta(minutes=5))
            )
        order = [service.claim("alive", {"test-echo"}, stale_after=timedelta(minutes=1)).id for _ in range(2)]
        assert order == [abandoned, queued]


def _silent_worker_job() -> str:
    job_id = _enqueue()
    assert service.claim("dead", {"test-echo"}).id == job_id
    with unit_of_work():
        db.session.execute(
            update(Job).where(Job.id == job_id).values(heartbeat_at=utcnow() - timedelta(minutes=5))
        )
    return job_id


def test_a_worker_looks_for_a_silent_workers_jobs_at_its_first_claim(app, handlers):
    handlers["test-echo"] = lambda context, payload: {}
    with app.app_context():
        job_id = _silent_worker_job()
        worker = Worker(app, stale_after=timedelta(minutes=1))
        assert worker.run_one()
        assert _job(job_id).state == SUCCEEDED


def test_a_worker_looks_for_a_silent_workers_jobs_again_only_after_a_quarter_of_the_stale_time(app, handlers):
    handlers["test-echo"] = lambda context, payload: {}
    worker = Worker(app, stale_after=timedelta(minutes=1))
    with app.app_context():
        assert not worker.run_one()  # looked, found nothing
        job_id = _silent_worker_job()
        assert not worker.run_one()  # the next look is 15 s away
        worker._next_stale_look = 0.0
        assert worker.run_one()
        assert _job(job_id).state == SUCCEEDED


def test_a_job_past_its_last_attempt_whose_worker_went_silent_is_failed_not_run(app):
    with app.app_context():
        job_id = _enqueue(max_attempts=1)
        assert service.claim("dead", {"test-echo"}).id == job_id
        with unit_of_work():
            db.session.execute(
                update(Job).where(Job.id == job_id).values(heartbeat_at=utcnow() - timedelta(minutes=5))
            )
        assert service.claim("alive", {"test-echo"}, stale_after=timedelta(minutes=1)) is None
        job = _job(job_id)
        assert (job.state, job.error) == (FAILED, "the worker running its last attempt stopped responding.")


def test_a_session_that_enqueues_many_jobs_keeps_one_wake_up_listener(app):
    with app.app_context():
        session = db.session()
        _enqueue()
        listeners = len(session.dispatch.after_commit)
        for _ in range(20):
            _enqueue()
        assert len(session.dispatch.after_commit) == listeners


def test_progress_is_recorded(app, handlers):
    def counting(context, _payload):
        context.progress(3, 10)
        return None

    handlers["test-progress"] = counting
    with app.app_context():
        job_id = _enqueue("test-progress")
        Worker(app).run_one()
        assert service.describe(_job(job_id))["progress"] == {"done": 3, "total": 10}


def test_a_schedule_keeps_one_job_queued(app):
    schedule = Schedule("test-daily", timedelta(days=1))
    with app.app_context():
        service.ensure_scheduled(schedule)
        service.ensure_scheduled(schedule)
        jobs = list(db.session.scalars(select(Job)))
        assert [(job.kind, job.state) for job in jobs] == [("test-daily", QUEUED)]
        first = jobs[0]
        with unit_of_work():
            db.session.execute(update(Job).where(Job.id == first.id).values(state=SUCCEEDED))
        service.ensure_scheduled(schedule)
        queued = db.session.scalars(select(Job).where(Job.state == QUEUED)).one()
        assert queued.run_after == first.run_after + timedelta(days=1)


def test_a_started_worker_runs_an_enqueued_job_and_stops_cleanly(app, handlers):
    ran = threading.Event()

    def echo(_context, payload):
        ran.set()
        return payload

    handlers["test-echo"] = echo
    worker = Worker(app, threads=2).start()
    try:
        with app.app_context():
            job_id = _enqueue(payload={"n": 1})
        assert ran.wait(30)
    finally:
        worker.stop()
    assert not any(
        thread.is_alive() for thread in threading.enumerate() if thread.name.startswith("loko-worker")
    )
    with app.app_context():  # stop() waited for the threads, so the outcome is written
        assert _job(job_id).state == SUCCEEDED
