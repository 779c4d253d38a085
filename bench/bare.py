"""The ceilings: bare WSGI apps under the waitress settings of ``loko serve`` (Loko's keep-alive
server, 8 threads, backlog 1024), so that Loko's figures can be read as a share of what
the server and the database allow on this machine.

    python -m bench.bare not-modified PORT
    python -m bench.bare patch PORT DATABASE_FILE
    python -m bench.bare patch-pg PORT POSTGRESQL_URL

``not-modified`` answers every request 304 with a fixed ETag. ``patch`` parses a PATCH body
as Loko's (``{key, fileName, updates: {code: {value}}}``) and upserts one row per language
into a WAL SQLite file, each request in its own transaction, with Loko's SQLite settings.
``patch-pg`` does the same on PostgreSQL through psycopg: one connection per server thread,
one transaction per request (the upsert and the commit), in a table of its own
(``bare_translation_values``) of the database it is given.
"""

import sqlite3
import sys
import threading

import orjson

from loko.serving import make_server

BARE_ETAG = '"' + "0" * 32 + '"'
SERVER_SETTINGS = {"threads": 8, "ident": "loko", "backlog": 1024}


def not_modified(environ, start_response):
    start_response("304 Not Modified", [("ETag", BARE_ETAG)])
    return []


UPSERT = (
    "INSERT INTO translation_values (file_name, key, language_code, value) VALUES (?, ?, ?, ?) "
    "ON CONFLICT (file_name, key, language_code) DO UPDATE SET value = excluded.value"
)


def upsert_app(upsert):
    """A WSGI app that reads a PATCH body as Loko's and hands ``upsert`` its rows
    ``(file_name, key, language_code, value)``, one call (one transaction) a request."""

    def app(environ, start_response):
        length = int(environ.get("CONTENT_LENGTH") or 0)
        body = orjson.loads(environ["wsgi.input"].read(length))
        key, file_name = body["key"], body["fileName"]
        rows = [(file_name, key, code, item["value"]) for code, item in body["updates"].items()]
        upsert(rows)
        payload = orjson.dumps({"results": {code: {"updated": True} for _, _, code, _ in rows}})
        start_response(
            "200 OK", [("Content-Type", "application/json"), ("Content-Length", str(len(payload)))]
        )
        return [payload]

    return app


def patch_app(database: str):
    local = threading.local()
    setup = sqlite3.connect(database, isolation_level=None)
    setup.execute("PRAGMA journal_mode=WAL")
    setup.execute(
        "CREATE TABLE IF NOT EXISTS translation_values (file_name TEXT, key TEXT, language_code TEXT, "
        "value TEXT, PRIMARY KEY (file_name, key, language_code))"
    )
    setup.close()

    def connection() -> sqlite3.Connection:
        if getattr(local, "connection", None) is None:
            local.connection = sqlite3.connect(database, isolation_level=None, check_same_thread=False)
            local.connection.execute("PRAGMA busy_timeout=10000")
            local.connection.execute("PRAGMA synchronous=NORMAL")
        return local.connection

    def upsert(rows) -> None:
        db = connection()
        db.execute("BEGIN IMMEDIATE")
        try:
            db.executemany(UPSERT, rows)
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise

    return upsert_app(upsert)


UPSERT_PG = (
    "INSERT INTO bare_translation_values (file_name, key, language_code, value) "
    "VALUES (%s, %s, %s, %s) "
    "ON CONFLICT (file_name, key, language_code) DO UPDATE SET value = excluded.value"
)


def patch_pg_app(url: str):
    import psycopg

    local = threading.local()
    with psycopg.connect(url, autocommit=True) as setup:
        setup.execute(
            "CREATE TABLE IF NOT EXISTS bare_translation_values (file_name TEXT, key TEXT, "
            "language_code TEXT, value TEXT, PRIMARY KEY (file_name, key, language_code))"
        )

    def upsert(rows) -> None:
        if getattr(local, "connection", None) is None:
            local.connection = psycopg.connect(url)
        with local.connection.transaction(), local.connection.cursor() as cursor:
            cursor.executemany(UPSERT_PG, rows)

    return upsert_app(upsert)


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    kind, port = argv[0], int(argv[1])
    if kind == "not-modified":
        app = not_modified
    elif kind == "patch-pg":
        app = patch_pg_app(argv[2])
    else:
        app = patch_app(argv[2])
    make_server(app, host="127.0.0.1", port=port, **SERVER_SETTINGS).run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
