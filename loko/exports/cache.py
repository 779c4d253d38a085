"""Serialized exports kept by ETag, per process, least recently used first out.

An ETag names a project's data version and the query, so a kept body never goes stale:
it is simply not asked for again once the data changes. Each body is kept for its
*owner* (a project and a query): a newer body for the same owner replaces the older one
at once, so bodies that can no longer be asked for do not take the room of live ones.
"""

import threading
from collections import OrderedDict
from collections.abc import Hashable, Iterator


class ExportCache:
    def __init__(self, max_bytes: int):
        self.max_bytes = max_bytes
        self.max_entry_bytes = max_bytes // 4
        self._entries: OrderedDict[str, tuple[Hashable, bytes]] = OrderedDict()
        self._etag_of: dict[Hashable, str] = {}
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

    def keep(self, etag: str, owner: Hashable, chunks: Iterator[bytes]) -> Iterator[bytes]:
        """Pass ``chunks`` through, keeping the whole body if it ends up small enough."""
        kept, size = [], 0
        for chunk in chunks:
            size += len(chunk)
            if size <= self.max_entry_bytes:
                kept.append(chunk)
            else:
                kept.clear()
            yield chunk
        if size <= self.max_entry_bytes:
            self._store(etag, owner, b"".join(kept))

    def _store(self, etag: str, owner: Hashable, body: bytes) -> None:
        with self._lock:
            if etag in self._entries:
                return
            if owner in self._etag_of:
                self._drop(self._etag_of[owner])
            self._entries[etag] = (owner, body)
            self._etag_of[owner] = etag
            self._size += len(body)
            while self._size > self.max_bytes:
                self._drop(next(iter(self._entries)))

    def _drop(self, etag: str) -> None:
        owner, body = self._entries.pop(etag)
        del self._etag_of[owner]
        self._size -= len(body)
