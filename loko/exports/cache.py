"""Serialized exports kept by ETag, per process, least recently used first out.

An ETag names a project's data version and the query, so a kept body never goes stale:
it is simply not asked for again once the data changes. Each body is kept for its
*owner* (a project and a query), with the data *version* it was built at: a newer body for
the same owner replaces the older one at once, so bodies that can no longer be asked for
do not take the room of live ones.

A request may be given any body at least as new as the data it read (its snapshot's
version): that body holds every write acknowledged before the request began, the caller's
own included. So builds are shared: a request is given a kept body at least as new as its
version, or joins a build of one that runs in this process (``claim``); when only an older
build runs, it waits for that one to end and then builds (or joins) the newest. Under a
steady stream of writes, one build at a time serves every request that arrived before it
began, as stale-while-revalidate would, but never with a body older than the request.

A request that says it accepts an older body (``Cache-Control: max-stale``) may instead be
given, while this process builds the owner's newer body, the body it replaces
(``replaced_while_building``): for at most ``max-stale`` seconds, or ``stale_seconds``,
counted from when that build began. Any body always comes with its own ETag.
"""

import threading
import time
import weakref
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator
from dataclasses import dataclass

from loko.exports.writers import Deflated

STALE_SECONDS = 2.0
JOIN_SECONDS = 30.0  # the longest a request waits for another's build before building its own
# A build that hands out no chunk for this long is given up by the requests waiting for it
# (its body's reader has stopped reading): they build their own.
STALL_SECONDS = 2.0

Version = tuple[int, ...]


def at_least(version: Version, minimum: Version) -> bool:
    """Whether data at ``version`` holds everything of data at ``minimum`` (each of the
    data versions a body depends on is at least as high)."""
    return len(version) == len(minimum) and all(a >= b for a, b in zip(version, minimum, strict=True))


@dataclass(frozen=True)
class Kept:
    etag: str
    body: bytes


class Build:
    """One build of an owner's body at a version; ``done`` is set once its body is known
    (``body``) or known not to be kept (too large, abandoned, failed: ``body`` stays None)."""

    __slots__ = ("body", "done", "etag", "owner", "progress", "started", "version")

    def __init__(self, etag: str, owner: Hashable, version: Version, started: float):
        self.etag, self.owner, self.version, self.started = etag, owner, version, started
        self.progress = time.monotonic()  # when it last handed out a chunk
        self.body: bytes | None = None
        self.done = threading.Event()


class KeptMembers:
    """Compressed members of ZIP exports (one file in one language, in one format), each
    kept with the data versions it was built at, least recently used first out within
    ``max_bytes`` (a member larger than a quarter of it is not kept).

    A member is given only to a build that reads it at the very versions it was built at:
    a version names the data of a member (every change to what the member reads raises one
    of them), so a kept member is the member a build from scratch would make, byte for
    byte, and an archive laid out from kept members is the one named by its ETag. A newer
    member of the same key replaces the older one; an older one never replaces a newer."""

    def __init__(self, max_bytes: int):
        self.max_bytes = max_bytes
        self.max_member_bytes = max_bytes // 4
        self._members: OrderedDict[Hashable, tuple[Version, Deflated]] = OrderedDict()
        self._size = 0
        self._lock = threading.Lock()

    @property
    def size(self) -> int:
        return self._size

    def __len__(self) -> int:
        return len(self._members)

    def get(self, key: Hashable, version: Version) -> Deflated | None:
        with self._lock:
            kept = self._members.get(key)
            if kept is None or kept[0] != version:
                return None
            self._members.move_to_end(key)
            return kept[1]

    def keep(self, key: Hashable, version: Version, member: Deflated) -> None:
        if len(member.data) > self.max_member_bytes:
            return
        with self._lock:
            kept = self._members.get(key)
            if kept is not None:
                if at_least(kept[0], version):
                    return
                self._size -= len(kept[1].data)
            self._members[key] = (version, member)
            self._members.move_to_end(key)
            self._size += len(member.data)
            while self._size > self.max_bytes:
                _, (_, dropped) = self._members.popitem(last=False)
                self._size -= len(dropped.data)


class ExportCache:
    """Whole export bodies by ETag (see the module's docstring), and the compressed members
    their ZIPs are laid out from (``members``, within ``member_bytes``; none kept at 0)."""

    def __init__(
        self,
        max_bytes: int,
        stale_seconds: float = STALE_SECONDS,
        clock: Callable[[], float] = time.monotonic,
        join_seconds: float = JOIN_SECONDS,
        stall_seconds: float = STALL_SECONDS,
        member_bytes: int = 0,
    ):
        self.members = KeptMembers(member_bytes)
        self.max_bytes = max_bytes
        self.max_entry_bytes = max_bytes // 4
        self.stale_seconds = stale_seconds
        self.join_seconds = join_seconds
        self.stall_seconds = stall_seconds
        self._clock = clock
        self._entries: OrderedDict[str, tuple[Hashable, bytes]] = OrderedDict()
        self._etag_of: dict[Hashable, str] = {}
        self._version_of: dict[Hashable, Version] = {}
        self._builds: dict[Hashable, list[Build]] = {}  # running, oldest first
        self._size = 0
        self._lock = threading.Lock()

    @property
    def size(self) -> int:
        return self._size

    def get(self, etag: str) -> bytes | None:
        with self._lock:
            entry = self._entries.get(etag)
            if entry is None:
                return None
            self._entries.move_to_end(etag)
            return entry[1]

    def kept_since(self, owner: Hashable, version: Version) -> Kept | None:
        """The owner's kept body when it was built at ``version`` or later; else None."""
        with self._lock:
            etag = self._etag_of.get(owner)
            if etag is None or not at_least(self._version_of[owner], version):
                return None
            self._entries.move_to_end(etag)
            return Kept(etag, self._entries[etag][1])

    def replaced_while_building(self, owner: Hashable, max_stale: float | None = None) -> Kept | None:
        """The owner's kept body, while a build of its newer body runs in this process and
        started at most ``max_stale`` seconds ago (``stale_seconds`` when None); otherwise
        None. Only for a request that accepts an older body."""
        limit = self.stale_seconds if max_stale is None else max_stale
        with self._lock:
            builds = self._builds.get(owner)
            etag = self._etag_of.get(owner)
            if not builds or etag is None or self._clock() - builds[0].started > limit:
                return None
            return Kept(etag, self._entries[etag][1])

    def claim(self, etag: str, owner: Hashable, version: Version) -> tuple[Build, bool]:
        """``(build, False)``: a build of the owner that runs already, to ``wait`` for: one at
        ``version`` or later when there is one, else the newest; ``(build, True)``: a new
        build of ``etag`` at ``version``, the caller's to run (``keep``), when none runs or
        no body is kept at all."""
        with self._lock:
            running = self._builds.get(owner, [])
            if running and self.max_entry_bytes > 0:
                for build in reversed(running):
                    if at_least(build.version, version):
                        return build, False
                return running[-1], False
            build = Build(etag, owner, version, self._clock())
            running.append(build)
            self._builds[owner] = running
            return build, True

    def wait(self, build: Build) -> Kept | None:
        """``build``'s body once it ends; None when it is not one to keep, or when it has
        handed out no chunk for ``stall_seconds`` or run for ``join_seconds`` (then it is
        given up: no request waits for it any more)."""
        deadline = time.monotonic() + self.join_seconds
        while not build.done.wait(min(self.stall_seconds, self.join_seconds) / 4):
            now = time.monotonic()
            if now - build.progress > self.stall_seconds or now > deadline:
                self._finished(build)
                return None
        body = build.body
        return Kept(build.etag, body) if body is not None else None

    def keep(self, build: Build, chunks: Iterator[bytes]) -> Iterator[bytes]:
        """Pass ``chunks`` (the body of a ``claim``-ed build) through, keeping the whole
        body if it ends up small enough; the build ends when they are read to their end or
        the iterator is closed."""
        return _Keeping(self, build, chunks)

    def start(self, etag: str, owner: Hashable, version: Version) -> Build:
        """A new build of ``etag`` at ``version``, the caller's to run (``keep``), whatever
        else runs."""
        build = Build(etag, owner, version, self._clock())
        with self._lock:
            self._builds.setdefault(owner, []).append(build)
        return build

    def _pass(self, build: Build, chunks: Iterator[bytes]) -> Iterator[bytes]:
        kept, size = [], 0
        for chunk in chunks:
            build.progress = time.monotonic()
            size += len(chunk)
            if size <= self.max_entry_bytes:
                kept.append(chunk)
            else:
                kept.clear()
                build.done.set()  # too large to keep: the waiters build their own
            yield chunk
        if size <= self.max_entry_bytes:
            body = b"".join(kept)
            self._store(build, body)
            build.body = body

    def _finished(self, build: Build) -> None:
        with self._lock:
            running = self._builds.get(build.owner)
            if running is not None and build in running:
                running.remove(build)
                if not running:
                    del self._builds[build.owner]
        build.done.set()

    def _store(self, build: Build, body: bytes) -> None:
        etag, owner = build.etag, build.owner
        with self._lock:
            kept = self._version_of.get(owner)
            if etag in self._entries or (kept is not None and at_least(kept, build.version)):
                # Kept already, or a body at least as new is.
                return
            if owner in self._etag_of:
                self._drop(self._etag_of[owner])
            self._entries[etag] = (owner, body)
            self._etag_of[owner] = etag
            self._version_of[owner] = build.version
            self._size += len(body)
            while self._size > self.max_bytes:
                self._drop(next(iter(self._entries)))

    def _drop(self, etag: str) -> None:
        owner, body = self._entries.pop(etag)
        del self._etag_of[owner]
        del self._version_of[owner]
        self._size -= len(body)


class _Keeping:
    """The iterator ``ExportCache.keep`` returns: the build ends when it is read to its end
    or closed (a response's body is always closed), or else when this goes."""

    def __init__(self, cache: ExportCache, build: Build, chunks: Iterator[bytes]):
        self._cache, self._build, self._chunks = cache, build, chunks
        self._passing = self._run()
        weakref.finalize(self, cache._finished, build)

    def _run(self) -> Iterator[bytes]:
        try:
            yield from self._cache._pass(self._build, self._chunks)
        finally:
            self._cache._finished(self._build)

    def __iter__(self):
        return self

    def __next__(self) -> bytes:
        return next(self._passing)

    def close(self) -> None:
        self._passing.close()
        close = getattr(self._chunks, "close", None)
        if close is not None:
            close()
        self._cache._finished(self._build)
