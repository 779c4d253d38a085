import threading

from loko.exports.cache import ExportCache, at_least


def keep(cache, etag, owner, body: bytes, version=(1, 0)):
    return b"".join(cache.keep(cache.start(etag, owner, version), iter([body[:1], body[1:]])))


def test_a_kept_body_is_served_by_its_etag():
    cache = ExportCache(1000)
    assert keep(cache, "e1", "p", b"hello") == b"hello"
    assert cache.get("e1") == b"hello"


def test_an_unknown_etag_is_not_served():
    assert ExportCache(1000).get("nope") is None


def test_a_newer_body_of_the_same_owner_replaces_the_older_one():
    cache = ExportCache(1000)
    keep(cache, "v1", ("project", "query"), b"old body", (1, 0))
    keep(cache, "v2", ("project", "query"), b"new", (2, 0))
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


def test_versions_compare_each_data_version():
    assert at_least((2, 5), (2, 5)) and at_least((3, 5), (2, 4))
    assert not at_least((3, 4), (2, 5))
    assert not at_least((1, 9), (2, 0))


def test_a_kept_body_serves_a_request_of_its_version_or_an_older_one():
    cache = ExportCache(1000)
    keep(cache, "v2", "p", b"body 2", (2, 0))
    assert cache.kept_since("p", (1, 0)).body == b"body 2"
    assert cache.kept_since("p", (2, 0)).etag == "v2"
    assert cache.kept_since("p", (3, 0)) is None


class Clock:
    def __init__(self):
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def start_building(cache, etag, owner, body: bytes, version=(2, 0)):
    """A build of ``owner``'s body that has handed out its first chunk and is not done."""
    chunks = cache.keep(cache.start(etag, owner, version), iter([body[:1], body[1:]]))
    assert next(chunks) == body[:1]
    return chunks


def test_while_a_newer_body_is_built_the_older_one_is_offered_with_its_own_etag():
    cache = ExportCache(1000)
    keep(cache, "v1", "p", b"old body", (1, 0))
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
    keep(cache, "v1", "p", b"old body", (1, 0))
    chunks = start_building(cache, "v2", "p", b"new body")
    assert b"".join(chunks) == b"ew body"
    assert cache.replaced_while_building("p") is None
    assert cache.get("v2") == b"new body"


def test_no_older_body_is_offered_once_the_build_is_abandoned():
    cache = ExportCache(1000)
    keep(cache, "v1", "p", b"old body", (1, 0))
    start_building(cache, "v2", "p", b"new body").close()
    assert cache.replaced_while_building("p") is None


def test_no_older_body_is_offered_for_a_build_that_runs_too_long():
    clock = Clock()
    cache = ExportCache(1000, stale_seconds=2.0, clock=clock)
    keep(cache, "v1", "p", b"old body", (1, 0))
    building = start_building(cache, "v2", "p", b"new body")
    clock.now += 2.5
    assert cache.replaced_while_building("p") is None
    building.close()


def test_max_stale_sets_how_long_an_older_body_is_offered():
    clock = Clock()
    cache = ExportCache(1000, stale_seconds=2.0, clock=clock)
    keep(cache, "v1", "p", b"old body", (1, 0))
    building = start_building(cache, "v2", "p", b"new body")
    clock.now += 5
    assert cache.replaced_while_building("p", max_stale=10).etag == "v1"
    assert cache.replaced_while_building("p", max_stale=4) is None
    building.close()


def test_nothing_is_offered_for_an_owner_without_a_kept_body():
    cache = ExportCache(1000)
    building = start_building(cache, "v1", "p", b"body")
    assert cache.replaced_while_building("p") is None
    building.close()


def test_a_build_of_an_older_version_does_not_replace_a_newer_kept_body():
    cache = ExportCache(1000)
    older = start_building(cache, "v1", "p", b"older", (1, 0))
    keep(cache, "v2", "p", b"newer", (2, 0))
    b"".join(older)
    assert cache.get("v2") == b"newer"
    assert cache.get("v1") is None


def test_a_request_joins_a_running_build_of_its_version_or_a_newer_one():
    cache = ExportCache(1000)
    build, mine = cache.claim("v2", "p", (2, 0))
    assert mine
    assert cache.claim("v1", "p", (1, 0)) == (build, False)
    assert cache.claim("v2", "p", (2, 0)) == (build, False)
    chunks = cache.keep(build, iter([b"new ", b"body"]))
    waited = []
    waiter = threading.Thread(target=lambda: waited.append(cache.wait(build)))
    waiter.start()
    assert b"".join(chunks) == b"new body"
    waiter.join(timeout=30)
    assert [(kept.etag, kept.body) for kept in waited] == [("v2", b"new body")]


def test_a_request_newer_than_the_running_build_waits_for_it_then_builds():
    cache = ExportCache(1000)
    build, _ = cache.claim("v1", "p", (1, 0))
    assert cache.claim("v2", "p", (2, 0)) == (build, False)
    b"".join(cache.keep(build, iter([b"old"])))
    newer, mine = cache.claim("v2", "p", (2, 0))
    assert mine and newer is not build


def test_a_build_too_large_to_keep_lets_its_waiters_go_at_once():
    cache = ExportCache(100)
    build, _ = cache.claim("v1", "p", (1, 0))
    chunks = cache.keep(build, iter([b"x" * 30, b"y"]))
    next(chunks)
    assert cache.wait(build) is None
    chunks.close()


def test_a_build_that_hands_out_nothing_more_is_given_up():
    cache = ExportCache(1000, stall_seconds=0.05)
    build, _ = cache.claim("v1", "p", (1, 0))
    chunks = cache.keep(build, iter([b"a", b"b"]))
    next(chunks)
    assert cache.wait(build) is None
    assert cache.claim("v1", "p", (1, 0))[1]
    chunks.close()


def test_without_room_for_any_body_every_request_builds_its_own():
    cache = ExportCache(0)
    build, _ = cache.claim("v1", "p", (1, 0))
    other, mine = cache.claim("v1", "p", (1, 0))
    assert mine and other is not build
