"""The ZIP an export is, laid out from members deflated once: byte for byte what zipfile
writes for the same entries (the archives earlier releases served under the same ETags), with
ZIP64 records where offsets or the count need them; and the members kept between builds, at
their exact data versions, within their memory bound."""

import io
import zipfile

import pytest

from loko.exports import writers
from loko.exports.cache import ExportCache, KeptMembers
from loko.exports.writers import deflated, zip_bytes, zip_members


class _Sink(io.RawIOBase):
    """A stream zipfile cannot seek in, as an export's body is."""

    def __init__(self):
        self.parts = []

    def writable(self) -> bool:
        return True

    def write(self, data) -> int:
        self.parts.append(bytes(data))
        return len(data)


def zipfile_bytes(entries) -> bytes:
    """``entries`` as zipfile writes them to a stream: fixed timestamps, mode 0644, deflated."""
    sink = _Sink()
    with zipfile.ZipFile(sink, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, data in entries:
            info = zipfile.ZipInfo(name, date_time=writers.ZIP_TIMESTAMP)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, data)
    return b"".join(sink.parts)


ENTRIES = [
    ("de/common.json", b'{"a":"A"}'),
    ("en/common.json", b"{}"),
    ("fr/caf\u00e9/menu.json", '{"b":"\u00e9t\u00e9"}'.encode() * 500),
    ("ja/common.json", bytes(range(256)) * 40),
]


@pytest.mark.parametrize("entries", [ENTRIES, [], ENTRIES[:1]], ids=["several", "none", "one"])
def test_the_archive_is_the_one_zipfile_writes(entries):
    assert zip_bytes(entries) == zipfile_bytes(entries)


def test_an_archive_of_kept_members_is_the_archive_built_from_scratch():
    members = [(name, deflated(data)) for name, data in ENTRIES]
    rebuilt = [
        (name, deflated(ENTRIES[2][1]) if index == 2 else member)
        for index, (name, member) in enumerate(members)
    ]
    assert b"".join(zip_members(rebuilt)) == zip_bytes(ENTRIES)


def test_offsets_and_counts_past_the_limits_take_zip64_records_as_zipfile_writes_them(monkeypatch):
    # The limits made small, in both writers, so that a small archive crosses them.
    monkeypatch.setattr(zipfile, "ZIP64_LIMIT", 300)
    monkeypatch.setattr(zipfile, "ZIP_FILECOUNT_LIMIT", 5)
    monkeypatch.setattr(writers, "MEMBER_LIMIT", 300)
    monkeypatch.setattr(writers, "MOST_MEMBERS", 5)
    entries = [(f"de/file{n}.json", b"x" * (n * 13)) for n in range(9)]
    data = zip_bytes(entries)
    assert data == zipfile_bytes(entries)
    monkeypatch.undo()
    archive = zipfile.ZipFile(io.BytesIO(data))
    assert archive.testzip() is None
    assert [archive.read(name) for name, _ in entries] == [content for _, content in entries]


def test_a_member_over_2_gib_is_refused_with_its_limit(monkeypatch):
    monkeypatch.setattr(writers, "MEMBER_LIMIT", 1000)
    with pytest.raises(ValueError, match="over the 2 GiB an archive's file may hold"):
        deflated(b"x" * 1000)


# -- kept members ---------------------------------------------------------------------------


def test_a_member_is_given_only_at_the_versions_it_was_built_at():
    kept = KeptMembers(1 << 20)
    member = deflated(b"member")
    kept.keep("key", (3, 0), member)
    assert kept.get("key", (3, 0)) is member
    assert kept.get("key", (4, 0)) is None
    assert kept.get("key", (2, 0)) is None
    assert kept.get("other", (3, 0)) is None


def test_a_newer_member_replaces_the_older_and_an_older_never_the_newer():
    kept = KeptMembers(1 << 20)
    old, new = deflated(b"old"), deflated(b"new")
    kept.keep("key", (3, 0), old)
    kept.keep("key", (5, 0), new)
    kept.keep("key", (4, 0), old)
    assert kept.get("key", (5, 0)) is new
    assert kept.get("key", (3, 0)) is None and kept.get("key", (4, 0)) is None
    assert len(kept) == 1 and kept.size == len(new.data)


def test_the_least_recently_used_members_go_first_within_the_bound():
    members = {name: deflated(name.encode() * 4000) for name in ("a", "b", "c")}
    size = len(members["a"].data)
    kept = KeptMembers(size * 4 + size // 2)  # room for four, and each one under a quarter
    for name in ("a", "b", "c"):
        kept.keep(name, (1,), members[name])
    kept.get("a", (1,))
    kept.keep("d", (1,), deflated(b"d" * 4000))
    kept.keep("e", (1,), deflated(b"e" * 4000))
    assert kept.get("b", (1,)) is None
    assert kept.get("a", (1,)) is members["a"] and kept.get("c", (1,)) is members["c"]
    assert kept.size <= kept.max_bytes


def test_a_member_over_a_quarter_of_the_bound_is_not_kept():
    member = deflated(bytes(range(256)) * 100)
    kept = KeptMembers(len(member.data) * 4 - 1)
    kept.keep("key", (1,), member)
    assert kept.get("key", (1,)) is None and kept.size == 0


def test_an_export_cache_keeps_no_member_unless_given_room():
    assert ExportCache(1 << 20).members.max_bytes == 0
    assert ExportCache(1 << 20, member_bytes=1 << 10).members.max_bytes == 1 << 10
