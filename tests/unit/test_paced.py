"""Background work in short write transactions: each batch sized by the pace of the one
before, so that one takes about the target time."""

from loko.database import Paced, writing_alone


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
