"""How strongly a project applies each check: ``off``, ``warn`` (the issue is stored and
shown) or ``refuse`` (a write whose value the check finds wrong writes nothing). A project
keeps its levels as JSON in its ``checks`` column; a check it never set is at
``DEFAULT_LEVEL``.

The levels are a project setting, so they live in the core; which checks there are is the
checks feature's to say: it names them with ``register_checks`` when it loads (the quality
service does, and ``create_app`` loads it), and ``CHECK_CODES`` reads them from then on, in
the settings' schemas and in the OpenAPI document alike. The core imports no check."""

from collections.abc import Iterable, Sequence

import orjson
from marshmallow import validate

from loko.errors import BadRequest

LEVELS = ("off", "warn", "refuse")
DEFAULT_LEVEL = "warn"


class _CheckCodes(Sequence):
    """The codes of the registered checks, in their order (none until registered). The
    registered collection is read each time, so a check added to it later counts too."""

    def __init__(self):
        self._source: Iterable[str] = ()

    @property
    def _codes(self) -> tuple[str, ...]:
        return tuple(self._source)

    def __getitem__(self, index):
        return self._codes[index]

    def __len__(self) -> int:
        return len(self._codes)

    def __iter__(self):
        return iter(tuple(self._source))

    def __contains__(self, code) -> bool:
        return code in self._source


CHECK_CODES = _CheckCodes()


def register_checks(codes: Iterable[str]) -> None:
    """Name the checks there are: ``codes`` is kept and read each time (a mapping's keys, in
    its order)."""
    CHECK_CODES._source = codes


class OneOfChecks(validate.OneOf):
    """``OneOf`` the registered checks, read when a value is validated or the document made."""

    def __init__(self):
        super().__init__(CHECK_CODES)

    @property
    def choices_text(self) -> str:
        return ", ".join(CHECK_CODES)

    @choices_text.setter
    def choices_text(self, _text: str) -> None:
        """Read from ``CHECK_CODES`` each time (``OneOf`` sets it once)."""


def check_levels(stored: str | None) -> dict[str, str]:
    """Every registered check's level, from a project's ``checks`` column."""
    saved = orjson.loads(stored) if stored else {}
    return {code: saved.get(code, DEFAULT_LEVEL) for code in CHECK_CODES}


def merged_levels(stored: str | None, changes: dict) -> str:
    """The ``checks`` column after ``changes`` ``{code: level}``; BadRequest naming an
    unknown check or level."""
    for code, level in changes.items():
        if code not in CHECK_CODES:
            raise BadRequest(f"checks.{code}: no such check; one of {', '.join(CHECK_CODES)}.")
        if level not in LEVELS:
            raise BadRequest(f"checks.{code}: one of {', '.join(LEVELS)}.")
    saved = orjson.loads(stored) if stored else {}
    saved.update(changes)
    return orjson.dumps(dict(sorted(saved.items()))).decode()
