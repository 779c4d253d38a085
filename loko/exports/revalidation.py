"""Revalidation before Flask: a pipeline asking, with its ETag and a Bearer API key, whether
a project's export changed is answered 304 from one query, before Flask builds a request.

``GET /api/projects/<id>/translations`` with If-None-Match and an API key of that project
costs one query by the driver: the key (by its SHA-256, not revoked), its project and the
data versions the export's ETag names (with those of the files it names, up to
``MOST_FILES``, and of the languages it names in them); while nothing at all has been written
to the database since that query, not even that, for up to a second: on SQLite its WAL index
says so, on PostgreSQL the commits' notices (``CommitNotices``).
The ETag is the export's own (``export_etag``, over the query string loaded by the
handler's schema), and the permission is the policy's (``api_key_may``). Anything else goes
to Flask unchanged, so every status and header stays the handler's: another path, method or
credentials, a query string the schema refuses, an unknown, revoked or foreign key, a key
whose use is due to be noted again (once a minute), an ETag that no longer matches, a
database error.
"""

import re
from functools import lru_cache
from typing import NamedTuple

from marshmallow import ValidationError
from sqlalchemy import bindparam, null, select
from werkzeug.http import parse_etags
from werkzeug.wrappers import Request

from loko.apikeys.models import ApiKey
from loko.auth import policy
from loko.auth.service import last_use_noted_since, live_key, recently_used
from loko.auth.tokens import bearer_key, token_hash
from loko.database import DriverQuery, KeptRows, commit_notices, driver_timestamp, utcnow, wal_index
from loko.errors import LokoError
from loko.exports.service import (
    LINKED,
    ExportQuery,
    export_etag,
    export_query,
    files_version,
    language_counts,
    language_files_version,
    language_version_parameters,
)
from loko.http import load_args
from loko.projects.models import Project
from loko.translations.schemas import ExportQuerySchema

EXPORT_PATH = re.compile(
    r"/api/projects/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})/translations"
)
NOT_MODIFIED = "304 NOT MODIFIED"  # as werkzeug words it

KEY_COLUMNS = (
    ApiKey.project_id,
    ApiKey.scope,
    recently_used(bindparam("fresh_since")),
    Project.id,
    Project.name,
    Project.data_version,
    LINKED.data_version,
    Project.shared_version,
    Project.scoped_version,
)
KEY_AND_VERSIONS = DriverQuery(
    select(*KEY_COLUMNS, null())
    .join(Project, Project.id == ApiKey.project_id)
    .outerjoin(LINKED, LINKED.id == Project.linked_project_id)
    .where(live_key(bindparam("key_hash")))
)
# An export of named files also reads their versions; up to this many names are answered
# here (a query for each count of names, with a parameter per name), more go to Flask. In
# named languages it reads their rows too (``language_version_parameters``), up to
# MOST_ROWS rows in all.
MOST_FILES = 8
MOST_ROWS = 32


@lru_cache(maxsize=64)
def key_and_file_versions(count: int, sides: int | None = None) -> DriverQuery:
    """``KEY_AND_VERSIONS`` with the versions of ``count`` files named ``file_0``... or,
    when ``sides`` is given, of some languages of them (``language_files_version``)."""
    if sides is None:
        versions = files_version([bindparam(f"file_{n}") for n in range(count)])
    else:
        versions = language_files_version(count, sides)
    return DriverQuery(
        KEY_AND_VERSIONS.statement.with_only_columns(*KEY_COLUMNS, versions, maintain_column_froms=True)
    )


class ProjectVersion(NamedTuple):
    id: str
    name: str
    data_version: int
    linked_data_version: int | None
    shared_version: int
    scoped_version: int
    files_version: int | None


@lru_cache(maxsize=256)
def query_of(query_string: str) -> ExportQuery | None:
    """The export query of a raw query string, parsed as the handler parses it; None when
    the handler would refuse it."""
    args = Request({"QUERY_STRING": query_string, "REQUEST_METHOD": "GET"}).args
    try:
        query = export_query(load_args(ExportQuerySchema, args))
    except (ValidationError, LokoError):
        return None
    # A past state's ETag is the handler's to compute (it resolves the moment).
    return None if query.as_of is not None or query.release is not None else query


class ExportRevalidation:
    """WSGI middleware around Flask's ``wsgi_app`` (see the module's docstring)."""

    def __init__(self, wsgi_app, engine):
        self.wsgi_app = wsgi_app
        self.engine = engine
        # What tells, without a query, that the database changed: the WAL index on SQLite,
        # the commits' notices on PostgreSQL.
        self.changes = wal_index(engine) or commit_notices(engine)
        # Kept for a second at most, so that a key's use is still noted once a minute.
        self.kept = KeptRows(seconds=1.0)

    def __call__(self, environ, start_response):
        etag = self.unchanged_etag(environ)
        if etag is None:
            return self.wsgi_app(environ, start_response)
        start_response(NOT_MODIFIED, [("ETag", f'"{etag}"')])
        return []

    def unchanged_etag(self, environ) -> str | None:
        """The ETag to answer 304 with, or None to let Flask answer."""
        if_none_match = environ.get("HTTP_IF_NONE_MATCH")
        if not if_none_match or environ["REQUEST_METHOD"] != "GET":
            return None
        path = EXPORT_PATH.fullmatch(environ.get("PATH_INFO", ""))
        key = bearer_key(environ.get("HTTP_AUTHORIZATION", ""))
        if path is None or key is None:
            return None
        query = query_of(environ.get("QUERY_STRING", ""))
        if query is None or len(query.file_names or ()) > MOST_FILES:
            return None
        languages = language_version_parameters(query)
        if languages is not None and len(languages) > MOST_ROWS:
            return None
        row = self._key_and_versions(key, query.file_names, languages)
        if row is None:
            return None
        key_project_id, scope, noted, *project = row
        if not noted or not policy.api_key_may(key_project_id, scope, path[1], policy.VIEW_TRANSLATIONS):
            return None
        etag = export_etag(ProjectVersion(*project), query)
        if if_none_match == f'"{etag}"' or parse_etags(if_none_match).contains_weak(etag):
            return etag
        return None

    def _key_and_versions(self, key: str, file_names: tuple[str, ...] | None, languages: dict | None):
        """The key's row (``KEY_AND_VERSIONS``, with the versions of ``file_names``, or of
        some languages of them when ``languages`` holds their ``language_version_parameters``),
        or None. A row read while the database stood as it stands now (``WalIndex`` on
        SQLite, ``CommitNotices`` on PostgreSQL) is kept for a moment and answers again
        without a query, until any write to the database."""
        key_hash = token_hash(key)
        state = self.changes.state() if self.changes is not None else None
        names = file_names if languages is None else tuple(sorted(languages.items()))
        return self.kept.read(
            (key_hash, names), state, lambda: self._read_key_and_versions(key_hash, file_names, languages)
        )

    def _read_key_and_versions(
        self, key_hash: str, file_names: tuple[str, ...] | None, languages: dict | None
    ) -> tuple | None:
        dialect = self.engine.dialect
        fresh_since = driver_timestamp(last_use_noted_since(utcnow()), dialect.name)
        parameters = {"key_hash": key_hash, "fresh_since": fresh_since}
        statement = KEY_AND_VERSIONS
        if languages is not None:
            statement = key_and_file_versions(*language_counts(languages))
            parameters |= languages
        elif file_names is not None:
            statement = key_and_file_versions(len(file_names))
            parameters.update((f"file_{n}", name) for n, name in enumerate(file_names))
        try:
            row = statement.first(self.engine, parameters)
        except dialect.loaded_dbapi.Error:
            return None
        return tuple(row) if row is not None else None
