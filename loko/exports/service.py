"""Export: read a project's selection one file of one language at a time (one index-driven
query each, all in one snapshot) and stream what the writers make of it, so memory stays
flat however big the project is. The ETag names the data version: an unchanged project
answers 304, and a small export is served again from the per-process cache.
"""

import hashlib
import itertools
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass

import orjson
from sqlalchemy import Row, and_, bindparam, select
from sqlalchemy.orm import aliased

from loko.auth import policy
from loko.database import read_snapshot
from loko.errors import BadRequest
from loko.exports import writers
from loko.exports.cache import ExportCache
from loko.extensions import db
from loko.files.models import FileRecord
from loko.languages.models import ProjectLanguage
from loko.projects.models import Project
from loko.projects.service import Link, link_of
from loko.translations.models import Translation, TranslationValue

PO_MIMETYPE = "text/x-gettext-translation"
ROWS_PER_FETCH = 10_000


@dataclass(frozen=True)
class ExportQuery:
    format: str = "json"
    zip: bool = False
    languages: tuple[str, ...] | None = None
    file_names: tuple[str, ...] | None = None
    inherit: bool = True


@dataclass(frozen=True)
class Export:
    """``body`` is the whole export (bytes) or its chunks (an iterator of bytes)."""

    body: bytes | Iterator[bytes]
    mimetype: str
    filename: str | None


LINKED = aliased(Project)
# What an export needs of its project, with the linked project's data version: one
# small query, as the 304 path runs it on every request.
EXPORTED_PROJECT = (
    select(
        Project.id,
        Project.name,
        Project.data_version,
        Project.data_updated_at,
        Project.linked_project_id,
        Project.linked_language_code,
        Project.linked_language_target_code,
        LINKED.data_version.label("linked_data_version"),
    )
    .outerjoin(LINKED, LINKED.id == Project.linked_project_id)
    .where(Project.id == bindparam("project_id"))
)


def authorize_export(actor, project_id: str, query: ExportQuery) -> tuple[Row, str]:
    """Check access and compute the strong ETag of this export (without reading the data);
    returns the project's ``EXPORTED_PROJECT`` row and the ETag.

    The export's reads share one snapshot with this check, so the body matches the ETag.
    """
    read_snapshot()
    policy.require_permission(actor, project_id, policy.VIEW_TRANSLATIONS)
    project = db.session.connection().execute(EXPORTED_PROJECT, {"project_id": project_id}).one()
    linked_version = project.linked_data_version if query.inherit else None
    fingerprint = repr(
        (
            project.id,
            project.data_version,
            project.name,
            linked_version,
            query.format,
            query.zip,
            query.languages,
            query.file_names,
            query.inherit,
        )
    )
    return project, hashlib.sha256(fingerprint.encode()).hexdigest()[:32]


def _link(project: Row, query: ExportQuery) -> Link | None:
    """The inheritance in force for this export."""
    link = link_of(project) if query.inherit else None
    if link is None or (query.languages is not None and link.target not in query.languages):
        return None
    return link


def _in_files(statement, column, query: ExportQuery):
    if query.file_names is None:
        return statement
    return statement.where(column.in_(query.file_names))


def files_by_language(project: Row, query: ExportQuery, link: Link | None) -> dict[str, list[str]]:
    """The ``(language, file)`` pairs of the selection: the file records (a file in a language
    exists even before it has values), plus the linked project's files under the target."""
    records = _in_files(
        select(FileRecord.language_code, FileRecord.file_name).where(FileRecord.project_id == project.id),
        FileRecord.file_name,
        query,
    )
    if query.languages is not None:
        records = records.where(FileRecord.language_code.in_(query.languages))
    pairs = defaultdict(set)
    for language, file_name in db.session.execute(records):
        pairs[language].add(file_name)
    if link is not None:
        inherited = _in_files(
            select(FileRecord.file_name).where(
                FileRecord.project_id == link.project_id, FileRecord.language_code == link.source
            ),
            FileRecord.file_name,
            query,
        )
        pairs[link.target].update(db.session.execute(inherited).scalars())
    return {language: sorted(pairs[language]) for language in sorted(pairs)}


# Built once: an export runs it for every file of every language. The value is joined on
# its primary key (translation_id, language_code) alone: with the value's project_id in the
# join too, a PostgreSQL planner without fresh statistics (a project just seeded or
# imported) chose ix_translation_values_project_language and read the whole language once
# per key of the file.
FILE_ROWS = (
    select(Translation.key, TranslationValue.value)
    .outerjoin(
        TranslationValue,
        and_(
            TranslationValue.translation_id == Translation.id,
            TranslationValue.language_code == bindparam("language"),
        ),
    )
    .where(
        Translation.project_id == bindparam("project_id"),
        Translation.file_name == bindparam("file_name"),
        Translation.deleted_at.is_(None),
    )
)


def _file_rows(project_id: str, language: str, file_name: str):
    """``(key, value)`` of every active key of one file; ``value`` is None where ``language``
    has none."""
    # Through the connection, not the ORM session, which would buffer every row first;
    # fetched in batches, which costs far less than row by row.
    result = db.session.connection().execute(
        FILE_ROWS, {"project_id": project_id, "language": language, "file_name": file_name}
    )
    return itertools.chain.from_iterable(result.partitions(ROWS_PER_FETCH))


def _file_values(project_id: str, language: str, file_name: str, link: Link | None) -> dict[str, str | None]:
    """``{key: value or None}`` of one file in one language; in the link's target language,
    the linked project's values fill the gaps."""
    values = dict(_file_rows(project_id, language, file_name))
    if link is not None and language == link.target:
        for key, value in _file_rows(link.project_id, link.source, file_name):
            if value is not None and values.get(key) is None:
                values[key] = value
    return values


def _json_writer(project: Row, link: Link | None):
    """``(language, file_name) -> bytes``: one file's JSON object, without untranslated keys."""

    def json_file(language: str, file_name: str) -> bytes:
        values = _file_values(project.id, language, file_name, link)
        return writers.json_bytes({key: value for key, value in values.items() if value is not None})

    return json_file


def _po_writer(project: Row, link: Link | None):
    """``(language, file_name) -> bytes``: one file's PO catalog, which lists untranslated keys
    too, with an empty msgstr."""
    names = dict(
        db.session.execute(
            select(ProjectLanguage.code, ProjectLanguage.name).where(ProjectLanguage.project_id == project.id)
        ).all()
    )
    revision = project.data_updated_at.strftime("%Y-%m-%d %H:%M+0000")

    def po_file(language: str, file_name: str) -> bytes:
        values = _file_values(project.id, language, file_name, link)
        entries = [(key, values[key]) for key in sorted(values)]
        return writers.po_bytes(language, names.get(language, language), project.name, revision, entries)

    return po_file


def _json_document(project, link, layout) -> Iterator[bytes]:
    """The spec's ``{language: {file: {key: value}}}``, keys sorted, one file at a time."""
    json_file = _json_writer(project, link)
    yield b"{"
    for index, (language, files) in enumerate(layout.items()):
        yield (b"," if index else b"") + orjson.dumps(language) + b":{"
        for position, name in enumerate(files):
            yield (b"," if position else b"") + orjson.dumps(name) + b":" + json_file(language, name)
        yield b"}"
    yield b"}"


def _zip_entries(project, query, link, layout) -> Iterator[tuple[str, bytes]]:
    write = _json_writer(project, link) if query.format == "json" else _po_writer(project, link)
    for language, files in layout.items():
        for name in files:
            yield writers.entry_name(language, name, query.format), write(language, name)


def build_export(project: Row, query: ExportQuery, etag: str, cache: ExportCache) -> Export:
    """The export for ``query``: from the cache when this ETag was served before, otherwise
    streamed (and kept when small). BadRequest for a PO catalog that is not one file in one
    language."""
    slug = _slug(project.name)
    if query.format == "po" and not query.zip:
        return _single_po(project, query)
    if query.zip:
        mimetype, filename = "application/zip", f"{slug}-{query.format}.zip"
    else:
        mimetype, filename = "application/json", None
    cached = cache.get(etag)
    if cached is not None:
        return Export(cached, mimetype, filename)
    link = _link(project, query)
    layout = files_by_language(project, query, link)
    if query.zip:
        chunks = writers.zip_stream(_zip_entries(project, query, link, layout))
    else:
        chunks = _json_document(project, link, layout)
    return Export(cache.keep(etag, (project.id, query), chunks), mimetype, filename)


def _single_po(project: Row, query: ExportQuery) -> Export:
    languages, file_names = query.languages or (), query.file_names or ()
    if len(languages) != 1 or len(file_names) != 1:
        raise BadRequest(
            "format=po without zip returns one catalog: pass exactly one `language` and one "
            "`fileName`, or set zip=true for all of them."
        )
    language, file_name = languages[0], file_names[0]
    body = _po_writer(project, _link(project, query))(language, file_name)
    return Export(body, PO_MIMETYPE, writers.entry_name(language, file_name, "po").replace("/", "-"))


def _slug(name: str) -> str:
    slug = "".join(c if c.isascii() and c.isalnum() else "-" for c in name.lower()).strip("-")
    return slug or "project"
