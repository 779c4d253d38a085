"""How strongly a project applies each check: ``off``, ``warn`` (the issue is stored and
shown) or ``refuse`` (a write whose value the check finds wrong writes nothing). A project
keeps its levels as JSON in its ``checks`` column; a check it never set is at
``DEFAULT_LEVEL``."""

import orjson

from loko.checks import registry
from loko.errors import BadRequest

LEVELS = ("off", "warn", "refuse")
DEFAULT_LEVEL = "warn"


def check_levels(stored: str | None) -> dict[str, str]:
    """Every registered check's level, from a project's ``checks`` column."""
    saved = orjson.loads(stored) if stored else {}
    return {code: saved.get(code, DEFAULT_LEVEL) for code in registry.CHECKS}


def merged_levels(stored: str | None, changes: dict) -> str:
    """The ``checks`` column after ``changes`` ``{code: level}``; BadRequest naming an
    unknown check or level."""
    for code, level in changes.items():
        if code not in registry.CHECKS:
            raise BadRequest(f"checks.{code}: no such check; one of {', '.join(registry.CHECKS)}.")
        if level not in LEVELS:
            raise BadRequest(f"checks.{code}: one of {', '.join(LEVELS)}.")
    saved = orjson.loads(stored) if stored else {}
    saved.update(changes)
    return orjson.dumps(dict(sorted(saved.items()))).decode()
