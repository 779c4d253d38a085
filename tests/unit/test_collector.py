"""The cyclic collector paused around bulk passes, and on again after the last of them."""

import gc
import threading

from loko import collector


def test_the_collector_is_off_during_a_pass_and_on_after_it():
    assert gc.isenabled()
    with collector.paused():
        assert not gc.isenabled()
    assert gc.isenabled()


def test_overlapping_passes_turn_it_on_only_when_the_last_ends():
    with collector.paused():
        with collector.paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()


def test_a_pass_in_another_thread_keeps_it_off_until_it_ends():
    inside, release = threading.Event(), threading.Event()

    def other_pass():
        with collector.paused():
            inside.set()
            release.wait(5)

    worker = threading.Thread(target=other_pass)
    worker.start()
    inside.wait(5)
    with collector.paused():
        pass
    assert not gc.isenabled()
    release.set()
    worker.join(5)
    assert gc.isenabled()


def test_it_stays_off_after_a_pass_when_it_was_off_before():
    gc.disable()
    try:
        with collector.paused():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_a_failing_pass_turns_it_back_on():
    try:
        with collector.paused():
            raise ValueError("the pass failed")
    except ValueError:
        pass
    assert gc.isenabled()
