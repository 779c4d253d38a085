import time
import uuid

from loko.database import new_id


def test_ids_are_version_7_uuids():
    parsed = uuid.UUID(new_id())
    assert parsed.version == 7
    assert parsed.variant == uuid.RFC_4122


def test_ids_carry_their_creation_time_in_milliseconds():
    before = time.time_ns() // 1_000_000
    milliseconds = uuid.UUID(new_id()).int >> 80
    assert before <= milliseconds <= time.time_ns() // 1_000_000


def test_ids_made_later_sort_later():
    first = new_id()
    time.sleep(0.002)
    assert new_id() > first


def test_ids_made_in_the_same_millisecond_differ():
    assert len({new_id() for _ in range(10_000)}) == 10_000


def test_ids_are_written_in_the_canonical_form():
    identifier = new_id()
    assert identifier == str(uuid.UUID(identifier))
