"""Direct writes: a single PATCH of a project's translations with an API key of that project
is written, on SQLite, before Flask builds a request.

``PATCH /api/projects/<id>/translations`` with a Bearer API key and a JSON body is loaded
with the handler's schema, allowed by the policy (``api_key_may``) and written by the
service's own statements (``write_patch``) in the writers' turn, in one transaction that
other such writes arriving meanwhile may share (``GroupCommit``). It answers as the handler
does. Anything else goes to Flask unchanged, with the body it sent, so every other status,
header and message stays the handler's: another path, method or database, a body the schema
refuses or larger than ``DIRECT_BODY_BYTES``, an unknown, revoked, expired or foreign key, a
key limited to some languages, a key whose use is due to be noted again (once a minute), a
project with webhooks listening to its values or keys (their events go with the full path's
transaction), a conditional write
whose expected value no longer holds, a language or file record the project does not have
yet, a database error.
The full path then writes (or refuses) the same way, in a transaction of its own; the direct
attempt has written nothing.
"""

import io
import logging
import re
import sqlite3

import orjson
from marshmallow import ValidationError

from loko import events
from loko.auth import policy
from loko.auth.service import api_key_lookup
from loko.auth.tokens import bearer_key, token_hash
from loko.database import KeptRows, group_commit, shared_commits, utcnow, wal_index
from loko.errors import LokoError
from loko.files.service import file_record_ids
from loko.http import json_object
from loko.translations.schemas import load_patch
from loko.translations.service import patch_changes, patch_reviews, write_patch

log = logging.getLogger("loko")

PATCH_PATH = re.compile(
    r"/api/projects/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})/translations/?"
)
DIRECT_BODY_BYTES = 64 * 1024  # a single PATCH is far smaller; larger bodies take the full path


class FullPathNeeded(Exception):
    """The write needs what only the full path does (adding a language or a file record)."""


def existing_file_records(statements, kept: KeptRows | None = None, index=None):
    """``write_patch``'s ``file_records`` for the direct path: the file's records, or
    FullPathNeeded when a language lacks one. With ``kept`` and the WAL ``index``, the
    records are kept between writes (read in the write's transaction, at the state no one
    else can change meanwhile)."""

    def file_records(project_id: str, file_name: str, codes):
        def load():
            ids = file_record_ids(project_id, file_name, codes, statements)
            return ids if len(ids) == len(codes) else None

        if kept is None:
            ids = load()
        else:
            # The group commit read the state as the transaction began: no one else commits
            # until it ends.
            state = statements.wal_state if statements.wal_state is not None else index.state()
            ids = kept.read((project_id, file_name, *codes), state, load)
        if ids is None:
            raise FullPathNeeded
        return ids, []

    return file_records


class DirectPatch:
    """WSGI middleware around Flask's ``wsgi_app`` (see the module's docstring)."""

    def __init__(self, wsgi_app, app, engine):
        self.wsgi_app = wsgi_app
        self.app = app
        self.engine = engine
        self.wal_index = wal_index(engine)
        self.enabled = self.wal_index is not None
        # Keys' actors, kept while nothing but these writes changes the database: they leave
        # the keys alone, so each carries the kept actors over (``KeptRows.advance``), and
        # with several processes, each one's over the others' (``SharedCommits``, set at the
        # first write: ``loko serve --processes`` sets the count after the app is made).
        self.kept_keys = KeptRows(seconds=1.0)
        # Whether a project's writes raise events someone listens to (webhooks), kept the
        # same way: these writes leave the listeners' settings alone.
        self.kept_listeners = KeptRows(seconds=1.0)
        # A file's records in the languages written, kept the same way: these writes add none.
        self.kept_records = KeptRows(seconds=1.0)
        self._shared = None
        if self.enabled:
            group_commit(engine).after_commit.append(self.kept_keys.advance)
            group_commit(engine).after_commit.append(self.kept_listeners.advance)
            group_commit(engine).after_commit.append(self.kept_records.advance)

    def __call__(self, environ, start_response):
        if environ["REQUEST_METHOD"] != "PATCH" or not self.enabled or not self._compact_json():
            return self.wsgi_app(environ, start_response)
        path = PATCH_PATH.fullmatch(environ.get("PATH_INFO", ""))
        key = bearer_key(environ.get("HTTP_AUTHORIZATION", ""))
        length = environ.get("CONTENT_LENGTH") or ""
        if path is None or key is None or not length.isdigit() or not 0 < int(length) <= DIRECT_BODY_BYTES:
            return self.wsgi_app(environ, start_response)
        body = environ["wsgi.input"].read(int(length))
        payload = self.write(path[1], key, body)
        if payload is None:
            environ["wsgi.input"] = io.BytesIO(body)
            environ["CONTENT_LENGTH"] = str(len(body))
            return self.wsgi_app(environ, start_response)
        start_response(
            "200 OK", [("Content-Type", "application/json"), ("Content-Length", str(len(payload)))]
        )
        return [payload]

    def _compact_json(self) -> bool:
        """Whether the handler would write its JSON compact, as the direct answer is (Flask
        indents it in debug mode)."""
        compact = self.app.json.compact
        return compact is True or (compact is None and not self.app.debug)

    def _share_across_processes(self) -> None:
        across = self.app.config["LOKO_PROCESSES"] > 1
        if self._shared is not across:
            commits = shared_commits(self.engine) if across else None
            for kept in (self.kept_keys, self.kept_listeners, self.kept_records):
                kept.commits = commits
            self._shared = across

    def write(self, project_id: str, key: str, body: bytes) -> bytes | None:
        """The answer's body, or None to let Flask answer."""
        self._share_across_processes()
        with self.app.app_context():
            try:
                return self._write(project_id, key, body)
            except (LokoError, ValidationError, FullPathNeeded, sqlite3.Error):
                return None
            except Exception:
                log.exception("a direct PATCH failed; the full path answers it")
                return None

    def _key(self, key: str, state: bytes | None):
        """``api_key_lookup`` of the key, or its actor kept since (``KeptRows``)."""
        return self.kept_keys.read(token_hash(key), state, lambda: api_key_lookup(key))

    def _listened(self, project_id: str, state: bytes | None) -> bool:
        """Whether anyone listens to the project's value or key events (or the project has
        rules for who proposes, ``policy.project_has_rules``), kept between writes
        (``kept_listeners``): asking the listeners costs a session of its own."""

        def ask():
            wanted = (
                events.wanted(project_id, events.VALUES_CHANGED, direct=True)
                or events.wanted(project_id, events.KEY_CREATED, direct=True)
                # Proposal languages or protected reviewed values: the full path's policy.
                or policy.project_has_rules(project_id)
            )
            return (wanted,)

        return self.kept_listeners.read(project_id, state, ask)[0]

    def _write(self, project_id: str, key: str, body: bytes) -> bytes | None:
        data = load_patch(json_object(body))
        # One reading of the WAL index serves both lookups: each read of it lets go of the
        # GIL, and under many writers each hand-over costs more than the read.
        state = self.wal_index.state()
        actor, noted = self._key(key, state) or (None, False)
        # An expired key, or one limited to some languages, is answered (401, 403) or written
        # by the full path.
        if not noted or actor.expired(utcnow()) or actor.languages is not None:
            return None
        if not policy.api_key_may(actor.project_id, actor.scope, project_id, policy.EDIT_TRANSLATIONS):
            return None
        if self._listened(project_id, state):
            # Its events go out with the full path's transaction (loko.events listens there).
            return None
        updates, expected = patch_changes(data["updates"])

        def work(statements):
            return write_patch(
                statements,
                actor,
                project_id,
                data["key"],
                data["fileName"],
                updates,
                expected,
                existing_file_records(statements, self.kept_records, self.wal_index),
                reviews=patch_reviews(data["updates"]),
            )

        results = group_commit(self.engine).run(work, self.app.config["LOKO_PROCESSES"] > 1)
        # The handler's answer, byte for byte: ``PatchResults`` of these results is the same
        # dict, and Flask writes it compact, ASCII only (ids and language codes are), and
        # with a final newline.
        return orjson.dumps({"results": results}, option=orjson.OPT_APPEND_NEWLINE)
