"""The string freeze: while a release's freeze holds, the project's source texts change only
for its admins (``policy.may_change_frozen_source``). Every write of values records history
(``loko.translations.history``), which asks the write guards (``events.writing_values``)
before it writes: one small indexed query,
and the project's source language only when a freeze holds."""

from loko import events
from loko.auth import policy
from loko.database import SESSION_STATEMENTS, at_transaction_end, utcnow
from loko.extensions import db

# The releases whose freeze holds at the time given (twice), the one ending last first (a
# project has few).
FREEZE_NOW = (
    "SELECT releases.name, releases.freeze_until, projects.source_language FROM releases"
    " JOIN projects ON projects.id = releases.project_id"
    " WHERE releases.project_id = ? AND releases.freeze_from IS NOT NULL AND releases.freeze_from <= ?"
    " AND (releases.freeze_until IS NULL OR releases.freeze_until > ?)"
    " ORDER BY releases.freeze_until IS NULL DESC, releases.freeze_until DESC"
)
_SENT = "loko_freeze_sent"


def send_ahead(project_id: str, statements) -> None:
    """A write of the project is about to read what it writes over (``events.expect``): the
    freeze's question goes in the same round trip, read when the write is guarded."""
    now = statements.timestamp(utcnow())
    sent = statements.ahead(FREEZE_NOW, (project_id, now, now))
    if sent is None:
        return
    session = db.session()
    previous = session.info.setdefault(_SENT, {}).pop(project_id, None)
    if previous is not None:
        previous.close()
    session.info[_SENT][project_id] = sent


def _forget(session) -> None:
    for sent in session.info.pop(_SENT, {}).values():
        sent.close()


at_transaction_end("after_commit", _forget)
at_transaction_end("after_rollback", _forget)


def holding_freeze(project_id: str, now, statements=SESSION_STATEMENTS) -> tuple | None:
    """``(release name, freeze end or None, source language)`` of the freeze holding at
    ``now`` (or when the write's question was sent ahead, a moment before), or None."""
    # A question sent ahead waits in the session; with no session (a write on a bare
    # connection, SQLite's direct PATCH), none was sent and none is made to look.
    sent = db.session().info.get(_SENT, {}).pop(project_id, None) if db.session.registry.has() else None
    if sent is None:
        stamp = statements.timestamp(now)
        rows = statements.fetch(FREEZE_NOW, (project_id, stamp, stamp))
    else:
        try:
            rows = sent.fetchall()
        finally:
            sent.close()
    return tuple(rows[0]) if rows else None


def check_source_writes(
    actor, project_id: str, languages, now, statements=SESSION_STATEMENTS, source=events.SOURCE_UNREAD
) -> None:
    """Forbidden (naming the language) when ``languages`` (those a write changes values in)
    hold the source language while a freeze holds, unless policy lets ``actor`` change
    frozen source texts. A write that read the project's ``source`` language in its
    transaction and writes none of its texts asks nothing (a question sent ahead is closed
    unread with the transaction)."""
    if source is not events.SOURCE_UNREAD and source not in languages:
        return
    freeze = holding_freeze(project_id, now, statements)
    if freeze is None:
        return
    name, until, source = freeze
    if source is None or source not in set(languages):
        return
    policy.require_frozen_source_write(actor, project_id, source, name, until)


def start_guarding() -> None:
    """Guard every write of values (called by ``create_app``)."""
    events.guard_writes(check_source_writes, ahead=send_ahead)
