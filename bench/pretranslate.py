"""Pre-translation's figures, as a job run by a worker on a real database: 1,000 missing
values filled by each kind of provider, against a stand-in on 127.0.0.1 that takes one
second to answer each request; and 10,000 values filled from the translation memory.

    python -m bench.pretranslate                      # SQLite
    python -m bench.pretranslate --postgres URL       # a throwaway database on that server

The provider figures are bound by the requests: texts per request (the provider's batch size)
and requests at a time (``pretranslate.CONCURRENCY``). The memory's figure fills 10,000
values from exact matches in another project of the organization, indexed before the job
runs (where the translation memory is not installed, a stand-in answering exact matches
takes its place).
"""

import argparse
import json
import shutil
import sys
import tempfile
import threading
import time
import types
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from bench.run import Database

PROVIDER_VALUES = 1_000
MEMORY_VALUES = 10_000
ANSWER_SECONDS = 1.0
TARGETS = {"provider": 60.0, "memory": 10.0}


def _translations(kind: str, body: dict) -> tuple[int, dict]:
    """The stand-in's answer to a request of ``kind`` (every text marked as translated), and
    how many texts it held."""
    if kind == "deepl":
        return len(body["text"]), {"translations": [{"text": f"DE {text}"} for text in body["text"]]}
    if kind == "libretranslate":
        return len(body["q"]), {"translatedText": [f"de {text}" for text in body["q"]]}
    texts = json.loads(body["messages"][-1]["content"])["texts"]
    content = json.dumps({"translations": [f"de {text}" for text in texts]})
    return len(texts), {"choices": [{"index": 0, "message": {"role": "assistant", "content": content}}]}


@contextmanager
def stand_in(kind: str):
    """A provider of ``kind`` on 127.0.0.1 answering each request after ANSWER_SECONDS;
    yields its base URL and the list of request sizes."""
    sizes: list[int] = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):
            body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)))
            count, answer = _translations(kind, body)
            sizes.append(count)
            time.sleep(ANSWER_SECONDS)
            data = json.dumps(answer).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *_args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    prefix = "/v1" if kind == "openai" else ""
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}{prefix}", sizes
    finally:
        server.shutdown()
        server.server_close()


def _memory_stand_in() -> bool:
    """Install a memory answering exact matches (``de <text>``) unless the real one is
    there; whether the stand-in was installed."""
    try:
        from loko.memory import service

        return False
    except ImportError:
        pass
    package = types.ModuleType("loko.memory")
    service = types.ModuleType("loko.memory.service")

    def lookup_many(organization_id, source_language, target_language, texts, *, min_score):
        return {text: {"text": f"{target_language} {text}", "score": 100} for text in texts}

    service.lookup_many = lookup_many
    package.service = service
    sys.modules["loko.memory"] = package
    sys.modules["loko.memory.service"] = service
    return True


def measure(database_url: str, kinds: list[str]) -> dict:
    from loko import create_app
    from loko.auth.models import User
    from loko.auth.service import create_user, user_actor
    from loko.database import unit_of_work
    from loko.database import upgrade_schema as upgrade
    from loko.extensions import db
    from loko.jobs import service as jobs
    from loko.jobs.worker import Worker
    from loko.machine import pretranslate
    from loko.machine import service as machine
    from loko.projects.service import insert_project
    from loko.translations.service import bulk_upsert

    stand_in_memory = _memory_stand_in()
    config = {
        "LOKO_DATABASE_URL": database_url,
        "LOKO_SECRET_KEY": "bench",
        "LOKO_OUTBOUND_ALLOW_PRIVATE": True,
    }
    app = create_app(config)
    figures: dict = {"memoryStandIn": stand_in_memory}
    with app.app_context():
        upgrade()
        with unit_of_work():
            user, org = create_user("pretranslate@example.test", "bench-password", "Bench")
        actor = user_actor(db.session.get(User, user.id))

        def project(name: str, keys: int) -> str:
            with unit_of_work():
                project_id = insert_project(org.id, name).id
            items = [
                {"key": f"key_{i:05d}", "value": f"Source text number {i} with {{name}}"} for i in range(keys)
            ]
            bulk_upsert(actor, project_id, "messages", "en", items)
            bulk_upsert(actor, project_id, "messages", "de", [{"key": "key_00000", "value": "Schon da"}])
            return project_id

        def run(project_id: str, sources: dict) -> tuple[float, dict]:
            job = pretranslate.start(actor, project_id, {"languages": ["de"], "sources": sources})["job"]
            started = time.perf_counter()
            assert Worker(app).run_one()
            elapsed = time.perf_counter() - started
            done = jobs.get_job(project_id, job["id"])
            db.session.rollback()
            assert done["state"] == "succeeded", done
            return elapsed, done["result"]

        for kind in kinds:
            with stand_in(kind) as (url, sizes):
                provider = machine.create_provider(
                    actor, org.id, {"kind": kind, "baseUrl": url, "apiKey": "bench-key", "model": "bench"}
                )
                elapsed, report = run(project(kind, PROVIDER_VALUES + 1), {"provider": provider["id"]})
                assert report["fromProvider"] == PROVIDER_VALUES, report
                figures[kind] = {"seconds": elapsed, "requests": len(sizes), "batch": max(sizes)}
                machine.update_provider(actor, org.id, provider["id"], {"enabled": False})
        if not stand_in_memory:
            # The organization's memory: a project holding every text's translation, indexed.
            from loko.memory import index

            translated = project("translated", MEMORY_VALUES + 1)
            values = [
                {"key": f"key_{i:05d}", "value": f"de Source text number {i} with {{name}}"}
                for i in range(MEMORY_VALUES + 1)
            ]
            bulk_upsert(actor, translated, "messages", "de", values)
            index.refresh()
            db.session.rollback()
        elapsed, report = run(project("memory", MEMORY_VALUES + 1), {"memory": {"minScore": 100}})
        assert report["fromMemory"] == MEMORY_VALUES, report
        figures["memory"] = {"seconds": elapsed}
        db.engine.dispose()
    return figures


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--postgres", default=None, help="server URL, e.g. $LOKO_TEST_DATABASE_URL")
    parser.add_argument("--kind", action="append", choices=("deepl", "libretranslate", "openai"))
    args = parser.parse_args(argv)
    kinds = args.kind or ["deepl", "libretranslate", "openai"]
    workdir = Path(tempfile.mkdtemp(prefix="loko-bench-pretranslate-"))
    database = Database(args.postgres, workdir, "pretranslate")
    try:
        figures = measure(database.url, kinds)
    finally:
        database.drop()
        shutil.rmtree(workdir, ignore_errors=True)
    missed = False
    print(f"\nPre-translation ({'PostgreSQL' if args.postgres else 'SQLite'}), one job run by a worker")
    for kind in kinds:
        figure = figures[kind]
        ok = figure["seconds"] < TARGETS["provider"]
        missed |= not ok
        print(
            f"  {PROVIDER_VALUES:,} values, {kind:<15} {figure['seconds']:>7.2f} s   "
            f"{figure['requests']} requests of up to {figure['batch']} texts, {ANSWER_SECONDS:g} s each   "
            f"< {TARGETS['provider']:g} s {'ok' if ok else 'MISSED'}"
        )
    memory = figures["memory"]["seconds"]
    missed |= memory >= TARGETS["memory"]
    which = "a stand-in memory (exact matches)" if figures["memoryStandIn"] else "the translation memory"
    print(
        f"  {MEMORY_VALUES:,} values from {which:<34} {memory:>7.2f} s   "
        f"< {TARGETS['memory']:g} s {'ok' if memory < TARGETS['memory'] else 'MISSED'}"
    )
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
