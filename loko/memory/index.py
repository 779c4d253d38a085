"""The memory's index: every value and TMX unit source as an entry whose id orders it by
scope (organization and language) and by normalised length, with a trigram index over its
text (SQLite: an FTS5 table, ``tokenize=trigram``; PostgreSQL: a pg_trgm GIN index for the
editor's search, and for fuzzy lookups a table of hashed pieces, ``memory_shingles``, read
through a btree on (hash, entry id): sampled 8-character shingles of every text, and every
trigram of the texts shorter than 20 characters).

An entry's id is ``scope << 36 | length << 23 | sequence``: one id range is one scope's
texts of a range of lengths, so the length filter is a range of the trigram index's own
row ids (FTS5 walks only that range, in either direction) and short queries cost what long
ones do.

Writes never touch the index. A background job (``refresh``) reads the history of writes
after its watermark and indexes the values they wrote; lookups and the editor's search also
read the values written after the watermark (``tail_*``), so that nothing just written is
missed. Candidates from the index are only candidates: the caller reads the current value
and checks it, so an entry left behind by a later change or a deleted key never shows.
"""

import hashlib
import time
from collections import Counter
from contextlib import contextmanager, nullcontext
from datetime import timedelta

from sqlalchemy import text

from loko.checks.placeholders import read as read_placeholders
from loko.database import Paced, driver_execute, execute_rows, in_chunks, unit_of_work, utcnow
from loko.extensions import db

SCOPE_SHIFT = 36
LENGTH_SHIFT = 23
MAX_LENGTH = (1 << (SCOPE_SHIFT - LENGTH_SHIFT)) - 1
SEQUENCE_MASK = (1 << LENGTH_SHIFT) - 1
# A placeholder, whatever its syntax, is this one character for matching.
PLACEHOLDER = "\ufffc"
STATE_ID = 1
HISTORY_BATCH = 20_000
# A refresh or a rebuild starts with batches this small, then sizes them by their pace.
FIRST_BATCH = 500
# PostgreSQL: texts of SHINGLED_FROM characters or more find their fuzzy candidates through
# sampled shingles (see _SAMPLED), each hash's entries read nearest lengths first.
SHINGLE = 8
SAMPLE = 8
# Shorter texts keep twice as many: a short query shares few pieces with anything.
DENSE_BELOW = 64
SHINGLED_FROM = 20
# Texts shorter than SHINGLED_FROM also keep each of their trigrams (a short query shares a
# few with its matches, no 8-character piece), and their queries look up every piece.
TRIGRAM = 3
PER_SHINGLE = 24
# A caller who may read some projects only: each hash's entries are walked with their
# owners read, and those of others passed over, so a walk to 24 readable entries reads 50
# times as many for a member of 1 project of 50 (a 200-character lookup's p95 was 60 ms
# over 1,000,000 entries); half as many a piece keep it near the unfiltered walk's cost.
PER_SHINGLE_FILTERED = 12
# On PostgreSQL a write may commit after a later one: the watermark that the refresh starts
# from only passes writes that no transaction in flight can precede, or that are this old.
SETTLE_AFTER = timedelta(minutes=10)


def normalise(value: str) -> str:
    """The text as matched: each placeholder (the checks' reading of them) one character."""
    tokens, _icu = read_placeholders(value)
    if not tokens:
        return value
    for token in sorted(set(tokens), key=len, reverse=True):
        value = value.replace(token, PLACEHOLDER)
    return value


def digest(normalised: str) -> int:
    """A signed 64-bit hash of the normalised text: exact matches are found by it."""
    return int.from_bytes(hashlib.blake2b(normalised.encode(), digest_size=8).digest(), "big", signed=True)


def id_range(scope: int, shortest: int = 0, longest: int = MAX_LENGTH) -> tuple[int, int]:
    """The ids of a scope's entries of normalised length ``shortest`` to ``longest``."""
    shortest, longest = max(shortest, 0), min(longest, MAX_LENGTH)
    low = (scope << SCOPE_SHIFT) | (shortest << LENGTH_SHIFT)
    high = (scope << SCOPE_SHIFT) | (longest << LENGTH_SHIFT) | SEQUENCE_MASK
    return low, high


def length_of(entry_id: int) -> int:
    return (entry_id >> LENGTH_SHIFT) & MAX_LENGTH


def _cursor(sql: str, parameters=()):
    connection = db.session.connection()
    if connection.dialect.paramstyle != "qmark":
        sql = sql.replace("?", "%s")
    return driver_execute(connection, sql, tuple(parameters))


def fetch(sql: str, parameters=()) -> list[tuple]:
    """The rows of ``sql`` (``?`` placeholders) on the session's connection."""
    return _cursor(sql, parameters).fetchall()


def _run(sql: str, parameters=()) -> None:
    _cursor(sql, parameters)


def _marks(items) -> str:
    return ", ".join("?" for _ in items)


def visible(reach, alias: str = "") -> tuple[str, list]:
    """The condition (`` AND ...``, with its parameters) on ``memory_entries`` rows (named
    ``alias``) that keeps those a caller's reach (``loko.auth.policy.MemoryReach``: the
    projects whose values, and whether the TMX units, it may read) allows; empty when it
    allows every entry. Lookups put it in the index's own reads, so that a caller who may
    see a few projects gets the best matches of those, not the organization's best thinned
    out."""
    if reach is None or (reach.projects is None and reach.units):
        return "", []
    parts, parameters = [], []
    if reach.projects is None:
        parts.append(f"{alias}project_id IS NOT NULL")
    elif reach.projects:
        projects = sorted(reach.projects)
        parts.append(f"{alias}project_id IN ({_marks(projects)})")
        parameters += projects
    if reach.units:
        parts.append(f"{alias}unit_id IS NOT NULL")
    if not parts:
        return " AND 1 = 0", []
    return " AND (" + " OR ".join(parts) + ")", parameters


# -- PostgreSQL's shingles -----------------------------------------------------------------

# Every SHINGLE-character piece of an entry's lower-cased text, hashed; kept where the hash
# is a multiple of SAMPLE (of SAMPLE / 2 in a text shorter than DENSE_BELOW), and the
# smallest hash besides. Which pieces are kept depends on their content only, so two texts
# that share a passage keep the same pieces of it wherever it stands; a query keeps those of
# SAMPLE / 2, which holds both. A text shorter than SHINGLED_FROM also keeps every TRIGRAM.
# Keys (the editor's search) are left out: no lookup reads them.
_SAMPLED = (
    "WITH entries AS MATERIALIZED ("  # noqa: S608
    "SELECT id, lower(text) AS folded FROM memory_entries e WHERE {entries} AND e.language_code <> ''), "
    "every AS MATERIALIZED ("
    "SELECT e.id AS entry_id, length(e.folded) AS chars, "
    f"hashtext(substr(e.folded, i, {SHINGLE})) AS hash FROM entries e "
    f"CROSS JOIN LATERAL generate_series(1, greatest(length(e.folded) - {SHINGLE - 1}, 1)) AS i) "
    f"SELECT hash, entry_id FROM every WHERE mod(hash, CASE WHEN chars < {DENSE_BELOW} "
    f"THEN {SAMPLE // 2} ELSE {SAMPLE} END) = 0 "
    "UNION SELECT min(hash), entry_id FROM every GROUP BY entry_id "
    f"UNION SELECT hashtext(substr(e.folded, i, {TRIGRAM})), e.id FROM entries e "
    f"CROSS JOIN LATERAL generate_series(1, length(e.folded) - {TRIGRAM - 1}) AS i "
    f"WHERE length(e.folded) < {SHINGLED_FROM}"
)
_SHINGLE = "INSERT INTO memory_shingles (hash, entry_id) " + _SAMPLED
# An entry's text never changes: its shingles are found again from it, through the index.
_UNSHINGLE = (
    "DELETE FROM memory_shingles s USING (" + _SAMPLED + ") r "  # noqa: S608
    "WHERE s.hash = r.hash AND s.entry_id = r.entry_id"
)
# The entries sharing the query's pieces in the window, with the number shared: each hash's
# entries read through the btree from the query's own length up, and down. A query of
# SHINGLED_FROM characters or more looks up its kept shingles; a shorter one, every shingle
# and every trigram it has.
# Where a caller may read only some entries (``visible``), each hash's entries are read with
# their owner, by primary key, and those of others passed over.
_FOUND = (
    "SELECT found.entry_id, count(*) FROM wanted CROSS JOIN LATERAL ("
    "(SELECT s.entry_id FROM memory_shingles s{join} WHERE s.hash = wanted.hash "
    "AND s.entry_id BETWEEN ? AND ?{visible} ORDER BY s.entry_id LIMIT ?) UNION ALL "
    "(SELECT s.entry_id FROM memory_shingles s{join} WHERE s.hash = wanted.hash "
    "AND s.entry_id BETWEEN ? AND ?{visible} ORDER BY s.entry_id DESC LIMIT ?)) AS found "
    "GROUP BY found.entry_id"
)
_OWNER_JOIN = " JOIN memory_entries e ON e.id = s.entry_id"
_SHARING = (
    "WITH every AS MATERIALIZED ("  # noqa: S608
    f"SELECT hashtext(substr(lower(part), i, {SHINGLE})) AS hash FROM unnest(?::text[]) AS part "
    f"CROSS JOIN LATERAL generate_series(1, length(part) - {SHINGLE - 1}) AS i), "
    f"wanted AS (SELECT hash FROM every WHERE mod(hash, {SAMPLE // 2}) = 0 "
    "UNION SELECT min(hash) FROM every) " + _FOUND
)
_SHARING_SHORT = (
    "WITH wanted AS (SELECT DISTINCT hashtext(substr(lower(part), i, size)) AS hash "  # noqa: S608
    f"FROM unnest(?::text[]) AS part CROSS JOIN (VALUES ({TRIGRAM}), ({SHINGLE})) AS sizes (size) "
    "CROSS JOIN LATERAL generate_series(1, length(part) - size + 1) AS i) " + _FOUND
)

# -- scopes ------------------------------------------------------------------------------


def scopes(organization_id: str, languages) -> dict[str, int]:
    """The scope numbers of an organization's languages that have any."""
    languages = list(languages)
    if not languages:
        return {}
    rows = fetch(
        "SELECT language_code, id FROM memory_scopes "  # noqa: S608
        f"WHERE organization_id = ? AND language_code IN ({_marks(languages)})",
        [organization_id, *languages],
    )
    return dict(rows)


def _scope_numbers(pairs: set[tuple[str, str]]) -> dict[tuple[str, str], int]:
    """Scope numbers of (organization, language) pairs, made for those that have none."""
    found: dict[tuple[str, str], int] = {}
    organizations = {organization for organization, _ in pairs}
    for organization in organizations:
        languages = [language for org, language in pairs if org == organization]
        for language, number in scopes(organization, languages).items():
            found[(organization, language)] = number
    missing = sorted(pairs - set(found))
    if missing:
        execute_rows("INSERT INTO memory_scopes (organization_id, language_code) VALUES (?, ?)", missing)
        for organization, language in missing:
            found[(organization, language)] = scopes(organization, [language])[language]
    return found


# -- writing the index -------------------------------------------------------------------


class _Writer:
    """Entries added and removed in one transaction, with the next sequence number of each
    (scope, length) taken from the largest id in use."""

    def __init__(self, deferred: bool = False):
        self.next_sequence: dict[tuple[int, int], int] = {}
        self.sqlite = db.session.get_bind().dialect.name == "sqlite"
        # A rebuild fills the FTS5 table at the end, in one statement in id order.
        self.deferred = deferred

    def prefetch(self, buckets) -> None:
        """Read the next sequence number of each (scope, length) bucket not known yet, in one
        statement for up to 500 of them (each an index probe), rather than one round trip
        per bucket: a transaction of a rebuild touches hundreds of lengths."""
        wanted = sorted(
            {(scope, min(length, MAX_LENGTH)) for scope, length in buckets} - set(self.next_sequence)
        )
        for chunk in in_chunks(wanted, 500):
            rows = ", ".join("(CAST(? AS BIGINT), CAST(? AS BIGINT))" for _ in chunk)
            bounds = [bound for scope, length in chunk for bound in id_range(scope, length, length)]
            for low, largest in fetch(
                f"WITH wanted (low, high) AS (VALUES {rows}) SELECT low, "  # noqa: S608
                "(SELECT max(e.id) FROM memory_entries e WHERE e.id BETWEEN wanted.low AND wanted.high) "
                "FROM wanted",
                bounds,
            ):
                bucket = (low >> SCOPE_SHIFT, (low >> LENGTH_SHIFT) & MAX_LENGTH)
                self.next_sequence[bucket] = 0 if largest is None else (largest & SEQUENCE_MASK) + 1

    def new_id(self, scope: int, length: int) -> int:
        length = min(length, MAX_LENGTH)
        bucket = (scope, length)
        sequence = self.next_sequence.get(bucket)
        if sequence is None:
            low, high = id_range(scope, length, length)
            largest = fetch("SELECT max(id) FROM memory_entries WHERE id BETWEEN ? AND ?", (low, high))[0][0]
            sequence = 0 if largest is None else (largest & SEQUENCE_MASK) + 1
        if sequence > SEQUENCE_MASK:
            raise OverflowError("memory: too many texts of one length in one scope")
        self.next_sequence[bucket] = sequence + 1
        return (scope << SCOPE_SHIFT) | (length << LENGTH_SHIFT) | sequence

    def remove(self, ids: list[int]) -> None:
        for chunk in in_chunks(ids):
            if not self.sqlite:
                with _shingle_probes():
                    _run(_UNSHINGLE.format(entries=f"e.id IN ({_marks(chunk)})"), chunk)
            _run(f"DELETE FROM memory_entries WHERE id IN ({_marks(chunk)})", chunk)  # noqa: S608
            if self.sqlite:
                _run(f"DELETE FROM memory_trigrams WHERE rowid IN ({_marks(chunk)})", chunk)  # noqa: S608

    def add(self, rows: list[tuple]) -> None:
        """``rows``: (id, translation_id, language, project_id, unit_id, digest, text)."""
        if not rows:
            return
        # FTS5 writes its pending terms out whenever a rowid is smaller than the last one.
        rows = sorted(rows)
        if self.sqlite:
            execute_rows(
                "INSERT INTO memory_entries (id, translation_id, language_code, project_id, unit_id, digest) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                [row[:6] for row in rows],
            )
            if not self.deferred:
                execute_rows(
                    "INSERT INTO memory_trigrams (rowid, text) VALUES (?, ?)",
                    [(row[0], row[6]) for row in rows],
                )
        else:
            execute_rows(
                "INSERT INTO memory_entries "
                "(id, translation_id, language_code, project_id, unit_id, digest, text) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                rows,
            )
            if not self.deferred:
                for chunk in in_chunks([row[0] for row in rows]):
                    _run(_SHINGLE.format(entries=f"e.id IN ({_marks(chunk)})"), chunk)


def _state() -> tuple[int, int]:
    row = fetch("SELECT indexed_to, settled_to FROM memory_state WHERE id = ?", (STATE_ID,))
    return (row[0][0], row[0][1]) if row else (0, 0)


def indexed_to() -> int:
    """The history entry up to which every write is indexed (0: nothing is)."""
    return _state()[0]


def _save_state(indexed: int, settled: int, rebuilt: bool = False) -> None:
    exists = fetch("SELECT 1 FROM memory_state WHERE id = ?", (STATE_ID,))
    if exists:
        _run(
            "UPDATE memory_state SET indexed_to = ?, settled_to = ? WHERE id = ?",
            (indexed, settled, STATE_ID),
        )
    else:
        _run(
            "INSERT INTO memory_state (id, indexed_to, settled_to) VALUES (?, ?, ?)",
            (STATE_ID, indexed, settled),
        )
    if rebuilt:
        db.session.execute(
            text("UPDATE memory_state SET rebuilt_at = :now WHERE id = :id"),
            {"now": utcnow(), "id": STATE_ID},
        )


def _latest_history() -> int:
    return fetch("SELECT max(id) FROM translation_history")[0][0] or 0


VALUES_OF_KEYS = (
    "SELECT v.translation_id, v.language_code, v.project_id, p.organization_id, v.value "
    "FROM translation_values v JOIN projects p ON p.id = v.project_id "
    "WHERE v.translation_id IN ({marks})"
)


KEYS_OF = (
    "SELECT t.id, t.key, t.project_id, p.organization_id FROM translations t "
    "JOIN projects p ON p.id = t.project_id WHERE t.id IN ({marks})"
)
# The scope of keys themselves (the editor's search looks in keys and values).
KEY_SCOPE = ""


def _reindex_keys(writer: _Writer, translation_ids: list[str], batch: int = 2000) -> int:
    """Make the entries of these keys and their values what they are now; the number of
    entries changed."""
    changed = 0
    for chunk in in_chunks(translation_ids, batch):
        marks = _marks(chunk)
        with _by_ids_plan():
            current = fetch(VALUES_OF_KEYS.format(marks=marks), chunk)
            current += [
                (row[0], KEY_SCOPE, row[2], row[3], row[1])
                for row in fetch(KEYS_OF.format(marks=marks), chunk)
            ]
            existing = {
                (row[1], row[2]): (row[0], row[3])
                for row in fetch(
                    "SELECT id, translation_id, language_code, digest FROM memory_entries "  # noqa: S608
                    f"WHERE translation_id IN ({marks})",
                    chunk,
                )
            }
        numbers = _scope_numbers({(row[3], row[1]) for row in current})
        stale, pending = [], []
        for translation_id, language, project_id, organization_id, value in current:
            normalised = normalise(value) if language != KEY_SCOPE else value
            hashed = digest(normalised)
            scope = numbers[(organization_id, language)]
            entry = existing.pop((translation_id, language), None)
            if entry is not None:
                entry_id, old_digest = entry
                if old_digest == hashed and entry_id >> SCOPE_SHIFT == scope:
                    continue
                stale.append(entry_id)
            pending.append(
                (scope, len(normalised), (translation_id, language, project_id, None, hashed, value))
            )
        writer.prefetch((scope, length) for scope, length, _ in pending)
        fresh = [(writer.new_id(scope, length), *row) for scope, length, row in pending]
        stale.extend(entry_id for entry_id, _ in existing.values())
        writer.remove(stale)
        writer.add(fresh)
        changed += len(stale) + len(fresh)
    return changed


def _settled(indexed: int, previous: int) -> int:
    """How far no write can still appear before: everything indexed on SQLite (one writer at
    a time); on PostgreSQL, when no other transaction that wrote is in flight, else the
    history entries older than SETTLE_AFTER."""
    if db.session.get_bind().dialect.name == "sqlite":
        return indexed
    in_flight = fetch(
        "SELECT count(*) FROM pg_stat_activity WHERE backend_xid IS NOT NULL AND pid <> pg_backend_pid() "
        "AND datname = current_database()"
    )[0][0]
    if not in_flight:
        return indexed
    older = fetch(
        "SELECT max(id) FROM translation_history WHERE id > ? AND id <= ? AND created_at < ?",
        (previous, indexed, utcnow() - SETTLE_AFTER),
    )[0][0]
    return older or previous


def refresh(batch: int = HISTORY_BATCH) -> dict:
    """Index the values written since the watermark (all of them the first time); the
    numbers of history entries read and entries changed. At most ``batch`` history entries
    per transaction, fewer when that would hold the write lock long (``Paced``)."""
    if not fetch("SELECT 1 FROM memory_state WHERE id = ?", (STATE_ID,)):
        return rebuild()
    if db.session.get_bind().dialect.name != "sqlite":
        with unit_of_work():
            ensure_trigram_index()
            ensure_shingle_index()
    indexed, settled = _state()
    read = changed = 0
    start = settled
    pace = Paced(min(batch, FIRST_BATCH), most=batch)
    while True:
        began = time.monotonic()
        with unit_of_work():
            rows = fetch(
                "SELECT id, translation_id FROM translation_history WHERE id > ? ORDER BY id LIMIT ?",
                (start, pace.size),
            )
            if not rows:
                break
            last = rows[-1][0]
            writer = _Writer()
            changed += _reindex_keys(writer, sorted({row[1] for row in rows}))
            read += len(rows)
            indexed = max(indexed, last)
            complete = len(rows) < pace.size
            settled = _settled(indexed, settled) if complete else settled
            _save_state(indexed, settled)
            start = last
        if complete:
            break
        pace.took(time.monotonic() - began, len(rows))
    analyse_after(changed)
    return {"historyRead": read, "entriesChanged": changed, "indexedTo": indexed}


REBUILD_BATCH = 20_000
# The FTS5 table (PostgreSQL: the shingles) is filled a run of entries at a time, in id order
# (its cheapest), as many as fit in a short transaction: a rebuild does not hold SQLite's
# write lock for long, whatever the number of values.
FIRST_FILL = 2000
# A rebuild (once after an upgrade, or on request) takes longer transactions than a refresh
# while no request writes (``Paced``'s idle target): FTS5 writes a segment per transaction
# and merges them, so many small ones cost it more (200,000 values: 7 s, 45 s in 5 ms ones).
REBUILD_PACE = 0.25


def rebuild() -> dict:
    """Index every value and TMX unit again from nothing, in paced transactions of at most
    REBUILD_BATCH keys (lookups read the history of writes meanwhile, as the state is only
    saved at the end)."""
    sqlite = db.session.get_bind().dialect.name == "sqlite"
    with unit_of_work():
        latest = _latest_history()
        _run("DELETE FROM memory_state WHERE id = ?", (STATE_ID,))
        _run("DELETE FROM memory_entries")
        # Filled first, then indexed: cheaper than growing the index row by row.
        if sqlite:
            _run("DELETE FROM memory_trigrams")
        else:
            _run("DROP INDEX IF EXISTS ix_memory_entries_trigrams")
            _run("DROP INDEX IF EXISTS ix_memory_shingles")
            _run("TRUNCATE memory_shingles")
        keys = [row[0] for row in fetch("SELECT id FROM translations ORDER BY id")]
    changed = 0
    for chunk in Paced(FIRST_BATCH, most=REBUILD_BATCH, idle_target=REBUILD_PACE).chunks(keys):
        with unit_of_work():
            changed += _reindex_keys(_Writer(deferred=True), chunk)
    with unit_of_work():
        units = fetch("SELECT id, organization_id, source_language, source FROM memory_units")
        changed += _index_units(_Writer(deferred=True), units)
        numbers = [row[0] for row in fetch("SELECT id FROM memory_scopes ORDER BY id")]
    fill = _fill_trigrams if sqlite else _fill_shingles
    pace = Paced(FIRST_FILL, most=REBUILD_BATCH, idle_target=REBUILD_PACE)
    for scope in numbers:
        low, high = id_range(scope)
        while low <= high:
            began = time.monotonic()
            with unit_of_work():
                # The id of the pace's n-th entry from ``low`` on, or the scope's end.
                last = fetch(
                    "SELECT id FROM memory_entries WHERE id BETWEEN ? AND ? ORDER BY id LIMIT 1 OFFSET ?",
                    (low, high, pace.size - 1),
                )
                upper = last[0][0] if last else high
                fill(low, upper)
            pace.took(time.monotonic() - began, pace.size)
            low = upper + 1
    with unit_of_work():
        if not sqlite:
            ensure_trigram_index()
            ensure_shingle_index()
        _save_state(latest, _settled(latest, 0), rebuilt=True)
    analyse_after(changed)
    return {"historyRead": 0, "entriesChanged": changed, "indexedTo": latest}


def _fill_trigrams(low: int, high: int) -> None:
    """SQLite: the FTS5 table from the entries with ids in [low, high], in id order (its
    cheapest order)."""
    _run(
        "INSERT INTO memory_trigrams (rowid, text) SELECT entry_id, text FROM ("
        "SELECT e.id AS entry_id, v.value AS text FROM memory_entries e JOIN translation_values v "
        "ON v.translation_id = e.translation_id AND v.language_code = e.language_code "
        "WHERE e.id BETWEEN ? AND ? "
        "UNION ALL SELECT e.id, t.key FROM memory_entries e JOIN translations t "
        "ON t.id = e.translation_id AND e.language_code = ? WHERE e.id BETWEEN ? AND ? "
        "UNION ALL SELECT e.id, u.source FROM memory_entries e JOIN memory_units u ON u.id = e.unit_id "
        "WHERE e.id BETWEEN ? AND ?"
        ") ORDER BY entry_id",
        (low, high, KEY_SCOPE, low, high, low, high),
    )


def _fill_shingles(low: int, high: int) -> None:
    """PostgreSQL: the shingles of the entries with ids in [low, high]."""
    _run(_SHINGLE.format(entries="e.id BETWEEN ? AND ?"), (low, high))


def _index_units(writer: _Writer, units: list[tuple]) -> int:
    """``units``: (id, organization_id, source_language, source)."""
    numbers = _scope_numbers({(row[1], row[2]) for row in units})
    pending = []
    for unit_id, organization_id, language, source in units:
        normalised = normalise(source)
        scope = numbers[(organization_id, language)]
        pending.append((scope, len(normalised), (None, language, None, unit_id, digest(normalised), source)))
    writer.prefetch((scope, length) for scope, length, _ in pending)
    rows = [(writer.new_id(scope, length), *row) for scope, length, row in pending]
    writer.add(rows)
    return len(rows)


def index_units(units: list[tuple]) -> int:
    """Add entries for new TMX units (id, organization_id, source_language, source), in the
    caller's transaction."""
    return _index_units(_Writer(), units)


def analyse_after(changed: int) -> None:
    """PostgreSQL plans the trigram lookups from statistics: gather them after a large
    change (autovacuum may be off), and mark the shingles' pages all-visible, so that their
    reads stay in the btree (also the first time, as after the upgrade that filled them)."""
    if db.engine.dialect.name != "postgresql":
        return
    with db.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
        if changed < 10_000 and connection.exec_driver_sql(NEVER_VACUUMED).first() is None:
            return
        # All-visible pages let a lookup read an entry's owner from ``ix_memory_entries_owner``
        # alone (a member's lookup over 1,000,000 entries: p95 168 ms before, 42 ms after).
        connection.exec_driver_sql("VACUUM (ANALYZE) memory_entries")
        connection.exec_driver_sql("VACUUM (ANALYZE) memory_shingles")


NEVER_VACUUMED = (
    "SELECT 1 FROM pg_stat_user_tables WHERE relid = 'memory_shingles'::regclass "
    "AND last_vacuum IS NULL AND last_autovacuum IS NULL"
)


def ensure_trigram_index() -> bool:
    """PostgreSQL: the pg_trgm extension and the GIN index, made when missing; False when the
    extension cannot be created (the lookups then read without the index)."""
    if fetch("SELECT 1 FROM pg_indexes WHERE indexname = 'ix_memory_entries_trigrams'"):
        return True
    try:
        with db.session.begin_nested():
            _run("CREATE EXTENSION IF NOT EXISTS pg_trgm")
            _run("CREATE INDEX ix_memory_entries_trigrams ON memory_entries USING gin (text gin_trgm_ops)")
    except Exception:
        return False
    return True


def ensure_shingle_index() -> None:
    """PostgreSQL: the shingles' btree, made when missing (a rebuild drops it while it
    fills the table)."""
    if not fetch("SELECT 1 FROM pg_indexes WHERE indexname = 'ix_memory_shingles'"):
        _run("CREATE INDEX ix_memory_shingles ON memory_shingles (hash, entry_id)")


# -- reading the index -------------------------------------------------------------------


def _fts_phrase(fragment: str) -> str:
    return '"' + fragment.replace('"', '""') + '"'


def _like_pattern(fragment: str) -> str:
    escaped = fragment.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


def containing(
    fragment: str, low: int, high: int, limit: int, near: int | None = None, reach=None
) -> list[int]:
    """Ids in [low, high] of entries whose text contains ``fragment`` (3 characters or more;
    letters of any case) and that ``reach`` may read (see ``visible``), at most ``limit``:
    the lowest first, or on PostgreSQL for a fragment longer than 3 characters with ``near``
    (an id) the nearest to it first. The dialect-specific read of the trigram index for
    lookups."""
    if db.session.get_bind().dialect.name == "sqlite":
        condition, parameters = visible(reach, "e.")
        if not condition:
            sql = (
                "SELECT rowid FROM memory_trigrams WHERE memory_trigrams MATCH ? "
                "AND rowid BETWEEN ? AND ? ORDER BY rowid LIMIT ?"
            )
            return [row[0] for row in fetch(sql, (_fts_phrase(fragment), low, high, limit))]
        # FTS5 walks its rowids in order and each one's owner is read from the owners' index
        # (CROSS JOIN keeps that order of the loops; without statistics SQLite would take
        # the primary key's index and then the table, 2.5 times as long).
        sql = (
            "SELECT f.rowid FROM memory_trigrams f CROSS JOIN memory_entries e "  # noqa: S608
            "INDEXED BY ix_memory_entries_owner ON e.id = f.rowid "
            f"WHERE memory_trigrams MATCH ? AND f.rowid BETWEEN ? AND ?{condition} ORDER BY f.rowid LIMIT ?"
        )
        return [row[0] for row in fetch(sql, (_fts_phrase(fragment), low, high, *parameters, limit))]
    condition, parameters = visible(reach)
    if len(fragment) <= 3:
        # One trigram, a common one as a rule: walking the window's ids finds `limit` of
        # them soon, where the GIN index would hand over every row that holds it.
        sql = (
            "SELECT id FROM memory_entries WHERE text ILIKE ? AND id BETWEEN ? AND ?"  # noqa: S608
            f"{condition} ORDER BY id LIMIT ?"
        )
        return [row[0] for row in fetch(sql, (_like_pattern(fragment), low, high, *parameters, limit))]
    # The GIN index's rows are all checked on the heap whatever the order: one read of the
    # whole window, the nearest lengths first, rather than one read per part of it.
    target = low if near is None else near
    sql = (
        "SELECT id FROM memory_entries WHERE text ILIKE ? AND id + 0 BETWEEN ? AND ?"  # noqa: S608
        f"{condition} ORDER BY abs((id + 0) - ?), id LIMIT ?"
    )
    with _trigram_plan():
        return [
            row[0] for row in fetch(sql, (_like_pattern(fragment), low, high, *parameters, target, limit))
        ]


@contextmanager
def _plan_without(*methods: str):
    """PostgreSQL: the planner may not use these methods (``seqscan``, ``hashjoin`` ...) for
    the next statement, whatever the statistics say."""
    for method in methods:
        _run(f"SET LOCAL enable_{method} = off")
    try:
        yield
    finally:
        for method in methods:
            _run(f"RESET enable_{method}")


def _by_ids_plan():
    """PostgreSQL: a read of values, keys or entries by the ids of their keys goes through
    an index, whatever the statistics say. A table never analysed (a bulk load, autovacuum
    off) is guessed to hold a third of its rows for any 2,000 ids, and scanned whole: 225 ms
    for each 2,000 keys of 2,000,000 values, 20 ms through the key; 240 ms for their entries
    among 1,000,000, 2 ms through ``uq_memory_entries_value``."""
    if db.session.get_bind().dialect.name != "postgresql":
        return nullcontext()
    return _plan_without("seqscan")


def _trigram_plan():
    """PostgreSQL: the GIN index, whatever the statistics say (none, on data never analysed):
    neither a sequential scan nor a walk of the primary key in order, which reads every row
    when the fragment is rare."""
    return _plan_without("seqscan", "indexscan")


def _shingle_probes():
    """PostgreSQL: the removed entries' shingles found by probing the btree, one (hash,
    entry) at a time. The planner reckons a thousand pieces a text (``generate_series``) and
    would hash-join a sequential scan of the whole table instead: 14 s a thousand entries
    over 1,000,000."""
    return _plan_without("hashjoin", "mergejoin")


def fragments(normalised: str, count: int, size: int) -> list[str]:
    """Up to ``count`` distinct pieces of ``size`` characters (or the whole of a shorter
    part) spread over the text's parts between placeholders, lower-cased."""
    parts = [part.strip() for part in normalised.lower().split(PLACEHOLDER)]
    pieces: list[str] = []
    for part in parts:
        if len(part) < 3:
            continue
        if len(part) <= size:
            pieces.append(part)
            continue
        starts = len(part) - size + 1
        step = max(1, size - 1)
        pieces.extend(part[start : start + size] for start in range(0, starts, step))
        if (starts - 1) % step:
            pieces.append(part[-size:])
    pieces = list(dict.fromkeys(piece for piece in pieces if len(piece.strip()) >= 3))
    if len(pieces) <= count:
        return pieces
    stride = len(pieces) / count
    return [pieces[int(index * stride)] for index in range(count)]


def candidates(
    scope: int,
    normalised: str,
    shortest: int,
    longest: int,
    *,
    per_fragment: int,
    fragments_max: int,
    reach=None,
) -> Counter:
    """Entries of a scope in the length window sharing fragments with the text, counted by
    the fragments they share. Each fragment's list is read upwards from the text's own
    length, then upwards from two thirds of it, then from the shortest: a common fragment
    brings the nearest lengths first (FTS5 reads ascending rowids far faster than
    descending ones). On PostgreSQL a text is looked up by its pieces in ``memory_shingles``
    instead (``sharing``): a GIN index checks every row that holds a fragment's trigrams,
    and with common words that is thousands. Only entries ``reach`` may read are counted."""
    length = len(normalised)
    near = max(shortest, (2 * length) // 3)
    windows = [(length, longest), (near, length - 1), (shortest, near - 1)]
    windows = [(low, high) for low, high in windows if low <= high]
    hits: Counter = Counter()
    sqlite = db.session.get_bind().dialect.name == "sqlite"
    if shingled(normalised):
        per_shingle = PER_SHINGLE_FILTERED if visible(reach)[0] else PER_SHINGLE
        return sharing(scope, normalised, shortest, longest, per_shingle, reach)
    size, count = (4, fragments_max) if sqlite else (12, max(1, fragments_max // 2))
    for fragment in fragments(normalised, count, size):
        wanted = per_fragment
        # PostgreSQL: a longer fragment's rows in the whole window at once, nearest first.
        if not sqlite and len(fragment) > 3:
            low, high = id_range(scope, shortest, longest)
            near_id = id_range(scope, length, length)[0]
            hits.update(containing(fragment, low, high, wanted, near=near_id, reach=reach))
            continue
        for low, high in windows:
            found = containing(
                fragment,
                *id_range(scope, low, high),
                max(1, wanted // 2) if low == length else wanted,
                reach=reach,
            )
            hits.update(found)
            wanted -= len(found)
            if wanted <= 0:
                break
    return hits


def shingled(normalised: str) -> bool:
    """Whether the text's fuzzy candidates come from ``memory_shingles`` (PostgreSQL, a text
    with a part between placeholders long enough for a piece)."""
    return db.session.get_bind().dialect.name != "sqlite" and bool(_shingle_parts(normalised))


def _shingle_parts(normalised: str) -> list[str]:
    """The text's parts between placeholders long enough for a piece: a shingle, or in a
    text shorter than SHINGLED_FROM a trigram."""
    size = SHINGLE if len(normalised) >= SHINGLED_FROM else TRIGRAM
    return [part for part in normalised.split(PLACEHOLDER) if len(part) >= size]


def sharing(
    scope: int, normalised: str, shortest: int, longest: int, per_shingle: int, reach=None
) -> Counter:
    """PostgreSQL: entries of a scope in the length window that share the text's pieces and
    that ``reach`` may read, counted by the pieces they share; for each piece at most
    ``per_shingle`` of the lengths from the text's own upwards and as many below it."""
    low, high = id_range(scope, shortest, longest)
    near = max(low, id_range(scope, len(normalised), len(normalised))[0])
    sql = _SHARING if len(normalised) >= SHINGLED_FROM else _SHARING_SHORT
    condition, parameters = visible(reach, "e.")
    sql = sql.format(join=_OWNER_JOIN if condition else "", visible=condition)
    arguments = (
        _shingle_parts(normalised),
        *(near, high, *parameters, per_shingle),
        *(low, near - 1, *parameters, per_shingle),
    )
    if not condition:
        return Counter(dict(fetch(sql, arguments)))
    # Each hash's entries in id order, each owner probed by primary key: never a hash join
    # of every entry, which a planner without statistics might choose.
    with _plan_without("hashjoin", "mergejoin"):
        return Counter(dict(fetch(sql, arguments)))


def digests(scope: int, hashes: list[int], reach=None) -> list[tuple[int, int]]:
    """(digest, id) of a scope's entries with these digests that ``reach`` may read: the
    first and the last indexed of each, not all of a text stored thousands of times (each is
    as exact as the next)."""
    low, high = id_range(scope)
    condition, parameters = visible(reach, "e.")
    found = []
    for chunk in in_chunks(sorted(set(hashes)), 2000):
        # Each end is one probe of the (digest, id) index: an aggregate over the whole group
        # would read every entry of a text stored thousands of times.
        rows = ", ".join("(CAST(? AS BIGINT))" for _ in chunk)
        for hashed, first, last in fetch(
            f"WITH wanted (digest) AS (VALUES {rows}) SELECT digest, "  # noqa: S608
            "(SELECT min(id) FROM memory_entries e WHERE e.digest = wanted.digest "
            f"AND e.id BETWEEN ? AND ?{condition}), "
            "(SELECT max(id) FROM memory_entries e WHERE e.digest = wanted.digest "
            f"AND e.id BETWEEN ? AND ?{condition}) "
            "FROM wanted",
            [*chunk, low, high, *parameters, low, high, *parameters],
        ):
            if first is not None:
                found += [(hashed, first), (hashed, last)] if first != last else [(hashed, first)]
    return found


def containing_in_project(
    fragment: str, low: int, high: int, project_id: str, limit: int
) -> list[str] | None:
    """Translation ids of the project's entries in [low, high] whose text contains
    ``fragment`` (any case), at most ``limit``; None when the index has gone through more
    entries than that many times ``limit`` without finishing (a term common elsewhere)."""
    if db.session.get_bind().dialect.name == "sqlite":
        sql = (
            "SELECT e.project_id, e.translation_id FROM memory_trigrams f "
            "JOIN memory_entries e ON e.id = f.rowid "
            "WHERE memory_trigrams MATCH ? AND f.rowid BETWEEN ? AND ? LIMIT ?"
        )
        parameter = _fts_phrase(fragment)
    else:
        sql = (
            "SELECT project_id, translation_id FROM memory_entries "
            "WHERE text ILIKE ? AND id + 0 BETWEEN ? AND ? LIMIT ?"
        )
        parameter = _like_pattern(fragment)
    scanned = limit * 2
    if db.session.get_bind().dialect.name == "sqlite":
        found = fetch(sql, (parameter, low, high, scanned + 1))
    else:
        with _trigram_plan():
            found = fetch(sql, (parameter, low, high, scanned + 1))
    if len(found) > scanned:
        return None
    return [translation_id for owner, translation_id in found if owner == project_id][:limit]
