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
