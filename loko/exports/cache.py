"""Serialized exports kept by ETag, per process, least recently used first out.

An ETag names a project's data version and the query, so a kept body never goes stale:
it is simply not asked for again once the data changes. Each body is kept for its
*owner* (a project and a query): a newer body for the same owner replaces the older one
at once, so bodies that can no longer be asked for do not take the room of live ones.

While one request builds an owner's newer body, the others of this process are given the
body it replaces, with that body's own ETag, instead of building the same body again each
(stale while revalidate): under a steady stream of writes, readers then share one build at
a time. That older body is offered only while the build runs and for at most
``stale_seconds`` after it started.
"""

import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator
from dataclasses import dataclass

STALE_SECONDS = 2.0


@dataclass(frozen=True)
class Kept:
    etag: str
    body: bytes


class ExportCache:
    def __init__(
        self,
        max_bytes: int,
        stale_seconds: float = STALE_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ):
        self.max_bytes = max_bytes
        self.max_entry_bytes = max_bytes // 4
        self.stale_seconds = stale_seconds
        self._clock = clock
        self._entries: OrderedDict[str, tuple[Hashable, bytes]] = OrderedDict()
        self._etag_of: dict[Hashable, str] = {}
        self._built_at: dict[Hashable, float] = {}
        self._builds: dict[Hashable, list[float]] = {}
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

    def replaced_while_building(self, owner: Hashable) -> Kept | None:
        """The owner's kept body, while a build of its newer body runs in this process and
        started less than ``stale_seconds`` ago; otherwise None."""
        with self._lock:
            builds = self._builds.get(owner)
            etag = self._etag_of.get(owner)
            if not builds or etag is None or self._clock() - max(builds) > self.stale_seconds:
                return None
            return Kept(etag, self._entries[etag][1])

    def keep(self, etag: str, owner: Hashable, chunks: Iterator[bytes]) -> Iterator[bytes]:
        """Pass ``chunks`` through, keeping the whole body if it ends up small enough; from
        the first chunk asked for to the last, this counts as a build of the owner's body."""
        started = self._started(owner)
        try:
            kept, size = [], 0
            for chunk in chunks:
                size += len(chunk)
                if size <= self.max_entry_bytes:
                    kept.append(chunk)
                else:
                    kept.clear()
                yield chunk
            if size <= self.max_entry_bytes:
                self._store(etag, owner, b"".join(kept), started)
        finally:
            self._finished(owner, started)

    def _started(self, owner: Hashable) -> float:
        started = self._clock()
        with self._lock:
            self._builds.setdefault(owner, []).append(started)
        return started

    def _finished(self, owner: Hashable, started: float) -> None:
        with self._lock:
            builds = self._builds[owner]
            builds.remove(started)
            if not builds:
                del self._builds[owner]

    def _store(self, etag: str, owner: Hashable, body: bytes, started: float) -> None:
        with self._lock:
            if etag in self._entries or started < self._built_at.get(owner, started):
                # Kept already, or a build that started later (a newer version) kept its body.
                return
            if owner in self._etag_of:
                self._drop(self._etag_of[owner])
            self._entries[etag] = (owner, body)
            self._etag_of[owner] = etag
            self._built_at[owner] = started
            self._size += len(body)
            while self._size > self.max_bytes:
                self._drop(next(iter(self._entries)))

    def _drop(self, etag: str) -> None:
        owner, body = self._entries.pop(etag)
        del self._etag_of[owner]
        del self._built_at[owner]
        self._size -= len(body)
