"""Rows read from a SQLite database kept while its WAL index says nothing has changed
(``KeptRows``)."""

import threading
import time


class KeptRows:
    """Rows read from a SQLite database, kept with the state of its WAL index at which they
    were read (``WalIndex``) and given back only while the database still stands there, for
    at most ``seconds`` each. Rows kept at an older state are of no more use and go.

    ``advance(before, after)`` carries the rows kept at ``before`` over to ``after``: for a
    writer whose own transaction, which left these rows alone, was the only change between
    the two (see ``GroupCommit.after_commit``). With ``commits`` (``SharedCommits``), rows
    kept at a state that only other processes' such transactions followed are kept too."""

    def __init__(self, seconds: float = 1.0, size: int = 1024, commits=None):
        self.seconds = seconds
        self.size = size
        self.commits = commits
        self._lock = threading.Lock()
        self._kept: tuple[bytes | None, dict] = (None, {})

    def get(self, key, state: bytes):
        kept_state, rows = self._kept
        if kept_state != state:
            if kept_state is None or self.commits is None or not self.commits.leads(kept_state, state):
                return None
            self.advance(kept_state, state)
        found = rows.get(key)
        if found is None or found[0] < time.monotonic():
            return None
        return found[1]

    def keep(self, key, state: bytes, row) -> None:
        with self._lock:
            kept_state, rows = self._kept
            if kept_state != state or len(rows) >= self.size:
                rows = {}
            rows[key] = (time.monotonic() + self.seconds, row)
            self._kept = (state, rows)

    def read(self, key, state: bytes | None, load):
        """The row kept for ``key`` at ``state``, or else ``load()``'s, kept when it is one
        (no state: ``load()``'s, kept nowhere)."""
        if state is None:
            return load()
        row = self.get(key, state)
        if row is None:
            row = load()
            if row is not None:
                self.keep(key, state, row)
        return row

    def advance(self, before: bytes, after: bytes) -> None:
        with self._lock:
            kept_state, rows = self._kept
            if kept_state == before:
                self._kept = (after, rows)
