"""Translation memory's speed on 1,000,000 entries: fuzzy lookups by query length, the
editor's search for a rare term, pre-translation of 10,000 values, and a bulk write.

    python -m bench.memory                                    # SQLite
    python -m bench.memory --database-url postgresql+psycopg://postgres@127.0.0.1/postgres
    python -m bench.memory --entries 100000                   # a quicker look

One organization of ``--projects`` projects (50): ``--entries`` keys spread over them, each
with an English source value and a German one (1,000,000 entries are 2,000,000 values),
inserted set-based straight into the tables, then indexed by the memory's rebuild (timed).
Lookups are measured twice: for the organization's owner, who reads every project, and for
a member who is an editor of one project of the 50 (the index reads only that project's
entries for them, and the TMX units). Texts are sentences of a Zipf-distributed
vocabulary, 3 to 400 characters. Each query is a stored source text of about the length
measured with a word changed (or, for 3 characters, a stored short text's prefix), so that
matches exist but are rarely exact. Times are in milliseconds, from the service functions
(no HTTP): p50 and p95 over ``--queries`` lookups per length.
"""

import argparse
import random
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

from bench.run import Database

ENTRIES = 1_000_000
PROJECTS = 50
QUERIES = 40
LENGTHS = (3, 10, 40, 200)
PRETRANSLATE = 10_000
RARE_TERM = "quixotry"
RARE_KEYS = 5
BATCH = 20_000
TARGETS = {
    "lookup_p95_ms": 50,
    "editor_rare_search_ms": 150,
    "pretranslate_10k_s": 10,
}


def _vocabulary(rng: random.Random) -> list[str]:
    syllables = [
        "ka",
        "lo",
        "mi",
        "ne",
        "ru",
        "ta",
        "shi",
        "pe",
        "do",
        "an",
        "el",
        "or",
        "is",
        "ve",
        "zu",
        "qua",
    ]
    words = set()
    while len(words) < 5000:
        words.add("".join(rng.choice(syllables) for _ in range(rng.randint(1, 4))))
    return sorted(words)


class Texts:
    def __init__(self, seed: int):
        self.rng = random.Random(seed)
        self.words = _vocabulary(self.rng)
        total, cumulative = 0.0, []
        for rank in range(len(self.words)):
            total += 1 / (rank + 1)
            cumulative.append(total)
        self.cumulative = cumulative

    def sentence(self, length: int) -> str:
        words = self.rng.choices(self.words, cum_weights=self.cumulative, k=max(1, length // 4 + 2))
        text = " ".join(words)
        return text[:length].strip() or words[0][:length]

    def length(self) -> int:
        draw = self.rng.random()
        if draw < 0.2:
            return self.rng.randint(3, 12)
        if draw < 0.7:
            return self.rng.randint(13, 60)
        if draw < 0.95:
            return self.rng.randint(61, 200)
        return self.rng.randint(201, 400)


def _driver(url: str):
    from sqlalchemy.engine import make_url

    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        import sqlite3

        return sqlite3.connect(parsed.database), "?"
    import psycopg

    return psycopg.connect(parsed.set(drivername="postgresql").render_as_string(hide_password=False)), "%s"


def seed(url: str, entries: int, projects: int = PROJECTS) -> dict:
    """Schema, an owner, an organization of ``projects`` projects with ``entries`` keys in en
    and de spread over them, and a member who is an editor of the first project."""
    from loko import create_app
    from loko.auth.service import create_user
    from loko.database import unit_of_work, utcnow
    from loko.database import upgrade_schema as upgrade
    from loko.extensions import db
    from loko.languages.models import ProjectLanguage
    from loko.organizations.models import OrganizationMember
    from loko.projects.models import Project, ProjectMember
    from loko.projects.service import insert_project

    app = create_app({"LOKO_DATABASE_URL": url, "LOKO_SECRET_KEY": "bench", "LOKO_WORKER_THREADS": 0})
    with app.app_context():
        upgrade()
        with unit_of_work():
            user, org = create_user("bench@example.test", "bench-password", "Bench")
            member, _own = create_user("member@example.test", "bench-password", "Member")
            db.session.add(OrganizationMember(organization_id=org.id, user_id=member.id, role="member"))
            project_ids = []
            for number in range(projects):
                project = insert_project(org.id, f"Memory {number}")
                for code in ("en", "de"):
                    db.session.add(ProjectLanguage(project_id=project.id, code=code, name=code))
                db.session.flush()
                db.session.get(Project, project.id).source_language = "en"
                project_ids.append(project.id)
            db.session.add(ProjectMember(project_id=project_ids[0], user_id=member.id, role="editor"))
        ids = {
            "user_id": user.id,
            "member_id": member.id,
            "organization_id": org.id,
            "project_id": project_ids[0],
            "project_ids": project_ids,
        }
        now = utcnow().replace(tzinfo=None).isoformat(" ")
        db.engine.dispose()
    texts = Texts(entries)
    connection, mark = _driver(url)
    started = time.perf_counter()
    cursor = connection.cursor()
    translation_sql = (
        "INSERT INTO translations (id, project_id, file_name, key, sort_key, created_at, updated_at) "
        f"VALUES ({', '.join([mark] * 7)})"
    )
    value_sql = (
        "INSERT INTO translation_values "
        "(translation_id, language_code, project_id, value, updated_at, state) "
        f"VALUES ({', '.join([mark] * 6)})"
    )
    short_sources = []
    for start in range(0, entries, BATCH):
        keys, values = [], []
        for number in range(start, min(start + BATCH, entries)):
            translation_id = str(uuid.uuid4())
            key = f"screen{number % 100}.key_{number:07d}"
            project_id = project_ids[number % projects]
            keys.append((translation_id, project_id, f"file{number % 10}", key, key, now, now))
            source = texts.sentence(texts.length())
            if number < RARE_KEYS:
                source = f"{source} {RARE_TERM}"
            if len(source) <= 12 and len(short_sources) < 1000:
                short_sources.append(source)
            values.append((translation_id, "en", project_id, source, now, "translated"))
            values.append((translation_id, "de", project_id, "de " + source[::-1], now, "translated"))
        cursor.executemany(translation_sql, keys)
        cursor.executemany(value_sql, values)
        connection.commit()
    connection.close()
    return {**ids, "seed_s": time.perf_counter() - started}


def _percentiles(samples: list[float]) -> dict:
    ordered = sorted(samples)
    return {
        "p50": statistics.median(ordered),
        "p95": ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))],
        "max": ordered[-1],
    }


def _queries(texts: Texts, stored: list[str], length: int, count: int) -> list[str]:
    rng = texts.rng
    if length <= 3:
        shorts = [text for text in stored if len(text) >= 3]
        return [rng.choice(shorts)[:3] for _ in range(count)]
    near = [text for text in stored if abs(len(text) - length) <= max(2, length // 10)]
    queries = []
    for _ in range(count):
        words = rng.choice(near).split(" ") if near else texts.sentence(length).split(" ")
        words[rng.randrange(len(words))] = rng.choice(texts.words)
        queries.append(" ".join(words)[: length + 5])
    return queries


def measure(url: str, seeded: dict, queries: int) -> dict:
    from sqlalchemy import select

    from loko import create_app
    from loko.auth import policy
    from loko.auth.models import User
    from loko.auth.service import user_actor
    from loko.database import unit_of_work
    from loko.extensions import db
    from loko.memory import index, service
    from loko.memory import search as memory_search
    from loko.translations.models import TranslationValue
    from loko.translations.service import bulk_upsert
    from loko.workspace import editor

    app = create_app({"LOKO_DATABASE_URL": url, "LOKO_SECRET_KEY": "bench", "LOKO_WORKER_THREADS": 0})
    figures: dict = {"entries": seeded["entries"], "projects": seeded["projects"], "seed_s": seeded["seed_s"]}
    org, project = seeded["organization_id"], seeded["project_id"]
    with app.app_context():
        started = time.perf_counter()
        rebuilt = index.refresh()
        figures["index_build_s"] = time.perf_counter() - started
        figures["index_entries"] = rebuilt["entriesChanged"]
        db.session.rollback()
        rng = random.Random(7)
        stored = [
            row[0]
            for row in db.session.execute(
                select(TranslationValue.value).where(TranslationValue.language_code == "en").limit(200_000)
            ).all()
        ]
        texts = Texts(99)
        texts.rng = rng
        actor = user_actor(db.session.get(User, seeded["user_id"]))
        member = user_actor(db.session.get(User, seeded["member_id"]))
        reaches = {
            "owner": policy.memory_reach(actor, org, "de"),
            "member": policy.memory_reach(member, org, "de"),
        }
        for length in LENGTHS:
            batch = _queries(texts, stored, length, queries)
            for caller, reach in reaches.items():
                samples, found = [], 0
                for query in batch:
                    begun = time.perf_counter()
                    found += len(service.lookup(org, "en", "de", query, reach=reach))
                    samples.append((time.perf_counter() - begun) * 1000)
                    db.session.rollback()
                figures[f"lookup_{length}_{caller}"] = {**_percentiles(samples), "found": found}
        owner_reach = reaches["owner"]

        def search(term: str) -> float:
            samples = []
            for _ in range(5):
                begun = time.perf_counter()
                editor.editor_page(actor, project, editor.EditorFilters(search=term))
                samples.append((time.perf_counter() - begun) * 1000)
                db.session.rollback()
            return statistics.median(samples)

        figures["editor_rare_search_ms"] = search(RARE_TERM)
        original = memory_search.candidate_keys
        editor.candidate_keys = lambda _project, _term: None
        try:
            figures["editor_rare_search_scan_ms"] = search(RARE_TERM)
        finally:
            editor.candidate_keys = original
        sample = rng.sample(stored, PRETRANSLATE // 2)
        edited = []
        for text in rng.sample(stored, PRETRANSLATE // 2):
            words = text.split(" ")
            words[rng.randrange(len(words))] = rng.choice(texts.words)
            edited.append(" ".join(words))
        for name, batch, score in (
            ("pretranslate_10k_exact_s", sample + edited, 100),
            ("pretranslate_10k_fuzzy_1k_s", sample[:500] + edited[:500], 75),
        ):
            begun = time.perf_counter()
            found = service.lookup_many(org, "en", "de", batch, reach=owner_reach, min_score=score)
            figures[name] = time.perf_counter() - begun
            figures[name.replace("_s", "_found")] = len(found)
            db.session.rollback()
        items = [{"key": f"bench.write.key_{n:05d}", "value": texts.sentence(40)} for n in range(10_000)]
        begun = time.perf_counter()
        bulk_upsert(actor, project, "bench/writes", "en", items)
        figures["bulk_upsert_10k_s"] = time.perf_counter() - begun
        with unit_of_work():
            pass
        begun = time.perf_counter()
        refreshed = index.refresh()
        figures["refresh_after_10k_s"] = time.perf_counter() - begun
        figures["refresh_after_10k_entries"] = refreshed["entriesChanged"]
        db.engine.dispose()
    return figures


def _line(label: str, value: str, note: str = "") -> None:
    print(f"  {label:40} {value:>12}  {note}")


def _verdict(value: float, target: float) -> str:
    return f"(target < {target})  {'met' if value <= target else 'MISSED'}"


def print_figures(label: str, figures: dict) -> None:
    print(f"\nTranslation memory, {label}: {figures['entries']:,} entries in {figures['projects']} projects")
    _line("seed (set-based inserts)", f"{figures['seed_s']:.1f} s")
    _line(
        "index build (rebuild)", f"{figures['index_build_s']:.1f} s", f"{figures['index_entries']:,} entries"
    )
    for caller, label in (("owner", "owner"), ("member", f"member of 1 of {figures['projects']}")):
        for length in LENGTHS:
            result = figures[f"lookup_{length}_{caller}"]
            _line(
                f"fuzzy lookup, {length} chars, {label}",
                f"p50 {result['p50']:.1f} ms",
                f"p95 {result['p95']:.1f} ms "
                + _verdict(result["p95"], TARGETS["lookup_p95_ms"])
                + f"  {result['found']} matches",
            )
    rare = figures["editor_rare_search_ms"]
    _line("editor search, rare term", f"{rare:.1f} ms", _verdict(rare, TARGETS["editor_rare_search_ms"]))
    _line(
        "editor search, rare term, scan",
        f"{figures['editor_rare_search_scan_ms']:.1f} ms",
        "without the index",
    )
    exact = figures["pretranslate_10k_exact_s"]
    _line(
        "pre-translate 10,000 (exact)",
        f"{exact:.2f} s",
        f"{figures['pretranslate_10k_exact_found']:,} found "
        + _verdict(exact, TARGETS["pretranslate_10k_s"]),
    )
    _line(
        "pre-translate 1,000 (fuzzy >= 75)",
        f"{figures['pretranslate_10k_fuzzy_1k_s']:.2f} s",
        f"{figures['pretranslate_10k_fuzzy_1k_found']:,} found",
    )
    _line(
        "bulk upsert 10,000 values",
        f"{figures['bulk_upsert_10k_s']:.2f} s",
        "the index is not on the write path",
    )
    _line(
        "refresh after it",
        f"{figures['refresh_after_10k_s']:.2f} s",
        f"{figures['refresh_after_10k_entries']:,} entries; a background job",
    )


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, default=ENTRIES)
    parser.add_argument("--queries", type=int, default=QUERIES)
    parser.add_argument("--projects", type=int, default=PROJECTS)
    parser.add_argument("--database-url", help="a PostgreSQL server URL (default: a SQLite file)")
    arguments = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as workdir:
        database = Database(arguments.database_url, Path(workdir), "memory")
        try:
            seeded = seed(database.url, arguments.entries, arguments.projects)
            seeded["entries"] = arguments.entries
            seeded["projects"] = arguments.projects
            figures = measure(database.url, seeded, arguments.queries)
        finally:
            database.drop()
    print_figures("PostgreSQL" if arguments.database_url else "SQLite", figures)
    return 0


if __name__ == "__main__":
    sys.exit(main())
