from loko.exports.cache import ExportCache


def keep(cache, etag, owner, body: bytes):
    return b"".join(cache.keep(etag, owner, iter([body[:1], body[1:]])))


def test_a_kept_body_is_served_by_its_etag():
    cache = ExportCache(1000)
    assert keep(cache, "e1", "p", b"hello") == b"hello"
    assert cache.get("e1") == b"hello"


def test_an_unknown_etag_is_not_served():
    assert ExportCache(1000).get("nope") is None


def test_a_newer_body_of_the_same_owner_replaces_the_older_one():
    cache = ExportCache(1000)
    keep(cache, "v1", ("project", "query"), b"old body")
    keep(cache, "v2", ("project", "query"), b"new")
    assert cache.get("v1") is None
    assert cache.get("v2") == b"new"
    assert cache.size == len(b"new")


def test_bodies_of_other_owners_are_kept_side_by_side():
    cache = ExportCache(1000)
    keep(cache, "a", ("project", "json"), b"aaa")
    keep(cache, "b", ("project", "zip"), b"bbb")
    assert cache.get("a") == b"aaa" and cache.get("b") == b"bbb"


def test_a_body_larger_than_a_quarter_of_the_cache_passes_through_unkept():
    cache = ExportCache(100)
    assert keep(cache, "big", "p", b"x" * 26) == b"x" * 26
    assert cache.get("big") is None


def test_the_least_recently_used_body_goes_first_when_the_cache_is_full():
    cache = ExportCache(100)
    for name in "abcd":
        keep(cache, name, name, b"x" * 25)
    cache.get("a")
    keep(cache, "e", "e", b"x" * 25)
    assert cache.get("b") is None
    assert all(cache.get(name) for name in "acde")
    assert cache.size == 100


class Clock:
    def __init__(self):
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def start_building(cache, etag, owner, body: bytes):
    """A build of ``owner``'s body that has handed out its first chunk and is not done."""
    chunks = cache.keep(etag, owner, iter([body[:1], body[1:]]))
    assert next(chunks) == body[:1]
    return chunks


def test_while_a_newer_body_is_built_the_older_one_is_offered_with_its_own_etag():
    cache = ExportCache(1000)
    keep(cache, "v1", "p", b"old body")
    building = start_building(cache, "v2", "p", b"new body")
    kept = cache.replaced_while_building("p")
    assert (kept.etag, kept.body) == ("v1", b"old body")
    building.close()


def test_no_older_body_is_offered_when_nothing_is_being_built():
    cache = ExportCache(1000)
    keep(cache, "v1", "p", b"old body")
    assert cache.replaced_while_building("p") is None


def test_no_older_body_is_offered_once_the_build_has_finished():
    cache = ExportCache(1000)
    keep(cache, "v1", "p", b"old body")
    chunks = start_building(cache, "v2", "p", b"new body")
    assert b"".join(chunks) == b"ew body"
    assert cache.replaced_while_building("p") is None
    assert cache.get("v2") == b"new body"


def test_no_older_body_is_offered_once_the_build_is_abandoned():
    cache = ExportCache(1000)
    keep(cache, "v1", "p", b"old body")
    start_building(cache, "v2", "p", b"new body").close()
    assert cache.replaced_while_building("p") is None


def test_no_older_body_is_offered_for_a_build_that_runs_too_long():
    clock = Clock()
    cache = ExportCache(1000, stale_seconds=2.0, clock=clock)
    keep(cache, "v1", "p", b"old body")
    building = start_building(cache, "v2", "p", b"new body")
    clock.now += 2.5
    assert cache.replaced_while_building("p") is None
    building.close()


def test_nothing_is_offered_for_an_owner_without_a_kept_body():
    cache = ExportCache(1000)
    building = start_building(cache, "v1", "p", b"body")
    assert cache.replaced_while_building("p") is None
    building.close()


def test_a_build_that_started_earlier_does_not_replace_a_newer_kept_body():
    clock = Clock()
    cache = ExportCache(1000, clock=clock)
    older = start_building(cache, "v1", "p", b"older")
    clock.now += 1
    keep(cache, "v2", "p", b"newer")
    b"".join(older)
    assert cache.get("v2") == b"newer"
    assert cache.get("v1") is None
