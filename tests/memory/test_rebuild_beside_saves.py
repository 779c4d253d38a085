"""A save made while the memory's index is rebuilt commits between two of the rebuild's
batches: it never waits for the rebuild to end."""

import threading

from loko.database import paced
from loko.memory import index


def test_a_save_during_a_rebuild_commits_before_the_rebuild_ends(app, memory, monkeypatch):
    project = memory.project("Web")
    memory.write(project, "en", {f"key{number:04d}": f"Text number {number}" for number in range(1200)})
    between, saved, finished = threading.Event(), threading.Event(), threading.Event()
    took = paced.Paced.took

    def pause_after_the_first_batch(pace, seconds, done):
        if not between.is_set():
            between.set()
            saved.wait(10)
        took(pace, seconds, done)

    monkeypatch.setattr(paced.Paced, "took", pause_after_the_first_batch)

    def rebuild():
        with app.app_context():
            index.rebuild()
        finished.set()

    thread = threading.Thread(target=rebuild)
    thread.start()
    assert between.wait(10)
    memory.write(project, "de", {"key0001": "Text Nummer 1"})
    rebuilding = not finished.is_set()
    saved.set()
    thread.join(60)
    assert rebuilding
    assert finished.is_set()
