"""Background work in short write transactions: each batch sized by the pace of the one
before, so that one takes about the target time."""

import threading

from loko.database import Paced, paced, writing_alone
from loko.database.sqlite import write_gate
from loko.database.sqlite.write_gate import WriteGate


def test_a_slow_batch_makes_the_next_one_fit_the_target():
    pace = Paced(1000, target=0.05)
    pace.took(0.5, 1000)
    assert pace.size == 100


def test_a_fast_batch_at_most_doubles_the_next_one():
    pace = Paced(100, target=0.05)
    pace.took(0.001, 100)
    assert pace.size == 200
    pace.took(0.0, 200)
    assert pace.size == 400


def test_sizes_stay_within_their_bounds():
    pace = Paced(50, least=10, most=80, target=0.05)
    pace.took(0.001, 50)
    assert pace.size == 80
    pace.took(10.0, 80)
    assert pace.size == 10


def test_chunks_cover_every_item_once_in_order():
    pace = Paced(3, most=7)
    items = list(range(40))
    chunks = list(pace.chunks(items))
    assert [item for chunk in chunks for item in chunk] == items
    assert all(1 <= len(chunk) <= 7 for chunk in chunks)
    assert len(chunks[0]) == 3


def test_work_written_alone_takes_its_largest_batches_without_rest():
    with writing_alone():
        pace = Paced(10, most=500)
        pace.took(10.0, 500)
    assert pace.size == 500


def test_batches_are_sized_to_a_few_milliseconds_by_default():
    pace = Paced(1000)
    pace.took(0.05, 1000)
    assert pace.size == 100  # 5 ms at the pace of the batch before


def test_an_idle_target_applies_while_no_request_writes(monkeypatch):
    monkeypatch.setattr(paced, "seconds_since_foreground_write", lambda: paced.IDLE_SECONDS + 1)
    pace = Paced(1000, idle_target=0.25)
    pace.took(0.05, 1000)
    assert pace.size == 2000  # a longer batch would fit, at most twice the one before


def test_a_request_s_write_brings_the_pace_back_to_a_few_milliseconds(monkeypatch):
    monkeypatch.setattr(paced, "seconds_since_foreground_write", lambda: 0.1)
    pace = Paced(1000, idle_target=0.25)
    pace.took(0.05, 1000)
    assert pace.size == 100


def test_while_requests_write_a_batch_is_followed_by_three_times_its_length_at_rest():
    assert Paced.rest(0.005, busy=True) == 0.015
    assert Paced.rest(1.0, busy=True) == paced.MOST_BUSY_REST


def test_with_no_request_writing_a_batch_is_followed_by_a_short_rest():
    assert Paced.rest(0.005, busy=False) == paced.REST_SECONDS


def write_turn_in(thread_name: str) -> None:
    gate = WriteGate(":memory:")

    def write():
        gate.enter(False)
        gate.leave()

    thread = threading.Thread(target=write, name=thread_name)
    thread.start()
    thread.join()


def test_a_worker_s_write_turn_leaves_the_idle_time_as_it_was(monkeypatch):
    monkeypatch.setattr(write_gate, "_last_foreground", [float("-inf")])
    write_turn_in("loko-worker-0")
    assert write_gate.seconds_since_foreground_write() == float("inf")


def test_a_request_s_write_turn_is_noted(monkeypatch):
    monkeypatch.setattr(write_gate, "_last_foreground", [float("-inf")])
    write_turn_in("waitress-1")
    assert write_gate.seconds_since_foreground_write() < paced.IDLE_SECONDS
