"""The cyclic garbage collector paused around a bulk pass in memory.

A bulk write, an undo or a check of many values makes hundreds of thousands of short-lived
tuples and dicts and no reference cycles; the collector's passes over them (each young
generation full of them promoted to the old one, then the old one scanned again) cost a
third of such a pass. ``paused()`` turns it off for the pass and back on after the last of
the passes that overlap (threads of one process share the collector), only if it was on.
"""

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_lock = threading.Lock()
_depth = 0
_was_enabled = False


@contextmanager
def paused() -> Iterator[None]:
    global _depth, _was_enabled
    with _lock:
        if _depth == 0:
            _was_enabled = gc.isenabled()
            gc.disable()
        _depth += 1
    try:
        yield
    finally:
        with _lock:
            _depth -= 1
            if _depth == 0 and _was_enabled:
                gc.enable()
