"""Serialized exports kept by ETag, per process, least recently used first out.

An ETag names a project's data version and the query, so a kept body never goes stale:
it is simply not asked for again once the data changes.
"""

import threading
from collections import OrderedDict
from collections.abc import Iterator


class ExportCache:
    def __init__(self, max_bytes: int):
        self.max_bytes = max_bytes
        self.max_entry_bytes = max_bytes // 4
        self._entries: OrderedDict[str, bytes] = OrderedDict()
        self._size = 0
        self._lock = threading.Lock()

    def get(self, etag: str) -> bytes | None:
        with self._lock:
            body = self._entries.get(etag)
            if body is not None:
                self._entries.move_to_end(etag)
            return body

    def keep(self, etag: str, chunks: Iterator[bytes]) -> Iterator[bytes]:
        """Pass ``chunks`` through, keeping the whole body if it ends up small enough."""
        kept, size = [], 0
        for chunk in chunks:
            if size <= self.max_entry_bytes:
                kept.append(chunk)
                size += len(chunk)
            yield chunk
        if size <= self.max_entry_bytes:
            self._store(etag, b"".join(kept))

    def _store(self, etag: str, body: bytes) -> None:
        with self._lock:
            if etag in self._entries:
                return
            self._entries[etag] = body
            self._size += len(body)
            while self._size > self.max_bytes:
                _, evicted = self._entries.popitem(last=False)
                self._size -= len(evicted)
