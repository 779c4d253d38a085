"""What a write of values gives the values it writes, in its transaction: their review state
and why (``agent_writes`` around an agent's writes, ``await_review`` for a write's own
reason), and how a write is refused when a check at ``refuse`` finds something in a value it
writes (``Refused``, raised by whoever checks the write, listening through ``loko.events``)."""

import contextvars
from contextlib import contextmanager

from loko.database import SESSION_STATEMENTS
from loko.errors import BadRequest
from loko.translations.models import AGENT, NEEDS_REVIEW, TRANSLATED, Translation, TranslationValue

# Inside ``agent_writes``: why the values written wait for a review (one of REVIEW_REASONS).
_agent = contextvars.ContextVar("loko_agent_writes", default=None)


@contextmanager
def agent_writes(reason: str = AGENT):
    """Values written inside are an agent's (the MCP tools; a pre-translation gives its own
    ``reason``): they wait for a review, with ``reason``."""
    token = _agent.set(reason)
    try:
        yield
    finally:
        _agent.reset(token)


def written_state() -> str:
    """The state a write gives the values it changes: ``needs-review`` for an agent's."""
    return NEEDS_REVIEW if _agent.get() else TRANSLATED


def written_reason() -> str | None:
    """Why the values a write changes wait for a review (None when they do not)."""
    return _agent.get()


class Refused(BadRequest):
    """A check at ``refuse`` found something in a written value; nothing is written.
    ``issues`` holds ``{key, fileName, language, check, message}`` for each."""

    def __init__(self, issues: list[dict]):
        self.issues = issues
        super().__init__(
            " ".join(
                f"{item['fileName']} {item['key']} ({item['language']}): {item['check']}: {item['message']}"
                for item in issues
            ),
            details={"issues": issues},
        )


def refused_message(field, issues: list[dict]) -> str:
    """``Refused``'s message with each issue named by ``field(issue)`` (a PATCH names
    ``updates.<language>.value``)."""
    return " ".join(f"{field(item)}: {item['check']}: {item['message']}" for item in issues)


def await_review(statements, values: list[tuple]) -> None:
    """``(reason, translation_id, language)``: these values wait for a review, for ``reason``
    (a write's own, such as a machine suggestion saved as it was made), in the write's
    transaction."""
    if values:
        statements.execute(
            "UPDATE translation_values SET state = ?, review_reason = ? "
            "WHERE translation_id = ? AND language_code = ?",
            [(NEEDS_REVIEW, reason, translation_id, language) for reason, translation_id, language in values],
        )


def update_values(rows: list[tuple], now, statements=SESSION_STATEMENTS, state: str | None = None) -> None:
    """Overwrite ``(translation_id, language_code, value)`` rows; with ``state``, set their
    review state (and ``written_reason``) in the same statement (then tell ``values_written``
    it is ``stated``)."""
    stamp = statements.timestamp(now)
    keys = ("translation_id", "language_code")
    if state is None:
        statements.update(
            TranslationValue.__table__, ("value", "updated_at"), keys, [(v, stamp, t, c) for t, c, v in rows]
        )
        return
    reason = written_reason()
    statements.update(
        TranslationValue.__table__,
        ("value", "updated_at", "state", "review_reason"),
        keys,
        [(v, stamp, state, reason, t, c) for t, c, v in rows],
    )


def touch_keys(translation_ids: list[str], now, statements=SESSION_STATEMENTS) -> None:
    """The keys' ``updated_at``: their values were written."""
    stamp = statements.timestamp(now)
    statements.update(Translation.__table__, ("updated_at",), ("id",), [(stamp, t) for t in translation_ids])
