import pytest

from loko.jobs.registry import HANDLERS


@pytest.fixture
def handlers(monkeypatch):
    """Register test handlers for one test: ``handlers["name"] = function``."""

    class Registry:
        def __setitem__(self, name, function):
            monkeypatch.setitem(HANDLERS, name, function)

    return Registry()
